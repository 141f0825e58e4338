/**
 * Binary WebSocket frames: the watcher's socket transport reads a frame sent
 * as binary like a text one, whatever form the runtime's WebSocket hands it
 * over in (`ws`: a Node `Buffer` unless `binaryType` is set; undici and
 * browsers: a `Blob` unless `binaryType` is "arraybuffer", which the watcher
 * sets). The loopback server sends every frame of the job as binary and its
 * REST status lists no documents (only the counters), so a frame the watcher
 * fails to read is a lost document. A scripted socket checks that the watcher
 * sets `binaryType`, and, ignoring it, that Buffers, views and ArrayBuffers are decoded.
 */
import { WebSocket as UndiciWebSocket } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket as WsWebSocket } from "ws";
import { WebData as PortableWebData } from "../src/index.js";
import type { WatchEvent, WebSocketConstructor } from "../src/jobs/watch-types.js";
import { WebData as NodeWebData } from "../src/node.js";
import { FAST_WATCH } from "./support/fast-poll.js";
import { json, serve as serveLoopback } from "./support/loopback.js";
import { collect, docIds } from "./watch-helpers.js";
import { websocket } from "../src/websocket.js";

const KINDS = ["fetch", "undici"] as const;
const SOCKETS = { ws: WsWebSocket, undici: UndiciWebSocket } as unknown as Record<"ws" | "undici", WebSocketConstructor>;
const KEY = "fc-binary-frames-test";
const JOB = "5f1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
const DONE = { code: 1000, reason: JSON.stringify({ type: "done" }) };

/** Document `n` (non-ASCII text, so a decoder that splits a character would show). */
const doc = (n: number) => ({ markdown: `# Page ${n}: café — 🙂`, metadata: { sourceURL: `https://acme.test/${n}`, statusCode: 200, scrapeId: `s${n}` } });
const ids = (n: number) => Array.from({ length: n }, (_, i) => `s${i + 1}`);

/** The socket's view of a job of `n` documents: a catchup with the first two, then one `document` frame each. */
function frames(n: number): object[] {
  const docs = Array.from({ length: n }, (_, i) => doc(i + 1));
  return [{ type: "catchup", data: { status: "scraping", completed: 2, total: n, creditsUsed: 2, data: docs.slice(0, 2) } }, ...docs.slice(2).map((data) => ({ type: "document", data }))];
}

/** The REST status of the finished job: the counters, and no documents (only the socket delivers them). */
const restStatus = (n: number) => ({ success: true, status: "completed", completed: n, total: n, creditsUsed: n, expiresAt: "2030-01-01T00:00:00Z", data: [] });

/** A loopback server: the REST status of a job of `n` documents, and a crawl WebSocket that sends every frame as binary, then `done`. */
async function serve(n: number) {
  const binarySent: boolean[] = [];
  const served = await serveLoopback(
    (_req, res) => json(res, 200, restStatus(n)),
    (ws) => {
      for (const f of frames(n)) {
        ws.send(Buffer.from(JSON.stringify(f)), { binary: true });
        binarySent.push(true);
      }
      ws.close(DONE.code, DONE.reason);
    },
  );
  return {
    url: served.url,
    close: served.close,
    binarySent,
    /** The REST requests so far, `METHOD /path?query`. */
    get rest() {
      return served.requests.map((r) => `${r.method} ${r.url}`);
    },
  };
}

let served: Awaited<ReturnType<typeof serve>> | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

function client(kind: (typeof KINDS)[number], url: string) {
  const opts = { apiKey: KEY, apiUrl: url, logLevel: "off" as const, plugins: [websocket] };
  return kind === "undici" ? new NodeWebData(opts) : new PortableWebData(opts);
}

