/**
 * The one walk over a job's status pages ({@link walkPages}): the waiters' download, the document iterators, the
 * drop-in entry's snapshot read, the AI tools' status read, v1's `getAllData` and the watcher's REST polling
 * (`watch-poll.ts`) all read pages through it; what differs between them is data ({@link WalkRules}), not a second
 * loop. It follows the `next` link (re-based onto `apiUrl`, see `status.ts`), reads on from `skip` where there is
 * none, pauses while the job runs, and holds one page at a time.
 *
 * The loop rules (each beside its line in {@link walkPages}: a `PaginationError` with `reason: "loop"`, nothing
 * repeated yielded): a server whose `next` points back to a page already read (or to itself) once made `crawl()`
 * send thousands of requests a second while piling up duplicates. Memory: the URLs followed (one per page) and the
 * identity of one page.
 */
import type { Document } from "../api/document.js";
import { validateDocumentsWith } from "../api/schema.js";
import * as z from "zod/v4/mini";
import { checkJsonOptions, checkRequestOptions, optionsArg, waitShape, withSignal, type Checked } from "../core/options.js";
import { check, int } from "../core/validate.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { delay } from "../core/time.js";
import { isRecord, PaginationError, ValidationError } from "../core/errors.js";
import { getJobPage, isTerminal, ownPage, readJobStatus, stalledJob, stallOf } from "./status.js";
import type { ApiVersion, JobDocumentsOptions, JobKind, JobStatus } from "./types.js";

/** What a user of the walk brings: its pauses, its read rule, its schedule. */
export interface WalkRules<TDoc = Document> {
  /** The next pause before a read that waits on the job, ms (`pollPauses`, the poll numbers of `pages.ts`; the watcher's `pollPause`). */
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
  /** The server offset (`skip`) of the first read, where the walk starts (a resumed document stream). */
  from?: number | undefined;
  /** Told each page's server offset (`skip`) just before the page is yielded: the `skip` of the read, or of the `next` link followed. */
  at?: ((skip: number) => void) | undefined;
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
 * its own way, by the document identity of `pages.ts`), one at a time, until the end. Ends when a terminal page has no `next`
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
  const { pause, pageLimit: limit, snapshot, poll, first, from, at, read = (call) => call() } = rules;
  const followed = new Set<string>();
  let previous: string | undefined;
  let page = first ?? (await read(() => readJobStatus<TDoc>(http, kind, id, ownPage({ skip: from ?? (poll ? 0 : undefined), limit }), req, apiVersion)));
  let seen = first ? 0 : (from ?? 0);
  let offset = seen;
  let zeroEnds = 0;
  for (;;) {
    const { next, status } = page;
    const count = page.data.length;
    const terminal = isTerminal(status);
    // A finished job's page that repeats the page before is a loop (only a finished job's pages are compared: its results no longer change).
    const identity = count > 0 && terminal ? page.data.map(documentKey).join("\n") : undefined;
    if (identity !== undefined && identity === previous) throw new PaginationError(id, "the job has finished and the server sent the same page again", undefined, "loop");
    previous = identity;
    seen += count;
    const zero = zeroCounters(page);
    at?.(offset);
    yield page;
    // Not held while the next page is read (one page in memory, not two).
    page = undefined as unknown as JobStatus<TDoc>;
    let follow: string | undefined;
    if ((terminal || snapshot) && (!next || count === 0)) {
      // The end, unless it is an all-zero end the watcher reads once more (from `skip`, after the pause).
      if (!(poll && zero && zeroEnds++ < 1)) return;
    } else if (next && (count > 0 || !poll)) {
      // A `next` already followed is a loop, but after an empty page of a running job (how new results are awaited).
      if (followed.has(next) && (count > 0 || terminal)) throw new PaginationError(id, "the server's next link points to a page already read", next, "loop");
      followed.add(next);
      follow = next;
    }
    if ((!terminal && count === 0) || (!follow && poll)) await delay(pause(), req.signal);
    const url = follow;
    if (at) offset = (url === undefined ? undefined : skipOf(url)) ?? seen;
    page = await read(() => (url ? getJobPage<TDoc>(http, kind, id, url, req, apiVersion) : readJobStatus<TDoc>(http, kind, id, ownPage({ skip: seen, limit }), req, apiVersion)));
  }
}

