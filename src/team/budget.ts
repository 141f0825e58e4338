/**
 * The budget, the first stage of the request path (`webdata/team`): before anything is sent, a call that costs credits
 * (its operation's credit rule in the catalogue, `api/operations.ts`, says `spends`) is refused with
 * `BudgetExceededError` once the budget in force is spent, or when its stated maximum cannot fit in what is left. The
 * budget in force is the call's own (a waiter's `budget`: its job alone, from 0) or the client's (its meter's total).
 * While a waiter waits, {@link budgetWatch} cancels a running job once the credits spent pass the budget.
 */
import type { CreditMeter, CreditReservation, GovernedCall, ReleaseSlot, SharedBudget, WatchedJob } from "../core/client-state.js";
import type { Budget, CreditFloor } from "../core/options.js";
import { BudgetExceededError, type BudgetRefusal } from "../core/errors.js";
import { isTerminal } from "../jobs/status.js";
import { creditsOf, ruleOf } from "./meter.js";

/** The meter name a message uses for the operation `op`: its rule's (`crawl` for `crawl.start`), else the name itself. */
function operationName(op: string): string {
  const rule = ruleOf(op);
  return rule === "free" ? op : (rule.spends ?? rule.reports);
}

/** The budget in force for a call and what was spent against it: the call's own (its job alone, from 0), else the client's (the meter's total); none without either. */
function budgetOf(meter: CreditMeter, client: Budget | undefined, call: Budget | undefined): { budget: Budget; spent: number } | undefined {
  if (call) return { budget: call, spent: 0 };
  return client && { budget: client, spent: meter.total };
}

/**
 * Refuses `call` before it is sent (throws `BudgetExceededError`) when it costs credits and the budget in force has
 * nothing left, or its stated maximum (the rule's `max` of its arguments; 0 when the price is not known before it runs)
 * cannot fit in what is left. A free call, or a status read, is never refused.
 */
export function refuseOverBudget(meter: CreditMeter, client: Budget | undefined, call: GovernedCall): void {
  const rule = ruleOf(call.op);
  if (rule === "free" || !rule.spends) return;
  const held = budgetOf(meter, client, call.budget);
  if (!held) return;
  const requested = rule.max ? rule.max(call.args) : 0;
  const left = held.budget.credits - held.spent;
  if (requested > left || left <= 0) throw new BudgetExceededError({ budget: held.budget.credits, spent: held.spent, requested, operation: rule.spends });
}

/**
 * The check a waiter runs after each status read of `job`, or `undefined` when no budget is in force (the call's
 * `budget`, else the client's): it throws `BudgetExceededError` once the credits spent pass the budget (the call's: the
 * job's own figure; the client's: the meter's total), after cancelling a running job unless `onExceeded` is `"throw"`;
 * the error carries the documents fetched so far.
 */
export function budgetWatch(meter: CreditMeter, client: Budget | undefined, job: WatchedJob): JobCheck | undefined {
  const held = budgetOf(meter, client, job.budget);
  // The meter counted this status's `creditsUsed` before the waiter saw it.
  return held && watchSpent(held.budget, job, () => (job.budget ? meter.job(job.id) : meter.total) ?? 0);
}

/** The check a waiter runs after each status read of its job. */
type JobCheck = (status: { status?: unknown }, signal: AbortSignal) => Promise<void>;

/** The check of {@link budgetWatch} against `budget` (a shared one: `reason` `"shared"`), with the credits spent read by `spentNow` after each status read. */
function watchSpent(budget: Budget, job: WatchedJob, spentNow: () => number | Promise<number>, reason: BudgetRefusal = "budget"): JobCheck {
  const rule = ruleOf(job.op);
  const requested = rule !== "free" && rule.spends && rule.max ? rule.max(job.args) : 0;
  return async (status, signal) => {
    const spent = await spentNow();
    if (spent <= budget.credits) return;
    let cancelled = false;
    if (budget.onExceeded !== "throw" && job.cancel && !isTerminal(String(status.status))) {
      try {
        await job.cancel(signal);
        cancelled = true;
      } catch {
        // The job ended between the read and the cancel (409), or the cancel failed: the error below says it was not cancelled.
      }
    }
    // The documents could not be read: the error still says what was spent.
    const documents = job.documents ? await job.documents(signal).catch((): unknown[] => []) : [];
    throw new BudgetExceededError({ budget: budget.credits, spent, requested, operation: operationName(job.op), jobId: job.id, cancelled, documents, lastStatus: status, reason });
  };
}

/**
 * What a spending call reserves of a shared budget before it is sent when its rule states no maximum: the documented
 * least price of one call (API reference §1: a scrape, a search, a parse or an extract start costs at least 1 credit).
 */
