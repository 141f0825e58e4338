/**
 * The official client's watcher, over webdata's, with the official events
 * ({@link FirecrawlWatcherEvents}).
 *
 * Underneath is webdata's watcher (WebSocket, server-sent events or polling,
 * every document once, the end confirmed over REST). Where the official one is
 * defective this one is not: `done` carries the job's real final status (a
 * failed job is `failed`, not `completed`); a dropped socket is reconnected or
 * replaced by polling instead of ending in `error`; `error` fires once, when
 * the watcher has stopped, never for a recovered hiccup.
 */
import type { Document } from "../api/document.js";
import { ValidationError } from "../core/errors.js";
import { after } from "../core/time.js";
import type { JobKind, JobState, JobStatus } from "../jobs/types.js";
import type { Watcher } from "../jobs/watcher.js";

/** Options of the official `watcher(jobId, options)`. */
export interface FirecrawlWatcherOptions {
  /** `crawl` (default) or `batch`. */
  kind?: JobKind | undefined;
  /** Seconds between status reads when polling (default 2). */
  pollInterval?: number | undefined;
  /** Seconds before the watcher stops with an `error` event ("Watcher timeout"). */
  timeout?: number | undefined;
}

/** A `snapshot` event: the job's counters and the documents received so far. */
export interface WatcherSnapshot extends Pick<JobStatus, "id" | "status" | "completed" | "total" | "creditsUsed"> {
  /** The documents received so far (the same array on every event, growing). */
  data: Document[];
}

/** The `done` event: the final status (the last snapshot's fields) with every document. */
export interface WatcherDone extends WatcherSnapshot {
  /** The final status (`completed`, `failed` or `cancelled`). */
  status: JobState;
  /** Every document. */
  data: Document[];
  /** The server's error text of a failed job. */
  error?: string | undefined;
}

/** The `error` event: the watcher has stopped. */
export interface WatcherError {
  /** Always `failed` (the official shape). */
  status: "failed";
  /** The documents received before it stopped. */
  data: Document[];
  /** What stopped it (the SDK error's message, or "Watcher timeout"). */
  error: string;
  /** The job id. */
  id: string;
  /** The SDK's typed error, when one stopped it. */
  cause?: unknown;
}

/** The payload of each official watcher event. */
export interface FirecrawlWatcherEvents {
  /**
   * A document, with the job id. Its `metadata.sourceURL` is always there (the server sends it with every page of a
   * crawl or batch scrape; else the page's `metadata.url`, else empty), so official code such as `(doc) => urls.push(doc.metadata?.sourceURL)` compiles as it
   * does against the official listener's untyped argument.
   */
  document: Document & { id: string; metadata: NonNullable<Document["metadata"]> & { sourceURL: string } };
  /** The job's counters changed. */
  snapshot: WatcherSnapshot;
  /** The job ended. */
  done: WatcherDone;
  /** The watcher stopped. */
  error: WatcherError;
}

type Listener = (payload: never) => void;

const EVENTS: readonly string[] = ["document", "snapshot", "done", "error"];

/** The official client's event-emitter watcher (`app.watcher(jobId, options)`). */
export class FirecrawlWatcher {
  readonly jobId: string;
  readonly #timeoutMs: number | undefined;
  readonly #make: (signal: AbortSignal) => Watcher;
  readonly #listeners = new Map<string, { fn: Listener; once: boolean }[]>();
  readonly #ctl = new AbortController();
  #run: Promise<void> | undefined;

  /** @internal Use `app.watcher(jobId, options)`. */
  constructor(jobId: string, timeoutMs: number | undefined, make: (signal: AbortSignal) => Watcher) {
    this.jobId = jobId;
    this.#timeoutMs = timeoutMs;
    this.#make = make;
  }

  /** Adds a listener (`document`, `snapshot`, `done` or `error`; another name is a `ValidationError`). */
  on<K extends keyof FirecrawlWatcherEvents>(event: K, listener: (payload: FirecrawlWatcherEvents[K]) => void): this {
    return this.#add(event, listener as Listener, false);
  }