/** The `skip` of a `next` link, when it states one as a whole number. */
function skipOf(url: string): number | undefined {
  let raw: string | null = null;
  try {
    raw = new URL(url, "http://x").searchParams.get("skip");
  } catch {
    // not a URL: the read of it throws PaginationError (`status.ts` nextPagePath)
  }
  const n = Number(raw);
  return raw !== null && raw !== "" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Every status page of a job, from the first, through {@link walkPages}. Yields each
 * page without the documents an earlier page already held (the document identity of `pages.ts`). A page request that fails
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

/** The documents iterators' options: the wait family's `signal` and `pollIntervalMs` (a `timeoutMs` too, as a waiter's), the pagination's `pageLimit`, and `resumeFrom`. */
const documentsOptions = z.looseObject({
  ...waitShape,
  pageLimit: z.optional(int(1)),
  resumeFrom: z.optional(
    z.string().check(z.refine((s) => decodePosition(s) !== undefined, { error: "expected a position read from crawlDocuments() or batchScrapeDocuments() (its `position`), unchanged" })),
  ),
});

/** Checks the options of a documents iterator (`crawlDocuments`, `batchScrapeDocuments`), once: an object, its values JSON data, then its schema. */
export function checkDocumentsOptions(value: JobDocumentsOptions | null | undefined): Checked<JobDocumentsOptions> {
  const opts = optionsArg(value, "documents options");
  checkJsonOptions(opts, "documents options");
  return check(documentsOptions, opts, "documents options") as Checked<JobDocumentsOptions>;
}

/**
 * Where a document stream stands (its `position`, base64url JSON): the job, the server offset (`skip`) of
 * the page the last document came from, how many of that page's documents (repeats included) were read,
 * and the offset of the page before it with documents (read again on resume, so a document the server
 * repeats from it is still dropped).
 */
interface Position {
  v: 1;
  job: string;
  kind: JobKind;
  skip: number;
  index: number;
  prev?: number | undefined;
}

const isOffset = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

function encodePosition(p: Position): string {
  let bin = "";
  for (const b of new TextEncoder().encode(JSON.stringify(p))) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The {@link Position} a string encodes, or undefined when it is not one. */
function decodePosition(s: string): Position | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  let p: unknown;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    p = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch {
    return undefined;
  }
  if (typeof p !== "object" || p === null) return undefined;
  const { v, job, kind, skip, index, prev } = p as Record<string, unknown>;
  const ok = v === 1 && typeof job === "string" && job !== "" && (kind === "crawl" || kind === "batch") && isOffset(skip) && isOffset(index) && (prev === undefined || (isOffset(prev) && prev <= skip));
  return ok ? (p as Position) : undefined;
}

/** The position a stream of job `id` resumes from (`resumeFrom`, checked by the schema already): a `ValidationError` when it is another job's. */
function resumePoint(kind: JobKind, id: string, resumeFrom: string): Position {
  const p = decodePosition(resumeFrom)!;
  if (p.job !== id || p.kind !== kind) {
    const what = (k: JobKind, j: string) => `${k === "batch" ? "batch scrape" : "crawl"} ${j}`;
    throw new ValidationError([{ path: "resumeFrom", message: `is a position of ${what(p.kind, p.job)}, not of ${what(kind, id)}` }], "documents options");
  }
  return p;
}

/**
 * A job's documents as an async iterator, with {@link DocumentStream.position}: what `crawlDocuments` and
 * `batchScrapeDocuments` return.
 */
export interface DocumentStream<TDoc> extends AsyncGenerator<TDoc, void, undefined> {
  /**
   * Where the stream stands: after the last document it yielded (before the first, where it starts).
   * Persist it after handling each document and pass it back as `resumeFrom` (to the same method, the same
   * job id, any client, any process) to continue with the next document. An opaque string: do not build
   * or edit one. Exact for a finished job (its pages do not change): nothing lost, nothing repeated (the
   * page before the position is read again, so a document the server repeats across a page boundary is
   * still dropped). Taken while the job was still scraping, the resumed stream reads on from the same
   * server offset, but the service may still move results while it scrapes: a document it moves across
   * that offset can come again (or, as for any reader of a running job, be missed). Where that matters,
   * de-duplicate on `metadata.scrapeId`, or resume once the job has finished.
   */
  readonly position: string;
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
  const memory = new DocumentMemory();
  let skip = 0;
  const stalled = http.state.stall?.check(stalledJob(http, kind, id, apiVersion, req), opts);
  for await (const page of walkPages<TDoc>(http, kind, id, req, apiVersion, { pause: pollPauses(opts.pollIntervalMs), pageLimit: opts.pageLimit, snapshot, at: (s) => (skip = s) })) {
    await stalled?.(page);
    if (page.data.length > 0) memory.page(isTerminal(page.status), skip, page.data.length);
    yield { ...page, data: page.data.filter((d, i) => memory.first(d, i)) };
  }
}

/**
 * Every document of a job, in order, as a {@link DocumentStream} (its options checked on the first read);
 * with `opts.schema`, each `json` is parsed before it is yielded; with `opts.resumeFrom`, from the document
 * after that position.
 */
export function jobDocuments<TDoc = Document>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  optsArg?: JobDocumentsOptions | null,
  requestOptions?: RequestOptions,
  apiVersion: ApiVersion = "v2",
): DocumentStream<TDoc> {
  const from = optsArg?.resumeFrom;
  // Where the stream stands, as numbers (encoded only when `position` is read): the resume point given, or the start.
  const state: StreamState = { given: typeof from === "string" ? from : undefined, skip: 0, index: 0, prev: undefined };
  const stream = documentsOf<TDoc>(http, kind, id, optsArg, requestOptions, apiVersion, state);
  const position = () =>
    state.given ?? encodePosition({ v: 1, job: id, kind, skip: state.skip, index: state.index, ...(state.prev !== undefined ? { prev: state.prev } : {}) });
  return Object.defineProperty(stream, "position", { get: position, enumerable: true }) as DocumentStream<TDoc>;
}