export const MIN_RESERVED_CREDITS = 1;

/**
 * The budget stage over a {@link SharedBudget} (`budget: redisBudget(...)`): before a spending call is sent, its stated
 * maximum (the rule's `max` of its arguments; its `flat` price; else {@link MIN_RESERVED_CREDITS}) is reserved, or the call
 * is refused with `BudgetExceededError` (nothing sent, nothing reserved); its answer settles the reservation with what
 * it reports (a job start keeps the reservation for its job until the job's status reads report it); a failed call gives
 * it back. A job's status reads report its running total; a waiter's job is cancelled once the total passes the cap.
 */
export class SharedCredits {
  readonly #budget: SharedBudget;
  readonly #warn: (message: string) => void;
  /** The reservation of each call admitted and not yet answered. */
  readonly #held = new WeakMap<object, { reservation: CreditReservation & { held: true }; credits: number }>();
  /** The latest report of each job's running total, for the waiter's check that follows it. */
  readonly #reports = new Map<string, Promise<number>>();

  constructor(budget: SharedBudget, warn: (message: string) => void) {
    this.#budget = budget;
    this.#warn = warn;
  }

  /** Reserves what `call` may spend (nothing for a call that does not spend): the release to run when the call settles. */
  async admit(call: GovernedCall): Promise<ReleaseSlot | undefined> {
    const rule = ruleOf(call.op);
    if (rule === "free" || !rule.spends) return undefined;
    const credits = rule.max ? rule.max(call.args) : (rule.flat ?? MIN_RESERVED_CREDITS);
    const reservation = await this.#budget.reserve(credits);
    if (!reservation.held) {
      const shared = { name: this.#budget.name, reserved: reservation.reserved };
      throw new BudgetExceededError({ budget: this.#budget.credits, spent: reservation.spent + reservation.reserved, requested: credits, operation: rule.spends, reason: "shared", shared });
    }
    const held = { reservation, credits };
    this.#held.set(call, held);
    return () => (this.#held.get(call) === held ? (this.#held.delete(call), reservation.release()) : undefined);
  }

  /** Settles the reservation of `call` with what `answer` reports, or notes a job's running total (a status read). */
  count(call: GovernedCall, answer: unknown): void {
    const rule = ruleOf(call.op);
    if (rule === "free") return;
    const known = creditsOf(answer);
    if (rule.spends) {
      const held = this.#held.get(call);
      if (!held) return;
      this.#held.delete(call);
      const id = (answer as { id?: unknown } | null)?.id;
      const jobId = call.op.endsWith(".start") && typeof id === "string" ? id : undefined;
      // Unknown (self-hosted `-1`, or none reported): the documented price, else the reservation itself, is what it cost.
      const credits = known ?? rule.flat ?? (jobId ? 0 : held.credits);
      held.reservation.settle(credits, jobId).catch((err: unknown) => this.#warn(`Could not settle ${credits} credits on the ${this.#budget.name}: ${String((err as Error)?.message ?? err)}`));
      return;
    }
    const id = call.args[rule.job];
    if (known === undefined || typeof id !== "string") return;
    const done = isTerminal(String((answer as { status?: unknown } | null)?.status));
    const report = this.#budget.report(id, known, done);
    report.catch(() => undefined); // read (and thrown) by the waiter's check; a status read without a waiter does not fail on it
    if (done) this.#reports.delete(id);
    else this.#reports.set(id, report);
  }

  /** The waiter's check of `job` against the shared cap: after each status read, the team's total as its report left it. */
  watch(job: WatchedJob): JobCheck {
    const budget = { credits: this.#budget.credits, onExceeded: this.#budget.onExceeded };
    return watchSpent(budget, job, () => {
      const report = this.#reports.get(job.id);
      this.#reports.delete(job.id);
      return report ?? this.#budget.spent();
    }, "shared");
  }
}

/** True when the operation `op` spends credits (its credit rule says `spends`): the calls a budget or a floor may refuse. */
export function spends(op: string): boolean {
  const rule = ruleOf(op);
  return rule !== "free" && !!rule.spends;
}

/**
 * Refuses `call` before it is sent (throws `BudgetExceededError`) when it costs credits and the team's remaining
 * credits, as the service's ledger last reported them (`remaining`, read `ageMs` ago), are below the `creditFloor`.
 */
export function refuseUnderFloor(floor: CreditFloor, remaining: number, ageMs: number, call: GovernedCall): void {
  const rule = ruleOf(call.op);
  if (rule === "free" || !rule.spends || remaining >= floor.credits) return;
  throw new BudgetExceededError({ budget: floor.credits, spent: floor.credits - remaining, requested: rule.max ? rule.max(call.args) : 0, operation: rule.spends, reason: "floor", readAgoMs: ageMs });
}
