/**
 * v1 code migrated to v2: each legacy call beside its replacement (see
 * MIGRATION.md). `client.v1` (with the `v1` plugin of `webdata/v1`) still works, with a deprecation
 * warning per method; the v2 calls are the recommended API.
 *
 *   npm run build && npx tsx examples/v1-to-v2.ts
 */
import type { ClientOptions } from "webdata";
import { v1 } from "webdata/v1";
import { runIfMain, type Connection } from "./connect.js";

/** Runs the v1 and v2 forms of scrape, map and crawl and shows they agree. */
export async function main({ client, site, pollIntervalMs }: Connection): Promise<{ v1: string[]; v2: string[] }> {
  // Before (v1): a `success` wrapper, string links, seconds, positional arguments.
  const page1 = await client.v1.scrapeUrl(`${site}/about`, { formats: ["markdown"] });
  const map1 = await client.v1.mapUrl(site, { limit: 5 });
  const crawl1 = await client.v1.crawlUrl(site, { limit: 2, scrapeOptions: { formats: ["markdown"] } }, pollIntervalMs === undefined ? 2 : pollIntervalMs / 1000);
  const v1 = [String(page1.success && page1.metadata?.title), String(map1.success && map1.links?.length), String(crawl1.success && crawl1.data.length)];

  // After (v2): the result itself (errors throw), `{ url, title }` links, milliseconds, one options object.
  const page2 = await client.scrape(`${site}/about`, { formats: ["markdown"] });
  const map2 = await client.map(site, { limit: 5 });
  const crawl2 = await client.crawl(site, { limit: 2, scrapeOptions: { formats: ["markdown"] }, pollIntervalMs });
  const v2 = [String(page2.metadata.title), String(map2.links.length), String(crawl2.data.length)];
  console.log(`v1: ${v1.join(" | ")}\nv2: ${v2.join(" | ")}`);
  return { v1, v2 };
}

/** The client this example needs: `client.v1` is the `v1` plugin's. */
export const options: ClientOptions = { silenceDeprecationWarnings: true, plugins: [v1] };

runIfMain(import.meta.url, main, options);
