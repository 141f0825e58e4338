/**
 * The client-wide concurrency limit (`maxConcurrency`, `limiter`) over the fake service with a team limit
 * (`teamConcurrency`, each browser call held `browserHoldMs`): the calls that occupy the team's browsers
 * (scrape, search with scraping, interact and browser execute, crawl and batch starts) hold a slot, on
 * every face of the client; status reads and the other calls do not. Counted at the fake (`teamLoad()`),
 * since the client retries the 429s it gets. Fake timers: the hold and the retry waits are driven.
 */
import { describe, expect, it, vi } from "vitest";
import { AbortError, TimeoutError, ValidationError, WebData, type ConcurrencyLimiter } from "../src/index.js";
import { WebDataV1 } from "../src/v1/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { AUTO_CONCURRENCY_DEFAULT, AUTO_CONCURRENCY_REFRESH_MS } from "../src/team/limit.js";
import { createFakeService } from "../src/testing/index.js";
import { TRANSPORTS } from "./helpers.js";
import { drive, jobTestSetups, tick } from "./jobs-helpers.js";
import { team } from "../src/team.js";
import { v1 as v1Face } from "../src/v1/index.js";

const { open } = jobTestSetups();
const HOLD = { teamConcurrency: 2, browserHoldMs: 1_000 };
const pages = (n: number) => Array.from({ length: n }, (_, i) => `https://acme.test/many/${i + 1}`);

describe.each(TRANSPORTS)("maxConcurrency over %s", (kind) => {
  it("keeps concurrent scrapes within the bound: no 429 at the fake, where the same calls unbounded get them", async () => {
    // An hour per attempt and per wait: over loopback, fake time runs ahead of slow real I/O on a loaded machine.
    const slow = { timeoutMs: 3_600_000 };
    const bounded = await open(kind, HOLD, { plugins: [team], maxConcurrency: 2, maxRetries: 10, ...slow });
    const docs = await drive(Promise.all(pages(6).map((u) => bounded.client.scrape(u))), 250);
    expect(docs).toHaveLength(6);
    expect(bounded.fake.teamLoad()).toMatchObject({ peak: 2, rejected: 0 });
    expect(bounded.fake.requests.filter((r) => r.pathname === "/v2/scrape")).toHaveLength(6);
    await bounded.close();

    const unbounded = await open(kind, HOLD, { maxRetries: 10, ...slow });
    await drive(Promise.all(pages(6).map((u) => unbounded.client.scrape(u))), 250);
    expect(unbounded.fake.teamLoad().rejected).toBeGreaterThan(0);
  });
});

