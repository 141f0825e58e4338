/**
 * Polling: the one poll loop ({@link pollUntil}) behind every waiter, v1's included (poll interval with a floor, a
 * whole-job deadline, abort, a grace period for jobs not yet visible, typed failures), and the two waits built on it
 * ({@link waitForJob}, {@link waitForTask}). A waiter never returns a job that is still running. The public waiters
 * that start a job and then wait are in `waiters.ts`.
 */
import type { Document } from "../api/document.js";
import { notYetVisible, startedAt } from "../api/job-starts.js";
import { AbortError, JobFailedError, JobTimeoutError, WebDataError } from "../core/errors.js";
import { after, delay, onAbort } from "../core/time.js";
import { NO_OPTIONS, withSignal, type Checked } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { pagesOf, pollPauses } from "./pages.js";
import { COUNTERS_PAGE, isTerminal, readJobStatus, wasCancelled } from "./status.js";
import type { ApiVersion, JobKind, JobStatus, JobWaitOptions, WaitOptions, WaitStatus } from "./types.js";

/** What {@link pollUntil} needs to know about one kind of job. */
export interface PollSpec<S> {
  /** The job's id (for errors). */
  jobId: string;
  /** Reads the status once; must honour `signal`. */
  poll: (signal: AbortSignal) => Promise<S>;
  /** True once the job will not change any more. */
  isDone: (s: S) => boolean;
  /** The error for a terminal state that is a failure, else undefined. */
  failure: (s: S) => JobFailedError | undefined;
  /** When the job was started by this waiter (`Date.now()`); enables the 404 grace period. */
  startedAt?: number | undefined;
  /** Runs once on a successful terminal status, under the same deadline and signal (e.g. downloads the results). */
  finish?: ((s: S, signal: AbortSignal) => Promise<S>) | undefined;
  /** Runs after each status read, under the wait's signal (the budget's check, the caller's `onStatus`, the stall rule); a throw ends the wait with it. */
  afterRead?: ((s: S, signal: AbortSignal) => Promise<void>) | undefined;
}

/**
 * Polls until `isDone`, then returns the last status (or throws its failure).
 * Throws `JobTimeoutError` at `timeoutMs` (even mid-request) and `AbortError` when
 * `signal` aborts (even during a sleep). `wait` was checked by the public method
 * (`checkWaitOptions`), or is the SDK's own: it is not checked again here.
 */
export async function pollUntil<S>(spec: PollSpec<S>, wait: JobWaitOptions = {}): Promise<S> {
  const pause = pollPauses(wait.pollIntervalMs); // ramped unless the caller set the interval (the poll numbers, `pages.ts`)
  const ctl = new AbortController();
  let timedOut = false;
  let last: S | undefined;
  if (wait.signal?.aborted) throw new AbortError(undefined, { cause: wait.signal.reason });
  const caller = wait.signal;
  const unlink = caller ? onAbort(caller, () => ctl.abort(caller.reason)) : undefined; // one listener per signal, however many waiters share it
  const cancelDeadline =
    wait.timeoutMs !== undefined
      ? after(wait.timeoutMs, () => {
          timedOut = true;
          ctl.abort(new AbortError("deadline"));
        })
      : undefined;
  try {
    for (;;) {
      let status: S | undefined;
      try {
        status = await spec.poll(ctl.signal);
      } catch (err) {
        if (!notYetVisible(err, spec.startedAt)) throw err;
      }
      if (status !== undefined) {
        last = status;
        await spec.afterRead?.(status, ctl.signal);
        if (spec.isDone(status)) {
          const failure = spec.failure(status);
          if (failure) {
            failure.requestId ??= requestIdOf(status); // the status read that learned it
            throw failure;
          }
          return spec.finish ? await spec.finish(status, ctl.signal) : status;
        }
      }
      await delay(pause(), ctl.signal);
    }
  } catch (err) {
    // The id of the read that answered `last`; without one, of the read the deadline cut.
    if (timedOut) throw new JobTimeoutError(spec.jobId, wait.timeoutMs ?? 0, last, requestIdOf(last) ?? (err instanceof WebDataError ? err.requestId : undefined));
    if (ctl.signal.aborted && !(err instanceof AbortError)) throw new AbortError(undefined, { cause: wait.signal?.reason });
    throw err;
  } finally {
    cancelDeadline?.();
    unlink?.();
  }
}

