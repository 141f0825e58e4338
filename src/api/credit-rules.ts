/**
 * What each operation of the catalogue (`api/operations.ts`, by the same names) may cost: the one rule the budget and
 * the meter of `webdata/team` read. Keyed by every `OperationName`, so an operation added to the catalogue without a
 * rule here does not compile; `test/governance.test.ts` walks the rules over every face.
 */
import type { CreditOperation } from "../core/client-state.js";
import type { OperationName } from "./operations.js";

/**
 * What an operation may cost, the one rule the budget and the meter read (`webdata/team`):
 * - `"free"`: it costs nothing (reads, cancels, lists, usage): never refused by a budget, never counted;
 * - `{ spends }`: a call that costs credits, counted under `spends` by what its answer reports (`flat` when it
 *   reports none: the documented price). Refused before sending once the budget is spent, and when its stated
 *   maximum, `max` of its arguments (the endpoint's arguments: a crawl's `limit`, a batch's URL count, an agent's
 *   `maxCredits`), cannot fit in what is left; without `max` (a scrape's price is not known before it runs) only
 *   once nothing is left;
 * - `{ reports, job }`: a read of a job's status, which reports the job's running total: counted once per job
 *   (the endpoint's argument at index `job` is its id) under `reports` (its latest figure), never refused (a
 *   waiter must see its job to stop it).
 */
export type CreditRule =
  | "free"
  | { readonly spends: CreditOperation; readonly max?: (args: readonly unknown[]) => number; readonly flat?: number; readonly reports?: undefined }
  | { readonly reports: CreditOperation; readonly job: number; readonly spends?: undefined };

/** The documented least cost of one page of a crawl or batch scrape, credits (API reference §1: the credits a start needs are its `limit` or its URL count; a basic scrape is 1 credit a page). */
export const CREDITS_PER_PAGE = 1;
/** A crawl's `limit` when none is given: the server's default (API reference §4.1). */
export const DEFAULT_CRAWL_LIMIT = 10_000;
/** An agent's `maxCredits` when none is given: the documented default (API reference §9, "docs: 2500"). */
export const DEFAULT_AGENT_MAX_CREDITS = 2_500;
/** A map's price (API reference §6: "Cost: 1 credit"); its answer reports none. */
const MAP_CREDITS = 1;
const FREE = "free" as const;

/** The field `key` of an options argument, when it is an object. */
function optionOf(options: unknown, key: string): unknown {
  return typeof options === "object" && options !== null ? (options as Record<string, unknown>)[key] : undefined;
}

/** A number the caller gave (not yet checked by the body's schema: a wrong type is that schema's error, after the budget), else `fallback`. */
function stated(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Every operation's credit rule, by its name in the catalogue. */
export const CREDIT_RULES: Readonly<Record<OperationName, CreditRule>> = {
  scrape: { spends: "scrape" },
  search: { spends: "search" },
  map: { spends: "map", max: () => MAP_CREDITS, flat: MAP_CREDITS },
  parse: { spends: "parse" },
  "crawl.paramsPreview": { spends: "crawl" },
  "crawl.start": { spends: "crawl", max: (args) => stated(optionOf(args[1], "limit"), DEFAULT_CRAWL_LIMIT) * CREDITS_PER_PAGE },
  "crawl.status": { reports: "crawl", job: 1 },
  "crawl.cancel": FREE,
  "crawl.documents": { reports: "crawl", job: 1 },
  "crawl.errors": FREE,
  "crawl.active": FREE,
  crawl: { spends: "crawl" },
  "batchScrape.start": { spends: "batchScrape", max: (args) => (Array.isArray(args[0]) ? args[0].length : 0) * CREDITS_PER_PAGE },
  batchScrape: { spends: "batchScrape" },
  "batchScrape.status": { reports: "batchScrape", job: 1 },
  "batchScrape.documents": { reports: "batchScrape", job: 1 },
  "batchScrape.errors": FREE,
  "batchScrape.cancel": FREE,
  watcher: { reports: "crawl", job: 1 },
  "extract.start": { spends: "extract" },
  extract: { spends: "extract" },
  "extract.status": { reports: "extract", job: 0 },
  "agent.start": { spends: "agent", max: (args) => stated(optionOf(args[1], "maxCredits"), DEFAULT_AGENT_MAX_CREDITS) },
  agent: { spends: "agent" },
  "agent.status": { reports: "agent", job: 0 },
  "agent.cancel": FREE,
  "agent.list": FREE,
  "agent.trace": FREE,
  "agent.snapshot": FREE,
  "agent.signup": FREE,
  interact: { spends: "interact" },
  "interact.stop": FREE,
  "browser.create": { spends: "browser" },
  "browser.execute": { spends: "browser" },
  "browser.list": FREE,
  "browser.delete": FREE,
  "monitor.create": { spends: "monitor" },
  "monitor.list": FREE,
  "monitor.get": FREE,
  "monitor.update": FREE,
  "monitor.run": { spends: "monitor" },
  "monitor.delete": FREE,
  "monitor.checks": FREE,
  "monitor.check": FREE,
  "search.feedback": FREE,
  feedback: FREE,
  "usage.credits": FREE,
  "usage.tokens": FREE,
  "usage.creditsHistorical": FREE,
  "usage.tokensHistorical": FREE,
  "usage.queue": FREE,
  "usage.concurrency": FREE,
  llmsText: { spends: "llmsTxt" },
  "llmsText.start": { spends: "llmsTxt" },
  "llmsText.status": { reports: "llmsTxt", job: 0 },
  deepResearch: { spends: "deepResearch" },
  "deepResearch.start": { spends: "deepResearch" },
  "deepResearch.status": { reports: "deepResearch", job: 0 },
  "agent.thread": FREE,
  "search.developer": { spends: "search" },
  "tools.find": { spends: "scrape" },
  research: { spends: "search" },
};
