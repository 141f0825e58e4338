/**
 * A loopback server for the fault-injection suite (`test/faults.test.ts`): a
 * tiny, correct stand-in for the API (scrape, crawl and batch start, paged
 * crawl status, the crawl WebSocket and an event stream, v1 scrape) whose
 * first `times` requests matching a target get a fault instead of the answer:
 * an HTTP status with a wait hint, a reset before the headers or mid-body, a
 * stall, a drip, a bad body, a redirect, a huge or gzip-compressed body.
 * Every request is recorded (method, path, accept, idempotency key).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { WebSocketServer } from "ws";

/** The job id every crawl and batch start answers with. */
export const JOB_ID = "6e7d4c2a-1b3f-4e5d-8a9b-0c1d2e3f4a5b";
/** The documents of that job, in order (three, served two per page). */
export const JOB_DOCS = ["d0", "d1", "d2"].map((id) => ({
  markdown: `# page ${id}`,
  metadata: { sourceURL: `https://site.test/${id}`, url: `https://site.test/${id}`, statusCode: 200, scrapeId: id },
}));
const PAGE_SIZE = 2;

/** Every fault the server can play. */
export const FAULT_KINDS = [
  "429 retry-after-ms",
  "429 Retry-After secs",
  "429 Retry-After date",
  "429 body text",
  "429 no hint",
  "429 too long",
  "503 retry-after-ms",
  "408 retry-after-ms",
  "502 HTML page",
  "refused",
  "reset before headers",
  "reset mid-body",
  "stall before headers",
  "stall mid-body",
  "drip",
  "truncated JSON",
  "invalid JSON",
  "HTML page 200",
  "empty body 200",
  "2xx wrong shape",
  "3xx redirect",
  "huge body",
  "gzip body",
  "next loops",
  "ws replay+drop",
] as const;
/** A fault kind. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One request as the server saw it. */
export interface SeenRequest {
  method: string;
  path: string;
  accept: string;
  upgrade: boolean;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/** A running fault server. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Requests received, in order. */
  requests: SeenRequest[];
  /** Requests that got the fault. */
  faulted: number;
  /** Closes every connection and the server. */
  close(): Promise<void>;
}

/** What to break: `times` requests matching `target` get `kind`. */
export interface FaultPlan {
  kind: FaultKind;
  target: (req: SeenRequest) => boolean;
  times: number;
}

function doc(id: string) {
  return JOB_DOCS.find((d) => d.metadata.scrapeId === id) ?? JOB_DOCS[0];
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers }).end(text);
}

function statusPage(origin: string, path: string, skip: number, limit: number) {
  const data = JOB_DOCS.slice(skip, skip + Math.min(limit, PAGE_SIZE));
  const end = skip + data.length;
  return {
    success: true,
    status: "completed",
    completed: JOB_DOCS.length,
    total: JOB_DOCS.length,
    creditsUsed: JOB_DOCS.length,
    expiresAt: "2030-01-01T00:00:00.000Z",
    ...(end < JOB_DOCS.length ? { next: `${origin}${path}?skip=${end}` } : {}),
    data,
  };
}

/** The correct answer of the stand-in API. */
function answer(req: IncomingMessage, res: ServerResponse, origin: string): void {
  const u = new URL(req.url ?? "/", origin);
  const p = u.pathname;
  const m = req.method;
  if (m === "POST" && p === "/v2/scrape") return json(res, 200, { success: true, data: doc("d0") });
  if (m === "POST" && p === "/v1/scrape") return json(res, 200, { success: true, data: doc("d0") });
  if (m === "POST" && p === "/v2/crawl") return json(res, 200, { success: true, id: JOB_ID, url: `${origin}/v2/crawl/${JOB_ID}` });
  if (m === "POST" && p === "/v2/batch/scrape") return json(res, 200, { success: true, id: JOB_ID, url: `${origin}/v2/batch/scrape/${JOB_ID}` });
  if (m === "GET" && (p === `/v2/crawl/${JOB_ID}` || p === `/v2/batch/scrape/${JOB_ID}`)) {
    if ((req.headers.accept ?? "").includes("text/event-stream")) {
      const all = statusPage(origin, p, 0, 100);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(`event: catchup\ndata: ${JSON.stringify({ ...all, next: undefined })}\n\n`);
      res.end(`event: done\ndata: ${JSON.stringify({ status: "completed" })}\n\n`);
      return;
    }
    const skip = Number(u.searchParams.get("skip") ?? 0);
    const limit = Number(u.searchParams.get("limit") ?? 100);
    return json(res, 200, statusPage(origin, p, skip, limit));
  }
  if (p === "/moved") return json(res, 200, { moved: true });
  return json(res, 404, { success: false, error: "Not found" });
}

