/**
 * Scrape a page to markdown (and its links and metadata).
 *
 *   npm run build && npx tsx examples/scrape.ts   # the fake; set WEBDATA_API_KEY for the service
 */
import { runIfMain, type Connection } from "./connect.js";

/** Scrapes the site's home page to markdown. */
export async function main({ client, site }: Connection): Promise<{ title: string; markdown: string; links: number }> {
  const doc = await client.scrape(site, { formats: ["markdown", "links"], onlyMainContent: true });
  const title = String(doc.metadata.title ?? "");
  console.log(`${doc.metadata.sourceURL} (HTTP ${doc.metadata.statusCode}): "${title}", ${doc.links?.length ?? 0} links`);
  console.log(doc.markdown);
  return { title, markdown: doc.markdown ?? "", links: doc.links?.length ?? 0 };
}

runIfMain(import.meta.url, main);
