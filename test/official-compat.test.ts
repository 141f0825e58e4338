/**
 * Code written for the official client (`@mendable/firecrawl-js` 4.42.0) runs
 * against webdata with only the import changed (test/official/*-calls.ts, one
 * call site per public method of its v2 class and of its v1 class), against
 * the fake service over both transports. Each call site either works
 * unchanged, fails loudly before sending (a `ValidationError` naming the
 * webdata option and its unit), or is not supported and listed in MIGRATION.md.
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { APIError, ValidationError } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";
import { TRANSPORTS } from "./helpers.js";
import { Firecrawl as PortableFirecrawl, FirecrawlAppV1 as PortableFirecrawlAppV1 } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl, FirecrawlAppV1 as NodeFirecrawlAppV1 } from "../src/firecrawl/node.js";
import type { Setup } from "./helpers.js";
import { v1Calls } from "./official/v1-calls.js";
import { constructors, v2Calls } from "./official/v2-calls.js";

/** `answered`: sent as the official client sends it (`sent`, method and path), and the server's answer (its `status`, an `APIError`) decides. */
type Outcome = { works: true } | { hint: RegExp; unsent: RegExp } | { unsupported: true } | { answered: number; sent: RegExp };

const works = { works: true } as const;
const unsupported = { unsupported: true } as const;

/**
 * Public methods of the official v2 class (`FirecrawlClient` plus `Firecrawl`'s `v1` getter) in
 * @mendable/firecrawl-js 4.42.0 `dist/index.d.ts`, in declaration order.
 */
const OFFICIAL_V2_METHODS = [
  "scrape", "findTools", "interact", "stopInteraction", "scrapeExecute", "stopInteractiveBrowser", "deleteScrapeBrowser", "parse",
  "search", "developerSearch", "feedback", "searchFeedback", "research", "map", "startCrawl", "getCrawlStatus", "cancelCrawl", "crawl",
  "getCrawlErrors", "getActiveCrawls", "crawlParamsPreview", "createMonitor", "listMonitors", "getMonitor", "updateMonitor", "deleteMonitor",
  "runMonitor", "listMonitorChecks", "getMonitorCheck", "startBatchScrape", "getBatchScrapeStatus", "getBatchScrapeErrors", "cancelBatchScrape",
  "batchScrape", "startExtract", "getExtractStatus", "extract", "startAgent", "getAgentStatus", "listAgents", "agent", "cancelAgent",
  "getAgentTrace", "getAgentSnapshot", "getAgentThread", "browser", "browserExecute", "deleteBrowser", "listBrowsers", "getConcurrency",
  "getCreditUsage", "getTokenUsage", "getCreditUsageHistorical", "getTokenUsageHistorical", "getQueueStatus", "watcher", "scrapeUrl",
  "crawlUrl", "asyncCrawlUrl", "checkCrawlStatus", "checkCrawlErrors", "mapUrl", "batchScrapeUrls", "asyncBatchScrapeUrls",
  "checkBatchScrapeStatus", "checkBatchScrapeErrors", "v1",
];

