/**
 * A crawl's body as the official client (`@mendable/firecrawl-js` 4.42.0) builds it: from the fields it knows.
 * The drop-in's `startCrawl`, `crawl`, `crawlUrl` and `asyncCrawlUrl` send the same body (its `origin` tag
 * apart, which the drop-in leaves out on every call), so v1 names (`maxDepth`, `ignoreSitemap`,
 * `allowBackwardLinks`) and unknown keys no longer meet the server's strict `/v2/crawl` 400; each dropped
 * key is said once per client through the logger, naming the v2 field. `WebData` keeps sending unknown
 * options, and the v1 classes send every key, as the official v1 class does. Both clients run against the
 * same fake service served over HTTP (its `/v2/crawl` is strict, as the server is).
 */
import OfficialFirecrawl from "@mendable/firecrawl-js";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/node.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, type Setup } from "./helpers.js";

const SITE = "https://acme.test";
let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A logger that keeps the warnings. */
function warnings(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const none = () => undefined;
  return { lines, logger: { debug: none, info: none, error: none, warn: (message: string) => void lines.push(message) } };
}

/** The bodies of the crawl starts sent since `from`, without the official client's `origin` tag. */
function crawlBodies(fake: Setup["fake"], path = "/v2/crawl", from = 0): Record<string, unknown>[] {
  return fake.requests
    .slice(from)
    .filter((r) => r.method === "POST" && r.pathname === path)
    .map((r) => {
      const { origin: _origin, ...body } = r.body as Record<string, unknown>;
      return body;
    });
}

const CASES: Record<string, Record<string, unknown>> = {
  "v1 names": { limit: 2, maxDepth: 2, ignoreSitemap: true, allowBackwardLinks: true },
  "an unknown key": { limit: 2, someUnknownKey: 1 },
  "ignoreRobotsTxt (in the official type, not in its request) and nulls": { limit: 2, ignoreRobotsTxt: true, prompt: "", maxDiscoveryDepth: null, integration: "  x  " },
  "every field it sends": {
    prompt: "docs", excludePaths: ["a"], includePaths: ["b"], maxDiscoveryDepth: 1, sitemap: "skip", robotsUserAgent: "bot", ignoreQueryParameters: true,
    deduplicateSimilarURLs: false, limit: 2, crawlEntireDomain: true, allowExternalLinks: false, allowSubdomains: false, delay: 1, maxConcurrency: 1,
    regexOnFullURL: false, webhook: "https://hooks.acme.test/x", zeroDataRetention: false, scrapeOptions: { formats: ["markdown"] },
  },
};

describe("the drop-in's crawl starts send what the official client sends", () => {
  it.each(Object.entries(CASES))("%s: the same body as the official startCrawl, and the crawl starts", async (_, options) => {
    s = await setup("undici");
    const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
    const ours = new Firecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
    const want = await official.startCrawl(` ${SITE} `, options as never);
    expect(want.id).toEqual(expect.any(String));
    const [sent] = crawlBodies(s.fake);
    for (const call of [() => ours.startCrawl(` ${SITE} `, options as never), () => ours.asyncCrawlUrl(` ${SITE} `, options as never)]) {
      const from = s.fake.requests.length;
      await expect(call()).resolves.toMatchObject({ id: expect.any(String) });
      expect(crawlBodies(s.fake, "/v2/crawl", from)).toEqual([sent]);
    }
  });

  it.each(["crawl", "crawlUrl"] as const)("%s sends the same body as the official startCrawl (its waiter controls kept, not sent) and waits for the end", async (method) => {
    s = await setup("undici");
    const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
    const ours = new Firecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
    fakeJobs(s.fake).configure({ pagesPerPoll: 10 });
    const options = { limit: 2, maxDepth: 2, someUnknownKey: 1 };
    await official.startCrawl(SITE, options as never);
    const [sent] = crawlBodies(s.fake);
    const from = s.fake.requests.length;
    const job = await ours[method](SITE, { ...options, pollInterval: 0.5, timeoutMs: 60_000 } as never);
    expect(job.status).toBe("completed");
    expect(crawlBodies(s.fake, "/v2/crawl", from)).toEqual([sent]);
  });

  it("says each dropped key once per client, naming the v2 field; a key that is sent is not said", async () => {
    s = await setup("undici");
    const { logger, lines } = warnings();
    const ours = new Firecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logger });
    await ours.startCrawl(SITE, { limit: 2, maxDepth: 2 } as never);
    await ours.asyncCrawlUrl(SITE, { limit: 2, maxDepth: 3, ignoreSitemap: true } as never);
    await ours.startCrawl(SITE, { limit: 2, someUnknownKey: 1, pollInterval: 2 } as never);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/startCrawl\(\) did not send the crawl option "maxDepth".*official client.*maxDiscoveryDepth/);
    expect(lines[1]).toMatch(/"ignoreSitemap".*sitemap: "skip"/);
    expect(lines[2]).toMatch(/"someUnknownKey".*not a v2 crawl field/);
    expect(lines[3]).toMatch(/"pollInterval".*waiter control of crawl\(\)/);
    // Another client says it again: once per client, not per process.
    const other = warnings();
    await new Firecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logger: other.logger }).startCrawl(SITE, { limit: 2, maxDepth: 2 } as never);
    expect(other.lines).toHaveLength(1);
  });

  it("WebData keeps its rule: an unknown option goes to the server (here its 400)", async () => {
    s = await setup("undici");
    await expect(s.client.startCrawl(SITE, { limit: 2, maxDepth: 2 } as never)).rejects.toMatchObject({ status: 400 });
    expect(crawlBodies(s.fake)[0]).toMatchObject({ maxDepth: 2 });
  });

  it("the v1 class sends every key to /v1/crawl, as the official v1 class does", async () => {
    s = await setup("undici");
    const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
    const ours = new Firecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
    const params = { limit: 2, maxDepth: 2, ignoreSitemap: true };
    await official.v1.asyncCrawlUrl(SITE, params);
    await ours.v1.asyncCrawlUrl(SITE, params);
    const [theirs, mine] = crawlBodies(s.fake, "/v1/crawl");
    expect(mine).toEqual(theirs);
    expect(mine).toMatchObject(params);
  });
});
