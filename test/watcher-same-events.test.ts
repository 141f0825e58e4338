/**
 * One watcher behaviour: the same server gives the same events whatever ran before in
 * the process. On Node 20 a Node-entry watcher got undici's WebSocket only once an earlier request (of
 * any client) had loaded undici, so against a server that refuses the upgrade (404) it yielded an
 * `error` event "The WebSocket could not connect" only after another call; in a fresh process it fell
 * back silently. Now the client's entry gives its watchers a WebSocket that they await
 * (`ClientState.webSocket`), and a transport fallback is no `error` event: the debug log says it.
 * A "fresh state" is a fresh copy of the library's modules (`vi.resetModules()`), as a new process has.
 */
import type { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { WatchEvent, WebSocketConstructor } from "../src/jobs/watch-types.js";
import { createFakeService, fakeJobs, serveFake, type FakeService, type ServedFake } from "../src/testing/node.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { collect } from "./watch-helpers.js";

const START = "https://acme.test/";
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** What a watcher showed: its events (documents by id), and its debug and warn lines. */
interface Run {
  events: string[];
  debug: string[];
  warn: string[];
}

function capture(): { logger: Record<"debug" | "info" | "warn" | "error", (m: string) => void>; debug: string[]; warn: string[] } {
  const debug: string[] = [];
  const warn: string[] = [];
  return { logger: { debug: (m) => debug.push(m), info: () => undefined, warn: (m) => warn.push(m), error: () => undefined }, debug, warn };
}

function shown(events: WatchEvent[]): string[] {
  return events.map((e) =>
    e.type === "document" ? `document ${String(e.document.metadata.scrapeId)}`
    : e.type === "error" ? `error${e.fatal ? " fatal" : ""}: ${e.error.message}`
    : `${e.type} ${e.status} ${e.completed}/${e.total}`,
  );
}

/** The fake served on loopback, its crawl socket refused with 404 (as a server or proxy without it answers); counts the upgrades. */
async function refusingServer(fake: FakeService): Promise<{ served: ServedFake; upgrades: () => number }> {
  const served = await serveFake(fake);
  let upgrades = 0;
  served.server.removeAllListeners("upgrade");
  served.server.on("upgrade", (_req, socket: Socket) => {
    upgrades += 1;
    socket.end("HTTP/1.1 404 Not Found\r\ncontent-type: text/plain\r\ncontent-length: 9\r\nconnection: close\r\n\r\nNot Found");
  });
  cleanups.push(() => served.close());
  return { served, upgrades: () => upgrades };
}

/** A finished crawl of 3 pages on `fake`, started by a client of its own. */
async function finishedCrawl(fake: FakeService, apiUrl: string): Promise<string> {
  const { WebData } = await import("../src/index.js");
  fakeJobs(fake).configure({ pagesPerPoll: 10 });
  const starter = new WebData({ apiKey: fake.apiKey, apiUrl, fetch: fake.fetch, logLevel: "off" });
  const job = await starter.crawl(START, { limit: 3 });
  return job.id;
}

describe("the Node entry: the same watcher gives the same events in a fresh state and after another call", () => {
  /** Runs the watcher with a Node-entry client made from `entry`; `before` runs a call of another client of the same entry first. */
  async function watchWith(entry: typeof import("../src/node.js"), url: string, fake: FakeService, id: string, before: boolean): Promise<Run> {
    if (before) await new entry.WebData({ apiKey: fake.apiKey, apiUrl: url, logLevel: "off" }).getCreditUsage();
    const { logger, debug, warn } = capture();
    const client = new entry.WebData({ apiKey: fake.apiKey, apiUrl: url, logLevel: "debug", logger });
    const { events, thrown } = await collect(client.watcher(id, { ...FAST_WATCH }));
    expect(thrown).toBeUndefined();
    return { events: shown(events), debug: debug.filter((m) => m.startsWith("webdata: watcher")), warn };
  }

  it("against a server that refuses the WebSocket upgrade (404): no error event either way, the fallback in the debug log", async () => {
    const fake = createFakeService();
    const { served, upgrades } = await refusingServer(fake);
    const id = await finishedCrawl(fake, served.url);

    vi.resetModules();
    const fresh = await watchWith(await import("../src/node.js"), served.url, fake, id, false);
    const upgradesFresh = upgrades();
    const after = await watchWith(await import("../src/node.js"), served.url, fake, id, true);

    expect(after).toEqual(fresh);
    expect(fresh.events.filter((e) => e.startsWith("error"))).toEqual([]);
    expect(fresh.events).toContain("status completed 3/3");
    expect(fresh.events.at(-1)).toBe("done completed 3/3");
    expect(fresh.events.filter((e) => e.startsWith("document"))).toHaveLength(3);
    // The same transports were tried: undici's WebSocket once each time (the Node 20 runtime has no global one), then polling.
    expect(upgradesFresh).toBe(1);
    expect(upgrades()).toBe(2);
    expect(fresh.debug).toEqual([
      // Without `webdata/sse` the next transport is polling, as against the service (it offers no event stream).
      `webdata: watcher of ${id}: websocket not used: the WebSocket could not connect (the server refused the upgrade, or none listens); falling back to polling`,
    ]);
    expect(fresh.warn).toEqual([]);
  }, 20_000);
});

/** A WebSocket whose server refuses the upgrade: `error` and then `close` 1006, never `open` (as undici's and `ws`'s do on a 404). */
class RefusedWebSocket {
  static opened = 0;
  readonly readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(_url: string, _protocols?: string | string[]) {
    RefusedWebSocket.opened += 1;
    queueMicrotask(() => {
      this.onerror?.();
      this.onclose?.({ code: 1006, reason: "" });
    });
  }
  close(): void {}
}

describe("the portable entry: the same watcher gives the same events in a fresh state and after another call", () => {
  async function watchWith(entry: typeof import("../src/index.js"), fake: FakeService, id: string, before: boolean): Promise<Run> {
    const base = { apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch };
    if (before) await new entry.WebData({ ...base, logLevel: "off" }).getCreditUsage();
    const { logger, debug, warn } = capture();
    const { websocket } = await import("../src/websocket.js"); // the plugin of the same module graph as `entry`
    const client = new entry.WebData({ ...base, logLevel: "debug", logger, plugins: [websocket] });
    const { events, thrown } = await collect(client.watcher(id, { ...FAST_WATCH, webSocket: RefusedWebSocket as unknown as WebSocketConstructor }));
    expect(thrown).toBeUndefined();
    return { events: shown(events), debug: debug.filter((m) => m.startsWith("webdata: watcher")), warn };
  }

  it("a refused WebSocket is a fallback, not an error event, fresh or not", async () => {
    const fake = createFakeService();
    const id = await finishedCrawl(fake, "https://fake.webdata.test");
    vi.resetModules();
    const fresh = await watchWith(await import("../src/index.js"), fake, id, false);
    const after = await watchWith(await import("../src/index.js"), fake, id, true);
    expect(after).toEqual(fresh);
    expect(RefusedWebSocket.opened).toBe(2);
    expect(fresh.events.filter((e) => e.startsWith("error"))).toEqual([]);
    expect(fresh.events.filter((e) => e.startsWith("document"))).toHaveLength(3);
    expect(fresh.events.at(-1)).toBe("done completed 3/3");
    expect(fresh.debug[0]).toBe(`webdata: watcher of ${id}: websocket not used: the WebSocket could not connect (the server refused the upgrade, or none listens); falling back to polling`);
  });

  it("without a WebSocket class (Node 20's portable entry), a watcher that asks for one names the fix: npm install ws", async () => {
    const g = globalThis as { WebSocket?: unknown };
    const saved = g.WebSocket;
    g.WebSocket = undefined;
    try {
      const fake = createFakeService();
      const id = await finishedCrawl(fake, "https://fake.webdata.test");
      const { WebData } = await import("../src/index.js");
      const { websocket } = await import("../src/websocket.js");
      const { logger, debug, warn } = capture();
      const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "debug", logger, plugins: [websocket] });
      const { events, thrown } = await collect(client.watcher(id, { ...FAST_WATCH, transports: ["websocket", "poll"] }));
      expect(thrown).toBeUndefined();
      expect(events.filter((e) => e.type === "error")).toEqual([]);
      expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
      expect(warn).toHaveLength(1);
      expect(warn[0]).toContain("npm install ws");
      expect(warn[0]).toContain(`watcher of ${id}: no WebSocket (this runtime has no WebSocket)`);
      expect(debug.filter((m) => m.includes("npm install ws"))).toEqual([]);
    } finally {
      g.WebSocket = saved;
    }
  });
});
