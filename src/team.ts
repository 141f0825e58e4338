/**
 * `webdata/team`: the team features, one import away. A client given the `team` plugin gets the governance stages of
 * the request path, for every call of every face (`WebData`, `client.v1`, `webdata/firecrawl`, the agent tools):
 * the credit budget (`budget`), the concurrency limit (`maxConcurrency`, or a `limiter` such as `webdata/redis`'s),
 * and the credit meter (`client.credits`); and the long-job features: stalled jobs (`stallTimeoutMs`,
 * `cancelOnStall`) and each batch input's outcome (`byUrl`). A client without it bundles none of their code.
 *
 * @example
 * import { WebData } from "webdata";
 * import { team } from "webdata/team";
 * const client = new WebData({ apiKey, plugins: [team], budget: { credits: 500 }, maxConcurrency: 4 });
 */
import type { ClientPlugin, ConcurrencyLimiter, Governance, GovernedCall, ReleaseSlot, WatchedJob } from "./core/client-state.js";
import { isSharedBudget } from "./core/config.js";
import type { Budget } from "./core/options.js";
import type { HttpClient } from "./core/request.js";
import { budgetWatch, refuseOverBudget, refuseUnderFloor, SharedCredits, spends } from "./team/budget.js";
import { Ledger } from "./team/ledger.js";
import { concurrencyLimiter, LocalSlots, takeSlot } from "./team/limit.js";
import { ClientCreditMeter } from "./team/meter.js";
import { STALL } from "./team/stall.js";
import { OUTCOMES } from "./team/outcomes.js";

export { LocalSlots } from "./team/limit.js";
// The errors of the plugin's options, thrown only by a client that has it: `budget` and `stallTimeoutMs`.
export { BudgetExceededError, JobStalledError } from "./core/errors.js";
export type { BudgetRefusal } from "./core/errors.js";
export { isBatchFailure } from "./team/outcomes.js";
export type { CreditMeter, CreditOperation, CreditSnapshot, ConcurrencyLimiter, ReleaseSlot, ClientPlugin, SharedBudget, CreditReservation } from "./core/client-state.js";
export type { Budget, CreditFloor } from "./core/options.js";
export { MIN_RESERVED_CREDITS } from "./team/budget.js";
export { DEFAULT_LEDGER_MAX_AGE_MS } from "./team/ledger.js";

/** The stages the `team` plugin gives one client: its meter, its budget, its limiter. */
class TeamStages implements Governance {
  /** The client's credit meter (`client.credits`). */
  readonly credits = new ClientCreditMeter();
  readonly #limiter: ConcurrencyLimiter | undefined;
  /** The client's own budget (`budget: { credits }`), counted on its meter. */
  readonly #budget: Budget | undefined;
  /** A budget shared by many clients (`budget: redisBudget(...)`). */
  readonly #shared: SharedCredits | undefined;
  /** The service's ledger (`creditFloor`). */
  readonly #ledger: { floor: NonNullable<HttpClient["config"]["creditFloor"]>; reader: Ledger } | undefined;

  constructor(http: HttpClient) {
    const { budget, creditFloor } = http.config;
    this.#limiter = concurrencyLimiter(http, http.config.limiter, http.config.maxConcurrency);
    this.#budget = isSharedBudget(budget) ? undefined : budget;
    this.#shared = isSharedBudget(budget) ? new SharedCredits(budget, (m) => http.log("warn", m)) : undefined;
    this.#ledger = creditFloor && { floor: creditFloor, reader: new Ledger(http, creditFloor) };
  }

  admit(call: GovernedCall, signal: AbortSignal | undefined, waitMs: number) {
    refuseOverBudget(this.credits, this.#budget, call);
    if ((this.#ledger || this.#shared) && spends(call.op)) return this.#admitShared(call, signal, waitMs);
    return this.#slot(call, signal, waitMs);
  }

  /** The concurrency slot of `call`, when it occupies a browser and a limit is set. */
  #slot(call: GovernedCall, signal: AbortSignal | undefined, waitMs: number) {
    if (!call.occupies || !this.#limiter) return undefined;
    // A free in-process slot is taken at once (no timer, no promise); else the wait, bounded by the call's limit and signal.
    return (this.#limiter instanceof LocalSlots ? this.#limiter.tryTake() : undefined) ?? takeSlot(this.#limiter, signal, waitMs, call.endpoint);
  }

  /** {@link admit} with the ledger's floor and the shared budget's reservation before the slot (given back if the slot is not had). */
  async #admitShared(call: GovernedCall, signal: AbortSignal | undefined, waitMs: number): Promise<ReleaseSlot | undefined> {
    if (this.#ledger) {
      const { remaining, ageMs } = await this.#ledger.reader.remaining();
      refuseUnderFloor(this.#ledger.floor, remaining, ageMs, call);
    }
    const reserved = await this.#shared?.admit(call);
    let slot: ReleaseSlot | undefined;
    try {
      slot = await this.#slot(call, signal, waitMs);
    } catch (err) {
      // No slot, nothing sent: the reservation goes back (not waited for: with Redis away its release is tried again for a while).
      if (reserved) void Promise.resolve(reserved()).catch(() => undefined);
      throw err;
    }
    if (!reserved || !slot) return reserved ?? slot;
    return async () => {
      await Promise.all([reserved(), slot()]);
    };
  }

  count(call: GovernedCall, answer: unknown): void {
    this.credits.count(call, answer);
    this.#shared?.count(call, answer);
  }

  watchJob(job: WatchedJob) {
    const own = budgetWatch(this.credits, this.#budget, job);
    const shared = this.#shared?.watch(job);
    if (!own || !shared) return own ?? shared;
    return async (status: { status?: unknown }, signal: AbortSignal) => {
      await own(status, signal);
      await shared(status, signal);
    };
  }
}

/**
 * The team features as a plugin of the client: `new WebData({ plugins: [team], ... })`. It brings the options
 * `budget`, `maxConcurrency` and `limiter` of the client, `budget` of the job waiters, and `client.credits`; a client
 * given one of them without it is refused at construction with a `ValidationError` that names this import.
 */
export const team: ClientPlugin = {
  name: "team",
  install(http: unknown): void {
    const client = http as HttpClient;
    client.state.governance = new TeamStages(client);
    client.state.stall = STALL;
    client.state.outcomes = OUTCOMES;
  },
};
