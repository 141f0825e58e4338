/**
 * Code written for the official client (`@mendable/firecrawl-js` 4.x, v2
 * class) running on webdata: only the import changes.
 *
 *   npm run build && npx tsx examples/official-client.ts
 */
import Firecrawl from "webdata/firecrawl";
import { runIfMain, type Connection } from "./connect.js";

// before: import Firecrawl from "@mendable/firecrawl-js";
// after:  import Firecrawl from "webdata/firecrawl";

/** The body of an app written against the official client, unchanged: `pollInterval` in seconds, as there. */
export async function app(firecrawl: Firecrawl, site: string, pollInterval?: number): Promise<{ title: string; links: number; pages: number; status: string; credits: number }> {
  const doc = await firecrawl.scrape(site, { formats: ["markdown", "links"] });
  const map = await firecrawl.map(site, { limit: 10 });
  const crawl = await firecrawl.crawl(site, { limit: 3, scrapeOptions: { formats: ["markdown"] }, pollInterval, timeout: 120 });
  const status = await firecrawl.getCrawlStatus(crawl.id); // every page, as the official client reads it
  const usage = await firecrawl.getCreditUsage();
  return { title: String(doc.metadata?.title), links: map.links.length, pages: crawl.data.length, status: status.status, credits: usage.remainingCredits };
}

/** Runs the official-client code on webdata's drop-in entry. */
export async function main({ client, site, fake }: Connection): Promise<Awaited<ReturnType<typeof app>>> {
  const firecrawl = new Firecrawl({ apiKey: fake?.apiKey ?? process.env.WEBDATA_API_KEY, apiUrl: client.apiUrl });
  const result = await app(firecrawl, site, fake ? 1 : undefined);
  console.log(`scrape "${result.title}", map ${result.links} links, crawl ${result.pages} pages (${result.status}), ${result.credits} credits left`);
  return result;
}

runIfMain(import.meta.url, main);
