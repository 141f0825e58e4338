/**
 * Public types of the job watcher (`client.watcher(jobId, options)`): events,
 * options, the WebSocket shape it accepts, and its transport error.
 */
import type { Document } from "../api/document.js";
import { WebDataError } from "../core/errors.js";
import type { JobKind, JobStatus, StallOptions } from "./types.js";

/** Counters of a job, as the status endpoint reports them (the WebSocket catchup reports a page count as `creditsUsed`). */
export type WatchCounters = Pick<JobStatus, "status" | "completed" | "total" | "creditsUsed">;

/** A page finished (each document is delivered once, even across reconnects). */
export interface WatchDocumentEvent<TDoc = Document> {
  /** Discriminant. */
  type: "document";
  /** The scraped page. */
  document: TDoc;
}

/** The job's counters changed (from the WebSocket catchup, an SSE `status` event or a REST poll). */
export interface WatchStatusEvent extends WatchCounters {
  /** Discriminant. */
  type: "status";
}

/** The job is over: the final status, always confirmed by a REST status read. Ends the iteration. */
export interface WatchDoneEvent extends WatchCounters {
  /** Discriminant. */
  type: "done";
  /** The server's error text of a failed job (kickoff failures), when it gave one. */
  error?: string | undefined;
}

/**
 * Something went wrong. `fatal: false`: the watcher recovers by itself
 * (reconnects, falls back to polling, retries the poll) and goes on. `fatal:
 * true`: the watcher stopped; a `for await` loop throws `error` instead of
 * yielding this event, `on("error")` listeners receive it.
 */
export interface WatchErrorEvent {
  /** Discriminant. */
  type: "error";
  /** What failed (an `APIError`, `ConnectionError`, `WatchTransportError`, ...). */
  error: WebDataError;
  /** True when the watcher stopped because of it. */
  fatal: boolean;
}

/** Any event of a watcher. */
export type WatchEvent<TDoc = Document> = WatchDocumentEvent<TDoc> | WatchStatusEvent | WatchDoneEvent | WatchErrorEvent;
/** The `type` of a watcher event. */
export type WatchEventType = WatchEvent["type"];

/**
 * The WebSocket class the watcher may use: the runtime's global `WebSocket`, or
 * one passed in (e.g. the `ws` package's on Node 20, which has no global one).
 */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => {
  readonly readyState: number;
  close(code?: number, reason?: string): void;
  onopen: unknown;
  onmessage: unknown;
  onclose: unknown;
  onerror: unknown;
};

/** Options of `client.watcher(jobId, options)`; with `stallTimeoutMs` ({@link StallOptions}) a job that stops progressing is a fatal `JobStalledError` (counted while the consumer keeps up, not while it holds the events back). */
export interface WatcherOptions extends StallOptions {
  /** `crawl` (default) or `batch`: which status route to read. Both use the crawl WebSocket path. */
  kind?: JobKind | undefined;
  /** Stops watching; the iteration then throws `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Time between REST polls (polling transport, and while confirming the end), ms. Default 2000, at least 500 (the floor of every poll), at most 2^31-1 (as a waiter's; a larger value is a `ValidationError`). */
  pollIntervalMs?: number | undefined;
  /** WebSocket class to use instead of `globalThis.WebSocket` (Node 20 has none: the Node entry's client uses undici's; elsewhere pass `ws`'s). */
  webSocket?: WebSocketConstructor | undefined;
  /** Transports to try, in order (default `["websocket", "sse", "poll"]`; polling is always the last resort). */
  transports?: ("websocket" | "sse" | "poll")[] | undefined;
  /** Reconnects of a dropped stream in a row without receiving anything, before falling back to the next transport (default 3). */
  maxReconnects?: number | undefined;
  /** Failed REST polls in a row (after the request layer's own retries) before giving up with a fatal error (default 5). */
  maxPollFailures?: number | undefined;
}

export { WatchTransportError } from "../core/errors.js";
