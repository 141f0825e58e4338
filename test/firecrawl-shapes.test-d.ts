/**
 * Official-client code (`@mendable/firecrawl-js` 4.x, its README and declarations) that reads result
 * shapes, compiled against `webdata/firecrawl` under strict TypeScript with only the import changed
 * (every official type shape compiles).
 */
import { expectTypeOf, test } from "vitest";
import Firecrawl, { type BatchScrapeJob, type CrawlJob, type ExtractResponse } from "webdata/firecrawl";

async function officialCode(): Promise<void> {
  const app = new Firecrawl({ apiKey: "fc-YOUR_API_KEY" });

  // startExtract's answer: the official ExtractResponse, with optional data and status.
  const started = await app.startExtract({ urls: ["https://example.com"], prompt: "Title" });
  const data: unknown = started.data;
  const status: "processing" | "completed" | "failed" | "cancelled" | undefined = started.status;
  if (!started.success) throw new Error(started.error);
  console.log(started.id, data, status);

  // A browser execute result read for its error.
  const session = await app.browser();
  const run = await app.browserExecute(session.id, { code: "console.log(1)", language: "node" });
  if (run.error) console.error(run.error, run.exitCode);

  // The watcher example of the official README, and a snapshot listener typed with the official job type.
  const start = await app.startCrawl("https://mendable.ai", { excludePaths: ["blog/*"], limit: 5 });
  const watch = app.watcher(start.id, { kind: "crawl", pollInterval: 2 });
  watch.on("document", (doc) => console.log("DOC", doc));
  watch.on("error", (err) => console.error("ERR", err));
  watch.on("done", (state) => console.log("DONE", state.status));
  watch.on("snapshot", (job: CrawlJob) => console.log(job.data.length));
  watch.on("snapshot", (job: BatchScrapeJob) => console.log(job.completed));
  await watch.start();

  // v1: a scrape's actions.screenshots, and a queue status read for its error.
  const page = await app.v1.scrapeUrl("https://example.com", { formats: ["markdown"], actions: [{ type: "screenshot" }] });
  if (page.success) console.log(page.actions?.screenshots?.[0]);
  const queue = await app.v1.getQueueStatus();
  if (!queue.success) console.error(queue.error);
}
void officialCode;

test("startExtract answers the official ExtractResponse", () => {
  expectTypeOf<Awaited<ReturnType<Firecrawl["startExtract"]>>>().toExtend<ExtractResponse>();
});