describe("maxConcurrency", () => {
  it("is one bound across every face of the client: v2 and v1 of a WebData, the legacy client, the drop-in and its v1", async () => {
    const one = { teamConcurrency: 1, browserHoldMs: 1_000 };
    const bound = { plugins: [team], maxConcurrency: 1, maxRetries: 0, logLevel: "off", silenceDeprecationWarnings: true } as const;
    let s = await open("fetch", one, bound);
    const v1 = s.client.v1;
    await drive(
      Promise.all([
        s.client.scrape("https://acme.test/about"),
        v1.scrapeUrl("https://acme.test/about"),
        s.client.search("acme", { scrapeOptions: { formats: ["markdown"] } }),
        v1.search("acme", { scrapeOptions: { formats: ["markdown"] } }),
      ]),
      250,
    );
    expect(s.fake.teamLoad()).toMatchObject({ peak: 1, rejected: 0 });

    s = await open("fetch", one);
    const legacy = new WebDataV1({ apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, ...bound });
    await drive(Promise.all([legacy.scrapeUrl("https://acme.test/about"), legacy.scrapeUrl("https://acme.test/about"), legacy.search("acme", { scrapeOptions: { formats: ["markdown"] } })]), 250);
    expect(s.fake.teamLoad()).toMatchObject({ peak: 1, rejected: 0 });

    s = await open("fetch", one);
    const dropIn = new Firecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, ...bound });
    await drive(Promise.all([dropIn.scrape("https://acme.test/about"), dropIn.v1.scrapeUrl("https://acme.test/about"), dropIn.search("acme", { scrapeOptions: { formats: ["markdown"] } })]), 250);
    expect(s.fake.teamLoad()).toMatchObject({ peak: 1, rejected: 0 });
    expect(s.fake.requests.filter((r) => r.method === "POST")).toHaveLength(3);
  });

  it("holds crawl and batch starts, interact and browser execute; not status reads, map or a search without scraping", async () => {
    const s = await open("fetch", { teamConcurrency: 1, browserHoldMs: 1_000 }, { plugins: [team], maxConcurrency: 1, maxRetries: 0 });
    const session = await drive(s.client.browser(), 250);
    const scraped = await drive(s.client.scrape("https://acme.test/about").withResponse(), 250);
    const scrapeId = String((scraped.data.metadata as { scrapeId?: unknown }).scrapeId);
    const held = Promise.all([
      s.client.startCrawl("https://acme.test", { limit: 2 }),
      s.client.startBatchScrape(["https://acme.test/about"]),
      s.client.browserExecute(session.id, { code: "1 + 1" }),
      s.client.interact(scrapeId, { prompt: "click" }).catch(() => undefined),
    ]);
    const [crawl] = await drive(held, 250);
    expect(s.fake.teamLoad()).toMatchObject({ peak: 1, rejected: 0 });
    // One browser call held: the calls that occupy none go on (the fake answers them at once).
    const busy = s.client.scrape("https://acme.test/about");
    await tick();
    await drive(Promise.all([s.client.getCrawlStatus(crawl.id), s.client.map("https://acme.test"), s.client.search("acme"), s.client.getQueueStatus()]), 10, 20, 0);
    expect(s.fake.teamLoad().active).toBe(1);
    await drive(busy, 250);
  });

  it("a call waiting for a slot stops at its signal (AbortError) and at its timeoutMs (TimeoutError): nothing is sent", async () => {
    const s = await open("fetch", HOLD, { plugins: [team], maxConcurrency: 1, maxRetries: 0 });
    const first = s.client.scrape("https://acme.test/about");
    const ctl = new AbortController();
    const aborted = s.client.scrape("https://acme.test/about", {}, { signal: ctl.signal }).catch((e: unknown) => e);
    const timed = s.client.scrape("https://acme.test/about", {}, { timeoutMs: 300 }).catch((e: unknown) => e);
    await tick();
    ctl.abort();
    const err = await aborted;
    expect(err).toBeInstanceOf(AbortError);
    const late = await drive(timed, 100);
    expect(late).toBeInstanceOf(TimeoutError);
    expect((late as TimeoutError).message).toMatch(/300 ms \(POST \/v2\/scrape, waiting for a concurrency slot\)/);
    await drive(first, 250);
    expect(s.fake.requests.filter((r) => r.pathname === "/v2/scrape")).toHaveLength(1);
    // An already aborted signal: rejected at once, nothing sent.
    await expect(s.client.scrape("https://acme.test/about", {}, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
    // A bad argument is rejected at once, not after a wait for a slot.
    const busy = s.client.scrape("https://acme.test/about");
    await expect(s.client.scrape("https://acme.test/about", { timeout: "soon" as never })).rejects.toBeInstanceOf(ValidationError);
    await drive(busy, 250);
  });

  it('"auto" sizes the bound from GET /v2/team/queue-status maxConcurrency, read again after a minute', async () => {
    const s = await open("fetch", { teamConcurrency: 3, browserHoldMs: 1_000 }, { plugins: [team], maxConcurrency: "auto", maxRetries: 0 });
    await drive(Promise.all(pages(7).map((u) => s.client.scrape(u))), 250);
    expect(s.fake.teamLoad()).toMatchObject({ peak: 3, rejected: 0 });
    const reads = () => s.fake.requests.filter((r) => r.pathname === "/v2/team/queue-status").length;
    expect(reads()).toBe(1);
    await drive(s.client.scrape("https://acme.test/about"), 250);
    expect(reads()).toBe(1);
    await drive(new Promise((r) => setTimeout(r, AUTO_CONCURRENCY_REFRESH_MS)), 1_000);
    await drive(s.client.scrape("https://acme.test/about"), 250);
    expect(reads()).toBe(2);
  });

  it('"auto" keeps the safe default (2) when the server does not say', async () => {
    const s = await open("fetch", { teamConcurrency: 2, browserHoldMs: 1_000 }, { plugins: [team], maxConcurrency: "auto", maxRetries: 0 });
    s.fake.failNext(500, { match: "/v2/team/queue-status" });
    await drive(Promise.all(pages(5).map((u) => s.client.scrape(u))), 250);
    expect(AUTO_CONCURRENCY_DEFAULT).toBe(2);
    expect(s.fake.teamLoad()).toMatchObject({ peak: 2, rejected: 0 });
  });

  it("takes any ConcurrencyLimiter: acquire per held call with the call's signal, release once when it settles", async () => {
    const s = await open("fetch", {}, { maxRetries: 0 });
    const log: string[] = [];
    const limiter: ConcurrencyLimiter = {
      async acquire(signal) {
        log.push(`acquire ${signal instanceof AbortSignal}`);
        return () => void log.push("release");
      },
    };
    const client = new WebData({ plugins: [v1Face, team], apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, limiter, logLevel: "off" });
    await client.scrape("https://acme.test/about");
    await client.map("https://acme.test");
    s.fake.failNext(500, { match: "/v2/scrape" });
    await expect(client.scrape("https://acme.test/about", {}, { maxRetries: 0 })).rejects.toThrow();
    expect(log).toEqual(["acquire true", "release", "acquire true", "release"]);
  });

  it("checks the options once, at construction", () => {
    const bad = (o: object) => () => new WebData({ plugins: [v1Face, team], apiUrl: "https://x.test", ...o });
    expect(bad({ maxConcurrency: 0 })).toThrow(ValidationError);
    expect(bad({ maxConcurrency: 1.5 })).toThrow(/maxConcurrency/);
    expect(bad({ maxConcurrency: "all" })).toThrow(/maxConcurrency/);
    expect(bad({ limiter: {} })).toThrow(/limiter: must be an object with an acquire\(signal\) method/);
    expect(bad({ maxConcurrency: 2, limiter: { acquire: async () => () => undefined } })).toThrow(/give maxConcurrency or limiter, not both/);
  });
});

