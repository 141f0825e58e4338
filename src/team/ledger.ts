/**
 * The service's own ledger as the record (`creditFloor`, `webdata/team`): the team's remaining credits, read from
 * `GET /v2/team/credit-usage` at most once every `maxAgeMs` (callers in between share the figure, and one read in
 * flight), for the budget stage to refuse spending calls once they are below the floor (`team/budget.ts`
 * `refuseUnderFloor`). It counts what every worker of the team spent, whatever they run on: the service bills them all.
 */
import type { CreditFloor } from "../core/options.js";
import type { HttpClient } from "../core/request.js";
import { getCreditUsage } from "../api/usage.js";

/** {@link CreditFloor.maxAgeMs} by default: at most one read of the ledger every 30 s. */
export const DEFAULT_LEDGER_MAX_AGE_MS = 30_000;

/** The ledger of one client's team. */
export class Ledger {
  readonly #http: HttpClient;
  readonly #maxAgeMs: number;
  #figure: { remaining: number; at: number } | undefined;
  #reading: Promise<void> | undefined;

  constructor(http: HttpClient, floor: CreditFloor) {
    this.#http = http;
    this.#maxAgeMs = floor.maxAgeMs ?? DEFAULT_LEDGER_MAX_AGE_MS;
  }

  /**
   * The team's remaining credits (`remainingCredits`) and the figure's age in ms, read again first when it is older than
   * `maxAgeMs`. A failed read keeps the last figure (logged); with none yet, the read's error is the call's (nothing is
   * sent: the floor fails closed).
   */
  async remaining(): Promise<{ remaining: number; ageMs: number }> {
    if (!this.#figure || Date.now() - this.#figure.at >= this.#maxAgeMs) await (this.#reading ??= this.#read());
    const figure = this.#figure!;
    return { remaining: figure.remaining, ageMs: Date.now() - figure.at };
  }

  async #read(): Promise<void> {
    try {
      const usage = await getCreditUsage(this.#http);
      if (typeof usage.remainingCredits !== "number") throw new Error("the credit usage answer has no remainingCredits");
      this.#figure = { remaining: usage.remainingCredits, at: Date.now() };
    } catch (err) {
      if (!this.#figure) throw err;
      this.#http.log("warn", `creditFloor: could not read the team's credit usage; keeping ${this.#figure.remaining} remaining from ${Math.round((Date.now() - this.#figure.at) / 1000)} s ago (${err instanceof Error ? err.message : String(err)})`);
    } finally {
      this.#reading = undefined;
    }
  }
}
