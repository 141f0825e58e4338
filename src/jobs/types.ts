/**
 * Types of the shared job machinery (crawl and batch scrape status, pages,
 * errors, cancel, waiting; the extract/agent waiter). Used by `api/crawl.ts`,
 * `api/batch.ts`, the v1 layer and the watcher.
 *
 * Functions (in sibling modules), all parameterised by {@link JobKind} and
 * {@link ApiVersion} (default `"v2"`), so v1 reuses them with `/v1/...` paths:
 *
 * - `jobs/status.ts`
 *   - `jobPath(kind, id, apiVersion)`: `/v2/crawl/<id>` or `/v2/batch/scrape/<id>` (checked, encoded).
 *   - `getJobStatus(http, kind, id, { skip?, limit? }, req?, apiVersion)`: ONE page (`GET .../<id>`), never paginates.
 *     A 2xx body with `success:false` (kickoff failure) is returned as a `failed` status, not thrown.
 *   - `getJobPage(http, url, req?)`: GET an absolute `next` URL as given (key only sent to the configured origin).
 *   - `getJobErrors(http, kind, id, req?, apiVersion)`: `GET .../<id>/errors` -> {@link JobErrors}.
 *   - `cancelJob(http, kind, id, req?, apiVersion)`: `DELETE .../<id>` -> `true` (409 -> `ConflictError`, 404 -> `NotFoundError`).
 * - `jobs/pages.ts`
 *   - `jobDocuments(http, kind, id, { signal?, pollIntervalMs?, pageLimit?, apiVersion?, schema? })`: async iterator over every
 *     document, following `next`; ends when the job is terminal and no `next` remains; sleeps `pollIntervalMs`
 *     between empty pages while the job runs; one page in memory; a failed page throws; with `schema`, each
 *     document's `json` is parsed before it is yielded.
 * - `jobs/wait.ts`
 *   - `waitForJob(http, kind, id, WaitOptions, apiVersion)`: polls (small `limit`) until terminal, then downloads every
 *     page once; `failed`/`cancelled` -> `JobFailedError`; deadline -> `JobTimeoutError`; abort -> `AbortError`.
 *   - `pollUntil(...)`: the one poll loop, shared with the extract and agent waiters.
 */
import type { Document } from "../api/document.js";
import type { StandardSchemaV1 } from "../api/schema.js";

/** Which job family a status URL belongs to. Batch ids also work on the crawl WebSocket path. */
export type JobKind = "crawl" | "batch";

/** API version of the job routes: `/v2/...` (default) or the legacy `/v1/...`. */
export type ApiVersion = "v1" | "v2";

/** Status of a crawl or batch scrape (`status`). `cancelled` is in source; the self-hosted server reports `completed` instead. */
export type JobState = "scraping" | "completed" | "failed" | "cancelled";

/** One page of a crawl or batch-scrape status (`GET /v2/crawl/<id>`, reference §4.4). */
export interface JobStatus<TDoc = Document> {
  /** The job id (not on the wire: filled in by the SDK). */
  id: string;
  /** `status`: `scraping` while running (and for up to a minute after the last page), then terminal. */
  status: JobState;
  /** `completed`: finished pages (may lag behind `data`). */
  completed: number;
  /** `total`: finished + active + queued pages. */
  total: number;
  /** `creditsUsed` (-1 when the server cannot tell, e.g. self-hosted). */
  creditsUsed: number;
  /** `expiresAt`: ISO time when the results are dropped. */
  expiresAt: string;
  /** `next`: absolute URL of the following page; present while more pages exist or the job is not completed. */
  next?: string | undefined;
  /** `data`: the documents of this page (every document, for a waiter's result). */
  data: TDoc[];
  /** `warning` (v2 only): robots.txt or few-results hints. */
  warning?: string | undefined;
  /** `error`: the stored error of a failed kickoff (sent with `success:false`). */
  error?: string | undefined;
}

/** `skip`/`limit` of a status read. Without `limit` the server returns up to 100 documents (and at most 10 MiB). */
export interface JobPageOptions {
  /** Documents to skip (`skip`, default 0). */
  skip?: number | undefined;
  /** Page size (`limit`). */
  limit?: number | undefined;
  /**
   * Not sent. The official client's switch: `false` (one page) is what a status call always
   * does here; `true` is a `ValidationError` (read every page with `crawlDocuments(id)`).
   */
  autoPaginate?: false | undefined;
}

/** One failed page of a job (`errors[]`, reference §4.7). */
export interface JobError {
  /** Scrape job id. */
  id: string;
  /** ISO time of the failure. */
  timestamp?: string | undefined;
  /** The page's URL. */
  url: string;
  /** Error code (e.g. `SCRAPE_ALL_ENGINES_FAILED`). */
  code?: string | undefined;
  /** The server's error text. */
  error: string;
}

/** `GET .../<id>/errors`: failed pages and robots.txt-blocked URLs. */
export interface JobErrors {
  /** `errors`. */
  errors: JobError[];
  /** `robotsBlocked`: URLs skipped because of robots.txt. */
  robotsBlocked: string[];
}

/** Options of every waiter (`crawl`, `batchScrape`, `extract`, `agent`). */
export interface WaitOptions {
  /** Time between status polls, ms (default 2000, at least 500). */
  pollIntervalMs?: number | undefined;
  /** Overall deadline, ms (default: none). Passing it throws `JobTimeoutError`. */
  timeoutMs?: number | undefined;
  /** Stops waiting (and the current poll) with `AbortError`. */
  signal?: AbortSignal | undefined;
}

/**
 * Options of `crawlDocuments` / `batchScrapeDocuments`. `T` is the type of each
 * document's `json`: inferred from `schema`, or named by the caller.
 */
export interface JobDocumentsOptions<T = unknown> {
  /**
   * Not sent: parses each document's `json` with this zod / Standard Schema as it
   * is yielded (the iterator only gets an id, so it cannot see the start's
   * `validate: true`). A mismatch throws `ResultValidationError` naming the
   * document's URL and the path.
   */
  schema?: StandardSchemaV1<unknown, T> | undefined;
  /** Stops the iteration with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Wait between empty pages while the job still runs, ms (default 2000, at least 500). */
  pollIntervalMs?: number | undefined;
  /** `limit` of each page request (default: the server's, up to 100 documents). */
  pageLimit?: number | undefined;
  /** API version of the routes (default `v2`). */
  apiVersion?: ApiVersion | undefined;
}
