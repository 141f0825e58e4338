/**
 * The meter, the last stage of the request path (`webdata/team`): each answer of a call is counted under the meter name
 * its operation's credit rule gives (`api/credit-rules.ts`, beside the catalogue), whichever face made the call. A call that
 * spends counts what its answer reports (or its documented flat price); a job's status read reports the job's running
 * total, kept once per job (its latest, highest figure); a free operation counts nothing.
 */
import { CREDIT_RULES, type CreditRule } from "../api/credit-rules.js";
import type { CreditMeter, CreditOperation, CreditSnapshot, GovernedCall } from "../core/client-state.js";
import { reportedCredits } from "../core/response.js";

/** The credit rule of the operation `op` (a name the catalogue does not hold: free). */
export function ruleOf(op: string): CreditRule {
  return (CREDIT_RULES as Readonly<Record<string, CreditRule | undefined>>)[op] ?? "free";
}

/** What the meter counts of an answer: its reported credits when >= 0 (`-1`: a self-hosted server that does not know). */
export function creditsOf(raw: unknown): number | undefined {
  const n = reportedCredits(raw);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** The {@link CreditMeter} of one client (`client.credits`), fed every answer of every face by the meter stage. */
export class ClientCreditMeter implements CreditMeter {
  readonly #calls = new Map<CreditOperation, number>();
  readonly #jobs = new Map<string, { op: CreditOperation; credits: number }>();

  /** Every credit counted: calls and jobs. */
  get total(): number {
    let sum = 0;
    for (const n of this.#calls.values()) sum += n;
    for (const j of this.#jobs.values()) sum += j.credits;
    return sum;
  }

  /** Credits by operation (a copy; an operation not called yet is absent). */
  get byOperation(): Readonly<Partial<Record<CreditOperation, number>>> {
    const out: Partial<Record<CreditOperation, number>> = Object.fromEntries(this.#calls);
    for (const j of this.#jobs.values()) out[j.op] = (out[j.op] ?? 0) + j.credits;
    return out;
  }

  /** Each job's credits by job id (a copy): the latest figure its status reported. */
  get byJob(): Readonly<Record<string, number>> {
    return Object.fromEntries([...this.#jobs].map(([id, j]) => [id, j.credits]));
  }

  /** The meter as plain data, a copy: `{ total, byOperation, byJob }`. */
  snapshot(): CreditSnapshot {
    return { total: this.total, byOperation: { ...this.byOperation }, byJob: { ...this.byJob } };
  }

  /** Forgets every count (a client's `budget` then counts from zero again). */
  reset(): void {
    this.#calls.clear();
    this.#jobs.clear();
  }

  /** The credits counted for the job `id` (`undefined` before its status reported any). */
  job(id: string): number | undefined {
    return this.#jobs.get(id)?.credits;
  }

  /** @internal Counts the answer `raw` of `call` by its operation's credit rule (the meter stage, every answer of every face). */
  count(call: GovernedCall, raw: unknown): void {
    const rule = ruleOf(call.op);
    if (rule === "free") return;
    if (rule.spends) {
      const credits = creditsOf(raw) ?? rule.flat;
      if (credits !== undefined) this.#calls.set(rule.spends, (this.#calls.get(rule.spends) ?? 0) + credits);
      return;
    }
    const credits = creditsOf(raw);
    const id = call.args[rule.job];
    if (credits === undefined || typeof id !== "string") return;
    const before = this.#jobs.get(id)?.credits ?? 0;
    this.#jobs.set(id, { op: rule.reports, credits: Math.max(before, credits) }); // a running total: set, never added
  }
}
