/**
 * An attempt over the Node entry's own pool lasts as long as the client's `timeoutMs` (or a server-side
 * `timeout` plus 10 s) says, even past 300 s: undici's own `headersTimeout` and `bodyTimeout` (300 s by
 * default) are off in the pool the entry makes, so a scrape the server may work on for 300 s is not cut at
 * 300 s as a retryable `ConnectionError` ("Headers Timeout Error"). The attempt's own timer still ends it
 * with a `TimeoutError`. On a fake clock (set before the first request, so undici's timers run on it too).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { ConnectionError, TimeoutError } from "../src/index.js";
import { WebData } from "../src/node.js";

let server: Server | undefined;
afterEach(async () => {
  vi.useRealTimers();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

it("a silent server: no error at 301 s of a 400 s attempt; TimeoutError at 400 s", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  let got = 0;
  server = createServer(() => void got++); // reads the request, never answers
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  const client = new WebData({ apiKey: "fc-test", apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 400_000, maxRetries: 0, logLevel: "off" });
  let settled: unknown = "pending";
  const p = client.getCreditUsage().then(
    () => (settled = "answered"),
    (e: unknown) => (settled = e),
  );
  // Real I/O turns until the request arrives (the pool loads undici first): bounded by real time, not by a count
  // of turns, which a loaded machine can use up before the load ends.
  const until = performance.now() + 15_000;
  while (got === 0 && performance.now() < until) await new Promise((r) => setImmediate(r));
  expect(got).toBe(1);
  for (let t = 0; t < 301; t++) await vi.advanceTimersByTimeAsync(1_000);
  expect(settled).toBe("pending");
  for (let t = 301; t < 400; t++) await vi.advanceTimersByTimeAsync(1_000);
  await p;
  expect(settled).toBeInstanceOf(TimeoutError);
  expect(settled).not.toBeInstanceOf(ConnectionError);
});
