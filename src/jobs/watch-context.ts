/**
 * What a watcher transport (WebSocket, SSE, REST polling) gets from the
 * watcher: the job, the shared request layer, and sinks that de-duplicate
 * documents and drop repeated statuses. Private to `jobs/`.
 */
import type { Document } from "../api/document.js";
import { isRecord, type WebDataError } from "../core/errors.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import type { Checked } from "../core/options.js";
import type { ApiVersion, JobKind } from "./types.js";
import type { WatcherOptions, WebSocketConstructor } from "./watch-types.js";

/** How a live stream session ended. */
export type SessionEnd =
  /** The server said the job is over (to be confirmed over REST). */
  | { kind: "done" }
  /** The connection dropped: reconnect (it may resume) or fall back. */
  | { kind: "dropped"; error: WebDataError }
  /**
   * This transport cannot serve the job: use the next one. With `error` when it failed (an error close, a
   * stalled handshake, an error the server sent): a non-fatal `error` event. Without one it was not offered
   * or refused (an upgrade answered 404, a status answered with JSON): a fallback, which is no error event;
   * `note` says why, in the debug log.
   */
  | { kind: "unavailable"; error?: WebDataError | undefined; note?: string | undefined }
  /** The watcher was closed or aborted. */
  | { kind: "aborted" };

/** The watcher's side of a transport session. */
export interface WatchContext {
  /** The request layer (URL, key, REST calls). */
  readonly http: HttpClient;
  /** Status route family. */
  readonly kind: JobKind;
  /** The job id. */
  readonly id: string;
  /** Route version (`v2`; the v1 layer passes `v1`). */
  readonly apiVersion: ApiVersion;
  /** Fires when the watcher is closed or aborted. */
  readonly signal: AbortSignal;
  /** The caller's `RequestOptions` for REST reads and the event stream (headers, timeouts, retries); `signal` is the watcher's. */
  readonly request: Checked<RequestOptions>;
  /** The next pause between REST polls, ms (`pollPauses`, the poll numbers of `pages.ts`: ramped up to the interval unless the caller set it). */
  readonly pollPause: () => number;
  /** New documents and changed statuses delivered so far; a reconnect that adds some resets the reconnect budget (repeats do not). */
  progress: number;
  /** Last SSE event id seen (sent back as `Last-Event-ID`). */
  lastEventId: string | undefined;
  /** Documents delivered so far (distinct). */
  readonly delivered: number;
  /** Delivers a document unless it was delivered before; true when it was new. */
  document(doc: unknown): boolean;
  /** Delivers a status when the counters changed. */
  status(raw: unknown): void;
  /** Delivers a non-fatal error. */
  error(err: WebDataError): void;
  /** Resolves when the consumer has caught up (backpressure for pull-based transports). */
  drain(): Promise<void>;
}

/** The JSON object a frame or an event carries, or undefined when its text is not one (an array is not one). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The per-attempt timeout of the watcher's request options, else the client's `timeoutMs`, ms (the same budget as one
 * HTTP attempt): how long a WebSocket's opening handshake may take, and how long an event stream may stay silent.
 */
export function attemptMs(ctx: Pick<WatchContext, "http" | "request">): number {
  return ctx.request.timeoutMs ?? ctx.http.config.timeoutMs;
}

/** Documents of a status body's `data`. */
export function docsOf(raw: unknown): Document[] {
  return isRecord(raw) && Array.isArray(raw.data) ? (raw.data as Document[]) : [];
}

/**
 * The watcher's WebSocket transport (`jobs/watch-ws.ts`), on the client's state (`ClientState.ws`) once the
 * `websocket` plugin is installed: `find` chooses the class (or none), `run` runs one socket session.
 */
export interface WebSocketTransport {
  /** The WebSocket class a watcher uses (its option, the global one, the entry's), or undefined, said in the log. */
  find(http: HttpClient, jobId: string, options: WatcherOptions): Promise<WebSocketConstructor | undefined>;
  /** One socket session, until the server closes it, it drops, or the watcher stops. */
  run(ctx: WatchContext, Ctor: WebSocketConstructor): Promise<SessionEnd>;
}
