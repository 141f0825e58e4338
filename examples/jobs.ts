/**
 * Crawl, batch scrape and the live watcher, against the built-in fake service
 * (no key, no network), or the service when WEBDATA_API_KEY is set.
 *
 *   npm run build && npx tsx examples/jobs.ts
 */
import type { WebData } from "webdata";
import { runIfMain } from "./connect.js";

/** What the example prints, returned so the test suite can check it. */
export interface JobsOutput {
  /** Documents of the waited-for crawl. */
  crawled: number;
  /** Documents read by iterating a started crawl page by page. */
  iterated: number;
  /** Documents the watcher delivered, and the final status it confirmed. */
  watched: { documents: number; done: string };
  /** Documents of the batch scrape. */
  batched: number;
  /** The status a cancelled crawl's waiter reported. */
  cancelled: string;
}

/** Runs the example with a client and the site to crawl. `pollIntervalMs` is short for the fake; keep the default (2000) against the service. */
export async function jobs(client: WebData, site: string, pollIntervalMs = 500): Promise<JobsOutput> {
  // 1. Start and wait: the waiter polls cheaply and downloads the result pages once, at the end.
  const crawl = await client.crawl(site, { limit: 5, scrapeOptions: { formats: ["markdown"] }, pollIntervalMs });
  console.log(`crawl    ${crawl.status}: ${crawl.data.length} documents, ${crawl.creditsUsed} credits`);

  // 2. Start yourself (a retried start never makes two crawls), then read every document as pages arrive.
  const started = await client.startCrawl(site, { limit: 4 });
  let iterated = 0;
  for await (const doc of client.crawlDocuments(started.id, { pollIntervalMs })) {
    iterated += 1;
    if (iterated === 1) console.log(`iterate  first document: ${doc.metadata.sourceURL}`);
  }
  console.log(`iterate  ${iterated} documents of crawl ${started.id}`);

  // 3. Watch live: WebSocket where the runtime has one, server-sent events, or polling; no document twice.
  const watchedJob = await client.startCrawl(site, { limit: 3 });
  let documents = 0;
  let done = "";
  for await (const event of client.watcher(watchedJob.id, { pollIntervalMs })) {
    if (event.type === "document") documents += 1;
    if (event.type === "error") console.log(`watch    (recovered) ${event.error.message}`);
    if (event.type === "done") done = event.status;
  }
  console.log(`watch    ${documents} documents, done: ${done} (confirmed over REST)`);

  // 4. Batch scrape: the same machinery, scrape options at the top level.
  const batch = await client.batchScrape([`${site}/about`, `${site}/contact`], { formats: ["markdown"], pollIntervalMs });
  console.log(`batch    ${batch.data.length} documents`);

  // 5. Cancel a running crawl; its status says so (a waiter on it would throw JobFailedError).
  const doomed = await client.startCrawl(site, { limit: 20 });
  await client.cancelCrawl(doomed.id);
  const cancelled = (await client.getCrawlStatus(doomed.id, { limit: 1 })).status;
  console.log(`cancel   crawl ${doomed.id}: ${cancelled}`);
  return { crawled: crawl.data.length, iterated, watched: { documents, done }, batched: batch.data.length, cancelled };
}

runIfMain(import.meta.url, (c) => jobs(c.client, c.site, c.pollIntervalMs ?? 2000));
