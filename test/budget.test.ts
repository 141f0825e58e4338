/**
 * `budget: { credits, onExceeded }`, a client option and a waiter option: a job start whose stated maximum
 * cannot fit in what is left is refused before anything is sent (`BudgetExceededError`); a job a waiter
 * waits on is cancelled once its credits pass the budget (or only thrown on, `onExceeded: "throw"`), with the
 * documents fetched so far. Against the fake, over both transports (json-format pages cost 5 credits there,
 * as on the service, so a crawl can pass a budget its `limit` fits in).
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ValidationError, WebData } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";
import { BudgetExceededError, team } from "../src/team.js";
import { v1 as v1Face } from "../src/v1/index.js";

let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

/** The error `p` rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<BudgetExceededError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BudgetExceededError);
  return err as BudgetExceededError;
}

/** Five credits a page on the fake: a basic scrape (1) plus a json format (4). */
const JSON_PAGES = { formats: [{ type: "json" as const, prompt: "the page's title" }] };

describe.each(TRANSPORTS)("budget over %s", (kind) => {
  it("refuses before sending a start whose stated maximum cannot fit: a crawl's limit (10000 unset), a batch's URLs, an agent's maxCredits", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 5 } });
    const { client, fake } = s;
    const crawl = await rejection(client.crawl("https://acme.test/", { limit: 6 }));
    expect(crawl).toMatchObject({ budget: 5, spent: 0, requested: 6, remaining: 5, operation: "crawl", jobId: undefined, cancelled: false, documents: [], reason: "budget" });
    expect(crawl.message).toContain("nothing was sent");
    expect(await rejection(client.startCrawl("https://acme.test/"))).toMatchObject({ requested: 10_000, operation: "crawl" });
    expect(await rejection(client.batchScrape(Array.from({ length: 6 }, (_, i) => `https://acme.test/many/${i + 1}`)))).toMatchObject({ requested: 6, operation: "batchScrape" });
    expect(await rejection(client.startAgent("find prices", { maxCredits: 50 }))).toMatchObject({ requested: 50, operation: "agent" });
    expect(await rejection(client.agent("find prices"))).toMatchObject({ requested: 2500, operation: "agent" });
    expect(fake.requests).toHaveLength(0); // the fake saw nothing
  });

  it("counts what the client spent: after 2 scrapes a budget of 5 leaves 3, so a crawl of limit 4 is refused and one of 3 runs", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 5 } });
    const { client, fake } = s;
    await client.scrape("https://acme.test/about");
    await client.scrape("https://acme.test/contact");
    const before = fake.requests.length;
    expect(await rejection(client.startCrawl("https://acme.test/", { limit: 4 }))).toMatchObject({ budget: 5, spent: 2, requested: 4, remaining: 3 });
    expect(fake.requests).toHaveLength(before);
    useJobTimers();
    const job = await drive(client.crawl("https://acme.test/", { limit: 3, sitemap: "skip", pollIntervalMs: 500 }));
    expect(job.status).toBe("completed");
    expect(client.credits.total).toBe(5);
    expect(fake.requests.find((r) => r.method === "POST" && r.path === "/v2/crawl")?.body).not.toHaveProperty("budget");
    // Nothing left: even an extract, which states no maximum, is refused.
    expect(await rejection(client.startExtract({ urls: ["https://acme.test/"], prompt: "x" }))).toMatchObject({ remaining: 0, requested: 0, operation: "extract" });
  });

  it("cancels a waited crawl once its credits pass the budget (the fake saw DELETE); the error carries the documents so far", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 12 } });
    const { client, fake } = s;
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    useJobTimers();
    const err = await rejection(drive(client.crawl("https://acme.test/", { limit: 10, sitemap: "skip", scrapeOptions: JSON_PAGES, pollIntervalMs: 500 })));
    const id = err.jobId!;
    expect(id).toBeTruthy();
    expect(err).toMatchObject({ budget: 12, spent: 15, requested: 10, remaining: 0, operation: "crawl", cancelled: true });
    expect(err.message).toContain("this client cancelled it");
    expect(fake.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([`/v2/crawl/${id}`]);
    expect(fakeJobs(fake).get(id).status).toBe("cancelled");
    expect(err.documents).toHaveLength(3);
    expect(err.documents.every((d) => typeof (d as { metadata?: { sourceURL?: unknown } }).metadata?.sourceURL === "string")).toBe(true);
    expect(client.credits.byJob).toEqual({ [id]: 15 });
  });

  it('onExceeded: "throw" throws without cancelling: the job runs on', async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 12, onExceeded: "throw" } });
    const { client, fake } = s;
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    useJobTimers();
    const err = await rejection(drive(client.crawl("https://acme.test/", { limit: 10, sitemap: "skip", scrapeOptions: JSON_PAGES, pollIntervalMs: 500 })));
    expect(err).toMatchObject({ spent: 15, cancelled: false });
    expect(err.message).toContain("it was not cancelled");
    // The pages that exist when it throws (the fake finishes a page on every status read, so the read of them runs the job on).
    expect(err.documents.length).toBeGreaterThanOrEqual(3);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
    expect(fakeJobs(fake).get(err.jobId!).status).not.toBe("cancelled");
  });

  it("a call's budget replaces the client's, counted on its own job: larger lets it run, smaller refuses or cancels it", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 1 } });
    const { client, fake } = s;
    useJobTimers();
    const job = await drive(client.crawl("https://acme.test/", { limit: 3, sitemap: "skip", pollIntervalMs: 500, budget: { credits: 100 } }));
    expect(job.status).toBe("completed"); // the client's 1 credit did not apply
    expect(client.credits.total).toBe(3);
    const big = new WebData({ plugins: [v1Face, team], apiKey: fake.apiKey, apiUrl: s.url, fetch: fake.fetch, logLevel: "off", budget: { credits: 1000 } });
    const before = fake.requests.length;
    expect(await rejection(big.batchScrape(["https://acme.test/about", "https://acme.test/contact"], { budget: { credits: 1 } }))).toMatchObject({ budget: 1, spent: 0, requested: 2 });
    expect(fake.requests).toHaveLength(before);
    await big.scrape("https://acme.test/about"); // the client's spending is not the call's
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    const err = await rejection(drive(big.crawl("https://acme.test/", { limit: 4, sitemap: "skip", scrapeOptions: JSON_PAGES, pollIntervalMs: 500, budget: { credits: 4 } })));
    expect(err).toMatchObject({ budget: 4, spent: 5, cancelled: true });
    expect(fake.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("the v1 face's job starts take the client's budget: refused before sending", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 5 }, silenceDeprecationWarnings: true });
    const { client, fake } = s;
    expect(await rejection(client.v1.asyncCrawlUrl("https://acme.test/", { limit: 6 }))).toMatchObject({ budget: 5, requested: 6, operation: "crawl" });
    expect(await rejection(client.v1.crawlUrl("https://acme.test/"))).toMatchObject({ requested: 10_000 });
    const urls = Array.from({ length: 6 }, (_, i) => `https://acme.test/many/${i + 1}`);
    expect(await rejection(client.v1.asyncBatchScrapeUrls(urls))).toMatchObject({ requested: 6, operation: "batchScrape" });
    expect(fake.requests).toHaveLength(0);
    await client.v1.asyncCrawlUrl("https://acme.test/", { limit: 5 }); // fits
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/crawl"]);
  });

  it("the drop-in and its v2 calls take the client's budget", async () => {
    s = await setup(kind, {}, { plugins: [team] });
    const { fake, url } = s;
    const options = { apiKey: fake.apiKey, apiUrl: url, logLevel: "off" as const, plugins: [team], budget: { credits: 2 }, ...(kind === "fetch" ? { fetch: fake.fetch } : {}) };
    const app = kind === "fetch" ? new Firecrawl(options) : new (await import("../src/firecrawl/node.js")).Firecrawl(options);
    expect(await rejection(app.crawl("https://acme.test/", { limit: 5 }))).toMatchObject({ budget: 2, requested: 5 });
    expect(await rejection(app.startBatchScrape(["https://acme.test/a", "https://acme.test/b", "https://acme.test/c"]))).toMatchObject({ requested: 3 });
    expect(fake.requests).toHaveLength(0);
  });
});

