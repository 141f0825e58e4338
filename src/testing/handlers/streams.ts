/**
 * Live job streams of the fake service, built on its own REST status routes
 * (read internally, as the real server's WebSocket controller polls its store):
 *
 * - the crawl WebSocket protocol (reference §4.5), served on Node by
 *   `serveFake` (see `ws.ts`): `catchup`, `document`, `error` frames, `done`
 *   as JSON in the close reason with code 1000, error closes 1008/3000/3003/1011;
 * - server-sent events on the status URL (`sse: true`, `accept: text/event-stream`;
 *   the real service has none), in the format the SDK's watcher understands:
 *   `event: status` (data: `{status, completed, total, creditsUsed, expiresAt}`),
 *   `event: document` with `id: <0-based index in the job's results>` (data: the
 *   document), `event: done` (data: the final status fields), `event: error`
 *   (data: `{error}`). A reconnect sending `Last-Event-ID: <n>` resumes after
 *   document `n`.
 */
import { abortableDelay } from "../faults.js";
import type { FakeService } from "../service.js";
import { stateOf } from "./scrape.js";

/** One frame of a live stream. */
export type StreamFrame =
  | { type: "catchup"; data: Record<string, unknown> & { data: unknown[] } }
  | { type: "status"; data: Record<string, unknown> }
  | { type: "document"; data: unknown; index: number }
  | { type: "done"; data: Record<string, unknown> }
  | { type: "error"; error: string; code: number; plain?: boolean };

/** A planned drop of a live stream. */
export interface StreamDropSpec {
  /** Which streams (default both). */
  transport?: "ws" | "sse" | "any";
  /** Frames sent on the connection before it is cut (0 = right after the connection opens). */
  afterFrames: number;
  /** How many connections it hits (default 1). */
  times?: number;
}

/** One stream connection the fake served. */
export interface StreamConnection {
  /** `ws` or `sse`. */
  transport: "ws" | "sse";
  /** The job id asked for. */
  jobId: string;
  /** Frames sent. */
  frames: number;
  /** Who ended it: `server` (done, error, drop) or `client` (closed or went away); undefined while open. */
  closedBy: "server" | "client" | undefined;
  /** True when a {@link dropStream} fault cut it. */
  dropped: boolean;
  /** WebSocket close code sent or received. */
  code?: number | undefined;
  /** The `Last-Event-ID` an SSE reconnect sent. */
  lastEventId?: string | undefined;
}

interface StreamState {
  drops: (StreamDropSpec & { left: number })[];
  log: StreamConnection[];
}

function state(fake: FakeService): StreamState {
  return stateOf(fake, "streams", () => ({ drops: [], log: [] }));
}

/**
 * A dropped live stream: cuts the next matching WebSocket/SSE connection(s)
 * after `afterFrames` frames (WS: terminated without a close frame; SSE: the body errors).
 *
 * @example dropStream(fake, { transport: "ws", afterFrames: 2 })
 */
export function dropStream(fake: FakeService, spec: StreamDropSpec): void {
  state(fake).drops.push({ ...spec, left: spec.times ?? 1 });
}

/**
 * Every stream connection served so far, in order (who closed it, with which code).
 *
 * @example expect(streamLog(fake).filter((c) => c.dropped)).toHaveLength(1)
 */
export function streamLog(fake: FakeService): StreamConnection[] {
  return state(fake).log;
}

/** Opens a log entry and takes the matching drop fault, if any: returns the frame count to drop at. */
export function openConnection(fake: FakeService, transport: "ws" | "sse", jobId: string, lastEventId?: string): { conn: StreamConnection; dropAt: number | undefined } {
  const s = state(fake);
  const conn: StreamConnection = { transport, jobId, frames: 0, closedBy: undefined, dropped: false, lastEventId };
  s.log.push(conn);
  const drop = s.drops.find((d) => d.left > 0 && (d.transport ?? "any") !== (transport === "ws" ? "sse" : "ws"));
  if (drop) drop.left -= 1;
  return { conn, dropAt: drop?.afterFrames };
}

