import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WebData } from "webdata";
import { createFakeService, fakeJobs, type FakeService } from "webdata/testing";
import { siteIndex, summarise } from "./app.js";

let fake: FakeService;
let client: WebData;

beforeEach(() => {
  fake = createFakeService(); // a fresh, offline stand-in for the service in every test
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("summarise", () => {
  it("summarises a page of the fake's fixture web", async () => {
    expect(await summarise(client, "https://acme.test/about")).toEqual({ title: "About Acme", words: 17 });
  });

  it("summarises a page we wrote ourselves", async () => {
    fake.addPage({ url: "https://my.shop/", markdown: "# My shop\n\nMugs and plates.", metadata: { title: "My shop" } });
    expect(await summarise(client, "https://my.shop/")).toEqual({ title: "My shop", words: 6 });
  });

  it("backs off on 429 for as long as the service asks, then succeeds", async () => {
    vi.useFakeTimers();
    fake.rateLimit({ retryAfterSeconds: 2 }); // the next request gets 429 "... retry after 2s"
    const result = summarise(client, "https://acme.test/about");
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fake.requests).toHaveLength(1); // still waiting: no retry before the 2 s are up
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ title: "About Acme" });
    expect(fake.requests).toHaveLength(2);
  });

  it("sends what we mean to send", async () => {
    await summarise(client, "https://acme.test/about");
    const [request] = fake.requests;
    expect(request).toMatchObject({
      method: "POST",
      path: "/v2/scrape",
      body: { url: "https://acme.test/about", formats: ["markdown"], onlyMainContent: true },
    });
    expect(request?.headers.authorization).toBe("Bearer [redacted]"); // safe to print or snapshot
    expect(fake.keyOf(request!)).toBe(fake.apiKey); // the key that was sent
  });
});

describe("siteIndex", () => {
  it("lists the titles of a crawled site", async () => {
    vi.useFakeTimers();
    const index = siteIndex(client, "https://acme.test");
    await vi.runAllTimersAsync(); // the crawl waiter's polls, without waiting for real
    expect((await index).titles).toContain("About Acme");
  });

  it("survives a failed crawl", async () => {
    vi.useFakeTimers();
    fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed: the start URL could not be scraped." });
    const index = siteIndex(client, "https://acme.test");
    await vi.runAllTimersAsync();
    expect(await index).toEqual({ titles: [], error: "Crawl failed: the start URL could not be scraped." });
  });
});