/** The `x-request-id` of the status read that answered `status` (its `_requestId`, put on every result by `core/request.ts`). */
function requestIdOf(status: unknown): string | undefined {
  const id = typeof status === "object" && status !== null ? (status as { _requestId?: unknown })._requestId : undefined;
  return typeof id === "string" ? id : undefined;
}

/** Status of a job that reads `processing` until it ends: extract, agent, and the v1 extract, LLMs.txt and deep-research jobs. */
export interface TaskStatus {
  /** `processing`, then `completed`, `failed` or `cancelled`. */
  status: string;
  /** The server's error text of a failed job. */
  error?: string | undefined;
  /** The wire's `success`, where a status keeps it (v1): `false` on a `completed` job is a failure. */
  success?: boolean | undefined;
}

/**
 * Waits for a task-like job ({@link TaskStatus}) with the one poll loop: reads the
 * status until it is `completed`, `failed` or `cancelled`; returns the completed
 * status, throws `JobFailedError` for `failed` / `cancelled` (and for a `completed`
 * sent with `success:false`). The v2 `extract` / `agent` waiters and the v1 ones use it.
 */
export function waitForTask<S extends TaskStatus>(id: string, read: (signal: AbortSignal) => Promise<S>, wait: WaitForJobOptions): Promise<S> {
  return pollUntil<S>(
    {
      jobId: id,
      startedAt: wait.startedAt,
      poll: read,
      afterRead: wait.afterRead,
      isDone: (s) => isTerminal(s.status),
      failure: (s) => (s.status === "completed" && s.success !== false ? undefined : new JobFailedError(id, s.status === "completed" ? "failed" : s.status, s.error)),
    },
    wait,
  );
}

/** A status as the steps after each read see it (`WaitForJobOptions.afterRead`): a crawl's or batch's counters, any job's state and credits. */
export type ReadStatus = Omit<WaitStatus, "id">;

/** Internal options of {@link waitForJob}. */
export interface WaitForJobOptions extends JobWaitOptions {
  /** When this waiter started the job (enables the 404 grace period). */
  startedAt?: number | undefined;
  /** API version of the routes (default `v2`). */
  apiVersion?: ApiVersion | undefined;
  /** Runs after each status poll, under the wait's signal; a throw ends the wait with it (the job recipe's steps: `waiters.ts` `afterEachRead`). */
  afterRead?: ((status: ReadStatus, signal: AbortSignal) => Promise<void>) | undefined;
}

/**
 * Waits for a crawl or batch scrape to end, then downloads every page once and
 * returns the job with all its documents (`next` absent). A job cancelled through
 * this client fails with `JobFailedError` even when the server reports it `completed`.
 */
export async function waitForJob<TDoc = Document>(http: HttpClient, kind: JobKind, id: string, opts: WaitForJobOptions = {}, req: Checked<RequestOptions> = NO_OPTIONS): Promise<JobStatus<TDoc>> {
  const v = opts.apiVersion ?? "v2";
  const signal = opts.signal ?? req.signal;
  return pollUntil<JobStatus<TDoc>>(
    {
      jobId: id,
      startedAt: opts.startedAt ?? startedAt(http, id),
      poll: (s) => readJobStatus<TDoc>(http, kind, id, COUNTERS_PAGE, withSignal(req, s), v),
      afterRead: opts.afterRead,
      isDone: (s) => isTerminal(s.status),
      failure: (s) =>
        s.status === "failed" || s.status === "cancelled" ? new JobFailedError(id, s.status, s.error)
        : wasCancelled(http, id) ? new JobFailedError(id, "cancelled", "cancelled by this client")
        : undefined,
      finish: async (final, s) => {
        const data: TDoc[] = [];
        let last: JobStatus<TDoc> = final;
        // The walk ends only on a terminal page: while the server's pages still say `scraping` after the
        // poll said `completed` (its pages disagree for a moment), it reads on, within this deadline. The
        // result takes the status of the page that ended it, so it is never a running job.
        // Under the call's own request options (its hooks, headers, per-attempt timeout), as every poll before it.
        for await (const page of pagesOf<TDoc>(http, kind, id, { pollIntervalMs: opts.pollIntervalMs } as Checked<WaitOptions>, withSignal(req, s), v)) {
          last = page;
          data.push(...page.data);
        }
        return { ...last, data, next: undefined };
      },
    },
    { ...opts, signal },
  );
}