/** Plays `kind` on one request. Returns false when the fault applies only elsewhere (the request is answered normally). */
function playFault(kind: FaultKind, req: IncomingMessage, res: ServerResponse, origin: string): boolean {
  const sock = req.socket as Socket;
  const partial = '{"success":true,"data":{"markdown":"# part';
  switch (kind) {
    case "429 retry-after-ms":
      json(res, 429, { success: false, error: "Rate limit exceeded" }, { "retry-after-ms": "5" });
      return true;
    case "429 Retry-After secs":
      json(res, 429, { success: false, error: "Rate limit exceeded" }, { "retry-after": "0" });
      return true;
    case "429 Retry-After date":
      json(res, 429, { success: false, error: "Rate limit exceeded" }, { "retry-after": new Date(Date.now() - 2000).toUTCString() });
      return true;
    case "429 body text":
      json(res, 429, { success: false, error: "Rate limit exceeded. Consumed (req/min): 3, Remaining (req/min): 0. Please retry after 0.01s" });
      return true;
    case "429 no hint":
      json(res, 429, { success: false, error: "Rate limit exceeded" });
      return true;
    case "429 too long":
      json(res, 429, { success: false, error: "Rate limit exceeded" }, { "retry-after": "3600" });
      return true;
    case "503 retry-after-ms":
      json(res, 503, { success: false, error: "Service Unavailable" }, { "retry-after-ms": "5" });
      return true;
    case "408 retry-after-ms":
      json(res, 408, { success: false, code: "SCRAPE_TIMEOUT", error: "Request timed out" }, { "retry-after-ms": "5" });
      return true;
    case "502 HTML page":
      res.writeHead(502, { "content-type": "text/html" }).end("<html><body><h1>502 Bad Gateway</h1>nginx</body></html>");
      return true;
    case "reset before headers":
      sock.resetAndDestroy();
      return true;
    case "reset mid-body":
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write(partial, () => setTimeout(() => sock.resetAndDestroy(), 5));
      return true;
    case "stall before headers":
      return true; // never answers; the server's close() ends the socket
    case "stall mid-body":
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write(partial);
      return true;
    case "drip": {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(" ")), 10);
      res.on("close", () => clearInterval(timer));
      return true;
    }
    case "truncated JSON":
      res.writeHead(200, { "content-type": "application/json" }).end(partial);
      return true;
    case "invalid JSON":
      res.writeHead(200, { "content-type": "application/json" }).end("{success: true, data: nope}");
      return true;
    case "HTML page 200":
      res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><html><body>Sign in to the Wi-Fi</body></html>");
      return true;
    case "empty body 200":
      res.writeHead(200, { "content-type": "application/json", "content-length": "0" }).end();
      return true;
    case "2xx wrong shape":
      json(res, 200, { hello: "world", data: 42, status: 7 });
      return true;
    case "3xx redirect":
      json(res, 302, { moved: true }, { location: `${origin}/moved` });
      return true;
    case "huge body": {
      const pad = "x".repeat(1 << 20);
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"success":true,"status":"completed","completed":0,"total":0,"data":{"markdown":"');
      let left = 64;
      const more = (): void => {
        while (left > 0) {
          left -= 1;
          if (!res.write(pad)) return void res.once("drain", more);
        }
        res.end('"}}');
      };
      more();
      return true;
    }
    case "gzip body": {
      const url = new URL(req.url ?? "/", origin);
      const bodyOf = (): unknown => {
        if (req.method === "POST" && url.pathname === "/v2/crawl") return { success: true, id: JOB_ID, url: `${origin}/v2/crawl/${JOB_ID}` };
        if (req.method === "POST" && url.pathname === "/v2/batch/scrape") return { success: true, id: JOB_ID, url: `${origin}/v2/batch/scrape/${JOB_ID}` };
        if (req.method === "GET") return statusPage(origin, url.pathname, Number(url.searchParams.get("skip") ?? 0), Number(url.searchParams.get("limit") ?? 100));
        return { success: true, data: doc("d0") };
      };
      const zipped = gzipSync(JSON.stringify(bodyOf()));
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": zipped.length }).end(zipped);
      return true;
    }
    case "next loops": {
      // A completed status whose `next` points to itself, with the same documents again.
      const url = new URL(req.url ?? "/", origin);
      json(res, 200, { ...statusPage(origin, url.pathname, 0, 100), next: `${origin}${url.pathname}?skip=0` });
      return true;
    }
    default:
      return false;
  }
}

