/**
 * Which client method answers each recorded HTTP exchange (test/fixtures/recorded/),
 * for the contract test in `recorded.test.ts`: the recording's request is matched to
 * the method a user would call for it, with the recorded arguments where the SDK
 * accepts them, else with valid stand-ins (the SDK refuses some recorded bodies
 * before sending; the server's answer is still what the method must parse).
 */
import type { WebData } from "../../src/index.js";
import { expect } from "vitest";

/** A recorded exchange as `helpers.recorded()` loads it. */
export interface Exchange {
  request: { method: string; path: string; body: unknown };
  response: { status: number; headers: Record<string, string>; body: unknown };
}

type Rec = Record<string, unknown>;

/** How a recording is replayed through the client. */
export interface RecordedCall {
  /** What the call is, for the test name. */
  name: string;
  /** Calls the method; `standIn` asks for valid stand-in arguments instead of the recorded ones. */
  call(c: WebData, standIn: boolean): Promise<unknown>;
  /** A 2xx `success:false` body is a result here (status reads of failed jobs), not an error. */
  unsuccessfulIsResult?: boolean;
  /** Checks the result against the recorded body. */
  check?(value: unknown, body: Rec): void;
}

const SITE = "http://127.0.0.1:8080/";

function split(ex: Exchange): { pathname: string; query: URLSearchParams; body: Rec } {
  const [pathname = "", q = ""] = ex.request.path.split("?");
  const body = ex.request.body !== null && typeof ex.request.body === "object" ? (ex.request.body as Rec) : {};
  return { pathname, query: new URLSearchParams(q), body };
}

const num = (v: string | null): number | undefined => (v === null ? undefined : Number(v));
const without = (b: Rec, ...keys: string[]): Rec => Object.fromEntries(Object.entries(b).filter(([k]) => !keys.includes(k)));

const statusCheck = (value: unknown, body: Rec) => {
  const v = value as Rec;
  expect(v.status).toBe(body.status);
  expect(v.data).toEqual(Array.isArray(body.data) ? body.data : []);
};

