/**
 * The budget, the first stage of the request path (`webdata/team`): before anything is sent, a call that costs credits
 * (its operation's credit rule in the catalogue, `api/operations.ts`, says `spends`) is refused with
 * `BudgetExceededError` once the budget in force is spent, or when its stated maximum cannot fit in what is left. The
 * budget in force is the call's own (a waiter's `budget`: its job alone, from 0) or the client's (its meter's total).
 * While a waiter waits, {@link budgetWatch} cancels a running job once the credits spent pass the budget.
 */
import type { CreditMeter, GovernedCall, WatchedJob } from "../core/client-state.js";
import type { Budget } from "../core/options.js";
import { BudgetExceededError } from "../core/errors.js";
import { isTerminal } from "../jobs/status.js";
import { ruleOf } from "./meter.js";

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
export function budgetWatch(meter: CreditMeter, client: Budget | undefined, job: WatchedJob): ((status: { status?: unknown }, signal: AbortSignal) => Promise<void>) | undefined {
  const held = budgetOf(meter, client, job.budget);
  if (!held) return undefined;
  const { budget } = held;
  const rule = ruleOf(job.op);
  const requested = rule !== "free" && rule.spends && rule.max ? rule.max(job.args) : 0;
  return async (status, signal) => {
    // The meter counted this status's `creditsUsed` before the waiter saw it.
    const spent = (job.budget ? meter.job(job.id) : meter.total) ?? 0;
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
    let documents: unknown[] = [];
    try {
      documents = job.documents ? await job.documents(signal) : [];
    } catch {
      // The documents could not be read: the error still says what was spent.
    }
    throw new BudgetExceededError({ budget: budget.credits, spent, requested, operation: operationName(job.op), jobId: job.id, cancelled, documents, lastStatus: status });
  };
}
