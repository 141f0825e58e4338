/**
 * Secrets scan (issue 12, "Our own suite"): against loopback servers that echo
 * the API key back in every way a server can (error text, `\u`-escaped JSON,
 * `details`, response headers, 429 text, HTML pages, result data, WebSocket
 * close reasons and error frames, SSE error events), every string the SDK
 * produces is collected (messages, stacks, `toJSON`, `util.inspect` with and
 * without the custom inspector, error bodies, details and headers, results,
 * watcher event payloads, log lines of a debug logger) and the key must be
 * found nowhere. The key must never go to another origin (a `next` link or a
 * redirect to another host). Over both transports.
 *
 * KNOWN_DEFECTS: scenarios that leak today because of issue 12's defects 4 and
 * 5 (fixed on another branch); they run as `it.fails`. Empty it as they land.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { inspect } from "node:util";
import { describe, it } from "vitest";
import { WebSocketServer, WebSocket as WsWebSocket } from "ws";
import { APIError, WebData as PortableWebData, type ClientOptions, type Logger } from "../src/index.js";
import type { WebSocketConstructor } from "../src/jobs/watch-types.js";
import { WebData as NodeWebData } from "../src/node.js";
import { TRANSPORTS, type TransportKind } from "./helpers.js";

const KEY = "fc-5ecret0f7he7e57a11c0de9f3b2a1d4e";
const JOB = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
const DOC = { markdown: "# ok", metadata: { sourceURL: "https://site.test/", statusCode: 200, scrapeId: "s1" } };

/** Scenarios expected to leak on this branch, with issue 12's defect number. */
export const KNOWN_DEFECTS: Record<string, string> = {};

type Handler = (req: IncomingMessage, res: ServerResponse, auth: string) => void;

interface Served {
  url: string;
  auths: string[];
  close(): Promise<void>;
}

/** A loopback server: `handler` answers HTTP; `onSocket` (if given) serves the crawl WebSocket. */
async function serve(handler: Handler, onSocket?: (ws: WsWebSocket, key: string) => void): Promise<Served> {
  const auths: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    auths.push(req.headers.authorization ?? "");
    req.resume();
    req.on("end", () => handler(req, res, (req.headers.authorization ?? "").replace(/^Bearer /, "")));
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (p) => p.values().next().value ?? false });
  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    if (!onSocket) return void socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    wss.handleUpgrade(req, socket, head, (ws) => onSocket(ws, ws.protocol));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    auths,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        for (const s of sockets) s.destroy();
        server.close(() => wss.close(() => resolve()));
      }),
  };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

const escaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/** A completed crawl status (every document on one page). */
const completed = { success: true, status: "completed", completed: 1, total: 1, creditsUsed: 1, expiresAt: "2030-01-01T00:00:00Z", data: [DOC] };

/** Every string reachable from `v` as a program or a log would print it. */
function stringsOf(v: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
  if (typeof v === "string") {
    out.push(v);
    return out;
  }
  if (typeof v !== "object" || v === null || seen.has(v)) return out;
  seen.add(v);
  const safeJson = () => {
    try {
      return JSON.stringify(v) ?? "";
    } catch {
      return "";
    }
  };
  out.push(safeJson(), inspect(v, { depth: 10 }), inspect(v, { depth: 10, customInspect: false, showHidden: true }));
  if (v instanceof Error) {
    out.push(v.message, v.stack ?? "", String(v));
    stringsOf(v.cause, out, seen);
  }
  if (v instanceof APIError) {
    stringsOf(v.body, out, seen);
    stringsOf(v.details, out, seen);
    for (const [k, h] of v.headers ?? []) out.push(`${k}: ${h}`);
  }
  for (const x of Object.values(v)) stringsOf(x, out, seen);
  return out;
}

/** A logger that keeps every line and its data as text. */
function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const put = (m: string, d?: Record<string, unknown>) => void lines.push(m, JSON.stringify(d ?? {}), inspect(d));
  return { logger: { debug: put, info: put, warn: put, error: put }, lines };
}

interface Scenario {
  name: string;
  handler: Handler;
  onSocket?: (ws: WsWebSocket, key: string) => void;
  /** Calls the client; returns what it produced (a result, events) or throws. */
  run: (client: PortableWebData) => Promise<unknown>;
}

const scrape = (c: PortableWebData) => c.scrape("https://site.test/", { formats: ["markdown"] });
async function watch(c: PortableWebData, transport: "websocket" | "sse"): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const e of c.watcher(JOB, { webSocket: WsWebSocket as unknown as WebSocketConstructor, transports: [transport], pollIntervalMs: 50 })) events.push(e);
  return events;
}
const statusOrStream = (onStream: (res: ServerResponse, key: string) => void): Handler => (req, res, key) => {
  if ((req.headers.accept ?? "").includes("text/event-stream")) return onStream(res, key);
  json(res, 200, completed);
};