  /** {@link on}, by its other name. */
  addListener<K extends keyof FirecrawlWatcherEvents>(event: K, listener: (payload: FirecrawlWatcherEvents[K]) => void): this {
    return this.#add(event, listener as Listener, false);
  }

  /** Adds a listener called once. */
  once<K extends keyof FirecrawlWatcherEvents>(event: K, listener: (payload: FirecrawlWatcherEvents[K]) => void): this {
    return this.#add(event, listener as Listener, true);
  }

  /** Removes a listener. */
  off<K extends keyof FirecrawlWatcherEvents>(event: K, listener: (payload: FirecrawlWatcherEvents[K]) => void): this {
    const list = this.#listeners.get(event);
    const at = list?.findIndex((l) => l.fn === (listener as Listener)) ?? -1;
    if (at >= 0) list!.splice(at, 1);
    return this;
  }

  /** {@link off}, by its other name. */
  removeListener<K extends keyof FirecrawlWatcherEvents>(event: K, listener: (payload: FirecrawlWatcherEvents[K]) => void): this {
    return this.off(event, listener);
  }

  /** Starts watching; resolves after `done` or `error` (or `close()`). Never rejects. Calling it again returns the same promise. */
  start(): Promise<void> {
    return (this.#run ??= this.#watch());
  }

  /** Stops watching (no further events). */
  close(): void {
    this.#ctl.abort();
  }

  #add(event: string, fn: Listener, once: boolean): this {
    if (!EVENTS.includes(event)) throw new ValidationError([{ path: "event", message: `must be "document", "snapshot", "done" or "error", got ${JSON.stringify(event)}` }], "watcher event");
    const list = this.#listeners.get(event) ?? [];
    list.push({ fn, once });
    this.#listeners.set(event, list);
    return this;
  }

  #emit<K extends keyof FirecrawlWatcherEvents>(event: K, payload: FirecrawlWatcherEvents[K]): void {
    const list = this.#listeners.get(event);
    if (!list) return;
    for (const l of [...list]) {
      if (l.once) list.splice(list.indexOf(l), 1);
      try {
        (l.fn as (p: FirecrawlWatcherEvents[K]) => void)(payload);
      } catch (err) {
        // A listener's exception is reported (asynchronously, as webdata's watcher does) and does not stop the watcher.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }

  async #watch(): Promise<void> {
    const id = this.jobId;
    const data: Document[] = [];
    let timedOut = false;
    const cancelTimeout = this.#timeoutMs === undefined ? undefined : after(this.#timeoutMs, () => ((timedOut = true), this.#ctl.abort()));
    try {
      const inner = this.#make(this.#ctl.signal);
      for await (const e of inner) {
        if (e.type === "document") {
          data.push(e.document);
          const md = e.document.metadata;
          this.#emit("document", { ...e.document, id, metadata: { ...md, sourceURL: md?.sourceURL ?? (typeof md?.url === "string" ? md.url : "") } });
        } else if (e.type === "status") {
          this.#emit("snapshot", { id, status: e.status, completed: e.completed, total: e.total, creditsUsed: e.creditsUsed, data });
        } else if (e.type === "done") {
          this.#emit("done", { status: e.status, data, id, completed: e.completed, total: e.total, creditsUsed: e.creditsUsed, ...(e.error ? { error: e.error } : {}) });
          return;
        }
      }
    } catch (err) {
      if (this.#ctl.signal.aborted && !timedOut) return; // close()
      const message = timedOut ? "Watcher timeout" : err instanceof Error ? err.message : String(err);
      this.#emit("error", { status: "failed", data, error: message, id, cause: timedOut ? undefined : err });
    } finally {
      cancelTimeout?.();
      this.#ctl.abort();
    }
  }
}

/**
 * The official client's `Watcher` name: the drop-in's watcher as a type only (a watcher comes from
 * `firecrawl.watcher(...)`; the class itself is `FirecrawlWatcher`).
 */
export type OfficialWatcher = FirecrawlWatcher;
