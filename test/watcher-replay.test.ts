/**
 * The watcher against the real server's recorded WebSocket transcripts
 * (`crawl-websocket-*.json`, replayed from a tiny ws server), and against
 * scripted edge cases: the real server's lag after `done`, zero counters,
 * every error close code, `done` as a message.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BadRequestError, NotFoundError, PermissionDeniedError } from "../src/index.js";
import { WebData } from "../src/node.js";
import { watch } from "../src/jobs/watcher.js";
import type { WatchEvent } from "../src/jobs/watch-types.js";
import { collect, docIds, NodeWebSocket, scriptedServer, type ScriptedSession } from "./watch-helpers.js";
import { FAST_WATCH } from "./support/fast-poll.js";

type Entry = { event: string; url?: string; subprotocol?: string; data?: { type: string; data?: unknown }; code?: number; reason?: string };

async function transcript(name: string): Promise<Entry[]> {
  return JSON.parse(await readFile(fileURLToPath(new URL(`./fixtures/recorded/${name}`, import.meta.url)), "utf8")) as Entry[];
}

function session(entries: Entry[]): ScriptedSession {
  const close = entries.find((e) => e.event === "close");
  return { frames: entries.filter((e) => e.event === "message").map((e) => e.data), close: close ? { code: close.code ?? 1000, reason: close.reason ?? "" } : "drop" };
}

const KEY = "fc-selfhost-test";
let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function serve(sessions: ScriptedSession[], rest: { status: number; body: unknown }[]) {
  const server = await scriptedServer(sessions, rest);
  closeServer = server.close;
  const client = new WebData({ apiKey: KEY, apiUrl: server.url, logLevel: "off", maxRetries: 0 });
  return { server, client };
}

const status = (s: string, docs: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { success: true, status: s, completed: docs.length, total: docs.length, creditsUsed: -1, expiresAt: "2026-11-23T01:31:25.000Z", data: docs, ...extra },
});
const doc = (n: number) => ({ markdown: `# ${n}`, metadata: { scrapeId: `scrape-${n}`, sourceURL: `https://acme.test/${n}`, statusCode: 200 } });
const types = (events: WatchEvent[]) => events.map((e) => (e.type === "status" || e.type === "done" ? `${e.type}:${e.status}` : e.type));

describe("recorded WebSocket transcripts", () => {
  it("crawl-websocket-v2.json: catchup, six documents, done in the close reason, confirmed over REST", async () => {
    const entries = await transcript("crawl-websocket-v2.json");
    const docs = entries.filter((e) => e.data?.type === "document").map((e) => e.data?.data as { metadata: { scrapeId: string } });
    const { server, client } = await serve([session(entries)], [status("completed", docs)]);
    const id = "01a200e1-26bb-752e-ac9d-fd9d8cf7ffe1";
    const { events, thrown } = await collect(client.watcher(id, { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(thrown).toBeUndefined();
    expect(server.upgrades).toEqual([`/v2/crawl/${id}`]);
    expect(server.protocols).toEqual([KEY]); // the key as the sub-protocol, as recorded
    expect(types(events)).toEqual(["status:scraping", ...docs.map(() => "document"), "status:completed", "done:completed"]);
    expect(events[0]).toEqual({ type: "status", status: "scraping", completed: 0, total: 1, creditsUsed: 1 });
    expect(docIds(events)).toEqual(docs.map((d) => d.metadata.scrapeId));
    expect(events.at(-1)).toEqual({ type: "done", status: "completed", completed: 6, total: 6, creditsUsed: -1, error: undefined });
    expect(server.rest).toEqual([`GET /v2/crawl/${id}?limit=1 accept=application/json`]);
  });

  it("crawl-websocket-v1.json through the v1 routes (watch with apiVersion v1)", async () => {
    const entries = await transcript("crawl-websocket-v1.json");
    const docs = entries.filter((e) => e.data?.type === "document").map((e) => e.data?.data);
    const { server, client } = await serve([session(entries)], [status("completed", docs)]);
    const id = "01a200e3-7a52-768e-a228-f122eab3401e";
    const { events } = await collect(watch(client.http, "crawl", id, { webSocket: NodeWebSocket, ...FAST_WATCH }, { apiVersion: "v1" }));
    expect(server.upgrades).toEqual([`/v1/crawl/${id}`]);
    expect(docIds(events)).toHaveLength(6);
    expect(server.rest[0]).toMatch(new RegExp(`^GET /v1/crawl/${id}\\?limit=1`));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
  });

  it("crawl-websocket-v2-unknown-id.json: 1008 Job not found is an error event, the REST 404 stops the watcher", async () => {
    const entries = await transcript("crawl-websocket-v2-unknown-id.json");
    const { client } = await serve([session(entries)], [{ status: 404, body: { success: false, error: "Job not found" } }]);
    const { events, thrown } = await collect(client.watcher("00000000-0000-4000-8000-000000000000", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(events).toMatchObject([{ type: "error", fatal: false, error: { name: "WatchTransportError", code: 1008, serverError: "Job not found" } }]);
    expect(thrown).toBeInstanceOf(NotFoundError);
  });

  it("crawl-websocket-v2-non-uuid.json: a plain-text close reason, then the REST 400", async () => {
    const entries = await transcript("crawl-websocket-v2-non-uuid.json");
    const { client } = await serve([session(entries)], [{ status: 400, body: { success: false, error: "Invalid job ID format. Job ID must be a valid UUID." } }]);
    const { events, thrown } = await collect(client.watcher("not-a-uuid", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(events).toMatchObject([{ type: "error", error: { code: 1008, serverError: "Invalid job ID" } }]);
    expect(thrown).toBeInstanceOf(BadRequestError);
  });
});

describe("scripted WebSocket edge cases", () => {
  const catchup = (docs: unknown[]) => ({ type: "catchup", data: { success: true, status: "scraping", total: docs.length, completed: 0, creditsUsed: 1, expiresAt: "x", data: docs } });
  const done = { code: 1000, reason: JSON.stringify({ type: "done" }) };

  it("waits out the server's lag: REST still says scraping after the socket's done", async () => {
    const docs = [doc(1), doc(2)];
    const { server, client } = await serve(
      [{ frames: [catchup([doc(1)]), { type: "document", data: doc(2) }], close: done }],
      [status("scraping", docs.slice(0, 1)), status("scraping", docs.slice(0, 1)), status("completed", docs.slice(0, 1), { completed: 2, total: 2 })],
    );
    const { events } = await collect(client.watcher("job-lag", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(server.rest).toHaveLength(3);
    expect(types(events)).toEqual(["status:scraping", "document", "document", "status:scraping", "status:completed", "done:completed"]);
  });

  it("never trusts completed with zero counters: reads the pages instead", async () => {
    const { server, client } = await serve(
      [{ frames: [catchup([doc(1), doc(2)])], close: done }],
      [status("completed", [], { completed: 0, total: 0 }), status("completed", [doc(1), doc(2), doc(3)])],
    );
    const { events } = await collect(client.watcher("job-zero", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(server.rest.map((r) => r.split(" ")[1])).toEqual(["/v2/crawl/job-zero?limit=1", "/v2/crawl/job-zero?skip=0"]);
    expect(docIds(events)).toEqual(["scrape-1", "scrape-2", "scrape-3"]); // the one the socket missed is found
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 3 });
  });

  it("after a drop, re-reads every page at the end even when the counters look complete", async () => {
    // The second socket's catchup lacks a document the first one never sent; the counters (2) lag the pages (3).
    const { server, client } = await serve(
      [{ frames: [catchup([doc(1)])], close: "drop" }, { frames: [catchup([doc(2)])], close: done }],
      [status("completed", [doc(1), doc(2), doc(3)], { completed: 2, total: 2 })],
    );
    const { events } = await collect(client.watcher("job-drop", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(server.sessions).toBe(2);
    expect(server.rest.map((r) => r.split(" ")[1])).toEqual(["/v2/crawl/job-drop?skip=0"]);
    expect(docIds(events)).toEqual(["scrape-1", "scrape-2", "scrape-3"]);
  });

  it("believes an empty completed job only on a second read", async () => {
    const { server, client } = await serve([{ frames: [catchup([])], close: done }], [status("completed", [])]);
    const { events } = await collect(client.watcher("job-empty", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(server.rest).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 0, total: 0 });
  });

  it.each([
    [3003, "Forbidden", PermissionDeniedError, 403],
    [3000, "Unauthorized: Invalid token", undefined, 200],
    [1011, "An unexpected error occurred. Please contact help@firecrawl.com for help.", undefined, 200],
  ] as const)("close %i is an error event; REST decides what follows", async (code, error, Fatal, restStatus) => {
    const rest = restStatus === 200 ? status("completed", [doc(1)]) : { status: restStatus, body: { success: false, error } };
    const { client } = await serve([{ frames: [], close: { code, reason: JSON.stringify({ type: "error", error }) } }], [rest]);
    const { events, thrown } = await collect(client.watcher("job-err", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(events[0]).toMatchObject({ type: "error", fatal: false, error: { code, serverError: error } });
    if (Fatal) expect(thrown).toBeInstanceOf(Fatal);
    else {
      expect(thrown).toBeUndefined();
      expect(types(events).slice(1)).toEqual(["document", "status:completed", "done:completed"]); // fell back to polling
    }
  });

  it("accepts done as a message (and closes the socket itself)", async () => {
    const { server, client } = await serve([{ frames: [catchup([doc(1)]), { type: "done" }] }], [status("completed", [doc(1)])]);
    const { events } = await collect(client.watcher("job-msg", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(types(events)).toEqual(["status:scraping", "document", "status:completed", "done:completed"]);
    await expect.poll(() => server.clientCloses).toEqual([1000]);
  });

  it("reports a document frame without data instead of passing on an empty document, and recovers the page over REST", async () => {
    const { client } = await serve([{ frames: [catchup([]), { type: "document" }, { type: "document", data: doc(2) }], close: done }], [status("completed", [doc(1), doc(2)])]);
    const { events, thrown } = await collect(client.watcher("job-nodata", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(thrown).toBeUndefined();
    expect(events.filter((e) => e.type === "document").every((e) => e.type === "document" && typeof e.document === "object" && e.document !== null)).toBe(true);
    expect(events[1]).toMatchObject({ type: "error", fatal: false, error: { message: expect.stringMatching(/without data/) } });
    expect([...docIds(events)].sort()).toEqual(["scrape-1", "scrape-2"]);
    expect(events.at(-1)?.type).toBe("done");
  });

  it("reports an error frame without stopping, and ignores frames that are not JSON", async () => {
    const { client } = await serve(
      [{ frames: [catchup([]), { type: "error", error: "Something broke" }, "not json", { type: "document", data: doc(1) }], close: done }],
      [status("completed", [doc(1)])],
    );
    const { events } = await collect(client.watcher("job-frames", { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(types(events)).toEqual(["status:scraping", "error", "error", "document", "status:completed", "done:completed"]);
    expect(events[1]).toMatchObject({ error: { serverError: "Something broke" }, fatal: false });
  });
});
