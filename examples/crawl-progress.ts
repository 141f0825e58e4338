/**
 * Crawl a site with a live progress line: start the crawl, then read its
 * documents as they arrive, printing how far it has got.
 *
 *   npm run build && npx tsx examples/crawl-progress.ts
 */
import { runIfMain, type Connection } from "./connect.js";

/** Crawls up to 10 pages, updating one line per document. */
export async function main({ client, site, pollIntervalMs }: Connection): Promise<{ documents: number; status: string }> {
  const { id } = await client.startCrawl(site, { limit: 10, scrapeOptions: { formats: ["markdown"] } });
  const tty = Boolean(process.stdout.isTTY);
  let documents = 0;
  for await (const doc of client.crawlDocuments(id, { pollIntervalMs })) {
    documents += 1;
    const line = `crawling ${site}: ${documents} pages, last ${doc.metadata.sourceURL}`;
    if (tty) process.stdout.write(`\r${line.padEnd(100).slice(0, 100)}`);
    else console.log(line);
  }
  const { status, total } = await client.getCrawlStatus(id, { limit: 1 });
  if (tty) process.stdout.write("\n");
  console.log(`crawl ${id}: ${status}, ${documents} of ${total} pages`);
  return { documents, status };
}

runIfMain(import.meta.url, main);
