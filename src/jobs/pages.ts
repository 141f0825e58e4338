/**
 * The one walk over a job's status pages ({@link walkPages}): the waiters'
 * download, the document iterators, the drop-in entry's snapshot read, the AI tools' status read, v1's
 * `getAllData` and the watcher's REST polling (`watch-poll.ts`) all read pages
 * through it. It follows the `next` link (re-based onto `apiUrl`, see
 * `status.ts`), reads on from `skip` where there is none, stops a loop, ends
 * when the job is terminal and no `next` remains, pauses while the job runs,
 * and holds one page at a time. What differs between its users is data
 * ({@link WalkRules}), not a second loop.
 *
 * The loop rules: a server whose `next` points back to a page already read
 * (or to itself) once made `crawl()` send thousands of requests a second while
 * piling up duplicates. Each of these is a `PaginationLoopError` (nothing
 * repeated is yielded): a `next` URL already followed, after a page that had
 * documents or once the job is finished (re-reading the same empty page while
 * the job runs is how new results are waited for, and is allowed); a page of
 * a finished job that repeats the documents of the page before (its results
 * no longer change). Memory: the URLs followed (one per page) and the
 * identity of one page.
 */
import type { Document } from "../api/document.js";
import { validateDocumentsWith } from "../api/schema.js";
import * as z from "zod/v4/mini";
import { checkJsonOptions, checkRequestOptions, optionsArg, waitShape, withSignal, type Checked } from "../core/options.js";
import { check, int } from "../core/validate.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { delay } from "../core/time.js";
import { PaginationLoopError } from "../core/errors.js";
import { pollPauses } from "./poll-timing.js";
import { documentKey, firstSeen } from "./identity.js";
import { getJobPage, isTerminal, ownPage, readJobStatus } from "./status.js";
import { stallCheck } from "./stall.js";
import type { ApiVersion, JobDocumentsOptions, JobKind, JobStatus } from "./types.js";

/** What a user of the walk brings: its pauses, its read rule, its schedule. */
export interface WalkRules<TDoc = Document> {
  /** The next pause before a read that waits on the job, ms (`pollPauses`, `poll-timing.ts`; the watcher's `pollPause`). */
  pause: () => number;
  /**
   * The watcher's schedule (it follows the job as it grows), where the default is the waiters' (they want
   * the pages now). Four differences: the first read states `skip=0` (the default leaves `skip` to the
   * server); a pause comes before every read but a followed `next` (the default pauses only after an empty
   * page of a running job); the `next` of a page without documents is not followed, the page is read again
   * from `skip` (the default follows it, after the pause); and a terminal page with all-zero counters
   * ({@link zeroCounters}) ends the walk only when it comes a second time (the default believes it at once).
   */
  poll?: boolean | undefined;
  /** `limit` of each `skip` read (default: the server's). */
  pageLimit?: number | undefined;
  /** End at the last page that exists now, running job or not (the drop-in entry's auto-paginated status read). */
  snapshot?: boolean | undefined;
  /** The first page, already read by the caller (the drop-in's status read): the walk starts from it and does not read it again. */
  first?: JobStatus<TDoc> | undefined;
  /**
   * Runs each page read (`call` sends it): the user's failure rule. Default: a failure throws. The
   * watcher's turns a transient failure into a non-fatal error event and reads again after a pause.
   */
  read?: ((call: () => Promise<JobStatus<TDoc>>) => Promise<JobStatus<TDoc>>) | undefined;
}

/** A terminal status whose counters are all zero (the service may report it before the job is visible): read twice before it is believed. */
export function zeroCounters(s: Pick<JobStatus<unknown>, "status" | "completed" | "total">): boolean {
  return s.status === "completed" && s.completed === 0 && s.total === 0;
}

/**
 * THE walk: every status page of a job, as the server sends it (repeats included: each user drops them
 * its own way, by `identity.ts`), one at a time, until the end. Ends when a terminal page has no `next`
 * (or no documents: a finished job's results no longer grow; with `snapshot`, at such a page of a running
 * job too). A page read that fails throws (unless `rules.read` handles it); the walk never ends early as
 * if complete. `req.signal` aborts the reads and the pauses. `apiVersion` (internal: the v1 layer reads
 * `/v1/...`) is a parameter, not an option, so no caller's options object can change the routes.
 */
