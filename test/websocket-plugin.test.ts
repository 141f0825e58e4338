/**
 * The watcher's WebSocket transport is a plugin (`webdata/websocket`): a client of the portable entry (browsers,
 * Workers, Deno, Bun) without it opens no socket, even where the runtime has a global `WebSocket`, and polls; with
 * `plugins: [websocket]` the same watcher takes the job's events over the service's socket. The Node entry and the
 * drop-in's classes bring it built in. `transports: ["websocket"]` or a `webSocket` class without it is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { ValidationError, WebData, type WatchEvent } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { websocket, type ClientPlugin } from "../src/websocket.js";
import { createFakeService, fakeJobs, serveFake, type FakeService } from "../src/testing/node.js";
import { FAST_WATCH } from "./support/fast-poll.js";

/** The `ws` package's WebSocket, counting the sockets made: the runtime's global `WebSocket` in these tests. */
class CountingWebSocket extends WsWebSocket {
  static made = 0;
  constructor(url: string, protocols?: string | string[]) {
    super(url, protocols);
    CountingWebSocket.made += 1;
  }
}

const g = globalThis as { WebSocket?: unknown };
let saved: unknown;
let fake: FakeService;
let served: Awaited<ReturnType<typeof serveFake>>;

beforeEach(async () => {
  saved = g.WebSocket;
  g.WebSocket = CountingWebSocket; // a runtime with a global WebSocket (a browser, a Worker, Deno, Bun, Node 22)
  CountingWebSocket.made = 0;
  fake = createFakeService({ streamIntervalMs: 2 });
  served = await serveFake(fake);
});

afterEach(async () => {
  g.WebSocket = saved;
  await served.close();
});

/** A crawl of three pages, started and finished on the fake. */
async function crawl(): Promise<string> {
  fakeJobs(fake).configure({ pagesPerPoll: 3 });
  const { id } = await new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" }).startCrawl("https://acme.test/", { limit: 3 });
  return id;
}

const client = (plugins: ClientPlugin[] = []) => new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off", plugins });

/** The source URLs of the document events, and the last event. */
async function watch(events: AsyncIterable<WatchEvent>): Promise<{ docs: string[]; last: WatchEvent | undefined }> {
  const docs: string[] = [];
  let last: WatchEvent | undefined;
  for await (const e of events) {
    if (e.type === "document") docs.push(String(e.document.metadata?.sourceURL));
    last = e;
  }
  return { docs, last };
}

/** The status reads the watcher made (polling reads them; a socket session reads one to confirm the end). */
const statusReads = (id: string) => fake.requests.filter((r) => r.method === "GET" && r.path.startsWith(`/v2/crawl/${id}`)).length;

describe("webdata/websocket", () => {
  it("without the plugin a portable client opens no socket, even with a global WebSocket, and polls: every document, once", async () => {
    const id = await crawl();
    const { docs, last } = await watch(client().watcher(id, FAST_WATCH));
    expect(new Set(docs).size).toBe(3);
    expect(docs).toHaveLength(3);
    expect(last).toMatchObject({ type: "done", status: "completed", completed: 3, total: 3 });
    expect(CountingWebSocket.made).toBe(0);
    expect(statusReads(id)).toBeGreaterThan(0);
  });

  it("with the plugin the same watcher takes the events over the service's socket: every document, once", async () => {
    const id = await crawl();
    const { docs, last } = await watch(client([websocket]).watcher(id, FAST_WATCH));
    expect(new Set(docs).size).toBe(3);
    expect(docs).toHaveLength(3);
    expect(last).toMatchObject({ type: "done", status: "completed" });
    expect(CountingWebSocket.made).toBe(1);
  });

  it('transports: ["websocket"] or a webSocket class without the plugin is a ValidationError naming the import, before anything is sent', async () => {
    const id = await crawl();
    const before = fake.requests.length;
    for (const options of [{ transports: ["websocket", "poll"] as ("websocket" | "poll")[] }, { webSocket: CountingWebSocket }]) {
      const err = await watch(client().watcher(id, options)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toContain('the watcher\'s WebSocket transport: add import { websocket } from "webdata/websocket" and the option plugins: [websocket]');
    }
    expect(fake.requests.length).toBe(before);
    expect(CountingWebSocket.made).toBe(0);
  });

  it("the Node entry brings it built in: its watcher opens the socket with no plugin named", async () => {
    const id = await crawl();
    const node = new NodeWebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
    const { docs } = await watch(node.watcher(id, FAST_WATCH));
    expect(docs).toHaveLength(3);
    expect(CountingWebSocket.made).toBe(1);
  });

  it("the drop-in's class brings it built in (the official watcher uses the WebSocket), beside the plugins it is given", async () => {
    const id = await crawl();
    const app = new Firecrawl({ apiKey: fake.apiKey, apiUrl: served.url, plugins: [] });
    let status = "";
    await app.watcher(id, { pollInterval: 1 }).on("done", (d) => (status = d.status)).start();
    expect(status).toBe("completed");
    expect(CountingWebSocket.made).toBe(1);
  });
});
