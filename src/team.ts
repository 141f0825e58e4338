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
import type { ClientPlugin, ConcurrencyLimiter, Governance, GovernedCall, WatchedJob } from "./core/client-state.js";
import type { HttpClient } from "./core/request.js";
import { budgetWatch, refuseOverBudget } from "./team/budget.js";
import { concurrencyLimiter, LocalSlots, takeSlot } from "./team/limit.js";
import { ClientCreditMeter } from "./team/meter.js";
import { STALL } from "./team/stall.js";
import { OUTCOMES } from "./team/outcomes.js";

export { LocalSlots } from "./team/limit.js";
// The errors of the plugin's options, thrown only by a client that has it: `budget` and `stallTimeoutMs`.
export { BudgetExceededError, JobStalledError } from "./core/errors.js";
export { isBatchFailure } from "./team/outcomes.js";
export type { CreditMeter, CreditOperation, CreditSnapshot, ConcurrencyLimiter, ReleaseSlot, ClientPlugin } from "./core/client-state.js";
export type { Budget } from "./core/options.js";

/** The stages the `team` plugin gives one client: its meter, its budget, its limiter. */
class TeamStages implements Governance {
  /** The client's credit meter (`client.credits`). */
  readonly credits = new ClientCreditMeter();
  readonly #http: HttpClient;
  readonly #limiter: ConcurrencyLimiter | undefined;

  constructor(http: HttpClient) {
    this.#http = http;
    this.#limiter = concurrencyLimiter(http, http.config.limiter, http.config.maxConcurrency);
  }

  admit(call: GovernedCall, signal: AbortSignal | undefined, waitMs: number) {
    refuseOverBudget(this.credits, this.#http.config.budget, call);
    if (!call.occupies || !this.#limiter) return undefined;
    // A free in-process slot is taken at once (no timer, no promise); else the wait, bounded by the call's limit and signal.
    return (this.#limiter instanceof LocalSlots ? this.#limiter.tryTake() : undefined) ?? takeSlot(this.#limiter, signal, waitMs, call.endpoint);
  }

  count(call: GovernedCall, answer: unknown): void {
    this.credits.count(call, answer);
  }

  watchJob(job: WatchedJob) {
    return budgetWatch(this.credits, this.#http.config.budget, job);
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
