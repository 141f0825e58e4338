/**
 * The server-timeout rule: where a request carries a server-side `timeout`
 * (the time the server may work on it), one HTTP attempt may last that long
 * plus a 10 s margin for the answer to arrive, whatever the client's shorter
 * `timeoutMs`; a longer client `timeoutMs` wins. One row per endpoint that has
 * such a field, in the unit its wire uses (milliseconds, or seconds for browser
 * sessions and interact), with the server's default where the SDK knows it.
 * The server here never answers, so the attempt ends on its timer, and the
 * `TimeoutError` says which limit was in force: a wrong margin, a wrong unit or
 * an ignored server timeout changes the figure.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SERVER_TIMEOUTS } from "../src/core/options.js";
import { TimeoutError, WebData } from "../src/index.js";
import { v1 as v1Face } from "../src/v1/index.js";

/** Every route the rows reached, with ids as `{id}` (the table's form). */
const reached = new Set<string>();

/** A `fetch` that never answers, until its signal aborts (as a server that takes its time). */
const silent: typeof fetch = (input, init) =>
  new Promise((_resolve, reject) => {
    reached.add(`${new URL(String(input)).pathname.replace(/\/[0-9a-f-]{36}(?=\/|$)/g, "/{id}")}`);
    init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
  });

function client(timeoutMs: number): WebData {
  return new WebData({ plugins: [v1Face], apiKey: "fc-test", apiUrl: "https://api.test", fetch: silent, timeoutMs, maxRetries: 0, logLevel: "off" });
}

const MARGIN = 10_000;
const ID = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";

/** [name, client timeoutMs, the call, the per-attempt limit expected]. */
const ROWS: [string, number, (c: WebData) => Promise<unknown>, number][] = [
  ["scrape: timeout in ms", 1_000, (c) => c.scrape("https://a.test", { timeout: 30_000 }), 30_000 + MARGIN],
  ["scrape: no timeout, the client's", 1_000, (c) => c.scrape("https://a.test"), 1_000],
  ["scrape: a longer client timeoutMs wins", 120_000, (c) => c.scrape("https://a.test", { timeout: 30_000 }), 120_000],
  ["map: timeout in ms", 1_000, (c) => c.map("https://a.test", { timeout: 20_000 }), 20_000 + MARGIN],
  ["search: timeout in ms", 1_000, (c) => c.search("q", { timeout: 25_000 }), 25_000 + MARGIN],
  ["parse: timeout in ms", 1_000, (c) => c.parse({ data: "<h1>x</h1>", filename: "a.html" }, { timeout: 40_000 }), 40_000 + MARGIN],
  ["browserExecute: timeout in seconds", 1_000, (c) => c.browserExecute(ID, { code: "1", timeout: 60 }), 60_000 + MARGIN],
  ["browserExecute: the server's default 30 s", 1_000, (c) => c.browserExecute(ID, { code: "1" }), 30_000 + MARGIN],
  ["interact: timeout in seconds", 1_000, (c) => c.interact(ID, { code: "1", timeout: 45 }), 45_000 + MARGIN],
  ["v1 scrapeUrl: timeout in ms", 1_000, (c) => c.v1.scrapeUrl("https://a.test", { timeout: 30_000 }), 30_000 + MARGIN],
  ["v1 mapUrl: timeout in ms", 1_000, (c) => c.v1.mapUrl("https://a.test", { timeout: 20_000 }), 20_000 + MARGIN],
  ["v1 search: the server's default 60 s", 1_000, (c) => c.v1.search("q"), 60_000 + MARGIN],
  ["v1 asyncExtract: the server's default 60 s", 1_000, (c) => c.v1.asyncExtract(["https://a.test"], { prompt: "p" }), 60_000 + MARGIN],
];

describe("one HTTP attempt lasts at least the server-side timeout plus 10 s", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  for (const [name, clientMs, call, expected] of ROWS) {
    it(name, async () => {
      const c = client(clientMs);
      await c.v1.getQueueStatus({ signal: AbortSignal.abort() }).catch(() => undefined); // load the v1 layer before the clock is held
      const settled = call(c).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(expected - 1);
      let done = false;
      void settled.then(() => (done = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(done, "still waiting 1 ms before the limit").toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const err = await settled;
      expect(err).toBeInstanceOf(TimeoutError);
      expect((err as TimeoutError).timeoutMs).toBe(expected);
    });
  }

  it("the rows cover every route of the table (a row added to the table without a test fails here)", () => {
    expect([...reached].filter((r) => r !== "/v1/team/queue-status").sort()).toEqual(Object.keys(SERVER_TIMEOUTS).sort());
  });
});
