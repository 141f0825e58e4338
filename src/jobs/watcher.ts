/**
 * `client.watcher(jobId)`: live events of a crawl or batch scrape, as an async iterable and through `on(type, listener)`.
 *
 * Transports, in order: the service's WebSocket (with `webdata/websocket`'s plugin, built into the Node entry: where
 * `globalThis.WebSocket` exists or one is passed as `webSocket`), server-sent events (with `webdata/sse`'s plugin, when
 * the server answers the status URL with `text/event-stream`), REST polling otherwise. After any drop the result pages
 * are read once more at the end, so no document is lost. A transport refused or not offered (an upgrade answered 404,
 * a status answered with JSON, no WebSocket in the runtime) is a fallback, not an error, whatever ran before in the
 * process. A fatal error (a 4xx from the API, repeated poll failures, abort) stops the watcher.
 */
import type { Document } from "../api/document.js";
import { AbortError, isRecord, ValidationError, WebDataError } from "../core/errors.js";
import { after, delay, idleTimer, type IdleTimer, onAbort as linkAbort } from "../core/time.js";
import { checkJsonOptions, checkRequestOptions, NO_OPTIONS, optionsArg, waitShape, withSignal, type Checked } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { reconnectDelayMs } from "../core/retry.js";
import * as z from "zod/v4/mini";
import { check, int } from "../core/validate.js";
import { firstSeen, type PollFloorOption, pollPauses } from "./pages.js";
import { rejectOfficialKeys } from "../api/endpoint.js";
import { jobPath, stalledJob, stallOf, toJobStatus, wasCancelled } from "./status.js";
import { pluginMissing } from "../core/client-state.js";
import type { ApiVersion, JobKind } from "./types.js";
import type { StallProgress } from "../core/client-state.js";
import { expiredOr } from "../api/job-starts.js";
import { type SessionEnd, type WatchContext, type WebSocketTransport } from "./watch-context.js";
import { pollToEnd } from "./watch-poll.js";
import type { WatchCounters, WatchEvent, WatchEventType, WatcherOptions } from "./watch-types.js";

type Listener<TDoc> = (event: WatchEvent<TDoc>) => void;

const EVENT_TYPES: readonly string[] = ["document", "status", "done", "error"];

/**
 * Throws a `ValidationError` for an event type a watcher never emits (`on("snapshot")`, a typo), so a listener is never
 * silently left waiting: code written for the official client's watcher events fails loudly.
 */
function checkEventType(type: unknown): void {
  if (typeof type === "string" && EVENT_TYPES.includes(type)) return;
  const message =
    type === "snapshot"
      ? '"snapshot" is the official client\'s event; webdata\'s is "status" (or import Firecrawl from "webdata/firecrawl")'
      : `must be "document", "status", "done" or "error", got ${JSON.stringify(type)}`;
  throw new ValidationError([{ path: "type", message }], "watcher event");
}

/** Watcher options plus the internal test-only poll floor. */
export type WatchOptions = WatcherOptions & PollFloorOption;

/** What the SDK itself hands a watcher beside the caller's options (never read from them, so no options object can change them). */
export interface WatchInternals {
  /** Route version (the v1 layer watches `/v1/...`); default `v2`. */
  apiVersion?: ApiVersion | undefined;
  /** The call's request options, applied to every REST read (checked once, by {@link createWatcher}). */
  requestOptions?: RequestOptions | undefined;
}

/** What {@link createWatcher} hands the watcher: its internals with the request options checked. */
type CheckedInternals = WatchInternals & { requestOptions: Checked<RequestOptions> };

/** Live events of one job. Nothing is opened until you iterate it or add a listener. */
export class Watcher<TDoc = Document> implements AsyncIterable<WatchEvent<TDoc>> {
  /** The job watched. */
  readonly jobId: string;
  readonly #http: HttpClient;
  readonly #options: WatchOptions;
  readonly #internals: CheckedInternals;
  readonly #ctl = new AbortController();
  readonly #listeners = new Map<WatchEventType, Set<Listener<TDoc>>>();
  readonly #seen = new Set<string>();
  readonly #queue: WatchEvent<TDoc>[] = [];
  #wake: (() => void) | undefined;
  #drained: (() => void) | undefined;
  #started = false;
  #finish: () => void = () => undefined;
  readonly #finished = new Promise<void>((resolve) => (this.#finish = resolve));
  #iterating = false;
  #ended = false;
  #fatal: unknown;
  #lastStatus = "";
  readonly #invalid: unknown;
  // Stall detection: the job's progress and the timer of `stallTimeoutMs` (from the start; paused while the consumer holds events back).
  #progress: StallProgress | undefined;
  #stall: IdleTimer | undefined;

