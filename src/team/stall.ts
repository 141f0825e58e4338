/**
 * Stalled jobs (`webdata/team`): the one progress rule of the waiters (`jobs/polling.ts`), the watcher (`jobs/watcher.ts`)
 * and the documents iterators (`jobs/pages.ts`). A crawl or batch scrape progresses when its `status`, `completed` or
 * `total` changes (the watcher also counts a new document); with `stallTimeoutMs` set, that long without progress is a
 * `JobStalledError`, and with `cancelOnStall` the job is cancelled first. Off by default. Time is read with `Date.now()`.
 */
import type { Counters, StallDetection, StalledJob, StallProgress } from "../core/client-state.js";
import { JobStalledError, NotFoundError } from "../core/errors.js";
import { isTerminal } from "../jobs/status.js";

/** The progress of one job: the last counters seen and when they last changed. */
export class Progress implements StallProgress {
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

/**
 * The `JobStalledError` of `job` at `progress`, after cancelling the job when `cancelOnStall` is set. A cancel that fails
 * (the job ended meanwhile: 409; a network error) is logged, not thrown: `cancelled` is then false; a 404 (the job is
 * gone: expired) is thrown as it is, not named a stall.
 */
export async function stalledError(job: StalledJob, progress: StallProgress, cancelOnStall: boolean | undefined): Promise<Error> {
  const since = progress.sinceMs;
  let cancelled = false;
  if (cancelOnStall) {
    try {
      cancelled = await job.cancel();
    } catch (err) {
      job.log(`webdata: job ${job.id} stalled; cancelling it failed: ${err instanceof Error ? err.message : String(err)}`);
      if (err instanceof NotFoundError) throw err;
    }
  }
  return new JobStalledError(job.id, progress.last, since, cancelled);
}

/** The stall detection the `team` plugin gives a client (`http.state.stall`). */
export const STALL: StallDetection = {
  progress: () => new Progress(),
  stalled: stalledError,
  check(job, opts) {
    const ms = opts.stallTimeoutMs;
    if (ms === undefined) return undefined;
    const progress = new Progress();
    return async (page) => {
      // Every page is observed; only a page without documents (the walk waiting on the job) can throw, so none read is lost.
      if (progress.see(page) || isTerminal(page.status) || page.data.length > 0 || progress.sinceMs < ms) return;
      throw await stalledError(job, progress, opts.cancelOnStall);
    };
  },
};