describe("budget: its checks", () => {
  it("the client option is checked once at construction; a call's before anything is sent", async () => {
    s = await setup("fetch", {}, { plugins: [team] });
    const make = (budget: unknown) => new WebData({ plugins: [v1Face, team], apiKey: "fc-test", apiUrl: "https://x.test", budget } as never);
    expect(() => make({ credits: -1 })).toThrow(ValidationError);
    expect(() => make({ credits: 10, onExceeded: "stop" })).toThrow(/onExceeded/);
    expect(() => make({ credits: Number.NaN })).toThrow(ValidationError);
    expect(() => make({ credits: 10, extra: 1 })).toThrow(ValidationError);
    expect(make({ credits: 0, onExceeded: "throw" })).toBeInstanceOf(WebData);
    await expect(s.client.crawl("https://acme.test/", { budget: { credits: "10" } } as never)).rejects.toThrow(ValidationError);
    await expect(s.client.agent("x", { budget: { credits: 5, onExceeded: "later" } } as never)).rejects.toThrow(/budget/);
    expect(s.fake.requests).toHaveLength(0);
  });
});

// An agent's running status with its credits so far (reference §9: `creditsUsed?` on the status), exactly, over msw.
const MSW_URL = "https://budget-msw.webdata.test";
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("budget on an agent (msw)", () => {
  it("cancels a waited agent once its creditsUsed passes the budget: DELETE /v2/agent/<id>; the start stated maxCredits", async () => {
    const id = "019a0000-0000-7000-8000-000000000001";
    const seen: string[] = [];
    const figures = [10, 24, 31];
    server.use(
      http.post(`${MSW_URL}/v2/agent`, async ({ request }) => {
        seen.push(`POST ${JSON.stringify(await request.json())}`);
        return HttpResponse.json({ success: true, id });
      }),
      http.get(`${MSW_URL}/v2/agent/:id`, () => {
        seen.push("GET");
        return HttpResponse.json({ success: true, status: "processing", model: "spark-1-pro", expiresAt: "", creditsUsed: figures.shift() ?? 31 });
      }),
      http.delete(`${MSW_URL}/v2/agent/:id`, ({ params }) => {
        seen.push(`DELETE ${String(params.id)}`);
        return HttpResponse.json({ success: true });
      }),
    );
    const client = new WebData({ plugins: [v1Face, team], apiKey: "fc-test", apiUrl: MSW_URL, logLevel: "off", budget: { credits: 30 } });
    useJobTimers();
    const err = await rejection(drive(client.agent("find the prices", { maxCredits: 25, pollIntervalMs: 500 })));
    expect(err).toMatchObject({ budget: 30, spent: 31, requested: 25, operation: "agent", jobId: id, cancelled: true, documents: [] });
    expect(seen).toEqual(['POST {"maxCredits":25,"prompt":"find the prices"}', "GET", "GET", "GET", `DELETE ${id}`]);
    expect(client.credits.byJob).toEqual({ [id]: 31 });
  });
});
