/**
 * Batch scrape: many URLs in one job, scrape options at the top level.
 *
 *   npm run build && npx tsx examples/batch-scrape.ts
 */
import { runIfMain, type Connection } from "./connect.js";

/** Scrapes three pages of the site in one batch and reads any failures. */
export async function main({ client, site, pollIntervalMs }: Connection): Promise<{ documents: number; errors: number }> {
  const urls = [`${site}/about`, `${site}/contact`, `${site}/products`];
  const batch = await client.batchScrape(urls, { formats: ["markdown"], pollIntervalMs });
  for (const doc of batch.data) console.log(`${doc.metadata.sourceURL}: ${doc.markdown?.split("\n")[0]}`);
  const { id } = await client.startBatchScrape([`${site}/about`], { formats: ["summary"] });
  const { errors } = await client.getBatchScrapeErrors(id);
  console.log(`${batch.status}: ${batch.data.length} documents, ${batch.creditsUsed} credits; started ${id}, ${errors.length} errors so far`);
  return { documents: batch.data.length, errors: errors.length };
}

runIfMain(import.meta.url, main);
