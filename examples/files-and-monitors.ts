/**
 * Parse an uploaded file into a document, then watch a page with a monitor:
 * create it, run a check, read which pages are new or changed, delete it.
 *
 *   npm run build && npx tsx examples/files-and-monitors.ts
 */
import { runIfMain, type Connection } from "./connect.js";

/** Parses an HTML report, then runs a one-off monitor check over the site's products page. */
export async function main({ client, site }: Connection): Promise<{ heading: string | undefined; pages: string[] }> {
  const report = "<html><body><h1>Quarterly report</h1><p>Revenue grew 12%.</p></body></html>";
  const doc = await client.parse({ data: report, filename: "report.html", contentType: "text/html" }, { formats: ["markdown"] });
  const heading = doc.markdown?.split("\n")[0];
  console.log(`parsed ${doc.metadata.sourceURL}: ${heading}`);

  const monitor = await client.createMonitor({ name: "products", schedule: { text: "daily at 9:00" }, targets: [{ type: "scrape", urls: [`${site}/products`] }] });
  console.log(`monitor ${monitor.id}: ${monitor.schedule.cron} (${monitor.schedule.timezone})`);
  const run = await client.runMonitor(monitor.id);
  const check = await client.getMonitorCheck(monitor.id, run.id);
  const pages = check.pages.map((p) => `${p.url} ${p.status}`);
  for (const line of pages) console.log(line);
  await client.deleteMonitor(monitor.id);
  return { heading, pages };
}

runIfMain(import.meta.url, main);