/** A stream's place: the `resumeFrom` it was given until it yields, then the page offset, documents read of it, and the page before. */
interface StreamState {
  given: string | undefined;
  skip: number;
  index: number;
  prev: number | undefined;
}

/** A document stream's walk, set up from its checked options: the pages' walk, where it resumes, the stall check, and the walk's current offset. */
function streamWalk<TDoc>(http: HttpClient, kind: JobKind, id: string, optsArg: JobDocumentsOptions | null | undefined, requestOptions: RequestOptions | undefined, apiVersion: ApiVersion) {
  const opts = checkDocumentsOptions(optsArg);
  const requestChecked = checkRequestOptions(requestOptions);
  const start = opts.resumeFrom === undefined ? undefined : resumePoint(kind, id, opts.resumeFrom);
  const at = { skip: 0 };
  const rules: WalkRules<TDoc> = { pause: pollPauses(opts.pollIntervalMs), pageLimit: opts.pageLimit, from: start && (start.prev ?? start.skip), at: (s) => (at.skip = s) };
  return {
    opts,
    at,
    walk: walkPages<TDoc>(http, kind, id, withSignal(requestChecked, opts.signal ?? requestChecked.signal), apiVersion, rules),
    // Documents below this server offset were delivered before: read again (the page before, for the repeats it drops), not yielded.
    until: start ? start.skip + start.index : 0,
    stalled: stallOf(http, opts, "documents options")?.check(stalledJob(http, kind, id, apiVersion, requestChecked), opts),
  };
}

