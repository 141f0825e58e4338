/**
 * Typical v1-era user code, as written against the service's v1 client
 * library, compiled against `webdata/v1` with nothing changed but the module
 * name (here the source path of `webdata/v1`, since tests run unbuilt).
 */
import { expectTypeOf, test } from "vitest";
import FirecrawlApp, { type CrawlParams, type CrawlStatusResponse, type ErrorResponse, type ScrapeResponse } from "../src/v1/index.js";

async function v1EraCode(): Promise<void> {
  const app = new FirecrawlApp({ apiKey: "fc-YOUR_API_KEY" });

  // Scrape
  const scrapeResult = await app.scrapeUrl("https://firecrawl.dev", { formats: ["markdown", "html"] });
  if (!scrapeResult.success) {
    throw new Error(`Failed to scrape: ${scrapeResult.error}`);
  }
  console.log(scrapeResult.markdown, scrapeResult.metadata?.title);

  // LLM extraction with the v1 format
  const extracted = (await app.scrapeUrl("https://news.ycombinator.com", {
    formats: ["extract"],
    extract: { schema: { type: "object", properties: { top: { type: "array" } } } },
  })) as ScrapeResponse | ErrorResponse;
  if (extracted.success) console.log(extracted.extract);

  // Crawl and wait (poll interval in seconds)
  const params: CrawlParams = { limit: 10, maxDepth: 2, allowBackwardLinks: false, ignoreSitemap: true, scrapeOptions: { formats: ["markdown", "html"] } };
  const crawlResponse = await app.crawlUrl("https://firecrawl.dev", params, 2);
  if (!crawlResponse.success) {
    throw new Error(`Failed to crawl: ${crawlResponse.error}`);
  }
  const finished: CrawlStatusResponse = crawlResponse;
  console.log(finished.status, finished.completed, finished.total, finished.data.map((d) => d.markdown));

  // Start, then check with getAllData
  const crawlStart = await app.asyncCrawlUrl("https://mendable.ai", { excludePaths: ["blog/*"], limit: 5 });
  if (crawlStart.success && crawlStart.id) {
    const status = await app.checkCrawlStatus(crawlStart.id, true);
    if (status.success) console.log(status.data.length, status.expiresAt.toISOString());
    const errors = await app.checkCrawlErrors(crawlStart.id);
    if ("errors" in errors) console.log(errors.errors.length, errors.robotsBlocked);
    await app.cancelCrawl(crawlStart.id);
  }

  // Watch
  const watch = await app.crawlUrlAndWatch("mendable.ai", { excludePaths: ["blog/*"], limit: 5 });
  watch.addEventListener("document", (doc) => {
    console.log("DOC", doc.detail.markdown, doc.detail.id);
  });
  watch.addEventListener("error", (err) => {
    console.error("ERR", err.detail.error);
  });
  watch.addEventListener("done", (state) => {
    console.log("DONE", state.detail.status, state.detail.data.length);
  });

  // Map
  const mapResult = await app.mapUrl("https://firecrawl.dev", { search: "blog", ignoreSitemap: true });
  if (!mapResult.success) throw new Error(`Failed to map: ${mapResult.error}`);
  console.log(mapResult.links.join("\n"));

  // Batch scrape with the positional extras
  const batch = await app.batchScrapeUrls(["https://firecrawl.dev", "https://mendable.ai"], { formats: ["markdown", "html"] }, 2, undefined, "https://hooks.example.com", true, 4);
  if (batch.success) console.log(batch.data[0]?.html);
  const batchJob = await app.asyncBatchScrapeUrls(["https://firecrawl.dev"], { formats: ["markdown"] });
  if (batchJob.success) {
    const s = await app.checkBatchScrapeStatus(batchJob.id);
    if (s.success) console.log(s.next);
    await app.checkBatchScrapeErrors(batchJob.id);
  }
  const batchWatch = await app.batchScrapeUrlsAndWatch(["https://firecrawl.dev"], { formats: ["markdown"] });
  batchWatch.addEventListener("done", (e) => console.log(e.detail.data.length));
  batchWatch.close();

  // Search, extract, llms.txt, deep research, usage
  const search = await app.search("firecrawl", { limit: 3, scrapeOptions: { formats: ["markdown"] } });
  console.log(search.data.map((r) => r.url ?? r.metadata?.sourceURL));
  const extract = await app.extract(["https://firecrawl.dev/*"], { prompt: "Extract the company mission", schema: { type: "object" } });
  if (!extract.success) throw new Error(extract.error);
  console.log(extract.data);
  const extractJob = await app.asyncExtract(["https://firecrawl.dev"], { prompt: "x" });
  if (extractJob.success) console.log((await app.getExtractStatus(extractJob.id)).status);
  const llms = await app.generateLLMsText("https://firecrawl.dev", { maxUrls: 2, showFullText: true });
  if (!llms.success) throw new Error(llms.error);
  console.log(llms.data.llmstxt);
  const research = await app.deepResearch("What is Firecrawl?", { maxDepth: 3, timeLimit: 120 }, (activity) => console.log(activity.message), (source) => console.log(source.url));
  if (research.success && "status" in research) console.log(research.data.finalAnalysis);
  const rJob = await app.asyncDeepResearch("q", { maxUrls: 5 });
  if (rJob.success) await app.checkDeepResearchStatus(rJob.id);
  const lJob = await app.asyncGenerateLLMsText("https://firecrawl.dev");
  if (lJob.success) await app.checkGenerateLLMsTextStatus(lJob.id);
  const usage = await app.getTokenUsage();
  console.log(usage.remaining_tokens, (await app.getCreditUsage()).remaining_credits, (await app.getQueueStatus()).jobsInQueue);
}

test("v1-era code compiles against webdata/v1", () => {
  expectTypeOf(v1EraCode).returns.resolves.toBeVoid();
  expectTypeOf<InstanceType<typeof FirecrawlApp>["crawlUrl"]>().parameters.toEqualTypeOf<
    [url: string, params?: CrawlParams, pollInterval?: number, idempotencyKey?: string, options?: import("../src/v1/index.js").RequestOptions]
  >();
});
