/**
 * The governance pipeline, walked over the catalogue (`api/operations.ts`): every operation that spends credits is
 * refused over a spent budget by every face that has it (`WebData`, `client.v1`, the `webdata/firecrawl` drop-in),
 * with nothing sent (the fake saw 0 requests), over both transports; every operation's credit rule is counted by the
 * meter under its name; and a budget stops spending (scrape, search and map included) once it is spent. A spending
 * operation added to the catalogue without a call here fails the walk; one added without a credit rule does not compile.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ValidationError, WebData } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { OPERATION_LIST, type OperationName } from "../src/api/operations.js";
import { CREDIT_RULES } from "../src/api/credit-rules.js";
import { BudgetExceededError, team } from "../src/team.js";
import { v1 as v1Face } from "../src/v1/index.js";
import { ClientCreditMeter } from "../src/team/meter.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const URL_ = "https://acme.test/about";
const file = { data: new Blob(["<html><body>hi</body></html>"], { type: "text/html" }), filename: "a.html" };

/** How each face calls each operation that spends credits (arguments the fake would accept). */
type Call = (c: WebData, dropIn: Firecrawl) => Promise<unknown>;
const CALLS: Partial<Record<OperationName, Record<string, Call>>> = {
  scrape: { WebData: (c) => c.scrape(URL_), v1: (c) => c.v1.scrapeUrl(URL_), dropIn: (_c, d) => d.scrape(URL_) },
  search: { WebData: (c) => c.search("acme"), v1: (c) => c.v1.search("acme"), dropIn: (_c, d) => d.search("acme") },
  map: { WebData: (c) => c.map(URL_), v1: (c) => c.v1.mapUrl(URL_), dropIn: (_c, d) => d.map(URL_) },
  parse: { WebData: (c) => c.parse(file) },
  "crawl.paramsPreview": { WebData: (c) => c.crawlParamsPreview(URL_, "the docs") },
  "crawl.start": { WebData: (c) => c.startCrawl(URL_, { limit: 1 }), v1: (c) => c.v1.asyncCrawlUrl(URL_, { limit: 1 }), dropIn: (_c, d) => d.startCrawl(URL_, { limit: 1 }) },
  crawl: { WebData: (c) => c.crawl(URL_, { limit: 1 }), v1: (c) => c.v1.crawlUrl(URL_, { limit: 1 }) },
  "batchScrape.start": { WebData: (c) => c.startBatchScrape([URL_]), v1: (c) => c.v1.asyncBatchScrapeUrls([URL_]), dropIn: (_c, d) => d.startBatchScrape([URL_]) },
  batchScrape: { WebData: (c) => c.batchScrape([URL_]), v1: (c) => c.v1.batchScrapeUrls([URL_]) },
  "extract.start": { WebData: (c) => c.startExtract({ urls: [URL_], prompt: "the title" }), v1: (c) => c.v1.asyncExtract([URL_], { prompt: "the title" }), dropIn: (_c, d) => d.startExtract({ urls: [URL_], prompt: "the title" }) },
  extract: { WebData: (c) => c.extract({ urls: [URL_], prompt: "the title" }), v1: (c) => c.v1.extract([URL_], { prompt: "the title" }) },
  "agent.start": { WebData: (c) => c.startAgent("find prices", { maxCredits: 1 }), dropIn: (_c, d) => d.startAgent({ prompt: "find prices", maxCredits: 1 }) },
  agent: { WebData: (c) => c.agent("find prices", { maxCredits: 1 }) },
  interact: { WebData: (c) => c.interact("00000000-0000-4000-8000-000000000000", { prompt: "click" }) },
  "browser.create": { WebData: (c) => c.browser() },
  "browser.execute": { WebData: (c) => c.browserExecute("00000000-0000-4000-8000-000000000000", { code: "1" }) },
  "monitor.create": { WebData: (c) => c.createMonitor({ name: "m", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: [URL_] }] } as never) },
  "monitor.run": { WebData: (c) => c.runMonitor("00000000-0000-4000-8000-000000000000") },
  "llmsText.start": { v1: (c) => c.v1.asyncGenerateLLMsText(URL_) },
  llmsText: { v1: (c) => c.v1.generateLLMsText(URL_) },
  "deepResearch.start": { v1: (c) => c.v1.asyncDeepResearch("prices") },
  deepResearch: { v1: (c) => c.v1.deepResearch("prices") },
  "search.developer": { dropIn: (_c, d) => (d as unknown as { developerSearch(q: string): Promise<unknown> }).developerSearch("acme") },
  "tools.find": { dropIn: (_c, d) => (d as unknown as { findTools(q: string): Promise<unknown> }).findTools("acme") },
  research: { dropIn: (_c, d) => d.research.searchPapers("acme") },
};