const STATUS_FIELDS = ["status", "completed", "total", "creditsUsed", "expiresAt"] as const;

function statusFields(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(STATUS_FIELDS.filter((k) => k in body).map((k) => [k, body[k]]));
}

/** Where the job's status lives (`/v2/crawl/<id>`, or the batch route for batch ids) and how to read it as the caller. */
async function readStatus(fake: FakeService, origin: string, statusPath: string, auth: Record<string, string>, skip: number): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fake.handle(new Request(`${origin}${statusPath}?skip=${skip}`, { headers: auth }), { internal: true });
  const body: unknown = await res.json().catch(() => ({}));
  return { status: res.status, body: typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {} };
}

function errorFrame(status: number, body: Record<string, unknown>): StreamFrame {
  const error = typeof body.error === "string" ? body.error : "Internal error";
  if (status === 400) return { type: "error", error: "Invalid job ID", code: 1008, plain: true };
  if (status === 401) return { type: "error", error, code: 3000 };
  if (status === 403) return { type: "error", error: "Forbidden", code: 3003 };
  if (status === 404) return { type: "error", error: "Job not found", code: 1008 };
  return { type: "error", error: "An unexpected error occurred. Please contact help@firecrawl.com for help.", code: 1011 };
}

/** Options of {@link jobStream}. */
export interface JobStreamOptions {
  /** Job id from the URL. */
  jobId: string;
  /** Origin for the internal status reads. */
  origin: string;
  /** `authorization` to read the status with (the WS sub-protocol or the SSE request's header). */
  authorization: string | undefined;
  /** Only the crawl route (WS), or the route the request came in on (SSE). */
  paths: string[];
  /** `catchup` frame first (WS) or a `status` frame (SSE). */
  mode: "ws" | "sse";
  /** Index of the first document to send (SSE resume). */
  startIndex?: number;
  /** Stops the stream. */
  signal: AbortSignal;
}

/**
 * The frames of a job's live stream: a catchup (WS) or status (SSE) frame, one
 * `document` per newly finished page, and `done` once the REST status leaves
 * `scraping` (or an `error` frame). Reads the fake's own REST status every
 * `streamIntervalMs`.
 */
export async function* jobStream(fake: FakeService, opts: JobStreamOptions): AsyncGenerator<StreamFrame, void, undefined> {
  const auth: Record<string, string> = opts.authorization ? { authorization: opts.authorization } : {};
  let statusPath: string | undefined;
  let first: { status: number; body: Record<string, unknown> } | undefined;
  for (const p of opts.paths) {
    first = await readStatus(fake, opts.origin, p, auth, opts.startIndex ?? 0);
    statusPath = p;
    if (first.status !== 404) break;
  }
  if (!first || !statusPath || first.status >= 400 || first.body.success === false && first.body.status !== "failed") {
    yield errorFrame(first?.status ?? 404, first?.body ?? {});
    return;
  }
  let cursor = opts.startIndex ?? 0;
  let page = first;
  let lastStatus = "";
  let sent = false;
  const docs = (b: Record<string, unknown>) => (Array.isArray(b.data) ? b.data : []);
  if (opts.mode === "ws") {
    // The real catchup carries every document so far and no `next` (here: the first status page, up to 100 documents).
    const all = docs(page.body);
    cursor += all.length;
    yield { type: "catchup", data: { success: page.body.success ?? true, ...statusFields(page.body), data: all } };
    lastStatus = JSON.stringify(statusFields(page.body));
    sent = true;
  }
  for (;;) {
    if (opts.signal.aborted) return;
    const fields = statusFields(page.body);
    const key = JSON.stringify(fields);
    if (opts.mode === "sse" && key !== lastStatus) yield { type: "status", data: fields };
    lastStatus = key;
    if (!sent) for (const d of docs(page.body)) yield { type: "document", data: d, index: cursor++ };
    sent = false;
    const more = docs(page.body).length > 0 && Boolean(page.body.next);
    // The service's socket says done once every scrape it knows of has finished and been sent, while the crawl
    // itself may still be finishing (its status still "scraping"): the client reads the end by REST.
    const allSent = opts.mode === "ws" && Number(page.body.total) > 0 && Number(page.body.completed) >= Number(page.body.total) && cursor >= Number(page.body.completed);
    if (!more && (page.body.status !== "scraping" || allSent)) {
      yield { type: "done", data: fields };
      return;
    }
    if (!more) await abortableDelay(fake.options.streamIntervalMs, opts.signal).catch(() => undefined);
    if (opts.signal.aborted) return;
    page = await readStatus(fake, opts.origin, statusPath, auth, cursor);
    if (page.status >= 400) return yield errorFrame(page.status, page.body);
  }
}

