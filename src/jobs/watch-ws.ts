/**
 * The watcher's WebSocket transport: the service's crawl status socket
 * (reference §4.5). `ws(s)://<api>/v2/crawl/<id>` for crawl AND batch ids (no
 * batch route exists), the API key as the sub-protocol, `catchup` / `document`
 * / `error` frames, and `done` as JSON in the close reason with code 1000.
 * A plugin of the client (`webdata/websocket`'s `websocket`; the Node entry and the drop-in's classes install it themselves):
 * a client without it bundles none of this module, and its watchers poll.
 */
import type { ClientPlugin } from "../core/client-state.js";
import type { HttpClient } from "../core/request.js";
import { after, type CancelTimer } from "../core/time.js";
import { jobPath } from "./status.js";
import { attemptMs, docsOf, jsonObject, type SessionEnd, type WatchContext, type WebSocketTransport } from "./watch-context.js";
import { WatchTransportError, type WatcherOptions, type WebSocketConstructor } from "./watch-types.js";

interface SocketLike {
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: (() => void) | null;
  binaryType?: string;
}

/** How long to wait for the close event that should follow an error on an open socket. */
const CLOSE_GRACE_MS = 2_000;

/** Close codes the service uses for errors (reason `{"type":"error","error":...}`). */
const ERROR_CODES = new Set([1008, 3000, 3003, 1011]);

/** The socket URL of a job: the crawl path on the API host, `http` turned into `ws`. */
export function webSocketUrl(ctx: Pick<WatchContext, "http" | "id" | "apiVersion">): string {
  return ctx.http.url(jobPath("crawl", ctx.id, ctx.apiVersion)).replace(/^http/i, "ws");
}

/**
 * The text of a frame: a string as is; bytes (an `ArrayBuffer`, or a view such as a Node `Buffer` from a
 * socket that ignores `binaryType`) decoded as UTF-8 (malformed bytes become U+FFFD). Undefined for
 * anything else (it is reported, and the final REST read fills in what is missing).
 */
function frameText(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  // A view decodes its own byte range only.
  return data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? new TextDecoder().decode(data) : undefined;
}

/** Opens the job's socket with the key as the sub-protocol: the socket, or the session's end when it could not be made. */
function openSocket(ctx: WatchContext, Ctor: WebSocketConstructor): SocketLike | SessionEnd {
  const key = ctx.http.config.apiKey;
  let ws: SocketLike;
  try {
    ws = (key ? new Ctor(webSocketUrl(ctx), key) : new Ctor(webSocketUrl(ctx))) as unknown as SocketLike;
  } catch (err) {
    return { kind: "unavailable", error: new WatchTransportError("websocket", `Could not open the WebSocket: ${err instanceof Error ? err.message : String(err)}`, { cause: err }) };
  }
  try {
    ws.binaryType = "arraybuffer"; // `ws` would hand over Buffers, undici and browsers Blobs
  } catch {
    // a socket-like without it: frameText decodes Buffers, views and fragments anyway
  }
  return ws;
}

/** Closes a socket, whatever state it is in. */
function closeQuietly(ws: SocketLike): void {
  try {
    ws.close(1000);
  } catch {
    // already closing
  }
}

/** One frame of the socket, passed to the watcher: true when it is the job's `done`. */
function onFrame(ctx: WatchContext, data: unknown): boolean {
  const text = frameText(data);
  const frame = text === undefined ? undefined : jsonObject(text);
  if (!frame) {
    ctx.error(new WatchTransportError("websocket", "The WebSocket sent a frame that is not a JSON object"));
  } else if ((frame.type === "catchup" || frame.type === "document") && (typeof frame.data !== "object" || frame.data === null || Array.isArray(frame.data))) {
    // Reported, never passed on as an empty document; the final REST check reads the pages if one is missing.
    ctx.error(new WatchTransportError("websocket", `The WebSocket sent a "${frame.type}" frame without data`));
  } else if (frame.type === "catchup") {
    // A socket attached right at the start gets `completed` with 0 of 0 pages (then a false done): not a status to report.
    const c = frame.data as { status?: unknown; completed?: unknown; total?: unknown };
    if (!(c.status === "completed" && !c.completed && !c.total)) ctx.status(frame.data);
    for (const doc of docsOf(frame.data)) ctx.document(doc);
  } else if (frame.type === "document") {
    ctx.document(frame.data);
  } else if (frame.type === "error") {
    const msg = typeof frame.error === "string" ? frame.error : "unknown error";
    ctx.error(new WatchTransportError("websocket", `The WebSocket reported an error: ${msg}`, { serverError: msg }));
  }
  // Some servers send `done` as a message instead of in the close reason.
  return frame?.type === "done";
}

