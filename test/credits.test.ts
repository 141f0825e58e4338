/**
 * `client.credits`: the credits one client spent, from each answer's `creditsUsed` (scrape's document
 * metadata, search's top level, map's documented 1 credit) and each job status's running total (kept once
 * per job, however often it is polled), on the client's own state: its v1 face and the drop-in over it
 * count on it, another client does not. Against the fake (which charges what the real service charges and
 * reports it where the recordings do), over both transports; the recorded answers' exact shapes over msw.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { WebData } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { recorded, setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";
import { team } from "../src/team.js";
import { v1 as v1Face } from "../src/v1/index.js";

let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

describe.each(TRANSPORTS)("client.credits over %s", (kind) => {
  it("adds up scrape, search and map, and counts a crawl polled several times once, as the fake charged them", async () => {
    s = await setup(kind, {}, { plugins: [team] });
    const { client, fake } = s;
    expect(client.credits.total).toBe(0);
    await client.scrape("https://acme.test/about", { formats: ["markdown"] });
    await client.search("acme", { limit: 3 });
    await client.map("https://acme.test/");
    expect(client.credits.byOperation).toEqual({ scrape: 1, search: 2, map: 1 });

    useJobTimers();
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const job = await drive(client.crawl("https://acme.test/", { limit: 4, sitemap: "skip", pollIntervalMs: 500 }));
    const polls = fake.requests.filter((r) => r.method === "GET" && r.path.startsWith(`/v2/crawl/${job.id}`)).length;
    expect(polls).toBeGreaterThanOrEqual(4); // each poll reported the running total: 1, 2, 3, 4
    expect(job.creditsUsed).toBe(4);
    expect(client.credits.byJob).toEqual({ [job.id]: 4 });
    expect(client.credits.byOperation).toEqual({ scrape: 1, search: 2, map: 1, crawl: 4 });
    expect(client.credits.total).toBe(8);
    expect(client.credits.total).toBe(fake.team.creditsUsed); // what the service charged, no more
  });

  it("reading a finished job's status again changes nothing; a batch scrape counts under batchScrape", async () => {
    s = await setup(kind, {}, { plugins: [team] });
    const { client, fake } = s;
    const { id } = await client.startBatchScrape(["https://acme.test/about", "https://acme.test/contact"]);
    fakeJobs(fake).finish(id);
    for (let i = 0; i < 3; i++) await client.getBatchScrapeStatus(id);
    for await (const _ of client.batchScrapeDocuments(id)) void _;
    expect(client.credits.snapshot()).toEqual({ total: 2, byOperation: { batchScrape: 2 }, byJob: { [id]: 2 } });
  });

  it("counts the v1 face's and the drop-in's calls (its own v1 face too) on their client's meter", async () => {
    s = await setup(kind, {}, { plugins: [team] });
    const { client, fake, url } = s;
    await client.v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] });
    await client.scrape("https://acme.test/about", { formats: ["markdown"] });
    expect(client.credits.byOperation).toEqual({ scrape: 2 });

    const options = { apiKey: fake.apiKey, apiUrl: url, logLevel: "off" as const, plugins: [team], ...(kind === "fetch" ? { fetch: fake.fetch } : {}) };
    const app = kind === "fetch" ? new Firecrawl(options) : new (await import("../src/firecrawl/node.js")).Firecrawl(options);
    await app.scrape("https://acme.test/about", { formats: ["markdown"] });
    await app.map("https://acme.test/");
    await app.v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] });
    expect(app.credits.snapshot()).toEqual({ total: 3, byOperation: { scrape: 2, map: 1 }, byJob: {} });
    expect(client.credits.total).toBe(2); // the drop-in's own client: its own meter
  });

  it("two clients over one service do not share a meter", async () => {
    s = await setup(kind, {}, { plugins: [team] });
    const other = new WebData({ plugins: [v1Face, team], apiKey: s.fake.apiKey, apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
    await s.client.scrape("https://acme.test/about");
    await s.client.scrape("https://acme.test/contact");
    await other.map("https://acme.test/");
    expect(s.client.credits.snapshot()).toEqual({ total: 2, byOperation: { scrape: 2 }, byJob: {} });
    expect(other.credits.snapshot()).toEqual({ total: 1, byOperation: { map: 1 }, byJob: {} });
  });
});

describe("client.credits: the meter's own rules", () => {
  it("a snapshot is a copy; reset() forgets every count", async () => {
    s = await setup("fetch", {}, { plugins: [team] });
    await s.client.scrape("https://acme.test/about");
    const snap = s.client.credits.snapshot();
    await s.client.scrape("https://acme.test/contact");
    expect(snap.total).toBe(1);
    expect(s.client.credits.total).toBe(2);
    s.client.credits.reset();
    expect(s.client.credits.snapshot()).toEqual({ total: 0, byOperation: {}, byJob: {} });
  });
});

// The recorded server's answers, exactly (test/fixtures/recorded/, copied from the service spec's recordings).
const MSW_URL = "https://credits-msw.webdata.test";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("client.credits reads the recorded answers where the server puts creditsUsed (msw)", () => {
  it("scrape's metadata.creditsUsed, search's top-level 0, map's documented 1; a status's -1 (self-hosted, unknown) counts nothing", async () => {
    const scrape = await recorded("scrape-v2-markdown.json");
    const search = await recorded("search-v2-no-search-provider.json");
    const map = await recorded("map-v2-default.json");
    const status = await recorded("crawl-v2-status-scraping.json");
    server.use(
      http.post(`${MSW_URL}/v2/scrape`, () => HttpResponse.json(scrape.response.body as Record<string, unknown>)),
      http.post(`${MSW_URL}/v2/search`, () => HttpResponse.json(search.response.body as Record<string, unknown>)),
      http.post(`${MSW_URL}/v2/map`, () => HttpResponse.json(map.response.body as Record<string, unknown>)),
      http.get(`${MSW_URL}/v2/crawl/:id`, () => HttpResponse.json(status.response.body as Record<string, unknown>)),
    );
    const client = new WebData({ plugins: [v1Face, team], apiKey: "fc-test", apiUrl: MSW_URL, logLevel: "off" });
    const doc = await client.scrape("http://127.0.0.1:8080/", { formats: ["markdown"] });
    expect(doc.metadata.creditsUsed).toBe(1); // the per-document figure stays where the server put it
    await client.search("firecrawl", { limit: 3 });
    await client.map("http://127.0.0.1:8080/");
    await client.getCrawlStatus("01a200de-0266-76d8-8503-80a52f44f4b3");
    expect(client.credits.snapshot()).toEqual({ total: 2, byOperation: { scrape: 1, search: 0, map: 1 }, byJob: {} });
  });

  it("counts every metered route of both versions under its operation, and nothing for the routes beside them", async () => {
    // Every metered answer reports 2 credits, every other one 50: a route the meter must not read would show in the totals.
    const job = { success: true, status: "completed", completed: 1, total: 1, creditsUsed: 2, expiresAt: "", data: [] };
    const doc = { success: true, data: { markdown: "# A", metadata: { sourceURL: "https://acme.test/", statusCode: 200, creditsUsed: 2 } } };
    const ids: Record<string, string> = { crawl: "c1", batch: "b1", extract: "e1", agent: "a1", llms: "l1", research: "r1" };
    server.use(
      http.post(`${MSW_URL}/v2/parse`, () => HttpResponse.json(doc)),
      http.post(`${MSW_URL}/v1/scrape`, () => HttpResponse.json(doc)),
      http.get(`${MSW_URL}/v2/crawl/:id/errors`, () => HttpResponse.json({ errors: [], robotsBlocked: [], creditsUsed: 50 })),
      http.get(`${MSW_URL}/v2/crawl/:id`, () => HttpResponse.json(job)),
      http.get(`${MSW_URL}/v1/batch/scrape/:id`, () => HttpResponse.json(job)),
      http.get(`${MSW_URL}/v2/extract/:id`, () => HttpResponse.json({ ...job, data: {} })),
      http.get(`${MSW_URL}/v2/agent/:id/trace`, () => HttpResponse.json({ success: true, events: [], creditsUsed: 50 })),
      http.get(`${MSW_URL}/v2/agent/:id`, () => HttpResponse.json({ ...job, data: {} })),
      http.get(`${MSW_URL}/v1/llmstxt/:id`, () => HttpResponse.json({ success: true, status: "completed", data: { llmstxt: "# A" }, creditsUsed: 2, expiresAt: "" })),
      http.get(`${MSW_URL}/v1/deep-research/:id`, () => HttpResponse.json({ success: true, status: "completed", data: { finalAnalysis: "A" }, creditsUsed: 2, expiresAt: "" })),
      http.get(`${MSW_URL}/v2/team/credit-usage`, () => HttpResponse.json({ success: true, data: { remainingCredits: 10, planCredits: 20 }, creditsUsed: 50 })),
    );
    const client = new WebData({ plugins: [v1Face, team], apiKey: "fc-test", apiUrl: MSW_URL, logLevel: "off", maxRetries: 0 });
    await client.parse({ data: "<h1>A</h1>", filename: "a.html", contentType: "text/html" });
    await client.v1.scrapeUrl("https://acme.test/");
    await client.getCrawlErrors(ids.crawl!);
    await client.getCrawlStatus(ids.crawl!);
    await client.v1.checkBatchScrapeStatus(ids.batch!);
    await client.getExtractStatus(ids.extract!);
    await client.getAgentTrace(ids.agent!);
    await client.getAgentStatus(ids.agent!);
    await client.v1.checkGenerateLLMsTextStatus(ids.llms!);
    await client.v1.checkDeepResearchStatus(ids.research!);
    await client.getCreditUsage();
    expect(client.credits.snapshot()).toEqual({
      total: 16,
      byOperation: { parse: 2, scrape: 2, crawl: 2, batchScrape: 2, extract: 2, agent: 2, llmsTxt: 2, deepResearch: 2 },
      byJob: { c1: 2, b1: 2, e1: 2, a1: 2, l1: 2, r1: 2 },
    });
  });

  it("a job's figure is set, not added: a lower or missing figure on a later page leaves the highest", async () => {
    const id = "01a200de-0266-76d8-8503-80a52f44f4b3";
    const figures = [3, 7, 7, 5];
    server.use(http.get(`${MSW_URL}/v2/crawl/:id`, () => HttpResponse.json({ success: true, status: "scraping", completed: 1, total: 9, creditsUsed: figures.shift(), expiresAt: "", data: [] })));
    const client = new WebData({ plugins: [v1Face, team], apiKey: "fc-test", apiUrl: MSW_URL, logLevel: "off" });
    for (let i = 0; i < 5; i++) await client.getCrawlStatus(id);
    expect(client.credits.byJob).toEqual({ [id]: 7 });
    expect(client.credits.byOperation).toEqual({ crawl: 7 });
  });
});