  /** @internal Use `client.watcher(jobId, options)`. */
  constructor(http: HttpClient, jobId: string, options: WatchOptions = {}, invalid?: unknown, internals: CheckedInternals = { requestOptions: NO_OPTIONS }) {
    this.#http = http;
    this.jobId = jobId;
    this.#options = options;
    this.#internals = internals;
    this.#invalid = invalid;
    const signal = invalid === undefined ? options.signal : undefined;
    if (signal) {
      const onAbort = () => this.#stop(new AbortError(undefined, { cause: signal.reason }));
      if (signal.aborted) queueMicrotask(onAbort);
      else this.#ctl.signal.addEventListener("abort", linkAbort(signal, onAbort), { once: true }); // one listener per signal, however many watchers share it
    }
  }

  /**
   * Calls `listener` for every event of `type` (listener exceptions are
   * reported asynchronously, as DOM events do, and do not stop the watcher).
   * Starts the watcher. Returns a function that removes the listener.
   */
  on<K extends WatchEventType>(type: K, listener: (event: Extract<WatchEvent<TDoc>, { type: K }>) => void): () => void {
    try {
      checkEventType(type);
    } catch (err) {
      this.#stop(err); // a listener that would never be called stops the watcher, loudly
      throw err;
    }
    const set = this.#listeners.get(type) ?? new Set<Listener<TDoc>>();
    set.add(listener as Listener<TDoc>);
    this.#listeners.set(type, set);
    this.#start();
    return () => set.delete(listener as Listener<TDoc>);
  }

  /**
   * Starts the watcher (as the official client's `start()` does) and resolves once it has
   * ended: after `done`, a fatal error (delivered to `on("error")`) or `close()`. Never rejects.
   */
  start(): Promise<void> {
    this.#start();
    return this.#finished;
  }

  /** Stops watching: closes the socket or stream; the iteration ends without an error. Idempotent. */
  close(): void {
    this.#stop(undefined);
  }

