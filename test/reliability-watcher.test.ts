/**
 * Regression tests of the watcher: a socket attached right at the crawl start
 * (documents must still arrive as the server has them), an event-stream read
 * with a timeout and an abort, no WebSocket reconnect storm, and the key never
 * echoed in a close reason or SSE error event.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, WebData as PortableWebData } from "../src/index.js";
import { WebData } from "../src/node.js";
import type { WatchEvent } from "../src/jobs/watch-types.js";
import { collect, docIds, NodeWebSocket, scriptedServer, type ScriptedSession } from "./watch-helpers.js";
import { TRANSPORTS } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { sse } from "../src/sse.js";

const KEY = "fc-reliability-secret-key-0123";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const doc = (n: number) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, sourceURL: `https://acme.test/${n}`, statusCode: 200 } });
const status = (s: string, docs: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { success: true, status: s, completed: docs.length, total: Math.max(3, docs.length), creditsUsed: -1, expiresAt: "2026-11-23T01:31:25.000Z", data: docs, ...extra },
});

async function serveScripted(sessions: ScriptedSession[], rest: { status: number; body: unknown }[]) {
  const server = await scriptedServer(sessions, rest);
  cleanups.push(server.close);
  return { server, client: new WebData({ apiKey: KEY, apiUrl: server.url, logLevel: "off", maxRetries: 0, plugins: [sse] }) };
}

/** Every string an error shows: message, stack, JSON, `util.inspect`, and its string fields. */
function everyString(err: unknown): string {
  const e = err as Error & Record<string, unknown>;
  return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 5 }), ...Object.values(e).map((v) => (typeof v === "string" ? v : JSON.stringify(v) ?? ""))].join("\n");
}

describe("a watcher attached right at the crawl start", () => {
  it("replays crawl-websocket-v2-attached-at-start-false-done.json, then delivers documents while the crawl runs", async () => {
    type Entry = { type: string; data?: unknown; code?: number; reason?: string };
    const file = fileURLToPath(new URL("./fixtures/recorded/crawl-websocket-v2-attached-at-start-false-done.json", import.meta.url));
    const entries = JSON.parse(await readFile(file, "utf8")) as Entry[];
    const close = entries.find((e) => e.type === "close");
    const recorded: ScriptedSession = { frames: entries.filter((e) => e.type === "message").map((e) => e.data), close: { code: close?.code ?? 1000, reason: close?.reason ?? "" } };
    // REST, as the server answers after that false done: scraping, then one page more per read, then completed.
    const rest = [status("scraping", []), status("scraping", [doc(1)]), status("scraping", [doc(1), doc(2)]), status("scraping", [doc(1), doc(2)]), status("completed", [doc(1), doc(2), doc(3)])];
    const { server, client } = await serveScripted([recorded], rest);
    const id = "01a20903-3c16-711c-9933-16e208253f4e";
    const seenAt: number[] = []; // REST reads made when each document arrived
    const events: WatchEvent[] = [];
    for await (const e of client.watcher(id, { webSocket: NodeWebSocket, ...FAST_WATCH })) {
      events.push(e);
      if (e.type === "document") seenAt.push(server.rest.length);
    }
    expect(server.sessions).toBe(1);
    expect(docIds(events)).toEqual(["scrape-1", "scrape-2", "scrape-3"]);
    // Documents 1 and 2 arrive while REST still says scraping (reads 2-4), not in one burst with done (read 5).
    expect(seenAt[0]).toBeLessThan(rest.length);
    expect(seenAt[1]).toBeLessThan(rest.length);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 3 });
    // The catchup's false "completed" 0 of 0 is not reported as a status; the only completed status is the real one, after the documents.
    expect(events.filter((e) => e.type === "status").map((e) => (e.type === "status" ? e.status : ""))).toEqual(["scraping", "scraping", "scraping", "completed"]);
    expect(events.findIndex((e) => e.type === "status" && e.status === "completed")).toBe(events.length - 2);
  });

  it("a false done while REST's completed counter lags its data: the document on the page is delivered at once", async () => {
    const falseDone = { type: "catchup", data: { success: true, status: "completed", total: 0, completed: 0, creditsUsed: 0, expiresAt: "x", data: [] } };
    const lagging = (docs: unknown[]) => ({ status: 200, body: { ...status("scraping", docs).body, completed: 0 } });
    const rest = [lagging([]), lagging([doc(1)]), lagging([doc(1), doc(2)]), status("completed", [doc(1), doc(2)], { total: 2 })];
    const { server, client } = await serveScripted([{ frames: [falseDone], close: { code: 1000, reason: JSON.stringify({ type: "done" }) } }], rest);
    const seenAt: number[] = [];
    for await (const e of client.watcher("job-lagging", { webSocket: NodeWebSocket, ...FAST_WATCH })) if (e.type === "document") seenAt.push(server.rest.length);
    expect(seenAt).toHaveLength(2);
    expect(seenAt[0]).toBe(2); // on the read that first showed it
    expect(seenAt[1]).toBeLessThan(rest.length);
  });

  it("a true done (counters match what was delivered) still costs one limit=1 read", async () => {
    const catchup = { type: "catchup", data: { success: true, status: "scraping", total: 2, completed: 2, creditsUsed: 2, expiresAt: "x", data: [doc(1), doc(2)] } };
    const { server, client } = await serveScripted([{ frames: [catchup], close: { code: 1000, reason: JSON.stringify({ type: "done" }) } }], [status("completed", [doc(1), doc(2)])]);
    const { events } = await collect(client.watcher("job-true-done", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(docIds(events)).toEqual(["scrape-1", "scrape-2"]);
    expect(server.rest.map((r) => r.split(" ")[1])).toEqual(["/v2/crawl/job-true-done?limit=1"]);
  });
});

