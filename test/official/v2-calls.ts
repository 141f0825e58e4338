/**
 * Official-style call sites: one per public method of the official client's v2
 * class (`Firecrawl` of `@mendable/firecrawl-js` 4.42.0), written as its README
 * and `dist/index.d.ts` show them. Only the import changed:
 *
 *   import { Firecrawl, type CrawlJob, ... } from "@mendable/firecrawl-js";   // before
 *   import { Firecrawl, type CrawlJob, ... } from "webdata/firecrawl";        // after
 *
 * (here the source path of "webdata/firecrawl", since tests run unbuilt). This file is
 * typechecked with test/tsconfig.json and run against the fake service by
 * test/official-compat.test.ts, which holds the expected outcome of each
 * entry. Every call site compiles against webdata; the ones webdata cannot
 * serve reject before sending, and MIGRATION.md ("From @mendable/firecrawl-js
 * 4.x (v2)") lists them with the reason.
 */
import { z } from "zod";
import {
  Firecrawl,
  SdkError,
  type ActiveCrawlsResponse,
  type AgentThreadResponse,
  type DeveloperSearchResponse,
  type EndpointFeedbackRequest,
  type FeedbackResponse,
  type FindToolsData,
  type Monitor,
  type MonitorCheck,
  type MonitorCheckDetail,
  type ParseFile,
  type UpdateMonitorRequest,
  type AgentStatusResponse,
  type BatchScrapeJob,
  type BrowserListResponse,
  type CrawlJob,
  type Document,
  type ExtractResponse,
  type FormatOption,
  type MapData,
  type QueueStatusResponse,
  type SearchData,
} from "../../src/firecrawl/index.js";

/** The site the calls read (the fake service's fixture web). */
export const SITE = "https://acme.test";

/** One call site: what official-style code does with a client. */
export type CallSite = (app: Firecrawl) => Promise<unknown>;

/** Constructors, as the official README writes them (the fake's key and URL stand in for real ones). */
export const constructors = {
  options: (apiKey: string, apiUrl: string) => new Firecrawl({ apiKey, apiUrl }),
  nullKey: (apiUrl: string) => new Firecrawl({ apiKey: null, apiUrl }),
  keyString: (apiKey: string) => new Firecrawl(apiKey),
};

const formats: FormatOption[] = ["markdown", "html"];

