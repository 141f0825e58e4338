/**
 * Stalled jobs (issue 35): the one progress rule of the waiters (`polling.ts`), the watcher
 * (`watcher.ts`) and the documents iterators (`pages.ts`). A crawl or batch scrape progresses when its
 * `status`, `completed` or `total` changes (the watcher also counts a new document); with
 * `stallTimeoutMs` set, that long without progress is a `JobStalledError`, and with `cancelOnStall` the
 * job is cancelled first. Off by default (see `StallOptions` in `types.ts` for why). Time is read with
 * `Date.now()` and timed through `core/time.ts` only.
 */
import { JobStalledError, NotFoundError } from "../core/errors.js";
import { withSignal, type Checked } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { cancelJob, isTerminal } from "./status.js";
import type { ApiVersion, JobKind, StallOptions } from "./types.js";

/** The counters whose change is progress. */
export interface Counters {
  /** `status`. */
  status: string;
  /** `completed`. */
  completed: number;
  /** `total`. */
  total: number;
}

/** The progress of one job: the last counters seen and when they last changed. */
export class Progress {
  #key: string | undefined;
  #since = Date.now();
  /** The last counters seen (`scraping`, 0 of 0 before the first). */
  last: Counters = { status: "scraping", completed: 0, total: 0 };

  /** Notes the counters of a status read; true when they changed (progress). */
  see(c: Counters): boolean {
    this.last = { status: c.status, completed: c.completed, total: c.total };
    const key = `${c.status}|${c.completed}|${c.total}`;
    if (key === this.#key) return false;
    this.#key = key;
    this.moved();
    return true;
  }

  /** Progress seen another way (a new document on a stream). */
  moved(): void {
    this.#since = Date.now();
  }

  /** Milliseconds since the last progress (or since the watch began). */
  get sinceMs(): number {
    return Date.now() - this.#since;
  }
}

/** The job a stall is about, and what cancelling it needs. */
export interface StallJob {
  http: HttpClient;
  kind: JobKind;
  id: string;
  apiVersion: ApiVersion;
  /** The caller's request options for the cancel (its `signal` is not used: the wait was stopped by the stall). */
  request: Checked<RequestOptions>;
}

/**
 * The `JobStalledError` of `job` at `progress`, after cancelling the job when `cancelOnStall` is set.
 * A cancel that fails (the job ended meanwhile: 409; a network error) is logged, not thrown:
 * `cancelled` is then false.
 */
export async function stalledError(job: StallJob, progress: Progress, cancelOnStall: boolean | undefined): Promise<JobStalledError> {
  const since = progress.sinceMs;
  let cancelled = false;
  if (cancelOnStall) {
    try {
      cancelled = await cancelJob(job.http, job.kind, job.id, withSignal(job.request, undefined), job.apiVersion);
    } catch (err) {
      job.http.log("warn", `webdata: job ${job.id} stalled; cancelling it failed: ${err instanceof Error ? err.message : String(err)}`);
      if (err instanceof NotFoundError) throw err; // the job is gone (expired): say that, not a stall
    }
  }
  return new JobStalledError(job.id, progress.last, since, cancelled);
}

/**
 * The documents iterators' check, made at each page read (they observe the job only when they read):
 * undefined without `stallTimeoutMs`. Throws `JobStalledError` at the first empty page of a running job
 * whose counters have not changed for `stallTimeoutMs` (so up to one poll interval late; every document
 * read before is delivered first). A finished job never stalls.
 */
export function stallCheck(job: StallJob, opts: StallOptions): ((page: Counters & { data: readonly unknown[] }) => Promise<void>) | undefined {
  const ms = opts.stallTimeoutMs;
  if (ms === undefined) return undefined;
  const progress = new Progress();
  return async (page) => {
    // Every page is observed; only a page without documents (the walk waiting on the job) can throw, so none read is lost.
    if (progress.see(page) || isTerminal(page.status) || page.data.length > 0 || progress.sinceMs < ms) return;
    throw await stalledError(job, progress, opts.cancelOnStall);
  };
}
