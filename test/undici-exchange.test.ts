/**
 * The Node transport's exchange with undici (`Exchange` of `src/node.ts`): each request is sent with
 * undici's `Dispatcher.dispatch` and a handler of our own instead of `undici.request()`. What `request()` did
 * for us and the handler must now do itself: an abort while the request waits for a socket, backpressure on a
 * body read as a stream, a dispatcher that calls the handler itself, and an interceptor written for undici's
 * newer handler API. The rest of the contract (timeouts, aborts, size limits, compressed bodies, a body cut
 * short, proxies) is tested over both transports elsewhere (`test/reliability-body.test.ts`,
 * `test/timeouts.test.ts`, `test/abort-robustness.test.ts`, `test/answer-headers.test.ts`, `test/proxy.test.ts`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, type Dispatcher } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { AbortError } from "../src/index.js";
import { WebData } from "../src/node.js";
import type { Transport } from "../src/core/transport.js";

/** The Node entry's transport factory, kept off its exports (src/node.ts). */
const undiciTransport = (WebData as unknown as Record<symbol, (dispatcher?: Dispatcher, maxConnections?: number) => Transport>)[Symbol.for("webdata.internal.undiciTransport")]!;

const usage = { success: true, data: { remainingCredits: 42, planCredits: 100, billingPeriodStart: null, billingPeriodEnd: null } };

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

/** A loopback server; `seen` lists the paths of the requests it got. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.url ?? "");
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("the Node transport's exchange with undici", () => {
  it("a request aborted while it waits for a socket rejects at once with AbortError and is never sent", async () => {
    const srv = await serve((req, res) => {
      if (req.url === "/v2/team/credit-usage") setTimeout(() => res.end(JSON.stringify(usage)), 400); // holds the one socket
      else res.end(JSON.stringify(usage));
    });
    const client = new WebData({ apiKey: "fc-test", apiUrl: srv.url, logLevel: "off", maxRetries: 0, maxConnections: 1 });
    const first = client.getCreditUsage();
    await new Promise((r) => setTimeout(r, 50));
    const ctl = new AbortController();
    const queued = client.getTokenUsage({ signal: ctl.signal });
    const t0 = performance.now();
    setTimeout(() => ctl.abort(), 20);
    await expect(queued).rejects.toBeInstanceOf(AbortError);
    expect(performance.now() - t0).toBeLessThan(300); // not after the first call freed the socket
    await expect(first).resolves.toMatchObject({ remainingCredits: 42 });
    await new Promise((r) => setTimeout(r, 50));
    expect(srv.seen).toEqual(["/v2/team/credit-usage"]);
  });

  it("a body read as a stream is paused while unread (the server's writes back up) and arrives whole and in order", async () => {
    const CHUNK = 64 * 1024;
    const CHUNKS = 512; // 32 MiB, without a content-length: far more than the sockets' buffers hold
    let backedUp = false;
    let written = 0;
    const srv = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let i = 0;
      const more = (): void => {
        while (i < CHUNKS) {
          const ok = res.write(Buffer.alloc(CHUNK, i++ % 251));
          written = i;
          if (!ok) {
            backedUp = true;
            res.once("drain", more);
            return;
          }
        }
        res.end();
      };
      more();
    });
    const transport = undiciTransport(undefined, 2);
    const ctl = new transport.AbortController!();
    const res = await transport({ url: `${srv.url}/v2/crawl/x/stream`, method: "GET", headers: {}, signal: ctl.signal });
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // unread: undici must stop taking the body
    expect(backedUp).toBe(true);
    expect(written).toBeLessThan(CHUNKS / 2); // the server is held back, not the whole body taken into memory
    const reader = res.stream()!.getReader();
    let bytes = 0;
    let expected = 0;
    let inOrder = true;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let k = 0; k < value.length; k++) {
        if (value[k] !== Math.floor((bytes + k) / CHUNK) % 251) inOrder = false;
      }
      bytes += value.length;
      expected = CHUNK * CHUNKS;
    }
    expect([bytes, inOrder]).toEqual([expected, true]);
    expect(res.stream()).toBeNull(); // read once
  });

  it("a dispatcher that calls the handler itself (as undici's request() handler is called) gets a parsed answer", async () => {
    const text = JSON.stringify(usage);
    const answering = {
      dispatch(_opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
        queueMicrotask(() => {
          handler.onConnect!(() => undefined);
          handler.onHeaders!(200, [Buffer.from("content-type"), Buffer.from("application/json"), Buffer.from("x-request-id"), Buffer.from("srv-1")], () => undefined, "OK");
          handler.onData!(Buffer.from(text.slice(0, 10)));
          handler.onData!(Buffer.from(text.slice(10)));
          handler.onComplete!([]);
        });
        return true;
      },
    } as unknown as Dispatcher;
    const client = new WebData({ apiKey: "fc-test", apiUrl: "http://127.0.0.1:9", logLevel: "off", maxRetries: 0, dispatcher: answering });
    const { data, response } = await client.getCreditUsage().withResponse();
    expect(data).toMatchObject({ remainingCredits: 42 });
    expect(response.headers.get("x-request-id")).toBe("srv-1");
  });

  it("an interceptor written for undici's newer handler API (compose) sees the exchange, and the call succeeds", async () => {
    const srv = await serve((_req, res) => res.end(JSON.stringify(usage)));
    const starts: number[] = [];
    const agent = new Agent();
    cleanup.push(() => agent.close());
    const counting = agent.compose((dispatch) => (opts, handler) =>
      dispatch(opts, {
        onRequestStart: (c, ctx) => handler.onRequestStart?.(c, ctx),
        onResponseStart: (c, status, headers, msg) => {
          starts.push(status);
          handler.onResponseStart?.(c, status, headers, msg);
        },
        onResponseData: (c, chunk) => handler.onResponseData?.(c, chunk),
        onResponseEnd: (c, trailers) => handler.onResponseEnd?.(c, trailers),
        onResponseError: (c, err) => handler.onResponseError?.(c, err),
      }),
    );
    const client = new WebData({ apiKey: "fc-test", apiUrl: srv.url, logLevel: "off", maxRetries: 0, dispatcher: counting });
    await expect(client.getCreditUsage()).resolves.toMatchObject({ remainingCredits: 42 });
    expect(starts).toEqual([200]);
  });
});
