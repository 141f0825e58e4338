/**
 * The watcher's REST side: polling the status pages (the transport of last
 * resort) and confirming the end of a job after a live stream said `done`.
 * The pages are read by the one page walk (`pages.ts` `walkPages`, on its `poll`
 * schedule); what is the watcher's own is here: the read rule (a transient
 * failure is a non-fatal error event, then a pause and another read), its
 * pauses, the counter reads after a clean stream, and the delivery.
 */
import type { Document } from "../api/document.js";
import { notYetVisible, startedAt } from "../api/job-starts.js";
import { AbortError, WebDataError } from "../core/errors.js";
import { delay } from "../core/time.js";
import { isWatchFatal } from "../core/retry.js";
import { walkPages, zeroCounters } from "./pages.js";
import { COUNTERS_PAGE, isTerminal, readJobStatus } from "./status.js";
import { withSignal } from "../core/options.js";
import type { JobStatus } from "./types.js";
import type { WatchContext } from "./watch-context.js";

/** Options of {@link pollToEnd}. */
export interface PollOptions {
  /**
   * A live stream delivered everything without a drop: first check the counters with a one-document read, and
   * read the pages only when documents are missing (at the end, or while the job still runs).
   */
  quick: boolean;
  /** Failed polls in a row before the error becomes fatal. */
  maxFailures: number;
}

function pause(ctx: WatchContext): Promise<void> {
  return delay(ctx.pollPause(), ctx.signal);
}

/** One REST read; transient failures (after the request layer's retries) become non-fatal error events and are retried after a pause. */
async function read<T>(ctx: WatchContext, maxFailures: number, call: () => Promise<T>): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await call();
    } catch (err) {
      if (ctx.signal.aborted) throw new AbortError(undefined, { cause: err });
      // A job this client has just started may not be visible yet: a 404 then is "not yet" (the waiters' rule too).
      if (notYetVisible(err, startedAt(ctx.http, ctx.id))) failures -= 1;
      else if (isWatchFatal(err) || failures >= maxFailures || !(err instanceof WebDataError)) throw err;
      else ctx.error(err);
      await pause(ctx);
    }
  }
}

/**
 * Reads the job over REST until it is terminal, delivering every document not
 * seen yet, and returns the final status. Handles the service's lag (`scraping`
 * for up to a minute after the last page) by polling on.
 */
export async function pollToEnd(ctx: WatchContext, opts: PollOptions): Promise<JobStatus<Document>> {
  const req = withSignal(ctx.request, ctx.signal);
  if (opts.quick) {
    let zeroReads = 0;
    for (;;) {
      const s = await read(ctx, opts.maxFailures, () => readJobStatus<Document>(ctx.http, ctx.kind, ctx.id, COUNTERS_PAGE, req, ctx.apiVersion));
      ctx.status(s);
      if (isTerminal(s.status)) {
        if (!zeroCounters(s) && ctx.delivered >= s.completed) return s;
        if (!zeroCounters(s) || ctx.delivered > 0) break; // documents are missing, or the counters cannot be right: read every page
        if (zeroReads++ >= 1) return s;
      } else if (s.completed > ctx.delivered || s.data.filter((d) => ctx.document(d)).length > 0) {
        // The stream said done too early (a socket attached right at the start gets a `completed` 0-of-0 catchup
        // and a done): the job runs on and has documents this watcher lacks (by the counter, or a page shows one
        // while the counter lags). Read the pages as they appear.
        break;
      }
      await pause(ctx);
    }
  }
  // The pages: the one walk (`pages.ts`) on the watcher's schedule, with its read rule and pauses.
  let last: JobStatus<Document> | undefined;
  const rules = { poll: true, pause: ctx.pollPause, read: (call: () => Promise<JobStatus<Document>>) => read(ctx, opts.maxFailures, call) };
  for await (const page of walkPages<Document>(ctx.http, ctx.kind, ctx.id, req, ctx.apiVersion, rules)) {
    for (const doc of page.data) ctx.document(doc); // delivers each document once (the watcher's own record, the document identity of `pages.ts`)
    ctx.status(page);
    await ctx.drain();
    last = page;
  }
  return last as JobStatus<Document>; // the walk ends after a page, never before the first
}