export async function* walkPages<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  req: Checked<RequestOptions>,
  apiVersion: ApiVersion,
  rules: WalkRules<TDoc>,
): AsyncGenerator<JobStatus<TDoc>, void, undefined> {
  const { pause, pageLimit: limit, snapshot, poll, first, read = (call) => call() } = rules;
  const followed = new Set<string>();
  let previous: string | undefined;
  let page = first ?? (await read(() => readJobStatus<TDoc>(http, kind, id, ownPage({ skip: poll ? 0 : undefined, limit }), req, apiVersion)));
  let seen = 0;
  let zeroEnds = 0;
  for (;;) {
    const { next, status, data } = page;
    const terminal = isTerminal(status);
    // A finished job's page that repeats the page before is a loop (only pages of a finished job are compared).
    const identity = data.length > 0 && terminal ? data.map(documentKey).join("\n") : undefined;
    if (identity !== undefined && identity === previous) throw new PaginationLoopError(id, "the job has finished and the server sent the same page again");
    previous = identity;
    seen += data.length;
    yield page;
    let follow: string | undefined;
    if ((terminal || snapshot) && (!next || data.length === 0)) {
      // The end, unless it is an all-zero end the watcher reads once more (from `skip`, after the pause).
      if (!(poll && zeroCounters(page) && zeroEnds++ < 1)) return;
    } else if (next && (data.length > 0 || !poll)) {
      // A `next` already followed is a loop, but after an empty page of a running job (how new results are awaited).
      if (followed.has(next) && (data.length > 0 || terminal)) throw new PaginationLoopError(id, "the server's next link points to a page already read", next);
      followed.add(next);
      follow = next;
    }
    if ((!terminal && data.length === 0) || (!follow && poll)) await delay(pause(), req.signal);
    const url = follow;
    page = await read(() => (url ? getJobPage<TDoc>(http, kind, id, url, req, apiVersion) : readJobStatus<TDoc>(http, kind, id, ownPage({ skip: seen, limit }), req, apiVersion)));
  }
}

/**
 * Every status page of a job, from the first, through {@link walkPages}. Yields each
 * page without the documents an earlier page already held (`identity.ts`). A page request that fails
 * throws; the iteration never ends early as if complete. `snapshot` (internal: the drop-in entry's
 * auto-paginated status read) ends the walk at the last page that exists now, running job or not, where
 * the default waits for a terminal job.
 */
export async function* jobPages<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  optsArg?: JobDocumentsOptions | null,
  requestOptions?: RequestOptions,
  apiVersion: ApiVersion = "v2",
  snapshot = false,
): AsyncGenerator<JobStatus<TDoc>, void, undefined> {
  const opts = checkDocumentsOptions(optsArg);
  const requestChecked = checkRequestOptions(requestOptions);
  yield* pagesOf<TDoc>(http, kind, id, opts, withSignal(requestChecked, opts.signal ?? requestChecked.signal), apiVersion, snapshot);
}

/** The documents iterators' options: the wait family's `signal` and `pollIntervalMs` (a `timeoutMs` too, as a waiter's), and the pagination's `pageLimit`. */
const documentsOptions = z.looseObject({ ...waitShape, pageLimit: z.optional(int(1)) });

/** Checks the options of a documents iterator (`crawlDocuments`, `batchScrapeDocuments`), once: an object, its values JSON data, then its schema. */
export function checkDocumentsOptions(value: JobDocumentsOptions | null | undefined): Checked<JobDocumentsOptions> {
  const opts = optionsArg(value, "documents options");
  checkJsonOptions(opts, "documents options");
  return check(documentsOptions, opts, "documents options") as Checked<JobDocumentsOptions>;
}

/**
 * {@link jobPages} with its options checked already (`waitForJob`'s download, v1's `getAllData`, the AI
 * tools' status read): each page without the documents an earlier page held.
 */
export async function* pagesOf<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  opts: Checked<JobDocumentsOptions>,
  req: Checked<RequestOptions>,
  apiVersion: ApiVersion = "v2",
  snapshot = false,
): AsyncGenerator<JobStatus<TDoc>, void, undefined> {
  const docs = new Set<string>();
  // Stalled jobs (issue 35): with `stallTimeoutMs`, a read of a running job whose counters have not changed for that long throws.
  const stalled = stallCheck({ http, kind, id, apiVersion, request: req }, opts);
  // Paused by the ramp unless the caller set the interval (poll-timing.ts).
  for await (const page of walkPages<TDoc>(http, kind, id, req, apiVersion, { pause: pollPauses(opts.pollIntervalMs), pageLimit: opts.pageLimit, snapshot })) {
    await stalled?.(page);
    // A document the server lists on two pages is yielded once (the watcher's rule, `identity.ts`).
    yield { ...page, data: page.data.filter((d) => firstSeen(docs, d)) };
  }
}

/** Every document of a job, in order (an async iterator over {@link jobPages}); with `opts.schema`, each `json` is parsed before it is yielded. */
export async function* jobDocuments<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  opts?: JobDocumentsOptions | null,
  requestOptions?: RequestOptions,
  apiVersion: ApiVersion = "v2",
): AsyncGenerator<TDoc, void, undefined> {
  for await (const page of jobPages<TDoc>(http, kind, id, opts, requestOptions, apiVersion)) {
    for (const doc of page.data) yield opts?.schema ? ((await validateDocumentsWith(opts.schema, [doc as Document]))[0] as TDoc) : doc;
  }
}