/** The client method for a recorded exchange (the raw request layer only where the SDK has no method for the route). */
export function recordedCall(ex: Exchange): RecordedCall {
  const { pathname, query, body } = split(ex);
  const m = ex.request.method;
  const id = /\/([0-9a-f-]{36}|not-a-uuid)(?:\/|$)/.exec(pathname)?.[1] ?? "";
  const v1 = pathname.startsWith("/v1/");
  const page = { skip: num(query.get("skip")), limit: num(query.get("limit")) };
  const route = `${m} ${pathname.replace(/^\/v[12]/, "").replace(/\/[0-9a-f-]{36}|\/not-a-uuid/, "/:id")}`;
  const raw: RecordedCall = {
    name: "http.request (no method for this route)",
    call: (c) => c.http.request({ op: "recorded", method: m as "GET", path: ex.request.path, body: ex.request.body ?? undefined }),
  };
  switch (route) {
    case "POST /scrape":
      return v1
        ? { name: "v1.scrapeUrl", call: (c, s) => c.v1.scrapeUrl(s ? SITE : String(body.url), s ? {} : (without(body, "url") as never)), check: (v, b) => expect(v).toEqual({ success: true, ...(b.data as Rec) }) }
        : { name: "scrape", call: (c, s) => c.scrape(s ? SITE : String(body.url), s ? {} : (without(body, "url") as never)), check: (v, b) => expect(v).toEqual(b.data) };
    case "POST /map":
      return v1
        ? { name: "v1.mapUrl", call: (c, s) => c.v1.mapUrl(s ? SITE : String(body.url), s ? {} : (without(body, "url") as never)), check: (v, b) => expect((v as Rec).links).toEqual(b.links) }
        : { name: "map", call: (c, s) => c.map(s ? SITE : String(body.url), s ? {} : (without(body, "url") as never)), check: (v, b) => expect((v as Rec).links).toEqual(b.links) };
    case "POST /search":
      return v1
        ? { name: "v1.search", call: (c, s) => c.v1.search(s ? "firecrawl" : String(body.query), s ? {} : (without(body, "query") as never)), check: (v, b) => expect((v as Rec).data).toEqual(b.data) }
        : { name: "search", call: (c, s) => c.search(s ? "firecrawl" : String(body.query), s ? {} : (without(body, "query") as never)), check: (v, b) => expect((v as Rec).id).toBe(b.id) };
    case "POST /crawl":
      return v1
        ? { name: "v1.asyncCrawlUrl", call: (c, s) => c.v1.asyncCrawlUrl(s ? SITE : String(body.url), s ? {} : (without(body, "url") as never)), check: (v, b) => expect((v as Rec).id).toBe(b.id) }
        : { name: "startCrawl", call: (c, s) => c.startCrawl(s ? SITE : String(body.url), s ? {} : (without(body, "url") as never)), check: (v, b) => expect(v).toMatchObject({ id: b.id, url: b.url }) };
    case "POST /crawl/params-preview":
      return { name: "crawlParamsPreview", call: (c) => c.crawlParamsPreview(String(body.url), String(body.prompt)), check: (v, b) => expect(v).toEqual(b.data) };
    case "GET /crawl/active":
    case "GET /crawl/ongoing":
      return v1 ? raw : { name: "getActiveCrawls", call: (c) => c.getActiveCrawls(), check: (v, b) => expect((v as Rec).crawls).toEqual(b.crawls) };
    case "GET /crawl/:id":
      return v1
        ? { name: "v1.checkCrawlStatus", unsuccessfulIsResult: true, call: (c) => c.v1.checkCrawlStatus(id, false, undefined, page.skip, page.limit), check: statusCheck }
        : { name: "getCrawlStatus", unsuccessfulIsResult: true, call: (c) => c.getCrawlStatus(id, page), check: statusCheck };
    case "GET /crawl/:id/errors":
      return { name: v1 ? "v1.checkCrawlErrors" : "getCrawlErrors", call: (c) => (v1 ? c.v1.checkCrawlErrors(id) : c.getCrawlErrors(id)), check: (v, b) => expect((v as Rec).errors).toEqual(b.errors) };
    case "DELETE /crawl/:id":
      return v1 ? { name: "v1.cancelCrawl", call: (c) => c.v1.cancelCrawl(id), check: (v) => expect(v).toEqual({ success: true, status: "cancelled" }) } : { name: "cancelCrawl", call: (c) => c.cancelCrawl(id), check: (v) => expect(v).toBe(true) };
    case "POST /batch/scrape": {
      const urls = (s: boolean) => (s ? [SITE] : (body.urls as string[]));
      return v1
        ? { name: "v1.asyncBatchScrapeUrls", call: (c, s) => c.v1.asyncBatchScrapeUrls(urls(s), s ? {} : (without(body, "urls", "ignoreInvalidURLs") as never), undefined, undefined, s ? undefined : (body.ignoreInvalidURLs as boolean | undefined)), check: (v, b) => expect((v as Rec).id).toBe(b.id) }
        : { name: "startBatchScrape", call: (c, s) => c.startBatchScrape(urls(s), s ? {} : (without(body, "urls") as never)), check: (v, b) => expect((v as Rec).id).toBe(b.id) };
    }
    case "GET /batch/scrape/:id":
      return v1
        ? { name: "v1.checkBatchScrapeStatus", unsuccessfulIsResult: true, call: (c) => c.v1.checkBatchScrapeStatus(id, false, undefined, page.skip, page.limit), check: statusCheck }
        : { name: "getBatchScrapeStatus", unsuccessfulIsResult: true, call: (c) => c.getBatchScrapeStatus(id, page), check: statusCheck };
    case "GET /batch/scrape/:id/errors":
      return { name: v1 ? "v1.checkBatchScrapeErrors" : "getBatchScrapeErrors", call: (c) => (v1 ? c.v1.checkBatchScrapeErrors(id) : c.getBatchScrapeErrors(id)), check: (v, b) => expect((v as Rec).errors).toEqual(b.errors) };
    case "DELETE /batch/scrape/:id":
      return { name: "cancelBatchScrape", call: (c) => c.cancelBatchScrape(id), check: (v) => expect(v).toBe(true) };
    case "POST /extract":
      return v1
        ? { name: "v1.asyncExtract", call: (c, s) => c.v1.asyncExtract(s ? [SITE] : (body.urls as string[]), s ? { prompt: "x" } : (without(body, "urls") as never)), check: (v, b) => expect((v as Rec).id).toBe(b.id) }
        : { name: "startExtract", call: (c, s) => c.startExtract(s ? { urls: [SITE], prompt: "x" } : (body as never)), check: (v, b) => expect((v as Rec).id).toBe(b.id) };
    case "GET /extract/:id":
      return v1
        ? { name: "v1.getExtractStatus", unsuccessfulIsResult: true, call: (c) => c.v1.getExtractStatus(id), check: (v, b) => expect((v as Rec).status).toBe(b.status) }
        : { name: "getExtractStatus", unsuccessfulIsResult: true, call: (c) => c.getExtractStatus(id), check: (v, b) => expect(v).toMatchObject({ id, status: b.status, error: b.error }) };
    case "POST /agent":
      return { name: "startAgent", call: (c, s) => c.startAgent(s ? "x" : String(body.prompt), s ? {} : (without(body, "prompt") as never)), check: (v, b) => expect((v as Rec).id).toBe(b.id) };
    case "POST /agent-signup":
      return { name: "agentSignup", call: (c, s) => c.agentSignup(s ? { email: "dev@example.com", agent_name: "fixture-recorder", accept_terms: true } : (body as never)), check: (v, b) => expect((v as Rec).api_key).toBe(b.api_key) };
    case "GET /team/token-usage":
      return v1
        ? { name: "v1.getTokenUsage", call: (c) => c.v1.getTokenUsage(), check: (v, b) => expect(v).toEqual(b.data) }
        : { name: "getTokenUsage", call: (c) => c.getTokenUsage(), check: (v, b) => expect((v as Rec).remainingTokens).toBe((b.data as Rec).remainingTokens) };
    case "GET /team/credit-usage":
      return v1
        ? { name: "v1.getCreditUsage", call: (c) => c.v1.getCreditUsage(), check: (v, b) => expect(v).toEqual(b.data) }
        : { name: "getCreditUsage", call: (c) => c.getCreditUsage(), check: (v, b) => expect((v as Rec).remainingCredits).toBe((b.data as Rec).remainingCredits) };
    case "GET /team/credit-usage/historical":
      return v1 ? raw : { name: "getCreditUsageHistorical", call: (c) => c.getCreditUsageHistorical({ byApiKey: query.get("byApiKey") === "true" }) };
    case "GET /team/token-usage/historical":
      return v1 ? raw : { name: "getTokenUsageHistorical", call: (c) => c.getTokenUsageHistorical() };
    case "GET /team/queue-status":
      return v1
        ? { name: "v1.getQueueStatus", call: (c) => c.v1.getQueueStatus(), check: (v, b) => expect(v).toEqual(b) }
        : { name: "getQueueStatus", call: (c) => c.getQueueStatus(), check: (v, b) => expect(v).toEqual(without(b, "success")) };
    case "GET /concurrency-check":
      return v1 ? raw : { name: "getConcurrency", call: (c) => c.getConcurrency() };
    default:
      return raw;
  }
}
