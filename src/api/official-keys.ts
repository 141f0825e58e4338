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
 * - status pagination (`autoPaginate: true`, `maxPages`, `maxResults`,
 *   `maxWaitTime`): a status call here returns one page; `crawlDocuments(id)`
 *   reads every page. `autoPaginate: false` means the same here and is accepted.
 * - batch scrape `idempotencyKey`: the v2 batch route does not honour one.
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

const WAITERS: ReadonlySet<OfficialCall> = new Set(["crawl", "batchScrape", "extract", "agent"]);
/** Calls where `timeout` is also a server field (per-page milliseconds, >= 1000). */
const SERVER_TIMEOUT: ReadonlySet<OfficialCall> = new Set(["batchScrape", "extract", "startBatchScrape", "startExtract"]);

function num(v: unknown): string {
  return typeof v === "number" && Number.isFinite(v) ? String(v) : "N";
}

function ms(v: unknown): string {
  return typeof v === "number" && Number.isFinite(v) ? String(Math.round(v * 1000)) : "N * 1000";
}

/** Where official-client code runs as written (seconds, auto-pagination). */
const DROP_IN = 'or import Firecrawl from "webdata/firecrawl", which reads it as the official client does';

function pollIntervalIssue(call: OfficialCall, v: unknown): ValidationIssue {
  if (WAITERS.has(call) || call === "watcher") {
    return { path: "pollInterval", message: `is the official client's, in seconds: write pollIntervalMs: ${ms(v)} (milliseconds), ${DROP_IN}` };
  }
  return { path: "pollInterval", message: `is the official client's, and ${call}() does not wait: remove it` };
}

function timeoutIssue(call: OfficialCall, v: unknown, nested: boolean): ValidationIssue | undefined {
  if (SERVER_TIMEOUT.has(call)) {
    const official = nested || (typeof v === "number" && v < 1000);
    if (!official) return undefined;
    const why = nested ? "next to the official nested `options`" : "below 1000";
    return {
      path: "timeout",
      message: `${num(v)} is ${why}, so it reads as the official client's deadline in seconds; here it is the server's per-page timeout in milliseconds (>= 1000). For a deadline write timeoutMs: ${ms(v)}, ${DROP_IN}`,
    };
  }
  if (call === "watcher") return { path: "timeout", message: `is the official client's, in seconds: pass signal: AbortSignal.timeout(${ms(v)}), ${DROP_IN}` };
  if (WAITERS.has(call)) return { path: "timeout", message: `is the official client's deadline in seconds: write timeoutMs: ${ms(v)} (milliseconds), ${DROP_IN}` };
  return { path: "timeout", message: `is not a field of ${call}() (the server rejects it)` };
}

function pageIssues(call: OfficialCall, o: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const key of ["autoPaginate", "maxPages", "maxResults", "maxWaitTime"] as const) {
    if (o[key] !== undefined && !(key === "autoPaginate" && o[key] === false)) {
      issues.push({ path: key, message: `${call}() returns one page; ${call === "getCrawlStatus" ? "crawlDocuments" : "batchScrapeDocuments"}(id) reads them all, ${DROP_IN}` });
    }
  }
  return issues;
}

/**
 * Throws a `ValidationError` when `options` (of `call`) carries a key of the
 * official client that means something else here. Call it where the call's
 * other checks run (inside the request thunk, or at the start of a waiter), so
 * the error rejects the returned promise.
 */
export function rejectOfficialKeys(call: OfficialCall, options: unknown, context = `${call} options`): void {
  if (!isRecord(options)) return;
  const issues: ValidationIssue[] = [];
  if (call === "getCrawlStatus" || call === "getBatchScrapeStatus") {
    issues.push(...pageIssues(call, options));
  } else {
    if (options.pollInterval !== undefined) issues.push(pollIntervalIssue(call, options.pollInterval));
    if (options.timeout !== undefined) {
      const issue = timeoutIssue(call, options.timeout, isRecord(options.options));
      if (issue) issues.push(issue);
    }
    if ((call === "batchScrape" || call === "startBatchScrape") && options.idempotencyKey !== undefined) {
      issues.push({
        path: "idempotencyKey",
        message: "the v2 batch scrape route does not honour idempotency keys: remove it (a batch start is retried only when nothing can have been created)",
      });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues, context);
}