  /** Iterates the events (once per watcher). `break` closes the watcher. */
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<TDoc>> {
    if (this.#iterating) throw new WebDataError("A watcher can be iterated only once; use on() for more consumers");
    this.#iterating = true;
    this.#start();
    return {
      next: async () => {
        for (;;) {
          const event = this.#queue.shift();
          if (event) {
            if (this.#queue.length === 0) this.#releaseDrain();
            return { value: event, done: false };
          }
          if (this.#ended) {
            const fatal = this.#fatal;
            this.#fatal = undefined;
            if (fatal !== undefined) throw fatal;
            return { value: undefined, done: true };
          }
          await new Promise<void>((resolve) => (this.#wake = resolve));
        }
      },
      return: async () => {
        this.close();
        this.#queue.length = 0;
        this.#fatal = undefined;
        return { value: undefined, done: true };
      },
    };
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    queueMicrotask(() => {
      if (this.#ended) return;
      this.#run().then(
        () => this.#stop(undefined),
        (err: unknown) => this.#stop(this.#ctl.signal.aborted && !(err instanceof AbortError) ? undefined : err),
      );
    });
  }

  #emit(event: WatchEvent<TDoc>): void {
    if (this.#ended) return;
    // The redaction boundary of the watcher's errors (a socket's or stream's, a REST read's), as of the request path's.
    if (event.type === "error") this.#http.redactError(event.error);
    if (this.#iterating && !(event.type === "error" && event.fatal)) this.#queue.push(event);
    for (const listener of this.#listeners.get(event.type) ?? []) {
      try {
        listener(event);
      } catch (err) {
        after(0, () => {
          throw err;
        });
      }
    }
    this.#wake?.();
    this.#wake = undefined;
  }

  #releaseDrain(): void {
    this.#drained?.();
    this.#drained = undefined;
  }

  #stop(failure: unknown): void {
    if (this.#ended) return;
    this.#stall?.stop();
    const err = expiredOr(this.#http, this.jobId, failure); // a 404 of an expired job is `JobExpiredError` (results dropped 24 h after the start), on every transport
    if (err !== undefined) {
      const error = err instanceof WebDataError ? err : new WebDataError(`Watcher failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      this.#emit({ type: "error", error, fatal: true });
      this.#fatal = error;
    }
    this.#ended = true;
    this.#finish();
    this.#ctl.abort();
    this.#releaseDrain();
    this.#wake?.();
    this.#wake = undefined;
  }

  #context(pollPause: () => number): WatchContext {
    const self = this;
    return {
      http: this.#http,
      kind: this.#options.kind ?? "crawl",
      id: this.jobId,
      apiVersion: this.#internals.apiVersion ?? "v2",
      signal: this.#ctl.signal,
      request: withSignal(this.#internals.requestOptions, undefined),
      pollPause,
      progress: 0,
      lastEventId: undefined,
      get delivered() {
        return self.#seen.size;
      },
      document(doc) {
        if (!firstSeen(self.#seen, doc)) return false;
        self.#progress?.moved();
        self.#stall?.heard();
        this.progress += 1;
        self.#emit({ type: "document", document: doc as TDoc });
        return true;
      },
      status(raw) {
        const { status, completed, total, creditsUsed } = toJobStatus(raw, self.jobId); // a REST page, WS catchup or SSE `status`
        if (self.#progress?.see({ status, completed, total })) self.#stall?.heard();
        const key = `${status}|${completed}|${total}|${creditsUsed}`;
        if (key === self.#lastStatus) return;
        self.#lastStatus = key;
        this.progress += 1;
        self.#emit({ type: "status", status, completed, total, creditsUsed });
      },
      error(error) {
        self.#emit({ type: "error", error, fatal: false });
      },
      drain() {
        if (!self.#iterating || self.#queue.length === 0 || self.#ended) return Promise.resolve();
        self.#stall?.pause(); // a consumer that holds events back is not a stalled job
        return new Promise<void>((resolve) => {
          const prev = self.#drained;
          self.#drained = () => {
            prev?.();
            self.#stall?.resume();
            resolve();
          };
        });
      },
    };
  }

  /** Says in the debug log that a transport was not available and the next one takes over: a fallback, never an `error` event. */
  #fallback(from: string, why: string, to: string): void {
    this.#http.log("debug", `webdata: watcher of ${this.jobId}: ${from} not used: ${why}; falling back to ${to === "poll" ? "polling" : to}`);
  }

  /** Starts the stall timer of `stallTimeoutMs` (no change of status, completed or total for that long): when it fires, the job is cancelled with `cancelOnStall`, then the watcher stops with `JobStalledError`. */
  #watchStall(o: WatchOptions): void {
    const stall = stallOf(this.#http, o, "watcher options");
    if (!stall || o.stallTimeoutMs === undefined) return;
    const progress = (this.#progress = stall.progress()); // counted from the watcher's start
    const job = stalledJob(this.#http, o.kind ?? "crawl", this.jobId, this.#internals.apiVersion ?? "v2", this.#internals.requestOptions);
    this.#stall = idleTimer(o.stallTimeoutMs, () => {
      if (this.#ended) return;
      stall.stalled(job, progress, o.cancelOnStall).then(
        (err) => this.#stop(err),
        (err: unknown) => this.#stop(err),
      );
    });
  }

  async #run(): Promise<void> {
    if (this.#invalid !== undefined) throw this.#invalid;
    const o = this.#options;
    this.#watchStall(o);
    const ctx = this.#context(pollPauses(o.pollIntervalMs, o));
    // The push transports are plugins (`webdata/websocket`, built into the Node entry; `webdata/sse`): the default order skips each one absent.
    const runSse = this.#http.state.sse as ((c: WatchContext) => Promise<SessionEnd>) | undefined;
    const ws = this.#http.state.ws as WebSocketTransport | undefined;
    const asked = (o.transports ?? ["websocket", "sse", "poll"]).filter((t) => (t === "sse" ? runSse : t === "websocket" ? ws : true));
    const Ctor = ws && asked.includes("websocket") ? await ws.find(this.#http, this.jobId, o) : undefined;
    const order = asked.filter((t) => t !== "websocket" || Ctor);
    const maxReconnects = o.maxReconnects ?? 3;
    let clean = true;
    let streamDone = false;
    for (let i = 0, tries = 0; i < order.length && order[i] !== "poll"; ) {
      const before = ctx.progress;
      const end: SessionEnd = order[i] === "websocket" && Ctor ? await ws!.run(ctx, Ctor) : await runSse!(ctx);
      if (end.kind === "aborted" || this.#ctl.signal.aborted) return;
      if (end.kind === "done") {
        streamDone = true;
        break;
      }
      if (end.error) ctx.error(end.error);
      else if (end.kind === "unavailable") this.#fallback(order[i] ?? "", end.note ?? "it is not available", order[i + 1] ?? "poll");
      if (end.kind === "dropped") {
        clean = false;
        tries = ctx.progress > before ? 1 : tries + 1;
        if (tries <= maxReconnects && (await reconnectPause(tries, this.#ctl.signal))) continue;
      }
      i += 1;
      tries = 0;
      ctx.lastEventId = undefined;
    }
    const final = await pollToEnd(ctx, { quick: streamDone && clean, maxFailures: o.maxPollFailures ?? 5 });
    const counters: WatchCounters = { status: final.status, completed: final.completed, total: final.total, creditsUsed: final.creditsUsed };
    if (counters.status === "completed" && wasCancelled(this.#http, this.jobId)) counters.status = "cancelled";
    this.#emit({ type: "done", ...counters, error: final.error });
  }
}

/** Waits before reconnect number `tries` (the reconnect backoff of `core/retry.ts`): false when the watcher was stopped meanwhile. */
function reconnectPause(tries: number, signal: AbortSignal): Promise<boolean> {
  return delay(reconnectDelayMs(tries), signal).then(
    () => true,
    () => false,
  );
}

/** The watcher's options, one schema: its own fields, and `signal` and `pollIntervalMs` as the waiters' (bounded as crawl()'s: at most what a timer holds). */
const watcherOptions = z.looseObject({
  signal: waitShape.signal,
  pollIntervalMs: waitShape.pollIntervalMs,
  stallTimeoutMs: waitShape.stallTimeoutMs,
  cancelOnStall: waitShape.cancelOnStall,
  kind: z.optional(z.enum(["crawl", "batch"])),
  maxReconnects: z.optional(int(0)),
  maxPollFailures: z.optional(int(1)),
  transports: z.optional(z.array(z.enum(["websocket", "sse", "poll"]))),
});

const jobIdSchema = z.string().check(z.minLength(1));

/**
 * Creates a {@link Watcher}. Bad arguments never throw here: the watcher fails
 * at once with a `ValidationError` (the iteration throws it, `on("error")` gets
 * it) before anything is opened or sent.
 */
export function createWatcher<TDoc = Document>(http: HttpClient, jobId: string, options: WatchOptions = {}, internals: WatchInternals = {}): Watcher<TDoc> {
  let invalid: unknown;
  let requestOptions: Checked<RequestOptions> = NO_OPTIONS;
  try {
    check(jobIdSchema, jobId, "job id");
    const opts = optionsArg(options, "watcher options");
    checkJsonOptions(opts, "watcher options");
    check(watcherOptions, opts, "watcher options");
    requestOptions = checkRequestOptions(internals.requestOptions);
    rejectOfficialKeys("watcher", opts, "watcher options");
    // A push transport asked for by name (or a WebSocket class given) needs its plugin: the default order skips each one absent.
    if (opts.transports?.includes("sse") && !http.state.sse) throw pluginMissing("sse", "transports", "watcher options", "the \"sse\" transport");
    if (opts.transports?.includes("websocket") && !http.state.ws) throw pluginMissing("websocket", "transports", "watcher options", "the \"websocket\" transport");
    if (opts.webSocket !== undefined && !http.state.ws) throw pluginMissing("websocket", "webSocket", "watcher options");
    jobPath(opts.kind ?? "crawl", jobId);
  } catch (err) {
    invalid = err;
  }
  // A bad id is reported by `invalid`; its text is only for messages (some values cannot become a string).
  return new Watcher<TDoc>(http, typeof jobId === "string" ? jobId : printable(jobId), isRecord(options) ? options : {}, invalid, { apiVersion: internals.apiVersion, requestOptions });
}

function printable(v: unknown): string {
  try {
    return String(v);
  } catch {
    return Object.prototype.toString.call(v);
  }
}

/** `createWatcher` with the kind first (used by the v1 layer with `apiVersion: "v1"`). */
export function watch<TDoc = Document>(http: HttpClient, kind: JobKind, jobId: string, options: Omit<WatchOptions, "kind"> = {}, internals: WatchInternals = {}): Watcher<TDoc> {
  return createWatcher<TDoc>(http, jobId, { ...options, kind }, internals);
}
