/**
 * Search the web, news and images, and scrape the web results to markdown.
 *
 *   npm run build && npx tsx examples/search.ts
 */
import { runIfMain, type Connection } from "./connect.js";

/** Searches for "widgets" in three sources. */
export async function main({ client }: Connection): Promise<{ web: number; news: number; images: number }> {
  const results = await client.search("widgets", {
    sources: ["web", "news", "images"],
    limit: 5,
    scrapeOptions: { formats: ["markdown"] },
  });
  for (const item of results.web ?? []) console.log(`web    ${item.url}: ${item.markdown?.split("\n")[0] ?? item.title}`);
  for (const item of results.news ?? []) console.log(`news   ${item.title} (${item.date ?? "undated"})`);
  for (const item of results.images ?? []) console.log(`image  ${item.imageUrl} ${item.imageWidth}x${item.imageHeight}`);
  console.log(`${results.creditsUsed} credits`);
  return { web: results.web?.length ?? 0, news: results.news?.length ?? 0, images: results.images?.length ?? 0 };
}

runIfMain(import.meta.url, main);
