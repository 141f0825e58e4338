/**
 * Types of the shared job machinery: crawl and batch-scrape status pages, errors, and the options of waiting and
 * iterating. The functions live beside them, each documented where it is defined: `status.ts` (one status page,
 * errors, cancel), `pages.ts` (the page and document iterators, and every poll number), `polling.ts` (the poll loop
 * and job waiting), `waiters.ts` (the public waiters). All take a {@link JobKind} and an {@link ApiVersion}, so the
 * v1 layer reuses them with `/v1/...` routes.
 */
import type { Budget } from "../core/config.js";
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
  /**
   * Deadline of the whole job, ms, counted from the call: the start, every poll and the
   * final download (default: none). Passing it throws `JobTimeoutError` with the last
   * status; the job itself keeps running. Not the per-attempt `RequestOptions.timeoutMs`,
   * which limits each HTTP request of the wait.
   */
  timeoutMs?: number | undefined;
  /** Stops waiting (and the current poll) with `AbortError`. */
  signal?: AbortSignal | undefined;
  /**
   * Not sent: a credit budget for this call alone, in place of the client's `budget`. The start is refused
   * before sending when its stated maximum cannot fit (`BudgetExceededError`), and the job is cancelled
   * (`onExceeded: "cancel"`, the default; `"throw"` leaves it running) once its own `creditsUsed` passes
   * `credits`; the error carries the documents fetched so far. See `ClientOptions.budget` for the rules.
   */
  budget?: Budget | undefined;
  /**
   * Not sent: called with each status the waiter reads (the job's id, state, and the pages and credits it reports),
   * for a progress display. A throw ends the wait with it (the job keeps running).
   */
  onStatus?: ((status: WaitStatus) => void) | undefined;
}

/** What a waiter's `onStatus` sees at each status read: the job's id and state, and the pages and credits its status reports. */
export interface WaitStatus {
  /** The job's id. */
  id: string;
  /** Its state (`scraping` or `processing` while it runs, then `completed`, `failed` or `cancelled`). */
  status: string;
  /** Pages done (a crawl or batch scrape). */
  completed?: number | undefined;
  /** Pages in all, as far as known (a crawl or batch scrape). */
  total?: number | undefined;
  /** Credits spent so far, where the status reports them. */
  creditsUsed?: number | undefined;
}

/**
 * Stalled jobs (no progress for `stallTimeoutMs`): options of the crawl and batch-scrape waiters, the documents iterators and
 * the watcher. Off by default: the service keeps a finished job `scraping` for up to a minute while its
 * cron job finalizes it (recorded), and a healthy crawl of slow sites can go minutes between pages, so
 * any default would have to exceed that by far to trip no healthy job; only the caller knows its jobs.
 */
export interface StallOptions {
  /**
   * Give up with `JobStalledError` when the job's `status`, `completed` and `total` have not changed for
   * this long, ms (default: never). Not a deadline: a job that keeps progressing may run as long as it
   * needs (use `timeoutMs` for that). Choose it well above a minute (the service's finalization lag).
   */
  stallTimeoutMs?: number | undefined;
  /** With `stallTimeoutMs`: cancel the job on the server before throwing (`JobStalledError.cancelled` says whether it worked). Default false. */
  cancelOnStall?: boolean | undefined;
}

/** Options of the crawl and batch-scrape waiters (`crawl`, `batchScrape`): {@link WaitOptions} and {@link StallOptions}. */
export interface JobWaitOptions extends WaitOptions, StallOptions {}

/**
 * Options of `crawlDocuments` / `batchScrapeDocuments`. `T` is the type of each
 * document's `json`: inferred from `schema`, or named by the caller.
 */
export interface JobDocumentsOptions<T = unknown> extends StallOptions {
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
  /**
   * Not sent: a `position` read from an earlier stream of the same job and method (any client, any
   * process): the stream continues with the document after it. Another job's position, or a string that is
   * not a position, is a `ValidationError` before anything is sent.
   */
  resumeFrom?: string | undefined;
}
