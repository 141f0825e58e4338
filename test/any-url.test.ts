/**
 * `createFakeService({ anyUrl: true })` (and `webdata fake --any-url`, in test/cli-commands.test.ts): any URL
 * answers with a generated page, an unknown host with a small generated site (`/`, `/about`, `/docs`,
 * `/blog`), so the official client's README snippets run unchanged through the drop-in. Without the
 * option a site off the fixture web is a scrape failure, as before. Over both transports, on fake timers.
 */
import { describe, expect, it } from "vitest";
import { APIError, WebData } from "../src/index.js";
import { Firecrawl as PortableFirecrawl } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl } from "../src/firecrawl/node.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();

function app(s: Setup, kind: string): PortableFirecrawl {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const };
  return kind === "fetch" ? new PortableFirecrawl({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawl(options);
}

describe.each(TRANSPORTS)("anyUrl over %s", (kind) => {
  it("the official README's first snippet runs unchanged through the drop-in: scrape and crawl https://firecrawl.dev", async () => {
    const s = await open(kind, { anyUrl: true });
    const a = app(s, kind);
    // Scrape a website
    const scrapeResponse = await drive(a.scrape("https://firecrawl.dev", { formats: ["markdown", "html"] }));
    expect(scrapeResponse.markdown).toContain("# firecrawl.dev");
    expect(scrapeResponse.html).toContain("firecrawl.dev");
    expect(scrapeResponse.metadata).toMatchObject({ sourceURL: "https://firecrawl.dev", statusCode: 200 });
    // Crawl a website (waiter)
    const crawlResponse = await drive(a.crawl("https://firecrawl.dev", { limit: 100, scrapeOptions: { formats: ["markdown", "html"] }, pollInterval: 2 }));
    expect(crawlResponse.status).toBe("completed");
    expect(crawlResponse.data.map((d) => d.metadata?.sourceURL).sort()).toEqual(["https://firecrawl.dev/", "https://firecrawl.dev/about", "https://firecrawl.dev/blog", "https://firecrawl.dev/docs"]);
    expect(crawlResponse.data.every((d) => d.markdown && d.html)).toBe(true);
  });

  it("the README's other calls on unknown sites: map, startCrawl with excludePaths, getCrawlStatus, batchScrape, and any path", async () => {
    const s = await open(kind, { anyUrl: true });
    const a = app(s, kind);
    const mapResult = await drive(a.map("https://example.com"));
    expect(mapResult.links.map((l) => l.url)).toEqual(["https://example.com/", "https://example.com/about", "https://example.com/docs", "https://example.com/blog"]);
    const start = await drive(a.startCrawl("https://mendable.ai", { excludePaths: ["blog/*"], limit: 5 }));
    const status = await drive(a.getCrawlStatus(start.id));
    expect(status.id).toBe(start.id);
    const batch = await drive(a.batchScrape(["https://firecrawl.dev", "https://mendable.ai"], { formats: ["markdown", "html"], pollInterval: 2 }));
    expect(batch.data.map((d) => d.metadata?.sourceURL)).toEqual(["https://firecrawl.dev", "https://mendable.ai"]);
    const deep = await drive(a.scrape("https://example.com/product/123"));
    expect(deep.markdown).toContain("# example.com/product/123");
    expect(deep.markdown).toContain("(https://example.com/docs)");
  });

  it("the fixture site keeps its own pages (an unknown path there is a 404 page); a .invalid host still never resolves", async () => {
    const s = await open(kind, { anyUrl: true });
    const client = new WebData({ apiKey: s.fake.apiKey, apiUrl: s.url, fetch: kind === "fetch" ? s.fake.fetch : undefined, logLevel: "off", maxRetries: 0 });
    expect((await drive(client.scrape("https://acme.test/about"))).markdown).toContain("# About Acme");
    expect((await drive(client.scrape("https://acme.test/no-such-page"))).metadata?.statusCode).toBe(404);
    await expect(drive(client.scrape("http://nowhere.invalid/"))).rejects.toBeInstanceOf(APIError);
  });

  it("without anyUrl, a site off the fixture web is a scrape failure (the README's snippet cannot run)", async () => {
    const s = await open(kind);
    const err = await drive(app(s, kind).scrape("https://firecrawl.dev", { formats: ["markdown"] }).catch((e: unknown) => e));
    expect(err).toMatchObject({ status: 500 });
  });
});