/** What `new Firecrawl({ apiKey, apiUrl })` from "webdata/firecrawl" gives, over the transport under test. */
function firecrawl(s: Setup, kind: string): PortableFirecrawl {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9, silenceDeprecationWarnings: true };
  return kind === "fetch" ? new PortableFirecrawl({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawl(options);
}

/** What `new FirecrawlAppV1({ apiKey, apiUrl })` from "webdata/firecrawl" gives, over the transport under test. */
function firecrawlV1(s: Setup, kind: string): PortableFirecrawlAppV1 {
  const options = { apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" as const, timeoutMs: 1e9, silenceDeprecationWarnings: true };
  return kind === "fetch" ? new PortableFirecrawlAppV1({ ...options, fetch: s.fake.fetch }) : new NodeFirecrawlAppV1(options);
}

/** The expected outcome of every v2 call site. */
const V2_EXPECTED: Record<keyof typeof v2Calls, Outcome> = {
  scrape: works,
  findTools: { answered: 400, sent: /^POST \/v2\/scrape$/ },
  interact: works,
  stopInteraction: works,
  scrapeExecute: works,
  stopInteractiveBrowser: works,
  deleteScrapeBrowser: works,
  parse: works,
  search: works,
  developerSearch: { answered: 404, sent: /^POST \/v2\/search\/developer$/ },
  feedback: works,
  searchFeedback: works,
  research: { answered: 404, sent: /^GET \/v2\/search\/research\/papers\?query=CRISPR\+base\+editing&k=10$/ },
  map: works,
  startCrawl: works,
  getCrawlStatus: works,
  getCrawlStatusAutoPaginate: works,
  cancelCrawl: works,
  crawl: works,
  crawlPollInterval: works,
  crawlTimeout: works,
  getCrawlErrors: works,
  getActiveCrawls: works,
  crawlParamsPreview: works,
  createMonitor: works,
  listMonitors: works,
  getMonitor: works,
  updateMonitor: works,
  deleteMonitor: works,
  runMonitor: works,
  listMonitorChecks: works,
  getMonitorCheck: works,
  startBatchScrape: works,
  startBatchScrapeNested: works,
  getBatchScrapeStatus: works,
  getBatchScrapeErrors: works,
  cancelBatchScrape: works,
  batchScrape: works,
  batchScrapeNested: works,
  batchScrapeIdempotencyKey: works,
  batchScrapeTimeout: works,
  startExtract: works,
  getExtractStatus: works,
  extract: works,
  extractPollInterval: works,
  startAgent: works,
  getAgentStatus: works,
  listAgents: works,
  agent: works,
  agentPollInterval: works,
  cancelAgent: works,
  getAgentTrace: works,
  getAgentSnapshot: works,
  getAgentThread: { answered: 404, sent: /^GET \/v2\/agent\/threads\/0190f2a4-0000-7000-8000-000000000001\?includeData=true$/ },
  browser: works,
  browserExecute: works,
  deleteBrowser: works,
  listBrowsers: works,
  getConcurrency: works,
  getCreditUsage: works,
  getTokenUsage: works,
  getCreditUsageHistorical: works,
  getTokenUsageHistorical: works,
  getQueueStatus: works,
  watcher: works,
  scrapeUrl: works,
  crawlUrl: works,
  asyncCrawlUrl: works,
  checkCrawlStatus: works,
  checkCrawlErrors: works,
  mapUrl: works,
  batchScrapeUrls: works,
  asyncBatchScrapeUrls: works,
  checkBatchScrapeStatus: works,
  checkBatchScrapeErrors: works,
  v1: works,
  sdkError: works,
};

/** Public methods of the official v1 class (`FirecrawlApp`, exported as `FirecrawlAppV1`) in 4.42.0 `dist/index.d.ts`. */
const OFFICIAL_V1_METHODS = [
  "scrapeUrl", "search", "crawlUrl", "asyncCrawlUrl", "checkCrawlStatus", "checkCrawlErrors", "cancelCrawl", "crawlUrlAndWatch", "mapUrl",
  "batchScrapeUrls", "asyncBatchScrapeUrls", "batchScrapeUrlsAndWatch", "checkBatchScrapeStatus", "checkBatchScrapeErrors", "extract",
  "asyncExtract", "getExtractStatus", "prepareHeaders", "postRequest", "getRequest", "deleteRequest", "monitorJobStatus", "handleError",
  "deepResearch", "asyncDeepResearch", "checkDeepResearchStatus", "__deepResearch", "__asyncDeepResearch", "__checkDeepResearchStatus",
  "generateLLMsText", "asyncGenerateLLMsText", "checkGenerateLLMsTextStatus", "getQueueStatus", "getCreditUsage", "getTokenUsage",
  "getCreditUsageHistorical", "getTokenUsageHistorical",
];

/** The v1 call sites that are not supported (everything else works unchanged). */
/** The official v1 class's axios plumbing: each fails before sending with a ValidationError naming what to call. */
const V1_UNSUPPORTED = new Set(["prepareHeaders", "postRequest", "getRequest", "deleteRequest", "monitorJobStatus", "handleError"]);

const { open } = jobTestSetups();
const tally = { works: 0, hint: 0, unsupported: 0, answered: 0 };
const tallyV1 = { works: 0, hint: 0 };

function migrationSection(): string {
  const text = readFileSync(new URL("../MIGRATION.md", import.meta.url), "utf8");
  const start = text.indexOf("## From @mendable/firecrawl-js 4.x (v2)");
  expect(start).toBeGreaterThanOrEqual(0);
  const end = text.indexOf("\n## ", start + 5);
  return text.slice(start, end < 0 ? undefined : end);
}

describe("official-style v2 call sites", () => {
  it("cover every public method of the official v2 class, each with an expected outcome", () => {
    for (const name of OFFICIAL_V2_METHODS) expect(v2Calls, name).toHaveProperty(name);
    expect(Object.keys(V2_EXPECTED).sort()).toEqual(Object.keys(v2Calls).sort());
  });

  it("lists every unsupported one in MIGRATION.md", () => {
    const section = migrationSection();
    for (const [name, outcome] of Object.entries(V2_EXPECTED)) {
      if ("unsupported" in outcome || ("hint" in outcome && outcome.hint.source.includes("not supported"))) expect(section, name).toContain(`\`${name}\``);
    }
  });

  afterAll(() => {
    // The closing note's figures (per transport): printed for the report.
    console.info(`official v2 call sites: ${tally.works / 2} work unchanged, ${tally.hint / 2} fail loudly with a hint, ${tally.unsupported / 2} not supported, ${tally.answered / 2} sent as the official client sends them and answered by the server`);
  });

  describe.each(TRANSPORTS)("over %s", (kind) => {
    it("the constructors: options object, and apiKey null (the environment's key, or none for a self-hosted URL)", async () => {
      const s = await open(kind);
      expect(constructors.options(s.fake.apiKey, s.url).apiUrl).toBe(s.url);
      expect(constructors.nullKey(s.url).apiUrl).toBe(s.url);
      // new Firecrawl("fc-...") is the key, sent as the bearer token (the URL from the environment; loopback only).
      if (s.served) {
        vi.stubEnv("WEBDATA_API_URL", s.url);
        try {
          const byString = constructors.keyString(s.fake.apiKey);
          expect(JSON.stringify(byString)).not.toContain(s.fake.apiKey);
          await byString.getCreditUsage();
          expect(s.fake.keyOf(s.fake.requests.at(-1)!)).toBe(s.fake.apiKey);
        } finally {
          vi.unstubAllEnvs();
        }
      }
    });

    for (const [name, call] of Object.entries(v2Calls)) {
      const outcome = V2_EXPECTED[name]!;
      const label = "works" in outcome ? "works unchanged" : "hint" in outcome ? "fails before sending, naming the webdata option" : "answered" in outcome ? "sends the official request; the server's answer decides" : "is not supported (TypeError)";
      it(`${name} ${label}`, async () => {
        // Fake timers drive the clock here: the fake serves no WebSocket, whose real handshake would race the virtual clock
        // (the Node client watches over undici's socket on Node 20); the watcher reads by REST, as through a proxy without upgrades.
        const s = await open(kind, {}, { timeoutMs: 1e9 }, { webSocket: false });
        fakeJobs(s.fake).configure({ pagesPerPoll: 3 });
        const app = firecrawl(s, kind);
        const result = await drive(call(app).then((value) => ({ value }), (error: unknown) => ({ error })));
        if ("works" in outcome) {
          if ("error" in result) throw result.error;
          tally.works += 1;
        } else if ("hint" in outcome) {
          expect("error" in result && result.error).toBeInstanceOf(ValidationError);
          expect(((result as { error: Error }).error).message).toMatch(outcome.hint);
          expect(s.fake.requests.map((r) => `${r.method} ${r.path}`).filter((r) => outcome.unsent.test(r))).toEqual([]);
          tally.hint += 1;
        } else if ("answered" in outcome) {
          expect("error" in result && result.error).toBeInstanceOf(APIError);
          expect((result as { error: APIError }).error.status).toBe(outcome.answered);
          expect(s.fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([expect.stringMatching(outcome.sent)]);
          tally.answered += 1;
        } else {
          expect("error" in result && result.error).toBeInstanceOf(TypeError);
          tally.unsupported += 1;
        }
      });
    }
  });
});

describe("official-style v1 call sites", () => {
  it("cover every public method of the official v1 class; the unsupported ones are in MIGRATION.md", () => {
    expect(Object.keys(v1Calls).sort()).toEqual([...OFFICIAL_V1_METHODS].sort());
    const section = migrationSection();
    for (const name of V1_UNSUPPORTED) expect(section, name).toContain(`\`${name}\``);
  });

  afterAll(() => {
    console.info(`official v1 call sites: ${tallyV1.works / 2} work unchanged, ${tallyV1.hint / 2} fail before sending, naming what to call`);
  });

  describe.each(TRANSPORTS)("over %s", (kind) => {
    for (const [name, call] of Object.entries(v1Calls)) {
      const supported = !V1_UNSUPPORTED.has(name);
      it(`${name} ${supported ? "works unchanged" : "fails before sending, naming what to call"}`, async () => {
        const s = await open(kind, {}, { timeoutMs: 1e9, silenceDeprecationWarnings: true }, { webSocket: false });
        fakeJobs(s.fake).configure({ pagesPerPoll: 3 });
        const app = firecrawlV1(s, kind);
        const result = await drive(call(app).then((value) => ({ value }), (error: unknown) => ({ error })));
        if (supported) {
          if ("error" in result) throw result.error;
          tallyV1.works += 1;
        } else {
          expect("error" in result && result.error).toBeInstanceOf(ValidationError);
          expect(((result as { error: Error }).error).message).toMatch(/not supported by webdata \(nothing was sent\): the official client's axios plumbing; use /);
          expect(s.fake.requests).toEqual([]);
          tallyV1.hint += 1;
        }
      });
    }
  });
});
