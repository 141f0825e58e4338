/**
 * Regression tests: per-call options, waiter
 * options, job ids and the options argument are checked before anything is
 * sent. Every bad value is a `ValidationError` through the returned promise
 * (never a synchronous throw, a raw `TypeError`, or a request).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ValidationError, WebData, WebDataError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

type Call = [label: string, run: (c: WebData) => unknown];

/** Calls `run`, requiring that it does not throw synchronously, and returns the settled rejection. */
async function rejection(run: () => unknown): Promise<unknown> {
  let result: unknown;
  let threw: unknown;
  try {
    result = run();
  } catch (err) {
    threw = err ?? "thrown";
  }
  expect(threw, "synchronous throw").toBeUndefined();
  if (result && typeof (result as AsyncIterator<unknown>).next === "function" && typeof (result as PromiseLike<unknown>).then !== "function") {
    return (result as AsyncIterator<unknown>).next().then(() => undefined, (e: unknown) => e);
  }
  return Promise.resolve(result).then(() => undefined, (e: unknown) => e);
}

describe.each(TRANSPORTS)("input checks over %s", (kind) => {
  let s: Setup;
  afterEach(async () => {
    await s?.close();
    vi.restoreAllMocks();
  });

  const badRequestOptions: unknown[] = [
    { timeoutMs: Number.NaN },
    { timeoutMs: -1 },
    { timeoutMs: 0 },
    { timeoutMs: Number.POSITIVE_INFINITY },
    { timeoutMs: 3e9 },
    { maxRetries: -1 },
    { maxRetries: Number.NaN },
    { maxRetries: 1.5 },
    { signal: "nope" },
    { signal: {} },
    { headers: { "x-n": 5 } },
    "fast",
    42,
  ];

  it.each(badRequestOptions.map((o) => [JSON.stringify(o) ?? String(o), o]))("request options %s: ValidationError, nothing sent", async (_label, opts) => {
    s = await setup(kind);
    const calls: Call[] = [
      ["scrape", (c) => c.scrape("https://example.com", {}, opts as never)],
      ["getCreditUsage", (c) => c.getCreditUsage(opts as never)],
      ["getCrawlStatus", (c) => c.getCrawlStatus("job", {}, opts as never)],
      ["startCrawl", (c) => c.startCrawl("https://example.com", {}, opts as never)],
      ["crawl", (c) => c.crawl("https://example.com", {}, opts as never)],
    ];
    for (const [label, run] of calls) {
      const err = await rejection(() => run(s.client));
      expect(err, label).toBeInstanceOf(ValidationError);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("a server-side timeout of 3e9 is rejected before sending (it used to time every attempt out after ~1 ms)", async () => {
    s = await setup(kind);
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const err = await rejection(() => s.client.scrape("https://example.com", { timeout: 3e9 }));
      // Either the scrape schema refuses it, or the request is made with a timer that can hold the timeout:
      // never a TimeoutOverflowWarning and an attempt that times out at once.
      if (err !== undefined) expect(err).toBeInstanceOf(WebDataError);
      expect((err as { name?: string } | undefined)?.name).not.toBe("TimeoutError");
      await new Promise((r) => setTimeout(r, 5));
      expect(warnings).not.toContain("TimeoutOverflowWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });

  it.each([
    [{ timeoutMs: Number.NaN }],
    [{ timeoutMs: -5 }],
    [{ timeoutMs: 3e9 }],
    [{ pollIntervalMs: Number.NaN }],
    [{ pollIntervalMs: -1 }],
    [{ pollIntervalMs: 3e9 }],
    [{ signal: 42 }],
  ])("waiter options %j: ValidationError before the job is started", async (wait) => {
    s = await setup(kind);
    const waiters: Call[] = [
      ["crawl", (c) => c.crawl("https://example.com", wait as never)],
      ["batchScrape", (c) => c.batchScrape(["https://example.com"], wait as never)],
      ["extract", (c) => c.extract({ urls: ["https://example.com"], prompt: "x", ...wait } as never)],
      ["agent", (c) => c.agent("find things", wait as never)],
      ["crawlDocuments", (c) => c.crawlDocuments("job", wait as never)],
    ];
    for (const [label, run] of waiters) expect(await rejection(() => run(s.client)), label).toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it.each([[0], [-1], [1.5], ["2"]])("documents option pageLimit %j: ValidationError naming it, once, before any page is read", async (pageLimit) => {
    s = await setup(kind);
    for (const run of [(c: WebData) => c.crawlDocuments("job", { pageLimit } as never), (c: WebData) => c.batchScrapeDocuments("job", { pageLimit } as never)]) {
      const err = await rejection(() => run(s.client));
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toMatch(/^Invalid documents options: pageLimit: /);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it.each([[null], [undefined], [42], [{}], [["a"]], [""], [".."]])("job id %j: ValidationError, no /v2/crawl/undefined request", async (id) => {
    s = await setup(kind);
    const calls: Call[] = [
      ["getCrawlStatus", (c) => c.getCrawlStatus(id as never)],
      ["cancelCrawl", (c) => c.cancelCrawl(id as never)],
      ["getCrawlErrors", (c) => c.getCrawlErrors(id as never)],
      ["crawlDocuments", (c) => c.crawlDocuments(id as never)],
      ["getBatchScrapeStatus", (c) => c.getBatchScrapeStatus(id as never)],
      ["getAgentStatus", (c) => c.getAgentStatus(id as never)],
      ["getExtractStatus", (c) => c.getExtractStatus(id as never)],
    ];
    for (const [label, run] of calls) expect(await rejection(() => run(s.client)), label).toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it.each([["markdown"], [42], [[]], [new Date()]])("options argument %j: ValidationError, nothing sent", async (opts) => {
    s = await setup(kind);
    const calls: Call[] = [
      ["scrape", (c) => c.scrape("https://example.com", opts as never)],
      ["map", (c) => c.map("https://example.com", opts as never)],
      ["startCrawl", (c) => c.startCrawl("https://example.com", opts as never)],
      ["startBatchScrape", (c) => c.startBatchScrape(["https://example.com"], opts as never)],
      ["search", (c) => c.search("cats", opts as never)],
      ["startAgent", (c) => c.startAgent("find things", opts as never)],
      ["startExtract", (c) => c.startExtract(opts as never)],
      ["crawl", (c) => c.crawl("https://example.com", opts as never)],
      ["extract", (c) => c.extract(opts as never)],
    ];
    for (const [label, run] of calls) {
      const err = await rejection(() => run(s.client));
      expect(err, `${label}(${String(opts)})`).toBeInstanceOf(ValidationError);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("an unserialisable option (circular, 100k deep) is a ValidationError, nothing sent", async () => {
    s = await setup(kind);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    for (const extra of [circular, deep]) {
      const err = await rejection(() => s.client.scrape("https://example.com", { custom: extra } as never));
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toMatch(/cannot be sent as JSON/);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("null options and null request options mean none (no raw TypeError)", async () => {
    s = await setup(kind);
    await expect(s.client.map("https://example.com", null as never, null as never)).resolves.toMatchObject({ links: expect.any(Array) });
    const started = await s.client.startCrawl("https://example.com", null as never, null as never);
    expect(started.id).toEqual(expect.any(String));
    await expect(s.client.startBatchScrape(["https://example.com"], null as never, null as never)).resolves.toMatchObject({ id: expect.any(String) });
    await expect(s.client.getCreditUsage(null as never)).resolves.toBeDefined();
  });

  it("valid options still go through (timeoutMs at the timer limit, a shared AbortSignal)", async () => {
    s = await setup(kind);
    const ctl = new AbortController();
    await expect(s.client.getCreditUsage({ timeoutMs: 2 ** 31 - 1, maxRetries: 0, signal: ctl.signal })).resolves.toBeDefined();
  });
});

describe("constructor timeoutMs", () => {
  it("rejects a timeout a timer cannot hold", () => {
    expect(() => new WebData({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1", timeoutMs: 3e9 })).toThrow(/timeoutMs: must be <= 2147483647/);
  });
});