/** Registers the SSE answer on status URLs (active when the fake was created with `sse: true`). */
export function registerStreams(fake: FakeService): void {
  fake.addHook((request, url) => {
    if (!fake.options.sse || request.method !== "GET") return undefined;
    if (!(request.headers.get("accept") ?? "").includes("text/event-stream")) return undefined;
    const m = /^\/(v1|v2)\/(crawl|batch\/scrape)\/([^/]+)$/.exec(url.pathname);
    if (!m || m[3] === "active" || m[3] === "ongoing") return undefined;
    return sseResponse(fake, request, url, `/${m[1]}/${m[2]}/${m[3]}`, decodeURIComponent(m[3] ?? ""));
  });
}

async function sseResponse(fake: FakeService, request: Request, url: URL, statusPath: string, jobId: string): Promise<Response> {
  const authorization = request.headers.get("authorization") ?? undefined;
  // Errors (401, 404, ...) answer as the REST route does, before any stream starts.
  const probe = await readStatus(fake, url.origin, statusPath, authorization ? { authorization } : {}, 0);
  if (probe.status >= 400) return new Response(JSON.stringify(probe.body), { status: probe.status, headers: { "content-type": "application/json; charset=utf-8" } });
  const lastEventId = request.headers.get("last-event-id") ?? undefined;
  const resume = lastEventId !== undefined && /^\d+$/.test(lastEventId) ? Number(lastEventId) + 1 : 0;
  const { conn, dropAt } = openConnection(fake, "sse", jobId, lastEventId);
  const ctl = new AbortController();
  // The stream below reads `request.signal` on every pull, which keeps `request` alive: undici links a
  // Request's signal to the caller's only while the Request object lives.
  request.signal.addEventListener("abort", () => ctl.abort(), { once: true });
  const enc = new TextEncoder();
  const frames = jobStream(fake, { jobId, origin: url.origin, authorization, paths: [statusPath], mode: "sse", startIndex: resume, signal: ctl.signal });
  let opened = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!opened) {
        // A comment first, so the answer has started before any drop (a drop is then the stream's, not the request's).
        opened = true;
        controller.enqueue(enc.encode(": stream\n\n"));
        return;
      }
      if (dropAt !== undefined && conn.frames >= dropAt) {
        conn.dropped = true;
        conn.closedBy = "server";
        ctl.abort();
        controller.error(new TypeError("terminated: stream dropped by a fault"));
        return;
      }
      const next = await frames.next();
      if (next.done || ctl.signal.aborted || request.signal.aborted) {
        conn.closedBy ??= ctl.signal.aborted ? "client" : "server";
        controller.close();
        return;
      }
      conn.frames += 1;
      controller.enqueue(enc.encode(sseEvent(next.value)));
    },
    cancel() {
      conn.closedBy ??= "client";
      ctl.abort();
    },
  }, { highWaterMark: 0 }); // produce a frame only when the client reads: a drop after N frames comes after N were read
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
}

/** A frame as a server-sent event: a document's carries its index as the event id (a reconnection resumes after it). */
function sseEvent(f: StreamFrame): string {
  if (f.type === "document") return `event: document\nid: ${f.index}\ndata: ${JSON.stringify(f.data)}\n\n`;
  if (f.type === "error") return `event: error\ndata: ${JSON.stringify({ error: f.error })}\n\n`;
  return `event: ${f.type}\ndata: ${JSON.stringify(f.data)}\n\n`;
}
