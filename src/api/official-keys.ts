/**
 * Keys of the service's official client (`@mendable/firecrawl-js` 4.x) whose
 * meaning differs here. Code written for that client either works unchanged
 * or stops here, before anything is sent, with a `ValidationError` that names
 * the webdata option and its unit. Never a silent change of meaning, never a
 * server 400 ("Unrecognized key") the SDK could have foreseen.
 *
 * - `pollInterval` (seconds) -> `pollIntervalMs` (milliseconds).
 * - a waiter's `timeout` (seconds, a client-side deadline there) -> `timeoutMs`.
 *   On batch scrape and extract `timeout` is also the server's per-page
 *   timeout in milliseconds (>= 1000): a value below 1000, or one next to the
 *   official nested `options`, can only be the official reading.
 * - status pagination (`autoPaginate`, `maxPages`, `maxResults`,
 *   `maxWaitTime`): a status call here returns one page; `crawlDocuments(id)`
 *   reads every page.
 * - batch scrape `idempotencyKey`: the v2 batch route does not honour one.
 * - batch scrape's nested `options`: the scrape options go at the top level.
 * - the official argument forms `agent({ prompt, ... })` and
 *   `getCreditUsageHistorical(true)`: {@link rejectOfficialForm}.
 *
 * These are hints only: `WebData` reads none of these shapes. The drop-in
 * (`src/firecrawl/`) adapts them before calling `WebData`.
 */
import { isRecord, ValidationError, type ValidationIssue } from "../core/errors.js";

/** Which call the options belong to. */
export type OfficialCall =
  | "crawl"
  | "batchScrape"
  | "extract"
  | "agent"
  | "startCrawl"
  | "startBatchScrape"
  | "startExtract"
  | "startAgent"
  | "getCrawlStatus"
  | "getBatchScrapeStatus"
  | "watcher";

const WAITERS: readonly OfficialCall[] = ["crawl", "batchScrape", "extract", "agent", "watcher"];
/** Calls where `timeout` is also a server field (per-page milliseconds, >= 1000). */
const SERVER_TIMEOUT: readonly OfficialCall[] = ["batchScrape", "extract", "startBatchScrape", "startExtract"];

/** `v` seconds in milliseconds, for the fix a message names. */
const ms = (v: unknown): string => (typeof v === "number" && Number.isFinite(v) ? String(Math.round(v * 1000)) : "N * 1000");

/**
 * Throws a `ValidationError` when `options` (of `call`) carries a key of the
 * official client that means something else here. Call it where the call's
 * other checks run (inside the request thunk, or at the start of a waiter), so
 * the error rejects the returned promise. Every message names the fix, and the
 * drop-in entry that reads the key as the official client does.
 */
export function rejectOfficialKeys(call: OfficialCall, options: unknown, context = `${call} options`): void {
  if (!isRecord(options)) return;
  const issues: ValidationIssue[] = [];
  const push = (path: string, message: string) => issues.push({ path, message: `${message}; or import Firecrawl from "webdata/firecrawl", which reads it as the official client does` });
  const waits = WAITERS.includes(call);
  const t = options.timeout;
  if (call === "getCrawlStatus" || call === "getBatchScrapeStatus") {
    for (const key of ["autoPaginate", "maxPages", "maxResults", "maxWaitTime"]) {
      if (options[key] !== undefined) push(key, `${call}() returns one page; ${call === "getCrawlStatus" ? "crawlDocuments" : "batchScrapeDocuments"}(id) reads every page`);
    }
  } else {
    if (options.pollInterval !== undefined) push("pollInterval", waits ? `is the official client's, in seconds: write pollIntervalMs: ${ms(options.pollInterval)} (milliseconds)` : `is the official client's, and ${call}() does not wait: remove it`);
    if (t !== undefined && !SERVER_TIMEOUT.includes(call)) {
      push("timeout", call === "watcher" ? `is the official client's, in seconds: pass signal: AbortSignal.timeout(${ms(t)})` : waits ? `is the official client's deadline in seconds: write timeoutMs: ${ms(t)} (milliseconds)` : `is not a field of ${call}() (the server rejects it)`);
    } else if (t !== undefined && (isRecord(options.options) || (typeof t === "number" && t < 1000))) {
      // Here `timeout` is also the server's per-page milliseconds: only a value that cannot be that reads as seconds.
      push("timeout", `${String(t)} is ${isRecord(options.options) ? "next to the official nested `options`" : "below 1000"}, so it reads as the official client's deadline in seconds; here it is the server's per-page timeout in milliseconds (>= 1000). For a deadline write timeoutMs: ${ms(t)}`);
    }
    if ((call === "batchScrape" || call === "startBatchScrape") && options.options !== undefined) {
      push("options", "is the official client's nesting of the scrape options: write them at the top level ({ formats, ... })");
    }
    if ((call === "batchScrape" || call === "startBatchScrape") && options.idempotencyKey !== undefined) {
      push("idempotencyKey", "the v2 batch scrape route does not honour idempotency keys: remove it (a batch start is retried only when nothing can have been created)");
    }
  }
  if (issues.length > 0) throw new ValidationError(issues, context);
}

/** The official argument forms `WebData` does not take: `agent({ prompt, ...options })` and the historical-usage boolean. */
export type OfficialForm = "agent" | "startAgent" | "getCreditUsageHistorical" | "getTokenUsageHistorical";

/**
 * Throws a `ValidationError` naming `WebData`'s form and the drop-in when `value` (the first argument of
 * `call`) has the official client's form: an object for `agent` / `startAgent` (whose prompt is a string
 * here), a boolean for the historical usage reads (whose options are `{ byApiKey }` here).
 */
export function rejectOfficialForm(call: OfficialForm, value: unknown, context: string): void {
  const agent = call === "agent" || call === "startAgent";
  if (agent ? !isRecord(value) : typeof value !== "boolean") return;
  const message = agent
    ? `${call}() takes the prompt as a string: write ${call}(prompt, { ...options }) (the object form is the official client's)`
    : `is the official client's form: write ${call}({ byApiKey: ${String(value)} })`;
  throw new ValidationError([{ path: agent ? "prompt" : "", message: `${message}; or import Firecrawl from "webdata/firecrawl", which reads it as the official client does` }], context);
}
