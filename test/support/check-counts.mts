/**
 * Counts how often the option checks run during one public call, by V8 precise coverage (call
 * counts) of the sources against the in-process fake (run by test/options-once.test.ts in a child
 * process, as /work/scr/cover.mts measures it): `checkRequestOptions`, `checkWaitOptions`,
 * `checkDocumentsOptions`, `checkPageOptions`, `optionsArg` and zod's `check` (core/validate.ts).
 * Prints `{ [call]: { [file:function]: count } }` as JSON. Every call is given request options
 * (and wait options where it takes them), so no check is skipped because there was nothing to check.
 */
import { Session } from "node:inspector/promises";

/** The sources measured (`CHECK_COUNTS_SRC`: another copy, e.g. an older commit's, to compare). */
const SRC = process.env.CHECK_COUNTS_SRC ? new URL(process.env.CHECK_COUNTS_SRC, "file:///").href : new URL("../../src/", import.meta.url).href;
const COUNTED = new Set(["core/options.ts:checkRequestOptions", "core/options.ts:checkWaitOptions", "core/options.ts:optionsArg", "core/validate.ts:check", "jobs/pages.ts:checkDocumentsOptions", "jobs/status.ts:checkPageOptions"]);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
const { WebData } = (await import(`${SRC}index.ts`)) as typeof import("../../src/index.js");
const { createFakeService } = (await import(`${SRC}testing/index.ts`)) as typeof import("../../src/testing/index.js");
const fake = createFakeService();
const { v1 } = (await import(`${SRC}v1/index.ts`)) as typeof import("../../src/v1/index.js");
const client = new WebData({ plugins: [v1], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, silenceDeprecationWarnings: true });
const req = () => ({ timeoutMs: 30_000, maxRetries: 1, headers: { "x-test": "1" } });
const wait = { pollIntervalMs: 1, timeoutMs: 60_000 };
const url = "https://acme.test/";

/** Each public call, after its preparation (a job to read or watch, started outside the count). */
const calls: Record<string, [prepare: () => Promise<string>, run: (id: string) => Promise<unknown>]> = {
  scrape: [none, () => client.scrape(url, { formats: ["markdown"] }, req())],
  startCrawl: [none, () => client.startCrawl(url, { limit: 3 }, req())],
  crawl: [none, () => client.crawl(url, { limit: 3, ...wait }, req())],
  getCrawlStatus: [crawled, (id) => client.getCrawlStatus(id, { limit: 2 }, req())],
  crawlDocuments: [
    crawled,
    async (id) => {
      for await (const _ of client.crawlDocuments(id, { pollIntervalMs: 1, pageLimit: 1 }, req())) void _;
    },
  ],
  startBatchScrape: [none, () => client.startBatchScrape([url], {}, req())],
  batchScrape: [none, () => client.batchScrape([url, `${url}about`], { ...wait }, req())],
  extract: [none, () => client.extract({ urls: [url], prompt: "the title", ...wait }, req())],
  agent: [none, () => client.agent("find the title", { ...wait }, req())],
  watcher: [
    crawled,
    async (id) => {
      for await (const ev of client.watcher(id, { pollIntervalMs: 1 }, req())) if (ev.type === "done") break;
    },
  ],
  "v1.crawlUrl": [none, () => client.v1.crawlUrl(url, { limit: 3 }, 0.001, undefined, req())],
  "v1.checkCrawlStatus": [crawled, (id) => client.v1.checkCrawlStatus(id, true, undefined, undefined, undefined, req())],
};

async function none(): Promise<string> {
  return "";
}

/** A finished crawl of three pages. */
async function crawled(): Promise<string> {
  const { id } = await client.crawl(url, { limit: 3, pollIntervalMs: 1 });
  return id;
}

// Warm once so first-use loading is not counted.
await client.scrape(url);
const out: Record<string, Record<string, number>> = {};
for (const [name, [prepare, call]] of Object.entries(calls)) {
  const id = await prepare();
  await session.post("Profiler.takePreciseCoverage");
  await call(id);
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const counts: Record<string, number> = {};
  for (const script of result) {
    if (!script.url.startsWith(SRC)) continue;
    const file = script.url.slice(SRC.length).replace(/\?.*$/, "");
    for (const fn of script.functions) {
      const key = `${file}:${fn.functionName}`;
      const c = fn.ranges[0]?.count ?? 0;
      if (c > 0 && COUNTED.has(key)) counts[key] = (counts[key] ?? 0) + c;
    }
  }
  out[name] = counts;
}
console.log(JSON.stringify(out));
process.exit(0);