/**
 * Starts a fault server. `plan` decides which requests are broken; the WebSocket
 * at `/v2/crawl/<id>` sends a catchup of every document and closes with `done`
 * (or, under `ws replay+drop`, replays a partial catchup and drops, every time).
 */
export async function startFaultServer(plan: FaultPlan): Promise<FaultServer> {
  const requests: SeenRequest[] = [];
  let left = plan.times;
  let faulted = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const seen = (req: IncomingMessage): SeenRequest => {
    const r: SeenRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      accept: String(req.headers.accept ?? ""),
      upgrade: (req.headers.upgrade ?? "").toLowerCase() === "websocket",
      idempotencyKey: req.headers["x-idempotency-key"] as string | undefined,
      authorization: req.headers.authorization,
    };
    requests.push(r);
    return r;
  };
  const take = (r: SeenRequest): boolean => {
    if (left > 0 && plan.target(r)) {
      left -= 1;
      faulted += 1;
      return true;
    }
    return false;
  };
  let origin = "";
  const server = createServer((req, res) => {
    const r = seen(req);
    req.resume();
    req.on("end", () => {
      if (take(r) && playFault(plan.kind, req, res, origin)) return;
      answer(req, res, origin);
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => p.values().next().value ?? false });
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const r = seen(req);
    if (plan.kind !== "ws replay+drop" && take(r)) {
      // An HTTP fault instead of the handshake, written on the raw socket.
      const fake = faultAsRaw(plan.kind);
      if (fake === "reset") return void socket.resetAndDestroy();
      if (fake === "stall") return;
      return void socket.end(fake);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      if (plan.kind === "ws replay+drop" && plan.target(r)) {
        faulted += 1;
        ws.send(JSON.stringify({ type: "catchup", data: { status: "scraping", completed: 2, total: 3, creditsUsed: 2, data: JOB_DOCS.slice(0, 2) } }));
        const t = setTimeout(() => ws.terminate(), 1);
        timers.add(t);
        return;
      }
      ws.send(JSON.stringify({ type: "catchup", data: { status: "completed", completed: 3, total: 3, creditsUsed: 3, data: JOB_DOCS } }));
      ws.close(1000, JSON.stringify({ type: "done" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    get faulted() {
      return faulted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        for (const c of wss.clients) c.terminate();
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => wss.close(() => resolve()));
      }),
  };
}

/** The raw HTTP text of a fault played on a WebSocket handshake (or how to break the socket). */
function faultAsRaw(kind: FaultKind): string | "reset" | "stall" {
  if (kind === "reset before headers" || kind === "reset mid-body") return "reset";
  if (kind === "stall before headers" || kind === "stall mid-body" || kind === "drip") return "stall";
  const status = /^(\d{3})/.exec(kind)?.[1] ?? "200";
  const type = kind.includes("HTML") ? "text/html" : "application/json";
  return `HTTP/1.1 ${status} Fault\r\ncontent-type: ${type}\r\nconnection: close\r\ncontent-length: 2\r\n\r\n{}`;
}

/**
 * A port on 127.0.0.1 where nothing listens (connections are refused).
 *
 * A privileged port, never an ephemeral one: a port taken with `listen(0)` and closed again can be handed
 * to another test file's server a moment later (the files run in parallel), and the "refused" client then
 * talks to that server and succeeds. `listen(0)` never hands out a port below 1024, and 1023 is not on
 * `fetch`'s bad-port list. The port is probed, so a machine where something does listen there fails loudly.
 */
export async function refusedUrl(): Promise<string> {
  const port = 1023;
  const refused = await new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => { socket.destroy(); resolve(false); });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
  if (!refused) throw new Error(`something listens on 127.0.0.1:${port}; the "refused" fault needs a port where nothing does`);
  return `http://127.0.0.1:${port}`;
}