const SCENARIOS: Scenario[] = [
  { name: "error text echoing the key", handler: (_q, res, key) => json(res, 401, { success: false, error: `Unauthorized: Invalid token ${key}` }), run: scrape },
  { name: "error text with the key \\u-escaped", handler: (_q, res, key) => {
      res.writeHead(401, { "content-type": "application/json" }).end(`{"success":false,"error":"Unauthorized: ${escaped(key)}"}`);
    }, run: scrape },
  { name: "details echoing the key", handler: (_q, res, key) => json(res, 400, { success: false, error: "Bad Request", details: [{ path: ["auth"], message: `token ${key} rejected` }] }), run: scrape },
  { name: "response header echoing the key", handler: (_q, res, key) => json(res, 403, { success: false, error: "Forbidden" }, { "x-debug-token": key, "www-authenticate": `Bearer realm="api", token="${key}"` }), run: scrape },
  { name: "429 text echoing the key", handler: (_q, res, key) => json(res, 429, { success: false, error: `Rate limit exceeded for ${key}. Please retry after 3600s` }), run: scrape },
  { name: "502 HTML page echoing the key", handler: (_q, res, key) => void res.writeHead(502, { "content-type": "text/html" }).end(`<html><body>Bad gateway for Bearer ${key}</body></html>`), run: scrape },
  { name: "200 result data echoing the key", handler: (_q, res, key) => json(res, 200, { success: true, data: { ...DOC, markdown: `# token ${key}` } }), run: scrape },
  { name: "truncated JSON echoing the key", handler: (_q, res, key) => void res.writeHead(200, { "content-type": "application/json" }).end(`{"success":true,"data":{"markdown":"${key}`), run: scrape },
  { name: "WebSocket close reason echoing the key", handler: (_q, res) => json(res, 200, completed),
    onSocket: (ws, key) => ws.close(1008, JSON.stringify({ type: "error", error: `Unauthorized: ${key}` })), run: (c) => watch(c, "websocket") },
  { name: "WebSocket error frame echoing the key", handler: (_q, res) => json(res, 200, completed),
    onSocket: (ws, key) => {
      ws.send(JSON.stringify({ type: "error", error: `bad token ${key}` }));
      ws.send(JSON.stringify({ type: "catchup", data: completed }));
      ws.close(1000, JSON.stringify({ type: "done" }));
    }, run: (c) => watch(c, "websocket") },
  { name: "SSE error event echoing the key", handler: statusOrStream((res, key) => {
      res.writeHead(200, { "content-type": "text/event-stream" }).end(`event: error\ndata: ${JSON.stringify({ error: `Unauthorized: ${key}` })}\n\n`);
    }), run: (c) => watch(c, "sse") },
];

function clientFor(kind: TransportKind, url: string, extra: ClientOptions = {}): PortableWebData {
  const options: ClientOptions = { apiKey: KEY, apiUrl: url, maxRetries: 0, timeoutMs: 2_000, ...extra };
  return kind === "undici" ? new NodeWebData(options) : new PortableWebData(options);
}

describe.each(TRANSPORTS)("secrets over %s", (kind) => {
  for (const s of SCENARIOS) {
    const known = KNOWN_DEFECTS[s.name];
    (known ? it.fails : it)(`${s.name}: the key appears in no string the SDK produced${known ? ` [known defect ${known}]` : ""}`, async ({ expect }) => {
      const served = await serve(s.handler, s.onSocket);
      const log = capture();
      const client = clientFor(kind, served.url, { logger: log.logger, logLevel: "debug" });
      let produced: unknown;
      try {
        produced = await s.run(client);
      } catch (err) {
        produced = err;
      } finally {
        await served.close();
      }
      expect(served.auths.some((a) => a === `Bearer ${KEY}`)).toBe(true); // the key was sent, so the server could echo it
      const strings = [...stringsOf(produced), ...log.lines, inspect(client), JSON.stringify(client)];
      expect(strings.length).toBeGreaterThan(5);
      const leaks = strings.filter((x) => x.includes(KEY) || x.includes(encodeURIComponent(KEY)));
      expect(leaks.map((x) => x.slice(0, 200))).toEqual([]);
    });
  }

  it("a `next` link to another origin is followed without the key", async ({ expect }) => {
    const other = await serve((_q, res) => json(res, 200, { ...completed, data: [{ ...DOC, metadata: { ...DOC.metadata, scrapeId: "s2" } }] }));
    const api = await serve((_q, res) => json(res, 200, { ...completed, total: 2, next: `${other.url}/v2/crawl/${JOB}?skip=1` }));
    try {
      const ids: string[] = [];
      for await (const d of clientFor(kind, api.url, { logLevel: "off" }).crawlDocuments(JOB)) ids.push(String(d.metadata.scrapeId));
      expect(ids).toEqual(["s1", "s2"]);
      expect(api.auths).toEqual([`Bearer ${KEY}`]);
      expect(other.auths).toEqual([""]);
    } finally {
      await api.close();
      await other.close();
    }
  });

  it("a redirect to another origin does not carry the key", async ({ expect }) => {
    const other = await serve((_q, res) => json(res, 200, { success: true, data: DOC }));
    const api = await serve((_q, res) => void res.writeHead(307, { location: `${other.url}/v2/scrape` }).end());
    try {
      await clientFor(kind, api.url, { logLevel: "off" })
        .scrape("https://site.test/")
        .catch(() => undefined);
      expect(api.auths).toEqual([`Bearer ${KEY}`]);
      expect(other.auths.filter((a) => a.includes(KEY))).toEqual([]);
    } finally {
      await api.close();
      await other.close();
    }
  });
});