describe("WebSocket reconnect storm", () => {
  it("a socket that replays the same catchup and drops is reopened at most maxReconnects times, with backoff", async () => {
    const catchup = { type: "catchup", data: { success: true, status: "scraping", total: 3, completed: 1, creditsUsed: 1, expiresAt: "x", data: [doc(1)] } };
    const { server, client } = await serveScripted([{ frames: [catchup], close: "drop" }], [status("completed", [doc(1)], { total: 1 })]);
    // The backoff runs on the fake clock (the sockets stay real): Date.now() below measures the time the watcher waited.
    useJobTimers();
    cleanups.push(async () => void vi.useRealTimers());
    const started = Date.now();
    const watcher = client.watcher("job-storm", { webSocket: NodeWebSocket, ...FAST_WATCH, maxReconnects: 3, transports: ["websocket", "poll"] });
    const guard = setTimeout(() => watcher.close(), 4_000); // before the fix this never ended
    const { events, thrown } = await drive(collect(watcher), 1); // 1 ms a step: the real I/O turns add little to the measured time
    clearTimeout(guard);
    expect(thrown).toBeUndefined();
    expect(server.sessions).toBe(4); // the first socket and 3 reconnects (duplicate frames are not progress)
    expect(Date.now() - started).toBeGreaterThanOrEqual(150); // jittered backoff: >= 50 + 100 + 200 ms at half
    expect(docIds(events)).toEqual(["scrape-1"]);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
  });
});

describe("the key echoed by the WebSocket or the event stream", () => {
  it("a close reason that echoes the key (sent as the sub-protocol) is redacted everywhere", async () => {
    const reason = JSON.stringify({ type: "error", error: `Invalid token ${KEY}` }).replace("fc-", "\\u0066c-"); // escaped, as JSON may be
    const { client } = await serveScripted([{ frames: [{ type: "error", error: `bad key ${KEY}` }], close: { code: 3000, reason } }], [{ status: 401, body: { success: false, error: "Unauthorized" } }]);
    const errors: unknown[] = [];
    const watcher = client.watcher("job-leak", { webSocket: NodeWebSocket, ...FAST_WATCH });
    watcher.on("error", (e) => errors.push(e.error));
    const { thrown } = await collect(watcher);
    errors.push(thrown);
    expect(errors.length).toBeGreaterThanOrEqual(3);
    for (const err of errors) expect(everyString(err)).not.toContain(KEY);
    expect(errors.map((e) => (e as { serverError?: string }).serverError).filter(Boolean)).toEqual(expect.arrayContaining([expect.stringContaining("[redacted]")]));
  });

  it.each(TRANSPORTS)("an SSE error event that echoes the key is redacted (%s)", async (kind) => {
    const { url, close } = await sseServer((req, res) => {
      if ((req.headers.accept ?? "").includes("text/event-stream")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`event: error\ndata: ${JSON.stringify({ error: `key ${KEY} rejected` })}\n\n`);
      } else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status("completed", [doc(1)]).body));
    });
    cleanups.push(close);
    const client = makeClient(kind, url);
    const errors: unknown[] = [];
    const watcher = client.watcher("job-sse-leak", { transports: ["sse", "poll"], ...FAST_WATCH });
    watcher.on("error", (e) => errors.push(e.error));
    await collect(watcher);
    expect(errors).toHaveLength(1);
    expect(everyString(errors[0])).not.toContain(KEY);
    expect((errors[0] as { serverError?: string }).serverError).toBe("key [redacted] rejected");
  });
});

