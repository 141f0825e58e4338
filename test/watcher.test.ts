import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, AuthenticationError, NotFoundError, ValidationError } from "../src/index.js";
import { WatchTransportError, type WatchEvent } from "../src/jobs/watch-types.js";
import { dropStream, fakeJobs, streamLog, type RecordedRequest } from "../src/testing/node.js";
import { collect, docIds, inProcessSetup, jobDocIds, NodeWebSocket, servedSetup } from "./watch-helpers.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

const KINDS = ["fetch", "undici"] as const;
/** Node 22+ has a global WebSocket, which the served fake would answer: keep the SSE/polling tests on SSE/polling. */
const NO_WS = { transports: ["sse", "poll"] as ("sse" | "poll")[] };
const START = "https://acme.test/";
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await cleanup?.();
  cleanup = undefined;
});

async function served(kind: (typeof KINDS)[number], fakeOptions = {}) {
  const s = await servedSetup(kind, fakeOptions);
  cleanup = s.close;
  return s;
}

/** Collects a watcher's events with its polls, reconnect pauses and the fake's frame pacing on the fake clock, 10 ms a step between real I/O turns. */
function driven<T>(iterable: AsyncIterable<WatchEvent<T>>) {
  useJobTimers();
  return drive(collect(iterable), 10);
}

function statusReads(fake: { requests: RecordedRequest[] }, id: string) {
  return fake.requests.filter((r) => r.method === "GET" && r.pathname.endsWith(id) && !(r.headers.accept ?? "").includes("event-stream"));
}

function expectExactlyOnce(events: WatchEvent[], expected: string[]) {
  const got = docIds(events);
  expect(new Set(got).size).toBe(got.length);
  expect([...got].sort()).toEqual([...expected].sort());
  expect(expected.length).toBeGreaterThan(0);
}

