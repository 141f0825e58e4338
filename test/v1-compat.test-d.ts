/**
 * Typical v1-era user code, as written against the service's v1 client
 * library, compiled against `webdata/v1` with nothing changed but the module
 * name (here the source path of `webdata/v1`, since tests run unbuilt).
 */
import { expectTypeOf, test } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod3";
import type { WebData } from "../src/index.js";
import type { StandardSchemaV1 } from "../src/api/schema.js";
import FirecrawlApp, {
  type CrawlParams,
  type CrawlStatusResponse,
  type ErrorResponse,
  type ExtractParams,
  type ExtractResponse,
  type ScrapeResponse,
  type V1Any,
} from "../src/v1/index.js";

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

/** v1-era code with zod schemas (the v1 README's examples) and with plain JSON Schemas whose results it indexes into. */
async function v1EraSchemaCode(): Promise<void> {
  const app = new FirecrawlApp({ apiKey: "fc-YOUR_API_KEY" });

  // extract with a zod 4 schema: data is z.infer of it
  const schema = z.object({ company_mission: z.string(), supports_sso: z.boolean(), is_open_source: z.boolean(), is_in_yc: z.boolean() });
  const ex = await app.extract(["https://firecrawl.dev/*"], { prompt: "Extract the company mission from the page.", schema });
  if (!ex.success) throw new Error(ex.error);
  console.log(ex.data.company_mission, ex.data.is_in_yc ? "YC" : "");
  expectTypeOf(ex.data).toEqualTypeOf<{ company_mission: string; supports_sso: boolean; is_open_source: boolean; is_in_yc: boolean }>();
  // @ts-expect-error not a field of the schema
  console.log(ex.data.company_vision);

  // extract with a zod 3 schema, and the v1 library's explicit type names
  const schema3 = z3.object({ name: z3.string(), price: z3.number().optional() });
  const params: ExtractParams<typeof schema3> = { prompt: "products", schema: schema3 };
  const ex3 = (await app.extract(["https://shop.example.com"], params)) as ExtractResponse<z3.infer<typeof schema3>> | ErrorResponse;
  if (ex3.success) expectTypeOf(ex3.data).toEqualTypeOf<{ name: string; price?: number | undefined }>();

  // extract without a schema or with a plain JSON Schema: any, as in the v1 library
  const exPlain = await app.extract(["https://firecrawl.dev"], { prompt: "x", schema: { type: "object", properties: { company_mission: { type: "string" } } } });
  if (exPlain.success) console.log(exPlain.data.company_mission.toUpperCase());
  const exNone = await app.extract(["https://firecrawl.dev"], { prompt: "x" });
  if (exNone.success) console.log(exNone.data.anything[0]);
  expectTypeOf(exNone).toEqualTypeOf<ExtractResponse<V1Any> | ErrorResponse>();

  // scrapeUrl with jsonOptions (zod 3) and the extract format (zod 4)
  const top = z3.object({ top: z3.array(z3.object({ title: z3.string(), points: z3.number(), by: z3.string(), commentsURL: z3.string() })).length(5) });
  const hn = await app.scrapeUrl("https://news.ycombinator.com", { formats: ["json"], jsonOptions: { prompt: "Top 5 stories", schema: top } });
  if (!hn.success) throw new Error(`Failed to scrape: ${hn.error}`);
  console.log(hn.json?.top.map((s) => s.title));
  expectTypeOf(hn.json).toEqualTypeOf<{ top: { title: string; points: number; by: string; commentsURL: string }[] } | undefined>();
  // @ts-expect-error not a field of the schema
  console.log(hn.json?.bottom);
  const old = await app.scrapeUrl("https://firecrawl.dev", { formats: ["extract"], extract: { schema } });
  if (old.success) expectTypeOf(old.extract).toEqualTypeOf<z.infer<typeof schema> | undefined>();
  // v1 explicit type argument: the schema's type
  const typed = await app.scrapeUrl<typeof schema>("https://firecrawl.dev", { formats: ["json"], jsonOptions: { schema } });
  if (typed.success) console.log(typed.json?.supports_sso);

  // scrapeUrl with a plain JSON Schema or prompt only: json is any, indexed freely
  const r = await app.scrapeUrl("https://news.ycombinator.com", { formats: ["json"], jsonOptions: { schema: { type: "object", properties: { top: { type: "array" } } } } });
  if (r.success) console.log(r.json.top, r.extract?.x);
  const rp = await app.scrapeUrl("https://firecrawl.dev", { formats: ["json"], jsonOptions: { prompt: "Extract the pricing" } });
  if (rp.success) console.log(rp.json.plans.length);

  // changeTrackingOptions with a zod schema
  const ct = await app.scrapeUrl("https://firecrawl.dev/pricing", { formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["json"], schema } });
  if (ct.success) console.log(ct.changeTracking?.json.company_mission);

  // asyncExtract + getExtractStatus (the v1 library typed the status any)
  const job = await app.asyncExtract(["https://firecrawl.dev"], { prompt: "mission", schema });
  if (job.success) {
    const st = await app.getExtractStatus(job.id);
    console.log(st.status, st.data.company_mission);
    console.log((await app.getExtractStatus(job.id)).data.x);
    const named = await app.getExtractStatus<z.infer<typeof schema>>(job.id);
    expectTypeOf(named.data).toEqualTypeOf<z.infer<typeof schema>>();
  }

  // crawl / batch with scrapeOptions jsonOptions: documents are any-typed (the v1 library's status type carried no schema)
  const crawlStatus = await app.crawlUrl("https://firecrawl.dev", { limit: 5, scrapeOptions: { formats: ["json"], jsonOptions: { schema } } }, 2);
  if (!crawlStatus.success) throw new Error(crawlStatus.error);
  console.log(crawlStatus.data[0].json.x, crawlStatus.data.map((d) => d.json.company_mission));
  const checked = await app.checkCrawlStatus("id", true);
  if (checked.success) console.log(checked.data[0].json.x);
  const batch = await app.batchScrapeUrls(["https://firecrawl.dev"], { formats: ["json"], jsonOptions: { schema: top } });
  if (batch.success) console.log(batch.data[0].json.top);
  const search = await app.search("firecrawl", { scrapeOptions: { formats: ["json"], jsonOptions: { schema } } });
  console.log(search.data[0].json.x);

  // deep research with a zod schema
  const research = await app.deepResearch("What is Firecrawl?", { formats: ["json"], jsonOptions: { schema } });
  if (research.success && "status" in research) expectTypeOf(research.data.json).toEqualTypeOf<z.infer<typeof schema> | undefined>();
  const rs = await app.checkDeepResearchStatus("id");
  if (rs.success && "status" in rs) console.log(rs.data.json.x);

  // any Standard Schema (Standard JSON Schema) infers too
  const std = {} as StandardSchemaV1<unknown, { n: number }>;
  const exStd = await app.extract([], { prompt: "n", schema: std });
  if (exStd.success) expectTypeOf(exStd.data).toEqualTypeOf<{ n: number }>();
}

test("v1-era code with zod schemas compiles, typed from the schema", () => {
  expectTypeOf(v1EraSchemaCode).returns.resolves.toBeVoid();
  // The v2 surface keeps `unknown` where v1 has `any`.
  expectTypeOf<Awaited<ReturnType<WebData["getExtractStatus"]>>["data"]>().toBeUnknown();
});

test("v1-era code compiles against webdata/v1", () => {
  expectTypeOf(v1EraCode).returns.resolves.toBeVoid();
  expectTypeOf<InstanceType<typeof FirecrawlApp>["crawlUrl"]>().parameters.toEqualTypeOf<
    [url: string, params?: CrawlParams, pollInterval?: number, idempotencyKey?: string, options?: import("../src/v1/index.js").RequestOptions]
  >();
});
