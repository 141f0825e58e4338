/**
 * Map a site: every URL it has (from its sitemap and links), with titles.
 *
 *   npm run build && npx tsx examples/map.ts
 */
import { runIfMain, type Connection } from "./connect.js";

/** Maps the site, then searches its map for one word. */
export async function main({ client, site }: Connection): Promise<{ all: number; matching: string[] }> {
  const { links } = await client.map(site, { limit: 100 });
  for (const link of links) console.log(`${link.url}  ${link.title ?? ""}`);
  const blog = await client.map(site, { search: "blog", limit: 10 });
  console.log(`${links.length} URLs; ${blog.links.length} about "blog"`);
  return { all: links.length, matching: blog.links.map((l) => l.url) };
}

runIfMain(import.meta.url, main);