const spending = OPERATION_LIST.map(([name]) => name).filter((name) => CREDIT_RULES[name] !== "free" && (CREDIT_RULES[name] as { spends?: string }).spends !== undefined);

describe("the catalogue's credit rules", () => {
  it("every operation that spends credits has a call in this walk (a new one must be added here)", () => {
    expect(spending.filter((name) => !CALLS[name])).toEqual([]);
  });

  it.each(OPERATION_LIST.map(([name]) => name))("%s: the meter counts by its rule", (name) => {
    const meter = new ClientCreditMeter();
    const rule = CREDIT_RULES[name];
    const args = ["00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000000"];
    meter.count({ op: name, args, occupies: false, endpoint: "GET /x", budget: undefined }, { creditsUsed: 3 });
    if (rule === "free") expect(meter.total).toBe(0);
    else if (rule.spends) expect(meter.byOperation).toEqual({ [rule.spends]: 3 });
    else expect(meter.byJob).toEqual({ "00000000-0000-4000-8000-000000000000": 3 });
  });
});

describe.each(TRANSPORTS)("a spent budget over %s", (kind) => {
  const faces = ["WebData", "v1", "dropIn"];
  it.each(faces)("refuses every spending operation of the %s face before anything is sent", async (face) => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 0 }, silenceDeprecationWarnings: true });
    const { client, fake } = s;
    const dropIn = new Firecrawl({ apiKey: fake.apiKey, apiUrl: s.url, logLevel: "off", plugins: [team], budget: { credits: 0 }, ...(kind === "fetch" ? { fetch: fake.fetch } : {}) });
    const walked: string[] = [];
    for (const name of spending) {
      const call = CALLS[name]?.[face];
      if (!call) continue;
      const err = await call(client, dropIn).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, `${face} ${name}`).toBeInstanceOf(BudgetExceededError);
      walked.push(name);
    }
    expect(walked.length).toBeGreaterThan(face === "WebData" ? 15 : 5);
    expect(fake.requests).toHaveLength(0);
  });

  it("stops spending once spent: with a budget of 2, the third scrape, search or map is refused (the server saw 2)", async () => {
    s = await setup(kind, {}, { plugins: [team], budget: { credits: 2 } });
    const { client, fake } = s;
    await client.scrape(URL_);
    await client.scrape(URL_);
    expect(client.credits.total).toBe(2);
    for (const call of [() => client.scrape(URL_), () => client.search("acme"), () => client.map(URL_), () => client.v1.asyncExtract([URL_], { prompt: "t" })]) {
      await expect(call()).rejects.toBeInstanceOf(BudgetExceededError);
    }
    const spent = (await client.scrape(URL_).catch((e: unknown) => e)) as BudgetExceededError;
    expect(spent).toMatchObject({ budget: 2, spent: 2, remaining: 0, operation: "scrape", jobId: undefined });
    expect(spent.message).toBe("The scrape costs credits and the budget of 2 is spent (2 spent): nothing was sent. Raise budget.credits, or call client.credits.reset() to count from zero again");
    expect(fake.requests).toHaveLength(2);
    expect(client.credits.total).toBe(2);
  });
});