/** Each document exactly once, in the socket's order, no error event, done with the REST counters, and no page read. */
function expectSocketDelivered(events: WatchEvent[], n: number, rest: string[]) {
  expect(events.filter((e) => e.type === "error")).toEqual([]);
  expect(docIds(events)).toEqual(ids(n));
  expect(events.at(-1)).toMatchObject({ type: "done", status: "completed", completed: n, total: n });
  // The stream was clean and complete: the end was confirmed with one cheap read (limit=1), no page was read.
  expect(rest.length).toBeGreaterThan(0);
  expect(rest.every((r) => r.includes("limit=1"))).toBe(true);
}

describe.each(KINDS)("binary WebSocket frames, client over %s", (kind) => {
  it.each(["ws", "undici"] as const)("delivers every document of binary frames from the %s WebSocket exactly once", async (socket) => {
    served = await serve(5);
    const { events, thrown } = await collect(client(kind, served.url).watcher(JOB, { ...FAST_WATCH, webSocket: SOCKETS[socket], transports: ["websocket"] }));
    expect(thrown).toBeUndefined();
    expect(served.binarySent).toHaveLength(4);
    expectSocketDelivered(events, 5, served.rest);
  });
});

/** A socket that ignores `binaryType` (setting it throws) and plays `data` frames, then a `done` close. */
/** A socket that replays `data` as frames, then closes with `done`; it records what `binaryType` was set to, or ignores it (`ignore`). */
function scriptedSocket(data: unknown[], seen: string[] = [], ignore = true): WebSocketConstructor {
  return class ScriptedSocket {
    readonly readyState = 1;
    onopen: (() => void) | null = null;
    onmessage: ((ev: { data: unknown }) => void) | null = null;
    onclose: ((ev: { code: number; reason: string }) => void) | null = null;
    onerror: (() => void) | null = null;
    constructor() {
      setTimeout(() => {
        this.onopen?.();
        for (const d of data) this.onmessage?.({ data: d });
        this.onclose?.(DONE);
      }, 5);
    }
    set binaryType(v: string) {
      seen.push(v);
      if (ignore) throw new TypeError("binaryType is read-only here");
    }
    close(): void {
      // nothing to close
    }
  };
}

const bytes = (f: object) => new TextEncoder().encode(JSON.stringify(f));

describe("binary frames from a scripted socket", () => {
  it("asks the socket for ArrayBuffer frames (binaryType), which are read like text", async () => {
    served = await serve(3);
    const seen: string[] = [];
    const socket = scriptedSocket(frames(3).map((f) => bytes(f).buffer), seen, false);
    const { events, thrown } = await collect(client("fetch", served.url).watcher(JOB, { ...FAST_WATCH, webSocket: socket, transports: ["websocket"] }));
    expect(thrown).toBeUndefined();
    expect(seen).toEqual(["arraybuffer"]);
    expectSocketDelivered(events, 3, served.rest);
  });

  it("from a socket that ignores binaryType, decodes a Buffer, a typed-array view (its byte range only) and an ArrayBuffer", async () => {
    served = await serve(5);
    const [catchup, ...docs] = frames(6) as [object, ...object[]];
    const padded = (f: object) => {
      const b = bytes(f);
      const big = new Uint8Array(b.length + 8).fill(0x7b); // `{` around the frame: decoding the whole buffer would not parse
      big.set(b, 4);
      return big.subarray(4, 4 + b.length);
    };
    const socket = scriptedSocket([Buffer.from(JSON.stringify(catchup)), padded(docs[0]!), bytes(docs[1]!).buffer, JSON.stringify(docs[2])]);
    const { events, thrown } = await collect(client("fetch", served.url).watcher(JOB, { ...FAST_WATCH, webSocket: socket, transports: ["websocket"] }));
    expect(thrown).toBeUndefined();
    expectSocketDelivered(events, 5, served.rest);
    const first = events.find((e) => e.type === "document");
    expect(first?.type === "document" && first.document.markdown).toBe("# Page 1: café — 🙂");
    const third = events.filter((e) => e.type === "document")[2];
    expect(third?.type === "document" && third.document.markdown).toBe("# Page 3: café — 🙂");
  });
});