/** Every public method of the official v2 class, by name. */
export const v2Calls: Record<string, CallSite> = {
  async scrape(app) {
    const doc = await app.scrape(`${SITE}/`, { formats: ["markdown", "html"] });
    const product = await app.scrape(`${SITE}/products`, { formats: ["product"] });
    return { markdown: doc.markdown, title: doc.metadata?.title, product: product.product };
  },
  async findTools(app) {
    const tools: FindToolsData = await app.findTools({ providers: ["particle"], limit: 2 });
    return tools.items.map((t) => t.name);
  },
  async interact(app) {
    const doc = await app.scrape(`${SITE}/`, { actions: [{ type: "click", selector: 'a[href="/products"]' }] });
    const scrapeJobId = doc?.metadata?.scrapeId;
    if (!scrapeJobId) throw new Error("Missing scrapeId");
    const run = await app.interact(scrapeJobId, { code: "console.log(await page.url())", language: "node", timeout: 60 });
    if (!run.success) throw new Error(run.error);
    return run.stdout;
  },
  async stopInteraction(app) {
    const doc = await app.scrape(`${SITE}/`);
    const scrapeJobId = doc.metadata.scrapeId;
    if (!scrapeJobId) throw new Error("Missing scrapeId");
    await app.interact(scrapeJobId, { prompt: "Click the products link" });
    const res = await app.stopInteraction(scrapeJobId);
    return res.success;
  },
  async scrapeExecute(app) {
    const doc = await app.scrape(`${SITE}/`, { actions: [{ type: "click", selector: 'a[href="/products"]' }] });
    const res = await app.scrapeExecute(doc.metadata!.scrapeId!, { code: "1" });
    await app.stopInteraction(doc.metadata!.scrapeId!);
    return res.success;
  },
  async stopInteractiveBrowser(app) {
    const doc = await app.scrape(`${SITE}/`, { actions: [{ type: "click", selector: 'a[href="/products"]' }] });
    await app.interact(doc.metadata!.scrapeId!, { code: "1" });
    return (await app.stopInteractiveBrowser(doc.metadata!.scrapeId!)).success;
  },
  async deleteScrapeBrowser(app) {
    const doc = await app.scrape(`${SITE}/`, { actions: [{ type: "click", selector: 'a[href="/products"]' }] });
    await app.interact(doc.metadata!.scrapeId!, { code: "1" });
    return (await app.deleteScrapeBrowser(doc.metadata!.scrapeId!)).success;
  },
  async parse(app) {
    const file: ParseFile = { data: "<html><body><h1>Hello parse</h1><p>From a file.</p></body></html>", filename: "upload.html", contentType: "text/html" };
    const doc: Document = await app.parse(file, { formats: ["markdown"] });
    if (!doc.markdown?.includes("# Hello parse")) throw new Error(`unexpected markdown: ${String(doc.markdown)}`);
    const bytes = await app.parse({ data: new TextEncoder().encode("a,b\n1,2\n"), filename: "table.csv" });
    return { markdown: doc.markdown, source: doc.metadata?.sourceURL, csv: bytes.markdown };
  },
  async search(app) {
    const results: SearchData = await app.search("widgets", { limit: 5 });
    const urls = (results.web ?? []).map((r) => `${r.url} - ${"title" in r ? r.title : ""}`);
    const scraped = await app.search("widgets", { limit: 3, scrapeOptions: { formats: ["markdown"] } });
    return { urls, scraped: scraped.web?.length };
  },
  async developerSearch(app) {
    const res: DeveloperSearchResponse = await app.developerSearch("configure retry backoff", { repos: ["firecrawl/firecrawl"], passages: 3 });
    return res.results.map((r) => r.url);
  },
  async feedback(app) {
    const doc = await app.scrape(`${SITE}/products`, { formats: ["markdown"] });
    const request: EndpointFeedbackRequest = { endpoint: "scrape", jobId: doc.metadata!.scrapeId!, rating: "bad", issues: ["missing_prices"], note: "No prices in the markdown" };
    const fb: FeedbackResponse = await app.feedback(request);
    if (!fb.success) throw new Error("failed");
    return fb.feedbackId;
  },
  async searchFeedback(app) {
    const results = await app.search("widgets", { limit: 3 });
    if (!results.id) throw new Error("Missing search id");
    const fb = await app.searchFeedback(results.id, { rating: "partial", valuableSources: [{ url: `${SITE}/products`, reason: "prices" }] });
    if (!fb.success) throw new Error("failed");
    return fb.feedbackId;
  },
  async research(app) {
    const papers = await app.research.searchPapers("CRISPR base editing", { k: 10 });
    return papers.results.map((p) => p.title);
  },
  async map(app) {
    const mapResult: MapData = await app.map(SITE);
    return mapResult.links.map((l) => l.url);
  },
  async startCrawl(app) {
    const start = await app.startCrawl(SITE, { excludePaths: ["blog/*"], limit: 5 });
    return start.id;
  },
  async getCrawlStatus(app) {
    const { id } = await app.startCrawl(SITE, { limit: 2 });
    const status: CrawlJob = await app.getCrawlStatus(id);
    const page = await app.getCrawlStatus(id, { autoPaginate: false });
    return { status: status.status, data: status.data.length, page: page.status };
  },
  async getCrawlStatusAutoPaginate(app) {
    const { id } = await app.startCrawl(SITE, { limit: 2 });
    const job = await app.getCrawlStatus(id, { autoPaginate: true, maxPages: 2, maxResults: 10, maxWaitTime: 30 });
    return { status: job.status, documents: job.data.length };
  },
  async cancelCrawl(app) {
    const { id } = await app.startCrawl(SITE, { limit: 2 });
    const ok: boolean = await app.cancelCrawl(id);
    return ok;
  },
  async crawl(app) {
    const crawlResponse: CrawlJob = await app.crawl(SITE, { limit: 100, scrapeOptions: { formats: ["markdown", "html"] } });
    return { status: crawlResponse.status, pages: crawlResponse.data.length };
  },
  async crawlPollInterval(app) {
    // The README's headline example: pollInterval in seconds.
    return app.crawl(SITE, { limit: 100, scrapeOptions: { formats: ["markdown"] }, pollInterval: 2 });
  },
  async crawlTimeout(app) {
    return app.crawl(SITE, { limit: 10, timeout: 120 });
  },
  async getCrawlErrors(app) {
    const { id } = await app.startCrawl(SITE, { limit: 2 });
    const errors = await app.getCrawlErrors(id);
    return { errors: errors.errors.length, robotsBlocked: errors.robotsBlocked.length };
  },
  async getActiveCrawls(app) {
    const res: ActiveCrawlsResponse = await app.getActiveCrawls();
    if (!res.success) throw new Error("failed");
    return res.crawls.length;
  },
  async crawlParamsPreview(app) {
    return app.crawlParamsPreview(SITE, "Only the blog posts");
  },
  async createMonitor(app) {
    const monitor: Monitor = await app.createMonitor({ name: "prices", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`] }] });
    return monitor.id;
  },
  async listMonitors(app) {
    await app.createMonitor({ name: "docs", schedule: { text: "every 30 minutes" }, targets: [{ type: "crawl", url: SITE, crawlOptions: { limit: 5 } }] });
    const monitors: Monitor[] = await app.listMonitors({ limit: 10 });
    return monitors.map((m) => `${m.name}: ${m.schedule.cron ?? ""}`);
  },
  async getMonitor(app) {
    const created = await app.createMonitor({ name: "prices", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`] }] });
    const monitor = await app.getMonitor(created.id);
    return monitor.status;
  },
  async updateMonitor(app) {
    const created = await app.createMonitor({ name: "prices", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`] }] });
    const request: UpdateMonitorRequest = { name: "renamed", status: "paused" };
    const updated = await app.updateMonitor(created.id, request);
    if (updated.name !== "renamed" || updated.status !== "paused") throw new Error("not updated");
    return updated.updatedAt;
  },
  async deleteMonitor(app) {
    const created = await app.createMonitor({ name: "prices", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`] }] });
    const deleted: boolean = await app.deleteMonitor(created.id);
    if (!deleted) throw new Error("not deleted");
    return deleted;
  },
  async runMonitor(app) {
    const created = await app.createMonitor({ name: "prices", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`, `${SITE}/about`] }] });
    const check: MonitorCheck = await app.runMonitor(created.id);
    return `${check.id} ${check.status} ${check.trigger}`;
  },
  async listMonitorChecks(app) {
    const created = await app.createMonitor({ name: "prices", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [`${SITE}/products`] }] });
    await app.runMonitor(created.id);
    const checks = await app.listMonitorChecks(created.id, { limit: 5 });
    return checks.map((c) => `${c.status}: ${c.summary.new} new, ${c.summary.changed} changed`);
  },
  async getMonitorCheck(app) {
    const created = await app.createMonitor({ name: "site", schedule: { cron: "0 * * * *" }, targets: [{ type: "crawl", url: SITE, crawlOptions: { limit: 8 } }] });
    const run = await app.runMonitor(created.id);
    const detail: MonitorCheckDetail = await app.getMonitorCheck(created.id, run.id, { limit: 3 });
    if (detail.pages.length < 4 || detail.next) throw new Error(`expected every page, got ${detail.pages.length}`);
    return detail.pages.map((p) => `${p.url} ${p.status}`);
  },
  async startBatchScrape(app) {
    const start = await app.startBatchScrape([`${SITE}/`, `${SITE}/about`], { formats: ["markdown", "html"] });
    return start.id;
  },
  async startBatchScrapeNested(app) {
    const start = await app.startBatchScrape([`${SITE}/`, `${SITE}/about`], { options: { formats }, maxConcurrency: 2 });
    return start.id;
  },
  async getBatchScrapeStatus(app) {
    const { id } = await app.startBatchScrape([`${SITE}/`], { formats: ["markdown"] });
    const job: BatchScrapeJob = await app.getBatchScrapeStatus(id);
    return job.status;
  },
  async getBatchScrapeErrors(app) {
    const { id } = await app.startBatchScrape([`${SITE}/`], { formats: ["markdown"] });
    return (await app.getBatchScrapeErrors(id)).errors.length;
  },
  async cancelBatchScrape(app) {
    const { id } = await app.startBatchScrape([`${SITE}/`, `${SITE}/about`], { formats: ["markdown"] });
    return app.cancelBatchScrape(id);
  },
  async batchScrape(app) {
    const job = await app.batchScrape([`${SITE}/`, `${SITE}/about`], { formats: ["markdown", "html"] });
    return { status: job.status, pages: job.data.length };
  },
  async batchScrapeNested(app) {
    const job = await app.batchScrape([`${SITE}/`, `${SITE}/about`], { options: { formats: ["markdown"] }, maxConcurrency: 2 });
    return { status: job.status, markdown: job.data.every((d) => typeof d.markdown === "string") };
  },
  async batchScrapeIdempotencyKey(app) {
    return app.batchScrape([`${SITE}/`], { options: { formats: ["markdown"] }, idempotencyKey: "5b1b0c0a-7f3e-4b7e-9d0e-3f0c2c7a1b2d" });
  },
  async batchScrapeTimeout(app) {
    return app.batchScrape([`${SITE}/`], { formats: ["markdown"], pollInterval: 1, timeout: 120 });
  },
  async startExtract(app) {
    const res: ExtractResponse = await app.startExtract({ urls: [`${SITE}/products`], prompt: "Products and prices" });
    if (!res.success) throw new Error("failed");
    return res.id;
  },
  async getExtractStatus(app) {
    const { id } = await app.startExtract({ urls: [`${SITE}/products`], prompt: "Products and prices" });
    const res = await app.getExtractStatus(id);
    if (!res.success) throw new Error(res.error);
    return res.status;
  },
  async extract(app) {
    const schema = z.object({ title: z.string() });
    const result = await app.extract({ urls: [`${SITE}/products`], prompt: "Extract the page title", schema, showSources: true });
    if (!result.success) throw new Error(result.error);
    return result.data;
  },
  async extractPollInterval(app) {
    return app.extract({ urls: [`${SITE}/products`], prompt: "Extract the page title", pollInterval: 2, timeout: 60 });
  },
  async startAgent(app) {
    const res = await app.startAgent({ prompt: "Find the widget price", urls: [`${SITE}/products`] });
    if (!res.success) throw new Error("failed");
    return res.id;
  },
  async getAgentStatus(app) {
    const { id } = await app.startAgent({ prompt: "Find the widget price" });
    const res: AgentStatusResponse = await app.getAgentStatus(id);
    if (!res.success) throw new Error(res.error);
    return res.status;
  },
  async listAgents(app) {
    await app.startAgent({ prompt: "Find the widget price" });
    const page = await app.listAgents();
    if (!page.success) throw new Error("failed");
    const more = page.next ? await app.listAgents({ before: Number(new URL(page.next).searchParams.get("before")) }) : undefined;
    return { runs: (page.agents ?? []).map((a) => a.id), more: more?.agents?.length };
  },
  async agent(app) {
    const schema = z.object({ price: z.number() });
    const res = await app.agent({ prompt: "Find the widget price", schema });
    if (!res.success) throw new Error(res.error);
    return res.data;
  },
  async agentPollInterval(app) {
    return app.agent({ prompt: "Find the widget price", pollInterval: 2, timeout: 300 });
  },
  async cancelAgent(app) {
    const { id } = await app.startAgent({ prompt: "A long task" });
    return app.cancelAgent(id);
  },
  async getAgentTrace(app) {
    const { id } = await app.startAgent({ prompt: "Find the widget price" });
    const trace = await app.getAgentTrace(id, { liveView: true });
    if (!trace.success) throw new Error("failed");
    return (trace.events ?? []).map((e) => e.type);
  },
  async getAgentSnapshot(app) {
    const done = await app.agent({ prompt: "Find the widget price" });
    const trace = await app.getAgentTrace(done.id);
    const updated = (trace.events ?? []).find((e) => e.type === "artifact.updated") as { artifact?: { snapshotId: string } } | undefined;
    if (!updated?.artifact) throw new Error("no artifact");
    const snap = await app.getAgentSnapshot(done.id, updated.artifact.snapshotId);
    return snap.snapshot;
  },
  async getAgentThread(app) {
    const res: AgentThreadResponse = await app.getAgentThread("0190f2a4-0000-7000-8000-000000000001", { includeData: true });
    return res.thread?.runs.map((r) => r.status);
  },
  async browser(app) {
    const session = await app.browser({ ttl: 120 });
    if (!session.success) throw new Error("failed");
    await app.deleteBrowser(session.id);
    return typeof session.cdpUrl;
  },
  async browserExecute(app) {
    const session = await app.browser();
    const run = await app.browserExecute(session.id, { code: "print(1 + 1)", language: "python" });
    await app.deleteBrowser(session.id);
    if (!run.success) throw new Error("failed");
    return run.stdout;
  },
  async deleteBrowser(app) {
    const session = await app.browser();
    const res = await app.deleteBrowser(session.id);
    return res.success;
  },
  async listBrowsers(app) {
    const session = await app.browser();
    const res: BrowserListResponse = await app.listBrowsers({ status: "active" });
    if (!res.success) throw new Error("failed");
    await app.deleteBrowser(session.id);
    return (res.sessions ?? []).map((s) => s.id).includes(session.id);
  },
  async getConcurrency(app) {
    const c = await app.getConcurrency();
    return c.maxConcurrency;
  },
  async getCreditUsage(app) {
    return (await app.getCreditUsage()).remainingCredits;
  },
  async getTokenUsage(app) {
    return (await app.getTokenUsage()).remainingTokens;
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
  async getQueueStatus(app) {
    const q: QueueStatusResponse = await app.getQueueStatus();
    if (!q.success) throw new Error("failed");
    return q.maxConcurrency;
  },
  async watcher(app) {
    const start = await app.startCrawl(SITE, { excludePaths: ["blog/*"], limit: 5 });
    const watch = app.watcher(start.id, { kind: "crawl", pollInterval: 2, timeout: 120 });
    const seen: unknown[] = [];
    let done = "";
    watch.on("document", (doc) => seen.push(doc.metadata?.sourceURL));
    watch.on("snapshot", (snap) => void snap.completed);
    watch.on("error", (err) => seen.push(err.error));
    watch.on("done", (state) => (done = state.status));
    await watch.start();
    if (done !== "completed" || seen.length === 0) throw new Error(`watcher: ${done}, ${seen.length} documents`);
    return { documents: seen.length, done };
  },
  async scrapeUrl(app) {
    return app.scrapeUrl(`${SITE}/`, { formats: ["markdown"] });
  },
  async crawlUrl(app) {
    return app.crawlUrl(SITE, { limit: 2 });
  },
  async asyncCrawlUrl(app) {
    return app.asyncCrawlUrl(SITE, { limit: 2 });
  },
  async checkCrawlStatus(app) {
    const { id } = await app.asyncCrawlUrl(SITE, { limit: 2 });
    return (await app.checkCrawlStatus(id)).status;
  },
  async checkCrawlErrors(app) {
    const { id } = await app.asyncCrawlUrl(SITE, { limit: 2 });
    return (await app.checkCrawlErrors(id)).errors.length;
  },
  async mapUrl(app) {
    return app.mapUrl(SITE);
  },
  async batchScrapeUrls(app) {
    return app.batchScrapeUrls([`${SITE}/`], { options: { formats: ["markdown"] } });
  },
  async asyncBatchScrapeUrls(app) {
    return app.asyncBatchScrapeUrls([`${SITE}/`]);
  },
  async checkBatchScrapeStatus(app) {
    const { id } = await app.asyncBatchScrapeUrls([`${SITE}/`]);
    return (await app.checkBatchScrapeStatus(id)).status;
  },
  async checkBatchScrapeErrors(app) {
    const { id } = await app.asyncBatchScrapeUrls([`${SITE}/`]);
    return (await app.checkBatchScrapeErrors(id)).errors.length;
  },
  async v1(app) {
    const scrapeV1 = await app.v1.scrapeUrl(`${SITE}/`, { formats: ["markdown", "html"] });
    const mapV1 = await app.v1.mapUrl(SITE);
    if (!scrapeV1.success || !mapV1.success) throw new Error("failed");
    return { markdown: typeof scrapeV1.markdown, links: mapV1.links?.length };
  },
  async sdkError(app) {
    try {
      await app.getCrawlStatus("00000000-0000-4000-8000-000000000000");
    } catch (e) {
      if (e instanceof SdkError) return e.name;
    }
    return "not thrown";
  },
};