describe.each(KINDS)("watcher over %s", (kind) => {
  it("polls the REST status when there is no WebSocket and no SSE, and ends with a REST-confirmed done", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startCrawl(START, { limit: 8 });
    const { events, thrown } = await collect(client.watcher(job.id, { ...FAST_WATCH, ...NO_WS }));
    expect(thrown).toBeUndefined();
    expectExactlyOnce(events, jobDocIds(fake, job.id));
    expect(docIds(events)).toEqual(jobDocIds(fake, job.id)); // in the job's order
    const last = events.at(-1);
    expect(last).toMatchObject({ type: "done", status: "completed", completed: 8, total: 8 });
    expect(events.filter((e) => e.type === "status").length).toBeGreaterThan(1);
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    // The SSE probe went out once and was answered with JSON; everything else was plain polling.
    expect(fake.requests.filter((r) => (r.headers.accept ?? "").includes("event-stream"))).toHaveLength(1);
    expect(statusReads(fake, job.id).length).toBeGreaterThan(1);
  });

  it("falls back when a refused WebSocket fires error but never close (Node 22's WebSocket does this)", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startCrawl(START, { limit: 4 });
    let opened = 0;
    class ErrorOnlySocket {
      onopen: (() => void) | null = null;
      onmessage: ((ev: { data: unknown }) => void) | null = null;
      onclose: ((ev: { code: number; reason: string }) => void) | null = null;
      onerror: (() => void) | null = null;
      constructor() {
        opened += 1;
        setTimeout(() => this.onerror?.(), 5);
      }
      close(): void {
        // Like the runtime: closing a CONNECTING socket fires error again, synchronously, and no close event ever arrives.
        this.onerror?.();
      }
    }
    const { events, thrown } = await collect(client.watcher(job.id, { ...FAST_WATCH, webSocket: ErrorOnlySocket as never }));
    expect(thrown).toBeUndefined();
    expect(opened).toBeGreaterThan(0);
    expectExactlyOnce(events, jobDocIds(fake, job.id));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
  });

  it("takes RequestOptions last: per-call headers reach every REST read and the event-stream request", async () => {
    const { fake, client } = await served(kind, { sse: true });
    const job = await client.startCrawl(START, { limit: 3 });
    const before = fake.requests.length;
    const { events, thrown } = await collect(client.watcher(job.id, { ...FAST_WATCH, ...NO_WS }, { headers: { "x-trace": "w-1" } }));
    expect(thrown).toBeUndefined();
    expect(events.at(-1)?.type).toBe("done");
    const reads = fake.requests.slice(before).filter((r) => r.method === "GET");
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.every((r) => r.headers["x-trace"] === "w-1")).toBe(true);
  });

  it("watches v2 routes whatever the caller's options hold (the route version and request options are not options)", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startCrawl(START, { limit: 3 });
    const before = fake.requests.length;
    // Plain JavaScript can pass any key: the SDK's internal ones must not change the routes or the requests.
    const options = { ...FAST_WATCH, transports: ["poll"], apiVersion: "v1", requestOptions: { headers: { "x-smuggled": "1" } } } as Parameters<typeof client.watcher>[1];
    const { events, thrown } = await collect(client.watcher(job.id, options));
    expect(thrown).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
    const reads = fake.requests.slice(before).filter((r) => r.method === "GET");
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((r) => r.pathname.startsWith("/v2/crawl/") && r.headers["x-smuggled"] === undefined)).toBe(true);
  });

  it("uses server-sent events when the server offers them", async () => {
    const { fake, client } = await served(kind, { sse: true });
    const job = await client.startCrawl(START, { limit: 8 });
    const { events, thrown } = await collect(client.watcher(job.id, { ...FAST_WATCH, ...NO_WS }));
    expect(thrown).toBeUndefined();
    expect(docIds(events)).toEqual(jobDocIds(fake, job.id));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 8 });
    expect(streamLog(fake)).toMatchObject([{ transport: "sse", closedBy: "server", dropped: false }]);
    // Confirmation is one cheap REST read (limit=1) since the stream was clean.
    expect(statusReads(fake, job.id).map((r) => r.path)).toEqual([expect.stringContaining("limit=1")]);
  });

  it("resumes an SSE stream with Last-Event-ID after a drop, losing and repeating nothing", async () => {
    const { fake, client } = await served(kind, { sse: true });
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const job = await client.startCrawl(START, { limit: 10 });
    dropStream(fake, { transport: "sse", afterFrames: 4 });
    const { events, thrown } = await driven(client.watcher(job.id, { ...FAST_WATCH, ...NO_WS }));
    expect(thrown).toBeUndefined();
    expectExactlyOnce(events, jobDocIds(fake, job.id));
    const log = streamLog(fake);
    expect(log[0]).toMatchObject({ dropped: true });
    expect(log[1]?.lastEventId).toMatch(/^\d+$/);
    const dropErrors = events.filter((e) => e.type === "error");
    expect(dropErrors).toHaveLength(1);
    expect(dropErrors[0]).toMatchObject({ fatal: false, error: expect.any(WatchTransportError) });
    expect(events.at(-1)?.type).toBe("done");
  });

  it("streams over the WebSocket (key as sub-protocol, done in the close reason) and confirms over REST", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startCrawl(START, { limit: 8 });
    const { events, thrown } = await collect(client.watcher(job.id, { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(thrown).toBeUndefined();
    expect(docIds(events)).toEqual(jobDocIds(fake, job.id));
    expect(events[0]).toMatchObject({ type: "status", status: "scraping" }); // from the catchup frame
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 8 });
    expect(streamLog(fake)).toMatchObject([{ transport: "ws", closedBy: "server", code: 1000, jobId: job.id }]);
    expect(statusReads(fake, job.id).length).toBeGreaterThanOrEqual(1);
    expect(fake.requests.some((r) => (r.headers.accept ?? "").includes("event-stream"))).toBe(false);
  });

  it("watches a batch scrape on the crawl WebSocket path and confirms on the batch status route", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startBatchScrape(["https://acme.test/about", "https://acme.test/contact", "https://acme.test/products"]);
    const { events } = await collect(client.watcher(job.id, { kind: "batch", webSocket: NodeWebSocket, ...FAST_WATCH }));
    expectExactlyOnce(events, jobDocIds(fake, job.id));
    expect(streamLog(fake)[0]).toMatchObject({ transport: "ws", closedBy: "server", code: 1000 });
    expect(statusReads(fake, job.id).every((r) => r.pathname.startsWith("/v2/batch/scrape/"))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 3 });
  });

  it("reconnects a dropped WebSocket, then falls back to polling, without losing or repeating a document", async () => {
    const { fake, client } = await served(kind);
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const job = await client.startCrawl(START, { limit: 12 });
    // 1st: drops after 3 frames (progress: reconnect); 2nd: after the catchup (progress: reconnect);
    // 3rd: before any frame, no progress: a second try in a row > maxReconnects, so fall back (SSE not offered: polling).
    dropStream(fake, { transport: "ws", afterFrames: 3 });
    dropStream(fake, { transport: "ws", afterFrames: 1 });
    dropStream(fake, { transport: "ws", afterFrames: 0, times: 5 });
    const { events, thrown } = await driven(client.watcher(job.id, { webSocket: NodeWebSocket, ...FAST_WATCH, maxReconnects: 1 }));
    expect(thrown).toBeUndefined();
    expectExactlyOnce(events, jobDocIds(fake, job.id));
    expect(streamLog(fake).map((c) => [c.transport, c.dropped])).toEqual([["ws", true], ["ws", true], ["ws", true]]);
    expect(events.filter((e) => e.type === "error" && e.error instanceof WatchTransportError && e.error.code === 1006)).toHaveLength(3);
    expect(statusReads(fake, job.id)[0]?.path).toMatch(/skip=0$/); // polling reads every page from the start
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 12 });
  });

  it("closes the socket when the loop breaks (the server sees the client close)", async () => {
    const { fake, client } = await served(kind);
    fakeJobs(fake).configure({ pagesPerPoll: 0 }); // the job moves only when the test says so
    const job = await client.startCrawl(START, { limit: 20 });
    fakeJobs(fake).advance(job.id, 3);
    let n = 0;
    for await (const e of client.watcher(job.id, { webSocket: NodeWebSocket })) {
      if (e.type === "document" && ++n === 2) break;
    }
    await vi.waitFor(() => expect(streamLog(fake)[0]).toMatchObject({ transport: "ws", closedBy: "client" }));
    expect(fakeJobs(fake).get(job.id).status).toBe("scraping");
  });

  it("stops on abort: the loop throws AbortError and the socket is closed", async () => {
    const { fake, client } = await served(kind);
    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    const job = await client.startCrawl(START, { limit: 20 });
    fakeJobs(fake).advance(job.id, 2);
    const ctl = new AbortController();
    const events: WatchEvent[] = [];
    const fatal: unknown[] = [];
    const watcher = client.watcher(job.id, { webSocket: NodeWebSocket, signal: ctl.signal });
    watcher.on("error", (e) => fatal.push(e.fatal));
    await expect(
      (async () => {
        for await (const e of watcher) {
          events.push(e);
          if (e.type === "document") ctl.abort();
        }
      })(),
    ).rejects.toBeInstanceOf(AbortError);
    expect(fatal).toEqual([true]);
    await vi.waitFor(() => expect(streamLog(fake)[0]?.closedBy).toBe("client"));
  });

  it.skipIf(kind !== "undici" || "WebSocket" in globalThis)("on Node 20 (no global WebSocket) a client that sends through undici watches over undici's WebSocket, live", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startCrawl(START, { limit: 3 });
    const { events, thrown } = await collect(client.watcher(job.id, FAST_WATCH));
    expect(thrown).toBeUndefined();
    expect(streamLog(fake).map((c) => c.transport)).toContain("ws");
    expectExactlyOnce(events, jobDocIds(fake, job.id));
  });

  it("the fake's socket closes with done once every page it counts is sent, while REST still says scraping (as the service's socket does, reference 4.5); the watcher reads the end by REST", async () => {
    const { fake, client, url } = await served(kind);
    fakeJobs(fake).configure({ pagesPerPoll: 2, settlePolls: 6 });
    const job = await client.startCrawl(START, { limit: 2 });
    const socket = new NodeWebSocket(`${url.replace(/^http/, "ws")}/v2/crawl/${job.id}`, fake.apiKey);
    const frames: string[] = [];
    socket.onmessage = (ev: { data: unknown }) => frames.push(String(ev.data));
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => (socket.onclose = (ev: { code: number; reason: string }) => resolve({ code: ev.code, reason: ev.reason })));
    expect(closed).toEqual({ code: 1000, reason: JSON.stringify({ type: "done" }) });
    expect(frames.flatMap((f) => (JSON.parse(f) as { data: { data?: unknown[] } }).data.data ?? [{}])).toHaveLength(2);
    expect((await client.getCrawlStatus(job.id)).status).toBe("scraping");
    const { events, thrown } = await collect(client.watcher(job.id, { ...FAST_WATCH, webSocket: NodeWebSocket }));
    expect(thrown).toBeUndefined();
    expect(events.filter((e) => e.type === "status").map((e) => (e as { status: string }).status)).toContain("scraping");
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 2, total: 2 });
  });

  it("serveFake({ webSocket: false }) answers the socket's upgrade with 501: the watcher reads the job by REST, and the fallback is no error event (the debug log says it)", async () => {
    const debug: string[] = [];
    const logger = { debug: (m: string) => debug.push(m), info: () => undefined, warn: () => undefined, error: () => undefined };
    const s = await servedSetup(kind, {}, { logLevel: "debug", logger }, { webSocket: false });
    cleanup = s.close;
    const job = await s.client.startCrawl(START, { limit: 3 });
    const { events, thrown } = await collect(s.client.watcher(job.id, { ...FAST_WATCH, webSocket: NodeWebSocket }));
    expect(thrown).toBeUndefined();
    expect(streamLog(s.fake).map((c) => c.transport)).not.toContain("ws");
    // The socket could not connect: a transport fallback, said in the debug log, never an error event.
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expect(debug.filter((m) => m.includes(`watcher of ${job.id}: websocket not used: the WebSocket could not connect`))).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: 3 });
  });

  it("a 404 right after this client started the job is not visible yet (the waiters' rule): it reads on, with no error event", async () => {
    const { fake, client } = await served(kind);
    const job = await client.startCrawl(START, { limit: 3 });
    fake.inject({ match: new RegExp(`^GET /v2/crawl/${job.id}`), times: 3, status: 404, body: { success: false, error: "Job not found" } });
    const { events, thrown } = await driven(client.watcher(job.id, { ...FAST_WATCH, ...NO_WS }));
    expect(thrown).toBeUndefined();
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    expectExactlyOnce(events, jobDocIds(fake, job.id));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
  });

  it("surfaces the WebSocket's error close (1008 Job not found), then stops with the REST 404", async () => {
    const { client } = await served(kind);
    const id = "00000000-0000-4000-8000-000000000000";
    const { events, thrown } = await collect(client.watcher(id, { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "error", fatal: false, error: { code: 1008, serverError: "Job not found", transport: "websocket" } });
    expect(thrown).toBeInstanceOf(NotFoundError);
  });

  it("surfaces an auth failure close (3000), then stops with the REST 401", async () => {
    const { fake, client: good } = await served(kind);
    const job = await good.startCrawl(START, { limit: 2 });
    const { WebData } = await import(kind === "undici" ? "../src/node.js" : "../src/index.js");
    const { websocket } = await import("../src/websocket.js");
    const client = new WebData({ apiKey: "fc-wrong-key", apiUrl: good.apiUrl, logLevel: "off", plugins: [websocket] });
    const { events, thrown } = await collect(client.watcher(job.id, { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(events[0]).toMatchObject({ type: "error", fatal: false, error: { code: 3000, serverError: "Unauthorized: Invalid token" } });
    expect(thrown).toBeInstanceOf(AuthenticationError);
    expect(fake.keyOf(fake.requests.at(-1)!)).toBe("fc-wrong-key");
  });

  it("reports a failed job as done with status failed (confirmed over REST)", async () => {
    const { fake, client } = await served(kind);
    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    const job = await client.startCrawl(START, { limit: 5 });
    fakeJobs(fake).fail(job.id, "Crawl kickoff failed");
    const { events, thrown } = await collect(client.watcher(job.id, { webSocket: NodeWebSocket, ...FAST_WATCH }));
    expect(thrown).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: "done", status: "failed" });
  });
});