describe("the fake's team limit (webdata/testing teamConcurrency)", () => {
  it("answers 429 past the team's browsers, worded as the service's rate limit, counts it, and reports the limit as maxConcurrency", async () => {
    vi.useRealTimers(); // the fake's 20 ms hold, on the real clock
    const fake = createFakeService({ teamConcurrency: 1, browserHoldMs: 20 });
    const post = (path: string, body: object) =>
      fake.fetch(`https://fake.test${path}`, { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const [a, b, c] = await Promise.all([post("/v2/scrape", { url: "https://acme.test/about" }), post("/v1/scrape", { url: "https://acme.test/about" }), post("/v2/map", { url: "https://acme.test" })]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(429);
    expect(await b.json()).toMatchObject({ success: false, error: expect.stringMatching(/^Rate limit exceeded\. .* please retry after 1s, resets at /) });
    expect(c.status).toBe(200); // a map occupies no browser
    expect(fake.teamLoad()).toEqual({ active: 0, peak: 1, rejected: 1 });
    const status = await fake.fetch("https://fake.test/v2/team/queue-status", { headers: { authorization: `Bearer ${fake.apiKey}` } });
    expect(await status.json()).toMatchObject({ maxConcurrency: 1 });
    // Without the option: no limit, and the figure the fake always reported.
    const free = createFakeService();
    const many = await Promise.all([1, 2, 3].map(() => free.fetch("https://fake.test/v2/scrape", { method: "POST", headers: { authorization: `Bearer ${free.apiKey}`, "content-type": "application/json" }, body: '{"url":"https://acme.test/about"}' })));
    expect(many.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});

