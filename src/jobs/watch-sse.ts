/**
 * The watcher's server-sent-events transport. The status URL is requested with
 * `accept: text/event-stream`; a server that answers with
 * `content-type: text/event-stream` streams (parsed with eventsource-parser):
 *
 * - `event: status`, data `{status, completed, total, creditsUsed, ...}`;
 * - `event: document`, data a document, `id:` its index in the job's results;
 * - `event: catchup`, data a status body with every document so far (as on the WebSocket);
 * - `event: done`, data the final status fields;
 * - `event: error`, data `{error}`.
 *
 * A reconnect sends `Last-Event-ID` so the server may resume. The real service
 * answers JSON today (no SSE), which makes this transport step aside.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { idleTimer } from "../core/time.js";
import { isWatchFatal } from "../core/retry.js";
import { jobPath } from "./status.js";
import { notYetVisible, startedAt } from "../api/job-starts.js";
import { openChecked, type Endpoint } from "../api/endpoint.js";
import type { Checked } from "../core/options.js";
import type { RequestOptions } from "../core/request.js";
import { attemptMs, docsOf, jsonObject, type SessionEnd, type WatchContext } from "./watch-context.js";
import { WatchTransportError } from "./watch-types.js";

/** The job's status route, opened as a stream. */
const STATUS_STREAM: Endpoint<[ctx: WatchContext]> = { op: "watcher", path: (ctx) => jobPath(ctx.kind, ctx.id, ctx.apiVersion) };

/** Opens the status route as an event stream: its body's reader, or how the session ended (a 4xx is thrown: fatal). */
async function open(ctx: WatchContext): Promise<ReadableStreamDefaultReader<Uint8Array> | SessionEnd> {
  const headers: Record<string, string> = { accept: "text/event-stream" };
  if (ctx.lastEventId !== undefined) headers["last-event-id"] = ctx.lastEventId;
  let res;
  try {
    // The checked request options with the watcher's signal and the stream's own headers (the SDK's: nothing to check again).
    const req = { ...ctx.request, signal: ctx.signal, headers: { ...ctx.request.headers, ...headers } } as Checked<RequestOptions>;
    res = await openChecked(ctx.http, STATUS_STREAM, req, ctx);
  } catch (err) {
    if (ctx.signal.aborted) return { kind: "aborted" };
    // A job this client has just started may not be visible yet: the REST reads wait for it (`watch-poll.ts`).
    if (isWatchFatal(err)) {
      if (notYetVisible(err, startedAt(ctx.http, ctx.id))) return { kind: "unavailable", note: "the job is not visible yet (a 404 right after its start)" };
      throw err;
    }
    return { kind: "unavailable", error: new WatchTransportError("sse", `Could not open the event stream: ${err instanceof Error ? err.message : String(err)}`, { cause: err }) };
  }
  const isStream = (res.headers.get("content-type") ?? "").includes("text/event-stream");
  const stream = res.stream();
  if (isStream && stream) return stream.getReader();
  // Not an event stream (the real service answers JSON): its body is not needed. Cancel it rather than
  // read it, so a server that stalls or drips it cannot hold the watcher (or keep the socket open).
  void stream?.cancel().catch(() => undefined);
  return { kind: "unavailable", note: `the server answered the status with ${res.headers.get("content-type") || "no content type"}, not an event stream` };
}

/** One event of the stream, passed to the watcher: how the session ends when the event ends it (`done`, `error`), else undefined. */
function onEvent(ctx: WatchContext, ev: EventSourceMessage): SessionEnd | undefined {
  const data = jsonObject(ev.data);
  switch (ev.event) {
    case "status":
    case "catchup":
    case "document":
      // A malformed event is reported, never passed on as an empty document or zeroed counters;
      // the final REST check then sees the missing document and reads the pages.
      if (!data) {
        ctx.error(new WatchTransportError("sse", `The event stream sent a malformed "${ev.event}" event`));
        return undefined;
      }
      if (ev.event === "document") ctx.document(data);
      else ctx.status(data);
      if (ev.event === "catchup") for (const doc of docsOf(data)) ctx.document(doc);
      return undefined;
    case "done":
      return { kind: "done" };
    case "error": {
      const msg = typeof data?.error === "string" ? data.error : ev.data;
      return { kind: "unavailable", error: new WatchTransportError("sse", `The event stream reported an error: ${msg}`, { serverError: msg }) };
    }
    default:
      return undefined; // unknown events are ignored (forward compatibility)
  }
}

/** Runs one event-stream session. Throws (fatal) when the server rejects the request with a 4xx. */
export async function runSse(ctx: WatchContext): Promise<SessionEnd> {
  const reader = await open(ctx);
  if (!("read" in reader)) return reader;
  // The request's timers ended with the headers: a stream silent for the per-attempt timeout is dropped (and reconnected).
  const idleMs = attemptMs(ctx);
  let idle = false;
  const stop = () => void reader.cancel().catch(() => undefined);
  const silence = idleTimer(idleMs, () => {
    idle = true;
    stop();
  });
  ctx.signal.addEventListener("abort", stop, { once: true });
  let end: SessionEnd | undefined;
  const parser = createParser({
    onComment: () => silence.heard(),
    onEvent(ev) {
      silence.heard();
      if (end) return;
      end = onEvent(ctx, ev);
      if (ev.id !== undefined) ctx.lastEventId = ev.id;
    },
  });
  const decoder = new TextDecoder();
  try {
    while (!end) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      // Time spent waiting for a slow consumer is not the server's silence: it extends the deadline.
      silence.pause();
      await ctx.drain();
      silence.resume();
    }
  } catch (err) {
    if (ctx.signal.aborted) return { kind: "aborted" };
    return { kind: "dropped", error: new WatchTransportError("sse", `The event stream dropped: ${err instanceof Error ? err.message : String(err)}`, { cause: err }) };
  } finally {
    silence.stop();
    ctx.signal.removeEventListener("abort", stop);
    if (end || ctx.signal.aborted) stop();
  }
  if (ctx.signal.aborted) return { kind: "aborted" };
  if (!end && idle) return { kind: "dropped", error: new WatchTransportError("sse", `The event stream sent nothing for ${idleMs} ms`) };
  return end ?? { kind: "dropped", error: new WatchTransportError("sse", "The event stream ended before the job did") };
}