describe("the team features need their plugin", () => {
  it("budget, maxConcurrency, limiter and client.credits without it are a ValidationError naming the import", () => {
    const opts = { apiKey: "fc-test", apiUrl: "https://x.test" };
    for (const extra of [{ budget: { credits: 1 } }, { maxConcurrency: 2 }, { limiter: { acquire: async () => () => undefined } }]) {
      expect(() => new WebData({ ...opts, ...extra })).toThrow(/import \{ team \} from "webdata\/team" and the option plugins: \[team\]/);
    }
    expect(() => new WebData(opts).credits).toThrow(ValidationError);
    expect(() => new WebData({ ...opts, plugins: [{}] } as never)).toThrow(/plugins: must be a list of plugins/);
    expect(new WebData({ ...opts, plugins: [team], budget: { credits: 1 } }).credits.total).toBe(0);
  });

  it("client.v1 without the v1 plugin is a ValidationError naming webdata/v1; with it, the legacy face", () => {
    const opts = { apiKey: "fc-test", apiUrl: "https://x.test" };
    expect(() => new WebData(opts).v1).toThrow(/client\.v1 is the legacy v1 face: add import \{ v1 \} from "webdata\/v1" and the option plugins: \[v1\]/);
    expect(typeof new WebData({ ...opts, plugins: [v1Face] }).v1.scrapeUrl).toBe("function");
  });

  it("a waiter's budget without it is refused before anything is sent", async () => {
    s = await setup("fetch");
    await expect(s.client.crawl(URL_, { limit: 1, budget: { credits: 5 } })).rejects.toThrow(/budget: is a team feature/);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("byUrl without it: batchScrape() works and its byUrl throws the ValidationError; batchScrapeDocuments' byUrl() rejects with it", async () => {
    s = await setup("fetch");
    const done = await s.client.batchScrape([URL_]);
    expect(done.data).toHaveLength(1);
    expect(() => done.byUrl).toThrow(/byUrl: is a team feature: add import \{ team \} from "webdata\/team"/);
    const stream = s.client.batchScrapeDocuments("00000000-0000-4000-8000-000000000000", { urls: [URL_] });
    await expect(stream.byUrl()).rejects.toThrow(ValidationError);
  });

  it("stallTimeoutMs without it is refused before anything is sent: the waiters, the documents iterators, the watcher", async () => {
    s = await setup("fetch");
    const stall = { stallTimeoutMs: 5_000 };
    await expect(s.client.crawl(URL_, { limit: 1, ...stall })).rejects.toThrow(/stallTimeoutMs: is a team feature/);
    await expect(s.client.batchScrape([URL_], stall)).rejects.toThrow(ValidationError);
    await expect(s.client.crawlDocuments("00000000-0000-4000-8000-000000000000", stall).next()).rejects.toThrow(/stallTimeoutMs: is a team feature/);
    const watch = async () => {
      for await (const _e of s!.client.watcher("00000000-0000-4000-8000-000000000000", { ...stall, transports: ["poll"] })) break;
    };
    await expect(watch()).rejects.toThrow(/stallTimeoutMs: is a team feature/);
    expect(s.fake.requests).toHaveLength(0);
  });
});

describe("hook operation names come from the catalogue", () => {
  it("carry no id: getCrawlStatus of any id is crawl.status, a v1 read v1.crawl.status", async () => {
    const names: string[] = [];
    s = await setup("fetch", {}, { hooks: { onRequest: (e) => void names.push(e.operation) }, maxRetries: 0 });
    await s.client.getCrawlStatus("nope-123").catch(() => undefined);
    await s.client.v1.checkCrawlStatus("nope-123").catch(() => undefined);
    await s.client.startBatchScrape([URL_]);
    expect(names).toEqual(["crawl.status", "v1.crawl.status", "batchScrape.start"]);
  });
});
