/**
 * Code written for the official client (`@mendable/firecrawl-js` 4.x, v2
 * methods) running on webdata: the method names and option shapes are the
 * same, so only the import and the constructor change.
 *
 *   npm run build && npx tsx examples/official-client.ts
 */
import { WebData } from "webdata";
import { runIfMain, type Connection } from "./connect.js";

// before: import Firecrawl from "@mendable/firecrawl-js";
//         const firecrawl = new Firecrawl({ apiKey: process.env.FIRECRAWL_API_KEY });
// after:  import { WebData as Firecrawl } from "webdata"; the same constructor options.

/** The body of an app written against the official client, unchanged. */
export async function app(firecrawl: WebData, site: string, pollIntervalMs?: number): Promise<{ title: string; links: number; pages: number; credits: number }> {
  const doc = await firecrawl.scrape(site, { formats: ["markdown", "links"] });
  const map = await firecrawl.map(site, { limit: 10 });
  const crawl = await firecrawl.crawl(site, { limit: 3, scrapeOptions: { formats: ["markdown"] }, pollIntervalMs });
  const usage = await firecrawl.getCreditUsage();
  return { title: String(doc.metadata?.title), links: map.links.length, pages: crawl.data.length, credits: usage.remainingCredits };
}

/** Runs the official-client code on webdata's client. */
export async function main({ client, site, pollIntervalMs }: Connection): Promise<Awaited<ReturnType<typeof app>>> {
  const result = await app(client, site, pollIntervalMs);
  console.log(`scrape "${result.title}", map ${result.links} links, crawl ${result.pages} pages, ${result.credits} credits left`);
  return result;
}

runIfMain(import.meta.url, main);