async function* documentsOf<TDoc>(
  http: HttpClient,
  kind: JobKind,
  id: string,
  optsArg: JobDocumentsOptions | null | undefined,
  requestOptions: RequestOptions | undefined,
  apiVersion: ApiVersion,
  state: StreamState,
): AsyncGenerator<TDoc, void, undefined> {
  const { opts, at, walk, until, stalled } = streamWalk<TDoc>(http, kind, id, optsArg, requestOptions, apiVersion);
  const memory = new DocumentMemory();
  let current: number | undefined;
  let prev: number | undefined;
  try {
    for (;;) {
      let step: IteratorResult<JobStatus<TDoc>, void> | undefined = await walk.next();
      if (step.done) return;
      await stalled?.(step.value);
      // The page is not held while the next one is read (one page in memory).
      let data: TDoc[] | undefined = step.value.data;
      const finished = isTerminal(step.value.status);
      const skip = at.skip;
      step = undefined;
      if (data.length === 0) continue;
      memory.page(finished, skip, data.length);
      if (current !== undefined && current !== skip) prev = current;
      current = skip;
      for (let i = 0; i < data.length; i++) {
        const doc = data[i]!;
        // Every document is recorded (a repeat of it later is dropped); one the server repeats is not yielded, nor one below the resume point.
        if (!memory.first(doc, i) || skip + i < until) continue;
        const out = opts.schema ? ((await validateDocumentsWith(opts.schema, [doc as unknown as Document]))[0] as TDoc) : doc;
        Object.assign(state, { given: undefined, skip, index: i + 1, prev });
        yield out;
      }
      data = undefined;
    }
  } finally {
    await walk.return();
  }
}

/*
 * Every polling number of the SDK, stated once: the waiters (`crawl`, `batchScrape`, `extract`, `agent`), the
 * document iterators, the watcher's REST polling and the v1 waiters all read them from here. The public floor holds
 * everywhere; only our own tests, against the in-process fake, may poll faster ({@link POLL_FLOOR_OPTION}).
 *
 * Why the ramp ({@link pollPauses}): a job's first document (or a short job's end) is seen within about a quarter
 * of a second of 1 s instead of at 2 s, for at most 1.5x the status reads of a fixed 2 s schedule (a 5 s job: 6
 * reads instead of 4; a 60 s job: 34 instead of 31; `test/poll-ramp.test.ts`).
 */
/** Default time between status polls, ms (waiters, `crawlDocuments`, the watcher). */
export const DEFAULT_POLL_INTERVAL_MS = 2000;

/** The public floor: a shorter `pollIntervalMs` is raised to this, ms. */
export const MIN_POLL_INTERVAL_MS = 500;

/** Poll interval of the v1 `extract` waiter (the v1 library polled every second), ms. */
export const V1_EXTRACT_POLL_MS = 1000;

/** Poll interval of the v1 `generateLLMsText` and `deepResearch` waiters (the v1 library polled every 2 s), ms. */
export const V1_TASK_POLL_MS = 2000;

/** Default `pollInterval` of v1 `crawlUrl` / `batchScrapeUrls`, in SECONDS (the v1 library's unit). */
export const V1_DEFAULT_POLL_SECONDS = 2;

/**
 * @internal Key of a test-only option that lowers the floor (for example to
 * 50 ms, so a watcher test against the in-process fake does not wait 500 ms a
 * poll). Not part of the public options; a registry symbol, so tests of the
 * built package can pass it too.
 */
export const POLL_FLOOR_OPTION: unique symbol = Symbol.for("webdata.internal.minPollIntervalMs");

/** Options that may carry the internal floor. */
export interface PollFloorOption {
  /** @internal See {@link POLL_FLOOR_OPTION}. */
  [POLL_FLOOR_OPTION]?: number | undefined;
}

/**
 * The poll interval in force: the caller's `pollIntervalMs`, raised to the
 * floor ({@link MIN_POLL_INTERVAL_MS}, or the internal test floor when given),
 * else {@link DEFAULT_POLL_INTERVAL_MS}.
 */
export function pollInterval(ms: number | undefined, options?: PollFloorOption): number {
  if (ms === undefined || !Number.isFinite(ms)) return DEFAULT_POLL_INTERVAL_MS;
  const floor = options?.[POLL_FLOOR_OPTION];
  return Math.max(typeof floor === "number" && floor >= 0 ? floor : MIN_POLL_INTERVAL_MS, ms);
}