/** A loopback server with a custom handler; `sockets` counts the open connections. */
async function sseServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  let open = 0;
  server.on("connection", (socket) => {
    open += 1;
    socket.on("close", () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get open() {
      return open;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function makeClient(kind: (typeof TRANSPORTS)[number], url: string) {
  const opts = { apiKey: KEY, apiUrl: url, logLevel: "off" as const, maxRetries: 0, plugins: [sse] };
  return kind === "undici" ? new WebData(opts) : new PortableWebData(opts);
}

describe.each(TRANSPORTS)("the event-stream read has a timeout and an abort (%s)", (kind) => {
  it("a status GET that answers JSON headers and stalls: abort ends the watcher and closes the socket", async () => {
    const srv = await sseServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"success":true,'); // and never more
    });
    cleanups.push(srv.close);
    const ctl = new AbortController();
    const watcher = makeClient(kind, srv.url).watcher("job-stall", { transports: ["sse", "poll"], ...FAST_WATCH, signal: ctl.signal }, { timeoutMs: 60_000 });
    const done = collect(watcher);
    await expect.poll(() => srv.open).toBeGreaterThan(0);
    ctl.abort();
    const { thrown } = await done;
    expect(thrown).toBeInstanceOf(AbortError);
    await expect.poll(() => srv.open, { timeout: 2_000 }).toBe(0);
  });

  it("a JSON answer that stalls does not hold the watcher: it falls back to polling", async () => {
    let n = 0;
    const srv = await sseServer((req, res) => {
      n += 1;
      if ((req.headers.accept ?? "").includes("text/event-stream")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.write("{"); // stalls
      } else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status("completed", [doc(1)], { total: 1 }).body));
    });
    cleanups.push(srv.close);
    const { events, thrown } = await collect(makeClient(kind, srv.url).watcher("job-json", { transports: ["sse", "poll"], ...FAST_WATCH }, { timeoutMs: 60_000 }));
    expect(thrown).toBeUndefined();
    expect(docIds(events)).toEqual(["scrape-1"]);
    expect(n).toBeGreaterThanOrEqual(2);
  });

  it("an event stream that drips bytes but no event is dropped after the per-attempt timeout", async () => {
    const timers: ReturnType<typeof setInterval>[] = [];
    let streams = 0;
    const srv = await sseServer((req, res) => {
      if ((req.headers.accept ?? "").includes("text/event-stream")) {
        streams += 1;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: ");
        timers.push(setInterval(() => res.write("x"), 10)); // never a complete event
      } else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status("completed", [doc(1)], { total: 1 }).body));
    });
    cleanups.push(async () => {
      for (const t of timers) clearInterval(t);
      await srv.close();
    });
    const errors: WatchEvent[] = [];
    const watcher = makeClient(kind, srv.url).watcher("job-drip", { transports: ["sse", "poll"], ...FAST_WATCH, maxReconnects: 1 }, { timeoutMs: 100 });
    watcher.on("error", (e) => errors.push(e));
    const { events, thrown } = await collect(watcher);
    expect(thrown).toBeUndefined();
    expect(streams).toBe(2); // the stream and one reconnect, then polling
    expect(errors[0]).toMatchObject({ fatal: false, error: { message: "The event stream sent nothing for 100 ms" } });
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
  });
});
