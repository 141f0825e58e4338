/**
 * Secrets scan (the API key is never in anything the SDK produces): against loopback servers that echo
 * the API key back in every way a server can (error text, `\u`-escaped JSON,
 * `details`, response headers, 429 text, HTML pages, result data, WebSocket
 * close reasons and error frames, SSE error events), every string the SDK
 * produces is collected (messages, stacks, `toJSON`, `util.inspect` with and
 * without the custom inspector, error bodies, details and headers, results,
 * watcher event payloads, log lines of a debug logger) and the key must be
 * found nowhere. The key must never go to another origin (a `next` link or a
 * redirect to another host). Over both transports.
 * The `next`-link and redirect cases run over both transports in
 * `test/parity.test.ts`.
 */
import type { ServerResponse } from "node:http";
import { inspect } from "node:util";
import { describe, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { WebData as PortableWebData, type ClientOptions } from "../src/index.js";
import type { WebSocketConstructor } from "../src/jobs/watch-types.js";
import { WebData as NodeWebData } from "../src/node.js";
import { TRANSPORTS, type TransportKind } from "./helpers.js";
import { capture, json, serve, stringsOf, type Handler } from "./support/loopback.js";
import { sse } from "../src/sse.js";
import { websocket } from "../src/websocket.js";

const KEY = "fc-5ecret0f7he7e57a11c0de9f3b2a1d4e";
const JOB = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
const DOC = { markdown: "# ok", metadata: { sourceURL: "https://site.test/", statusCode: 200, scrapeId: "s1" } };

const escaped = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/** A completed crawl status (every document on one page). */
const completed = { success: true, status: "completed", completed: 1, total: 1, creditsUsed: 1, expiresAt: "2030-01-01T00:00:00Z", data: [DOC] };

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
  const options: ClientOptions = { apiKey: KEY, apiUrl: url, maxRetries: 0, timeoutMs: 2_000, plugins: [sse, websocket], ...extra };
  return kind === "undici" ? new NodeWebData(options) : new PortableWebData(options);
}

describe.each(TRANSPORTS)("secrets over %s", (kind) => {
  for (const s of SCENARIOS) {
    it(`${s.name}: the key appears in no string the SDK produced`, async ({ expect }) => {
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
});

describe.each(TRANSPORTS)("key-shaped text in body excerpts over %s", (kind) => {
  it("an answer the SDK cannot read keeps anything shaped like an API key (fc-...) out of its excerpt, not only the client's own key", async ({ expect }) => {
    const other = "fc-0ther7eam5key0f5omeone9e15e";
    const served = await serve((_q, res) => void res.writeHead(200, { "content-type": "text/html" }).end(`<html>proxy login for ${other} and ${KEY}</html>`));
    try {
      const err = await clientFor(kind, served.url, { logLevel: "off" }).scrape("https://site.test/").catch((e: unknown) => e);
      expect(err).toMatchObject({ name: "InvalidResponseError", code: "NOT_JSON" });
      const excerpt = (err as { bodyExcerpt: string }).bodyExcerpt;
      expect(excerpt).toContain("proxy login for fc-[redacted]");
      expect(excerpt).not.toContain(other);
      expect(excerpt).not.toContain(KEY);
    } finally {
      await served.close();
    }
  });
});
