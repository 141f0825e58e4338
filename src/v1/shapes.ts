/**
 * The ONE place where v1 differs from v2 in shape: result envelopes, job status
 * records, poll intervals in seconds, and the API version passed to the shared
 * job machinery (each function's JSDoc gives its shape). Every v1 module maps
 * through these functions instead of reshaping results itself.
 */
import type { ChangeTrackingResult, Document } from "../api/document.js";
import type { InferSchema } from "../api/schema.js";
import { ValidationError } from "../core/errors.js";
import { MAX_TIMER_MS } from "../core/time.js";
import { V1_DEFAULT_POLL_SECONDS } from "../jobs/pages.js";
import type { ApiVersion, JobErrors, JobState, JobStatus } from "../jobs/types.js";

/** The API version every v1 module passes to the shared job machinery. */
export const V1: ApiVersion = "v1";

/**
 * v1 compatibility: the v1 library typed unschema'd results as `any`, and
 * v1-era code indexes into them (`ex.data.company_mission`, `r.json.top`).
 * The ONE `any` of the public surface: used only in v1 result types (extracted
 * data, `json` / `extract` of v1 documents) when no zod or Standard Schema
 * names the type. The v2 surface types the same values `unknown`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type V1Any = any;

/**
 * The v1 result type of a `schema` field, as the v1 library typed it: the
 * output type of a zod / Standard Schema (or of a `typedJsonSchema<T>()`),
 * else (no schema, a plain JSON Schema) {@link V1Any}.
 */
export type V1SchemaResult<S> = unknown extends InferSchema<S> ? V1Any : InferSchema<S>;

/** A v1 document: the v2 document plus the v1-only `extract` field and the search fields `url`, `title`, `description`. `T` is the type of `json` / `extract` ({@link V1Any} unless a schema names it). */
export interface V1Document<T = V1Any> extends Omit<Document<T>, "metadata" | "changeTracking"> {
  /** Result of the v1 `extract` format (the `json` format fills `json`). */
  extract?: T;
  /** Change tracking (format `changeTracking`); `json` (mode `json`) typed as the v1 library typed it. */
  changeTracking?: Omit<ChangeTrackingResult, "json"> & { json?: V1Any };
  /** Result URL (search results). */
  url?: string;
  /** Result title (search results). */
  title?: string;
  /** Result description (search results). */
  description?: string;
  /** Page metadata (absent on search results that were not scraped). */
  metadata?: Document["metadata"];
}

/** The v1 error result: what the v1 library returned instead of throwing in a few places (a failed job kickoff). */
export interface V1ErrorResponse {
  success: false;
  /** The server's error text. */
  error: string;
}

/** A v1 success record: the payload spread next to `success: true`. */
export type V1Success<T> = { success: true } & T;

/** Status of a v1 crawl or batch scrape (`checkCrawlStatus`, `crawlUrl`). */
export interface V1JobStatusResponse extends Pick<JobStatus, "status" | "completed" | "total" | "creditsUsed"> {
  /** Always true (a failed kickoff is a {@link V1ErrorResponse}). */
  success: true;
  /** `expiresAt`, parsed to a `Date` as the v1 library did. */
  expiresAt: Date;
  /** `next`: the following page's URL (absent once every page was read). */
  next?: string;
  /** `data`: this page's documents (all documents after `getAllData` or a waiter). */
  data: V1Document[];
}

/** `GET .../errors` in v1 (identical to v2). */
export type V1ErrorsResponse = JobErrors;

/** Wraps a payload the v1 way: `{ success: true, ...data }`. */
export function v1Success<T extends object>(data: T): V1Success<T> {
  return { success: true, ...data };
}

/** A v1 record the server already sends with `success: true` (job starts, queue status), typed as such. */
export function v1Record<T extends object>(body: T): T & { success: true } {
  return { ...body, success: true };
}

/**
 * A job status read by the shared machinery, in the v1 record shape. A failed
 * kickoff (`success:false` on the wire) becomes the v1 error result carrying
 * the status fields, as the v1 library returned it.
 */
export function v1JobStatus(s: JobStatus, opts: { dropNext?: boolean } = {}): V1JobStatusResponse | V1ErrorResponse {
  const out: V1JobStatusResponse = {
    success: true,
    status: s.status,
    completed: s.completed,
    total: s.total,
    creditsUsed: s.creditsUsed,
    expiresAt: new Date(s.expiresAt),
    data: s.data as V1Document[],
  };
  if (s.next !== undefined && !opts.dropNext) out.next = s.next;
  if (s.error !== undefined && s.status === "failed") return { ...out, success: false, error: s.error } as unknown as V1ErrorResponse;
  return out;
}

/**
 * The v1 poll interval (seconds, possibly fractional) converted once to the
 * milliseconds the shared waiters take. `undefined` means the v1 default.
 */
export function pollSecondsToMs(seconds: number | undefined): number {
  const s = seconds ?? V1_DEFAULT_POLL_SECONDS;
  if (typeof s !== "number" || !Number.isFinite(s) || s <= 0) {
    throw new ValidationError([{ path: "pollInterval", message: `must be a positive number of seconds, got ${String(s)}` }], "pollInterval");
  }
  const ms = Math.round(s * 1000);
  // The bound of the wait family's poll interval (what a timer holds), checked here once: the poll loop does not check again.
  if (ms > MAX_TIMER_MS) throw new ValidationError([{ path: "pollInterval", message: `must be at most ${Math.floor(MAX_TIMER_MS / 1000)} seconds (what a timer holds), got ${String(s)}` }], "pollInterval");
  return ms;
}
