/**
 * Official-style call sites: one per public method of the official client's v1
 * class (`FirecrawlAppV1` of `@mendable/firecrawl-js` 4.42.0, the same as 1.x's
 * default export), written as its types show them. Only the import changed:
 *
 *   import { FirecrawlAppV1 as FirecrawlApp } from "@mendable/firecrawl-js";   // before
 *   import { FirecrawlAppV1 as FirecrawlApp } from "webdata/firecrawl";        // after
 *
 * (here the source path of "webdata/firecrawl"; the v1 type names from "webdata/v1"). Typechecked with test/tsconfig.json
 * and run against the fake service by test/official-compat.test.ts. Lines
 * marked `@ts-expect-error` are listed in MIGRATION.md with the reason.
 */
import type { FirecrawlAppV1 as FirecrawlApp } from "../../src/firecrawl/index.js";
import type { CrawlParams, ErrorResponse, ScrapeResponse } from "../../src/v1/index.js";
import { SITE } from "./v2-calls.js";

/** One call site of the v1 class. */
export type V1CallSite = (app: FirecrawlApp) => Promise<unknown>;

const ID = "00000000-0000-4000-8000-000000000000";

/** Every public method of the official v1 class, by name. */
export const v1Calls: Record<string, V1CallSite> = {
  async scrapeUrl(app) {
    const res = (await app.scrapeUrl(`${SITE}/`, { formats: ["markdown", "html"] })) as ScrapeResponse | ErrorResponse;
    if (!res.success) throw new Error(`Failed to scrape: ${res.error}`);
    return res.markdown;
  },
  async search(app) {
    const res = await app.search("widgets", { limit: 3 });
    return res.data.map((r) => r.url);
  },
  async crawlUrl(app) {
    const params: CrawlParams = { limit: 3, maxDepth: 2, scrapeOptions: { formats: ["markdown"] } };
    const res = await app.crawlUrl(SITE, params, 2);
    if (!res.success) throw new Error(`Failed to crawl: ${res.error}`);
    return res.data.length;
  },
  async asyncCrawlUrl(app) {
    const res = await app.asyncCrawlUrl(SITE, { limit: 2 });
    if (!res.success) throw new Error(res.error);
    return res.id;
  },
  async checkCrawlStatus(app) {
    const job = await app.asyncCrawlUrl(SITE, { limit: 2 });
    if (!job.success) throw new Error(job.error);
    const status = await app.checkCrawlStatus(job.id, false);
    if (!status.success) throw new Error(status.error);
    return status.status;
  },
  async checkCrawlErrors(app) {
    const job = await app.asyncCrawlUrl(SITE, { limit: 2 });
    if (!job.success) throw new Error(job.error);
    const errors = await app.checkCrawlErrors(job.id);
    return "errors" in errors ? errors.errors.length : errors.error;
  },
  async cancelCrawl(app) {
    const job = await app.asyncCrawlUrl(SITE, { limit: 5 });
    if (!job.success) throw new Error(job.error);
    return (await app.cancelCrawl(job.id)).success;
  },
  async crawlUrlAndWatch(app) {
    const watch = await app.crawlUrlAndWatch(SITE, { limit: 3 });
    const docs: unknown[] = [];
    watch.addEventListener("document", (ev) => docs.push(ev.detail.metadata?.sourceURL));
    const status = await new Promise((resolve, reject) => {
      watch.addEventListener("done", (ev) => resolve(ev.detail.status));
      watch.addEventListener("error", (ev) => reject(new Error(ev.detail.error)));
    });
    return { status, docs: docs.length };
  },
  async mapUrl(app) {
    const res = await app.mapUrl(SITE, { search: "blog" });
    if (!res.success) throw new Error(res.error);
    return res.links;
  },
  async batchScrapeUrls(app) {
    const res = await app.batchScrapeUrls([`${SITE}/`, `${SITE}/about`], { formats: ["markdown"] }, 2);
    if (!res.success) throw new Error(res.error);
    return res.data.length;
  },
  async asyncBatchScrapeUrls(app) {
    const res = await app.asyncBatchScrapeUrls([`${SITE}/`], { formats: ["markdown"] });
    if (!res.success) throw new Error(res.error);
    return res.id;
  },
  async batchScrapeUrlsAndWatch(app) {
    const watch = await app.batchScrapeUrlsAndWatch([`${SITE}/`, `${SITE}/about`], { formats: ["markdown"] });
    return new Promise((resolve, reject) => {
      watch.addEventListener("done", (ev) => resolve(ev.detail.data.length));
      watch.addEventListener("error", (ev) => reject(new Error(ev.detail.error)));
    });
  },
  async checkBatchScrapeStatus(app) {
    const job = await app.asyncBatchScrapeUrls([`${SITE}/`], { formats: ["markdown"] });
    if (!job.success) throw new Error(job.error);
    const status = await app.checkBatchScrapeStatus(job.id);
    if (!status.success) throw new Error(status.error);
    return status.status;
  },
  async checkBatchScrapeErrors(app) {
    const job = await app.asyncBatchScrapeUrls([`${SITE}/`], { formats: ["markdown"] });
    if (!job.success) throw new Error(job.error);
    return app.checkBatchScrapeErrors(job.id);
  },
  async extract(app) {
    const res = await app.extract([`${SITE}/products`], { prompt: "Products", schema: { type: "object", properties: { title: { type: "string" } } } });
    if (!res.success) throw new Error(res.error);
    return res.data.title;
  },
  async asyncExtract(app) {
    const res = await app.asyncExtract([`${SITE}/products`], { prompt: "Products" });
    if (!res.success) throw new Error(res.error);
    return res.id;
  },
  async getExtractStatus(app) {
    const job = await app.asyncExtract([`${SITE}/products`], { prompt: "Products" });
    if (!job.success) throw new Error(job.error);
    return (await app.getExtractStatus(job.id)).status;
  },
  async prepareHeaders(app) {
    return app.prepareHeaders();
  },
  async postRequest(app) {
    return app.postRequest(`${SITE}/v1/scrape`, {}, {});
  },
  async getRequest(app) {
    return app.getRequest(`${SITE}/v1/team/queue-status`, {});
  },
  async deleteRequest(app) {
    return app.deleteRequest(`${SITE}/v1/crawl/${ID}`, {});
  },
  async monitorJobStatus(app) {
    return app.monitorJobStatus(ID, {}, 2);
  },
  async handleError(app) {
    return app.handleError({ status: 500, data: {} }, "scrape");
  },
  async deepResearch(app) {
    const res = await app.deepResearch("What is Acme?", { maxDepth: 2, timeLimit: 60 }, (activity) => void activity.message);
    if (!res.success) throw new Error(res.error);
    return res.status;
  },
  async asyncDeepResearch(app) {
    const res = await app.asyncDeepResearch("What is Acme?", { maxUrls: 5 });
    if (!res.success) throw new Error(res.error);
    return res.id;
  },
  async checkDeepResearchStatus(app) {
    const job = await app.asyncDeepResearch("What is Acme?", { maxUrls: 5 });
    if (!job.success) throw new Error(job.error);
    return (await app.checkDeepResearchStatus(job.id)).success;
  },
  async __deepResearch(app) {
    return app.__deepResearch("What is Acme?", {});
  },
  async __asyncDeepResearch(app) {
    return app.__asyncDeepResearch("What is Acme?", {});
  },
  async __checkDeepResearchStatus(app) {
    const job = await app.__asyncDeepResearch("What is Acme?", { maxUrls: 5 });
    if (!job.success) throw new Error(job.error);
    return (await app.__checkDeepResearchStatus(job.id)).success;
  },
  async generateLLMsText(app) {
    const res = await app.generateLLMsText(SITE, { maxUrls: 2 });
    if (!res.success) throw new Error(res.error);
    return res.data.llmstxt;
  },
  async asyncGenerateLLMsText(app) {
    const res = await app.asyncGenerateLLMsText(SITE);
    if (!res.success) throw new Error(res.error);
    return res.id;
  },
  async checkGenerateLLMsTextStatus(app) {
    const job = await app.asyncGenerateLLMsText(SITE);
    if (!job.success) throw new Error(job.error);
    return (await app.checkGenerateLLMsTextStatus(job.id)).success;
  },
  async getQueueStatus(app) {
    const q = await app.getQueueStatus();
    if (!q.success) throw new Error("failed");
    return q.jobsInQueue;
  },
  async getCreditUsage(app) {
    const res = await app.getCreditUsage();
    if (!res.success) throw new Error("failed");
    return res.data.remaining_credits;
  },
  async getTokenUsage(app) {
    const res = await app.getTokenUsage();
    if (!res.success) throw new Error("failed");
    return res.data.remaining_tokens;
  },
  async getCreditUsageHistorical(app) {
    const res = await app.getCreditUsageHistorical(true);
    if (!res.success) throw new Error("failed");
    return res.periods.map((p) => p.creditsUsed);
  },
  async getTokenUsageHistorical(app) {
    const res = await app.getTokenUsageHistorical();
    return res.periods.length;
  },
};
