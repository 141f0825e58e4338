/** The README's "Crawl and batch scrape" flow, run against the fake service. */
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { ConflictError } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

let s: Setup | undefined;
beforeEach(() => useJobTimers());
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
});

it("README crawl and batch flow", async () => {
  s = await setup("fetch");
  const client = s.client;
  const job = await drive(
    client.crawl("https://acme.test/", { limit: 50, includePaths: ["^/blog/"], scrapeOptions: { formats: ["markdown"] }, pollIntervalMs: 2000, timeoutMs: 10 * 60_000 }),
  );
  expect(job.status).toBe("completed");
  expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual(["https://acme.test/", "https://acme.test/blog/first-post", "https://acme.test/blog/second-post"]);

  fakeJobs(s.fake).configure({ pagesPerPoll: 1 });
  const { id } = await client.startCrawl("https://acme.test/", { limit: 5, webhook: "https://my.app/hooks/crawl" });
  const page = await client.getCrawlStatus(id, { limit: 10 });
  expect(page.status).toBe("scraping");
  const urls: (string | undefined)[] = [];
  await drive(
    (async () => {
      for await (const doc of client.crawlDocuments(id)) urls.push(doc.metadata?.sourceURL);
    })(),
  );
  expect(urls).toHaveLength(5);
  const { errors, robotsBlocked } = await client.getCrawlErrors(id);
  expect(errors).toEqual([]);
  expect(robotsBlocked).toEqual([]);
  await expect(client.cancelCrawl(id)).rejects.toBeInstanceOf(ConflictError);
  const { crawls } = await client.getActiveCrawls();
  expect(crawls).toEqual([]);

  const batch = await drive(client.batchScrape(["https://acme.test/about", "https://acme.test/contact"], { formats: ["markdown"] }));
  expect(batch.data).toHaveLength(2);
});