/**
 * The pauses between one poll loop's status reads, in order: call the returned function before each
 * pause. With `pollIntervalMs` given, every pause is {@link pollInterval} of it (the caller's interval,
 * raised to the floor). Without one, the pauses ramp from the floor ({@link MIN_POLL_INTERVAL_MS}) by
 * 1.5x up to {@link DEFAULT_POLL_INTERVAL_MS}: 500, 750, 1125, 1687.5, then 2000 ms (the internal test
 * floor lowers neither). Used by the waiters' poll loop, the document iterators and the watcher's REST polling.
 */
export function pollPauses(ms: number | undefined, options?: PollFloorOption): () => number {
  const interval = pollInterval(ms, options);
  let next = ms !== undefined && Number.isFinite(ms) ? interval : MIN_POLL_INTERVAL_MS;
  return () => {
    const pause = Math.min(next, interval);
    next = pause * 1.5;
    return pause;
  };
}

/*
 * What makes two documents of a job the same, in one home: the watcher, the pagination walk (`crawlDocuments`,
 * `crawl()`, the watcher's REST reads), the drop-in's snapshot read and the walk's loop rule all use it, so a
 * document the server repeats (on two pages, or on a socket and a page) is delivered once wherever it comes from.
 */
/** The identity of a document: `metadata.scrapeId`, else `metadata.sourceURL`/`url`, else its JSON. */
export function documentKey(doc: unknown): string {
  const d = isRecord(doc) ? doc : {};
  const m = isRecord(d.metadata) ? d.metadata : {};
  for (const [name, v] of [["id", m.scrapeId], ["src", m.sourceURL], ["url", m.url], ["url", d.url]] as const) {
    if (typeof v === "string" && v) return `${name}:${v}`;
  }
  return `json:${JSON.stringify(doc)}`;
}

/**
 * Records `doc` in `seen` (the keys of one job's documents so far): true when it was not seen before
 * (deliver it), false for a repeat (drop it). Memory: one key per distinct document.
 */
export function firstSeen(seen: Set<string>, doc: unknown): boolean {
  const key = documentKey(doc);
  return !seen.has(key) && !!seen.add(key);
}

/**
 * The identities a document iterator remembers, bounded by what the server can repeat: a
 * finished job's pages do not change, so a document it repeats is one of the page just before (the
 * server's `next` steps back over documents it dropped from a page), or one at a server offset already
 * read (a `next` that leads back); a page read while the job was still scraping can shift as results land,
 * so its documents are remembered until the walk ends. Memory: the keys of two pages, plus one key per
 * document read while the job ran (none for a finished job).
 */
export class DocumentMemory {
  /** Keys of the documents of pages read while the job ran. */
  #running = new Set<string>();
  /** Keys of the finished job's page before the current one, and of the current one. */
  #previous = new Set<string>();
  #current = new Set<string>();
  #live = false;
  /** The furthest server offset a finished job's page reached (its `skip` + its documents). */
  #furthest = 0;
  /** Documents at the start of the current page that lie below {@link #furthest}: read already. */
  #behind = 0;

  /**
   * Starts a page that has documents: `finished` when the job was terminal as it was read, `skip` its
   * server offset, `length` its documents.
   */
  page(finished: boolean, skip: number, length: number): void {
    this.#previous = this.#current;
    this.#current = new Set<string>();
    this.#live = !finished;
    this.#behind = finished ? Math.max(0, this.#furthest - skip) : 0;
    if (finished) this.#furthest = Math.max(this.#furthest, skip + length);
  }

  /** True when the page's document `i`, `doc`, was not seen before (deliver it), false for a repeat (drop it); records it. */
  first(doc: unknown, i: number): boolean {
    const key = documentKey(doc);
    const repeat = i < this.#behind || this.#current.has(key) || this.#previous.has(key) || this.#running.has(key);
    (this.#live ? this.#running : this.#current).add(key);
    return !repeat;
  }
}
