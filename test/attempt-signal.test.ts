/**
 * The attempt's abort without an `AbortController` (`AttemptSignal` of `src/node.ts`, made by the
 * transport's `AbortController`; about 20 µs of CPU a call saved): through the Node entry's own pool the attempt's exchange
 * with undici (`Exchange`, sent with `Dispatcher.dispatch`) is told of the abort directly, and a caller's
 * dispatcher is still handed a real `AbortSignal` (as `opts.signal`, as under undici's `request()`). That
 * attempts still time out and callers still abort at once over both transports is `test/timeouts.test.ts`,
 * `test/abort-robustness.test.ts`, `test/parity.test.ts` and `test/undici-exchange.test.ts`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, type Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import { AbortError, TimeoutError } from "../src/index.js";
import { WebData } from "../src/node.js";
import type { Transport } from "../src/core/transport.js";

/** The Node entry's transport factory, kept off its exports (src/node.ts). */
const undiciTransport = (WebData as unknown as Record<symbol, (dispatcher?: Dispatcher) => Transport>)[Symbol.for("webdata.internal.undiciTransport")]!;
describe("the Node transport's abort", () => {
  async function slowServer(delayMs: number) {
    const server = createServer((req, res) => {
      req.resume();
      const t = setTimeout(() => res.end(JSON.stringify({ success: true, data: { markdown: "# hi", metadata: {} } })), delayMs);
      res.on("close", () => clearTimeout(t));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
  }

  it("through its own pool: a timeout and a caller's abort still stop the attempt with our errors", async () => {
    const srv = await slowServer(5_000);
    try {
      const client = new WebData({ apiKey: "fc-test", apiUrl: srv.url, logLevel: "off", maxRetries: 0 });
      const t0 = performance.now();
      await expect(client.scrape("https://acme.test", undefined, { timeoutMs: 80 })).rejects.toBeInstanceOf(TimeoutError);
      const ctl = new AbortController();
      const p = client.scrape("https://acme.test", undefined, { signal: ctl.signal });
      setTimeout(() => ctl.abort(), 30);
      await expect(p).rejects.toBeInstanceOf(AbortError);
      expect(performance.now() - t0).toBeLessThan(3_000);
    } finally {
      await srv.close();
    }
  });

  it("the Node entry's own pool makes its attempts' controllers; a caller's dispatcher gets a real AbortSignal", async () => {
    expect(typeof undiciTransport().AbortController).toBe("function");
    expect(undiciTransport(new Agent()).AbortController).toBeUndefined();
    const ctl = new (undiciTransport().AbortController!)();
    expect(ctl.signal).not.toBeInstanceOf(AbortSignal);
    ctl.abort("why");
    expect([ctl.signal.aborted, ctl.signal.reason]).toEqual([true, "why"]);
    const srv = await slowServer(0);
    const agent = new Agent();
    const seen: unknown[] = [];
    // A dispatcher that records the signal it is handed, then sends through a real agent.
    const recording = Object.assign(Object.create(agent) as Dispatcher, {
      dispatch(opts: Dispatcher.DispatchOptions & { signal?: unknown }, handler: Dispatcher.DispatchHandler) {
        seen.push(opts.signal);
        return agent.dispatch(opts, handler);
      },
    });
    try {
      const client = new WebData({ apiKey: "fc-test", apiUrl: srv.url, logLevel: "off", dispatcher: recording });
      await client.scrape("https://acme.test");
      expect(seen).toHaveLength(1);
      expect(seen[0]).toBeInstanceOf(AbortSignal);
    } finally {
      await agent.close();
      await srv.close();
    }
  });
});