/** How a close event ends the session: `done` (in the reason, or a clean 1000), the server's error, a refused connection, or a drop. */
function closeEnd(ev: { code: number; reason: string }, opened: boolean): SessionEnd {
  const reason = jsonObject(ev.reason ?? "");
  const closeReason = ev.reason ?? "";
  if (reason?.type === "done" || (ev.code === 1000 && !reason && !ev.reason)) return { kind: "done" };
  if (reason?.type === "error" || ERROR_CODES.has(ev.code)) {
    const serverError = typeof reason?.error === "string" ? reason.error : closeReason || undefined;
    return { kind: "unavailable", error: new WatchTransportError("websocket", `The WebSocket closed with ${ev.code}${serverError ? `: ${serverError}` : ""}`, { code: ev.code, serverError }) };
  }
  if (!opened) return { kind: "unavailable", note: `the WebSocket could not connect (close ${ev.code}: the server refused the upgrade, or none listens)` };
  return { kind: "dropped", error: new WatchTransportError("websocket", `The WebSocket dropped (close ${ev.code}${closeReason ? `: ${closeReason}` : ""})`, { code: ev.code }) };
}

/**
 * Runs one socket session until the server closes it, it drops, or the watcher stops. A socket that
 * has not opened within {@link attemptMs} (a server that accepts the connection and never answers
 * the upgrade) is closed and ends the session as a failed connection.
 */
export function runWebSocket(ctx: WatchContext, Ctor: WebSocketConstructor): Promise<SessionEnd> {
  return new Promise<SessionEnd>((resolve) => {
    const ws = openSocket(ctx, Ctor);
    if ("kind" in ws) return resolve(ws);
    let opened = false;
    let settled = false;
    let closeTimer: CancelTimer | undefined;
    const finish = (end: SessionEnd) => {
      if (settled) return;
      settled = true;
      closeTimer?.();
      openTimer();
      ctx.signal.removeEventListener("abort", onAbort);
      resolve(end);
    };
    // `finish` before closing: closing a connecting socket may fire an error event synchronously.
    const finishAndClose = (end: SessionEnd) => (finish(end), closeQuietly(ws));
    const onAbort = () => finishAndClose({ kind: "aborted" });
    const openMs = attemptMs(ctx);
    const openTimer = after(openMs, () => {
      if (!opened) finishAndClose({ kind: "unavailable", error: new WatchTransportError("websocket", `The WebSocket did not open within ${openMs} ms`) });
    });
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    ws.onopen = () => {
      opened = true;
      openTimer();
    };
    ws.onerror = () => {
      // The standard says a close event follows, but some runtimes never send it: Node 22's
      // WebSocket stays CONNECTING after a refused handshake. Do not wait for it.
      if (settled) return;
      if (!opened) return finishAndClose({ kind: "unavailable", note: "the WebSocket could not connect (the server refused the upgrade, or none listens)" });
      closeTimer ??= after(CLOSE_GRACE_MS, () => finish({ kind: "dropped", error: new WatchTransportError("websocket", "The WebSocket failed and sent no close event") }));
    };
    ws.onmessage = (ev) => {
      if (!settled && onFrame(ctx, ev.data)) finishAndClose({ kind: "done" });
    };
    ws.onclose = (ev) => finish(closeEnd(ev, opened));
  });
}

/**
 * The WebSocket class of a watcher: its `webSocket` option, else the runtime's global one, else the one the client's
 * entry provides (the Node entry's undici, loaded now if need be: `ClientState.webSocket`), chosen the same way
 * whatever ran before in the process. Without one, the WebSocket is skipped, and the debug log (a warning when
 * `transports` named it) says how to get one.
 */
async function webSocketClass(http: HttpClient, jobId: string, options: WatcherOptions): Promise<WebSocketConstructor | undefined> {
  const given = options.webSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (given) return given;
  let why = "this runtime has no WebSocket";
  try {
    const entry = await http.state.webSocket?.();
    if (typeof entry === "function") return entry as WebSocketConstructor;
  } catch (err) {
    why = `the entry's WebSocket could not be loaded (${err instanceof Error ? err.message : String(err)})`;
  }
  const fix = `pass one as the \`webSocket\` option (on Node 20: \`npm install ws\`, then \`import { WebSocket } from "ws"\` and \`{ webSocket: WebSocket }\`)`;
  http.log(options.transports ? "warn" : "debug", `webdata: watcher of ${jobId}: no WebSocket (${why}); live events come by the next transport. For the WebSocket, ${fix}.`);
  return undefined;
}

/** The transport the plugin sets on the client's state (`ClientState.ws`), read by `jobs/watcher.ts`. */
const transport: WebSocketTransport = { find: webSocketClass, run: runWebSocket };

/** The watcher's WebSocket transport as a plugin of the client: `new WebData({ plugins: [websocket] })` (`webdata/websocket`). */
export const websocket: ClientPlugin = {
  name: "websocket",
  install(http: unknown): void {
    (http as HttpClient).state.ws = transport;
  },
};