describe("watcher (in process)", () => {
  it("streams SSE from the fake injected as fetch, and break cancels the stream", async () => {
    const { fake, client } = inProcessSetup({ sse: true });
    const job = await client.startCrawl(START, { limit: 6 });
    const { events } = await collect(client.watcher(job.id, { ...FAST_WATCH }));
    expect(docIds(events)).toEqual(jobDocIds(fake, job.id));
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });

    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    const slow = await client.startCrawl(START, { limit: 6 });
    fakeJobs(fake).advance(slow.id, 2);
    for await (const e of client.watcher(slow.id)) if (e.type === "document") break;
    await vi.waitFor(() => expect(streamLog(fake).at(-1)).toMatchObject({ transport: "sse", jobId: slow.id, closedBy: "client" }));
  });

  it("uses the runtime's WebSocket, except for a client with a custom fetch", async () => {
    const g = globalThis as { WebSocket?: unknown };
    const saved = g.WebSocket;
    const opened: string[] = [];
    g.WebSocket = class {
      constructor(url: string) {
        opened.push(url);
        throw new Error("no sockets in this test");
      }
    };
    try {
      const { fake, client } = inProcessSetup();
      const job = await client.startCrawl(START, { limit: 2 });
      const inProcess = await collect(client.watcher(job.id, { ...FAST_WATCH }));
      expect(inProcess.events.at(-1)?.type).toBe("done");
      expect(opened).toEqual([]);
      const s = await served("undici");
      const job2 = await s.client.startCrawl(START, { limit: 2 });
      const overNetwork = await collect(s.client.watcher(job2.id, { ...FAST_WATCH }));
      expect(opened).toEqual([`${s.url.replace("http", "ws")}/v2/crawl/${job2.id}`]);
      expect(overNetwork.events[0]).toMatchObject({ type: "error", fatal: false, error: { transport: "websocket" } });
      expect(overNetwork.events.at(-1)?.type).toBe("done");
      expect(fake.requests.length).toBeGreaterThan(0);
    } finally {
      g.WebSocket = saved;
    }
  });

  it("turns a failed poll into a non-fatal error event and goes on", async () => {
    const { fake, client } = inProcessSetup({}, { maxRetries: 0 });
    const job = await client.startCrawl(START, { limit: 4 });
    fake.inject({ match: new RegExp(`GET /v2/crawl/${job.id}\\?skip=0$`), status: 503, times: 1 });
    const { events, thrown } = await collect(client.watcher(job.id, { ...FAST_WATCH, transports: ["poll"] }));
    expect(thrown).toBeUndefined();
    const errors = events.filter((e) => e.type === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ fatal: false, error: { status: 503 } });
    expectExactlyOnce(events, jobDocIds(fake, job.id));
  });

  it("gives up after maxPollFailures failed polls in a row with a fatal error", async () => {
    const { fake, client } = inProcessSetup({}, { maxRetries: 0 });
    const job = await client.startCrawl(START, { limit: 4 });
    fake.inject({ match: `/v2/crawl/${job.id}`, status: 502, times: Infinity });
    const { events, thrown } = await driven(client.watcher(job.id, { ...FAST_WATCH, transports: ["poll"], maxPollFailures: 3 }));
    expect(events.filter((e) => e.type === "error")).toHaveLength(2);
    expect(thrown).toMatchObject({ status: 502 });
  });

  it("delivers to on() listeners, which can unsubscribe; close() ends quietly", async () => {
    const { fake, client } = inProcessSetup();
    const job = await client.startCrawl(START, { limit: 6 });
    const watcher = client.watcher(job.id, { ...FAST_WATCH });
    const docs: string[] = [];
    const statuses: string[] = [];
    const off = watcher.on("status", (e) => statuses.push(e.status));
    off();
    const done = new Promise<WatchEvent>((resolve) => watcher.on("done", resolve));
    watcher.on("document", (e) => docs.push(String(e.document.metadata.scrapeId)));
    expect(await done).toMatchObject({ type: "done", status: "completed" });
    expect(docs).toEqual(jobDocIds(fake, job.id));
    expect(statuses).toEqual([]);
    watcher.close();
    watcher.close();
  });

  it("fails with ValidationError on bad arguments (through the iteration, never a synchronous throw) before anything is sent", async () => {
    const { fake, client } = inProcessSetup();
    const bad = [
      client.watcher(""),
      client.watcher(".."),
      client.watcher("id", { kind: "extract" as "crawl" }),
      client.watcher("id", { pollIntervalMs: -1 }),
      client.watcher("id", { transports: ["carrier-pigeon" as "poll"] }),
      client.watcher(42 as unknown as string),
    ];
    for (const w of bad) {
      const { events, thrown } = await collect(w);
      expect(events).toEqual([]);
      expect(thrown).toBeInstanceOf(ValidationError);
    }
    const viaListener = client.watcher("");
    const seen = await new Promise((resolve) => viaListener.on("error", resolve));
    expect(seen).toMatchObject({ type: "error", fatal: true, error: expect.any(ValidationError) });
    expect(fake.requests.length).toBe(0);
  });

  it("opens nothing until iterated or listened to, and can be iterated only once", async () => {
    const { fake, client } = inProcessSetup();
    const job = await client.startCrawl(START, { limit: 2 });
    const before = fake.requests.length;
    const watcher = client.watcher(job.id, { ...FAST_WATCH });
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests.length).toBe(before);
    watcher[Symbol.asyncIterator]();
    expect(() => watcher[Symbol.asyncIterator]()).toThrow(/only once/);
    watcher.close();
  });
});
