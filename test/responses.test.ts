/**
 * Hostile 2xx answers: an HTML page from a proxy, an empty
 * body, malformed JSON, `{"success":true}` without what the result needs, and
 * wrong shapes are an `InvalidResponseError` (status, content-type, request id,
 * endpoint, redacted excerpt, zod's issues), never `undefined` or a half-built
 * result, over both transports, for sync calls, job starts, status pages,
 * `next` pages and v1 methods. Error statuses keep their mapping.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { APIError, InternalServerError, InvalidResponseError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const HTML = '<!DOCTYPE html><html><head><title>Sign in to the network</title></head><body><form action="/login">Wi-Fi login</form></body></html>';
const html = { status: 200, body: HTML, headers: { "content-type": "text/html; charset=utf-8" } };
const json = (body: unknown) => ({ status: 200, body });
const ID = "0190a2b3-c4d5-7e6f-8a9b-0c1d2e3f4a5b";

/** The rejection of `p`, which must be an `InvalidResponseError`. */
async function invalid(p: Promise<unknown>): Promise<InvalidResponseError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`resolved instead of failing: ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(InvalidResponseError);
  return outcome.error as InvalidResponseError;
}

/** Each method with the route it calls. */
const METHODS: [name: string, route: string | RegExp, call: (s: Setup) => Promise<unknown>][] = [
  ["scrape", "/v2/scrape", (s) => s.client.scrape("https://example.com")],
  ["map", "/v2/map", (s) => s.client.map("https://example.com")],
  ["search", "/v2/search", (s) => s.client.search("firecrawl")],
  ["startCrawl", "/v2/crawl", (s) => s.client.startCrawl("https://example.com")],
  ["getCrawlStatus", `/v2/crawl/${ID}`, (s) => s.client.getCrawlStatus(ID)],
  ["getBatchScrapeStatus", `/v2/batch/scrape/${ID}`, (s) => s.client.getBatchScrapeStatus(ID)],
  ["startExtract", "/v2/extract", (s) => s.client.startExtract({ urls: ["https://example.com"], prompt: "x" })],
  ["getCreditUsage", "/v2/team/credit-usage", (s) => s.client.getCreditUsage()],
  ["v1.scrapeUrl", "/v1/scrape", (s) => s.client.v1.scrapeUrl("https://example.com")],
  ["v1.mapUrl", "/v1/map", (s) => s.client.v1.mapUrl("https://example.com")],
  ["v1.checkCrawlStatus", `/v1/crawl/${ID}`, (s) => s.client.v1.checkCrawlStatus(ID)],
];

/** The three answers every method must refuse, with the code each gets. */
const HOSTILE: [name: string, answer: { status: number; body: unknown; headers?: Record<string, string> }, code: string][] = [
  ["200 text/html", html, "NOT_JSON"],
  ["200 with an empty body", { status: 200, body: "", headers: { "content-type": "application/json" } }, "EMPTY_RESPONSE"],
  ['200 {"success":true}', json({ success: true }), "INVALID_RESPONSE_SHAPE"],
];

for (const kind of TRANSPORTS) {
  describe(`answers the SDK cannot read, over ${kind}`, () => {
    let s: Setup;
    afterEach(() => s?.close());

    for (const [method, route, call] of METHODS) {
      for (const [what, answer, code] of HOSTILE) {
        it(`${method} answered ${what}: InvalidResponseError ${code}`, async () => {
          s = await setup(kind);
          s.fake.inject({ match: typeof route === "string" ? new RegExp(`^[A-Z]+ ${route}$`) : route, ...answer });
          const err = await invalid(call(s));
          expect(err.code).toBe(code);
          expect(err.status).toBe(200);
        });
      }
    }

    it("scrape answered 200 text/html (a captive portal): InvalidResponseError with status, content-type, request id, endpoint and excerpt; not retried", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/scrape", ...html, headers: { ...html.headers, "x-request-id": "req-html" } });
      const err = await invalid(s.client.scrape("https://example.com", {}, { maxRetries: 2 }));
      // The request id is the one sent (every request carries one); the server's own is kept beside it.
      expect(err).toMatchObject({ code: "NOT_JSON", status: 200, requestId: s.fake.requests[0]!.headers["x-request-id"], serverRequestId: "req-html", endpoint: "POST /v2/scrape", issues: [] });
      expect(err.requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(err.contentType).toBe("text/html; charset=utf-8");
      expect(err.bodyExcerpt).toBe(HTML);
      expect(err.headers?.get("x-request-id")).toBe("req-html");
      expect(err.message).toContain("not JSON (text/html");
      expect(err).not.toBeInstanceOf(APIError);
      expect(s.fake.requests).toHaveLength(1);
    });

    it("scrape answered 200 with an empty body: EMPTY_RESPONSE", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/scrape", status: 200, body: "", headers: { "content-type": "application/json" } });
      const err = await invalid(s.client.scrape("https://example.com"));
      expect(err).toMatchObject({ code: "EMPTY_RESPONSE", status: 200, bodyExcerpt: "" });
    });

    it("scrape answered 200 with malformed JSON: INVALID_RESPONSE_JSON, keeping the text", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/scrape", badJson: true });
      const err = await invalid(s.client.scrape("https://example.com"));
      expect(err).toMatchObject({ code: "INVALID_RESPONSE_JSON", status: 200, bodyExcerpt: '{"success": tru', contentType: "application/json" });
    });

    it('scrape answered 200 {"success":true} without data: INVALID_RESPONSE_SHAPE naming data', async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/scrape", ...json({ success: true }) });
      const err = await invalid(s.client.scrape("https://example.com"));
      expect(err.code).toBe("INVALID_RESPONSE_SHAPE");
      expect(err.issues).toEqual([{ code: "custom", path: ["data"], message: "expected an object, got nothing" }]);
      expect(err.message).toContain("data: expected an object, got nothing");
    });

    it("map whose links is not an array: names links", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/map", ...json({ success: true, links: "https://example.com/" }) });
      const err = await invalid(s.client.map("https://example.com"));
      expect(err.issues).toEqual([{ code: "invalid_type", path: ["links"], message: "expected an array, got string" }]);
    });

    it('search answered {"success":true}: no result without data and id', async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/search", ...json({ success: true }) });
      const err = await invalid(s.client.search("firecrawl"));
      expect(err.issues.map((i) => i.path.join("."))).toEqual(["data", "id"]);
    });

    it("search with a web group that is not a list: names data.web", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/search", ...json({ success: true, id: ID, data: { web: { url: "https://a.test" } } }) });
      const err = await invalid(s.client.search("firecrawl"));
      expect(err.issues).toEqual([{ code: "invalid_type", path: ["data", "web"], message: "expected an array, got an object" }]);
    });

    it("startCrawl whose answer has no id: not a job without an id", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/crawl", ...json({ success: true, url: `${s.url}/v2/crawl/` }) });
      const err = await invalid(s.client.startCrawl("https://example.com"));
      expect(err).toMatchObject({ code: "INVALID_RESPONSE_SHAPE", endpoint: "POST /v2/crawl" });
      expect(err.issues.map((i) => i.path)).toEqual([["id"]]);
    });

    it("startBatchScrape answered with HTML", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/batch/scrape", ...html });
      expect((await invalid(s.client.startBatchScrape(["https://example.com"]))).code).toBe("NOT_JSON");
    });

    it("getCrawlStatus without status: not read as a running job", async () => {
      s = await setup(kind);
      s.fake.inject({ match: `/v2/crawl/${ID}`, ...json({ success: true, completed: 1, total: 1, data: [] }) });
      const err = await invalid(s.client.getCrawlStatus(ID));
      expect(err.issues).toEqual([{ code: "custom", path: ["status"], message: "expected a string (or success: false), got nothing" }]);
    });

    it("getCrawlStatus whose next is not a URL string: pagination would end early, so it is refused", async () => {
      s = await setup(kind);
      s.fake.inject({ match: `/v2/crawl/${ID}`, ...json({ success: true, status: "scraping", data: [], next: 2 }) });
      expect((await invalid(s.client.getCrawlStatus(ID))).issues.map((i) => i.path)).toEqual([["next"]]);
    });

    it("a 2xx status read that says success:false is still a failed job, not an error (allowUnsuccessful)", async () => {
      s = await setup(kind);
      s.fake.inject({ match: `/v2/crawl/${ID}`, ...json({ success: false, error: "Crawl kickoff failed" }) });
      expect(await s.client.getCrawlStatus(ID)).toMatchObject({ id: ID, status: "failed", error: "Crawl kickoff failed", data: [] });
    });

    it("a next page answered with HTML stops crawlDocuments with InvalidResponseError after the first page's documents", async () => {
      s = await setup(kind);
      const doc = { markdown: "# one", metadata: { statusCode: 200, sourceURL: "https://example.com/" } };
      s.fake.inject({ match: new RegExp(`^GET /v2/crawl/${ID}$`), ...json({ success: true, status: "completed", completed: 2, total: 2, data: [doc], next: `${s.url}/v2/crawl/${ID}?skip=1` }) });
      s.fake.inject({ match: /skip=1/, ...html });
      const seen: unknown[] = [];
      const err = await invalid(
        (async () => {
          for await (const d of s.client.crawlDocuments(ID)) seen.push(d);
        })(),
      );
      expect(seen).toEqual([doc]);
      expect(err.endpoint).toBe(`GET /v2/crawl/${ID}`);
    });

    it("getExtractStatus without status: the waiter could never decide, so it is refused", async () => {
      s = await setup(kind);
      s.fake.inject({ match: `/v2/extract/${ID}`, ...json({ success: true, data: [] }) });
      expect((await invalid(s.client.getExtractStatus(ID))).issues.map((i) => i.path)).toEqual([["status"]]);
    });

    it("usage answered {success:true} without data", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team/credit-usage", ...json({ success: true }) });
      expect((await invalid(s.client.getCreditUsage())).issues.map((i) => i.path)).toEqual([["data"]]);
    });

    it("usage records without their counters (getTokenUsage, getQueueStatus, getConcurrency, v1.getQueueStatus) are refused, not returned empty", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/team/token-usage", ...json({ success: true, data: { remainingTokens: "lots" } }) });
      expect((await invalid(s.client.getTokenUsage())).issues).toEqual([
        { code: "custom", path: ["data", "remainingTokens"], message: "expected a number, got string" },
        { code: "custom", path: ["data", "planTokens"], message: "expected a number, got nothing" },
      ]);
      s.fake.inject({ match: "/v2/team/queue-status", ...json({ success: true }) });
      expect((await invalid(s.client.getQueueStatus())).issues.map((i) => i.path.join("."))).toEqual(["jobsInQueue", "activeJobsInQueue", "waitingJobsInQueue", "maxConcurrency"]);
      s.fake.inject({ match: "/v2/concurrency-check", ...json({ success: true, data: { concurrency: 1 } }) });
      expect((await invalid(s.client.getConcurrency())).issues.map((i) => i.path.join("."))).toEqual(["data.maxConcurrency"]);
      s.fake.inject({ match: "/v1/team/queue-status", ...json({ success: true }) });
      expect((await invalid(s.client.v1.getQueueStatus())).code).toBe("INVALID_RESPONSE_SHAPE");
      // snake_case records of older servers still read.
      s.fake.inject({ match: "/v2/team/token-usage", ...json({ success: true, data: { remaining_tokens: 5, plan_tokens: 10 } }) });
      expect(await s.client.getTokenUsage()).toMatchObject({ remainingTokens: 5, planTokens: 10 });
    });

    it("agentSignup without the provisioned key, browser without a cdpUrl, browserExecute without an exit code, crawlParamsPreview without data", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/agent-signup", ...json({ success: true, sponsor_status: "pending" }) });
      expect((await invalid(s.client.agentSignup({ email: "dev@example.com", agent_name: "bot", accept_terms: true }))).issues.map((i) => i.path)).toEqual([["api_key"]]);
      s.fake.inject({ match: "/v2/browser", ...json({ success: true, id: ID }) });
      expect((await invalid(s.client.browser())).issues.map((i) => i.path)).toEqual([["cdpUrl"]]);
      s.fake.inject({ match: `/v2/browser/${ID}/execute`, ...json({ success: true, stdout: "" }) });
      expect((await invalid(s.client.browserExecute(ID, { code: "1" }))).issues.map((i) => i.path)).toEqual([["exitCode"]]);
      s.fake.inject({ match: "/v2/crawl/params-preview", ...html });
      expect((await invalid(s.client.crawlParamsPreview("https://example.com", "blog only"))).code).toBe("NOT_JSON");
    });

    it("v1 scrapeUrl, mapUrl and checkCrawlStatus refuse answers without what their result needs", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v1/scrape", ...json({ success: true }) });
      expect((await invalid(s.client.v1.scrapeUrl("https://example.com"))).issues.map((i) => i.path)).toEqual([["data"]]);
      s.fake.inject({ match: "/v1/map", ...json({ success: true, links: { url: "https://example.com" } }) });
      expect((await invalid(s.client.v1.mapUrl("https://example.com"))).issues.map((i) => i.path)).toEqual([["links"]]);
      s.fake.inject({ match: `/v1/crawl/${ID}`, ...json({ success: true, data: [] }) });
      expect((await invalid(s.client.v1.checkCrawlStatus(ID))).endpoint).toBe(`GET /v1/crawl/${ID}`);
      s.fake.inject({ match: "/v1/crawl", ...html });
      expect((await invalid(s.client.v1.asyncCrawlUrl("https://example.com"))).code).toBe("NOT_JSON");
    });

    it("the excerpt is cut at 500 characters and never holds the API key (message, toJSON, inspect)", async () => {
      s = await setup(kind);
      const page = `<html><body>Your key ${s.fake.apiKey} was seen. ${"x".repeat(800)}</body></html>`;
      s.fake.inject({ match: "/v2/scrape", ...html, body: page });
      const err = await invalid(s.client.scrape("https://example.com"));
      expect(err.bodyExcerpt).toHaveLength(503);
      expect(err.bodyExcerpt).toContain("[redacted]");
      for (const text of [err.message, err.bodyExcerpt, JSON.stringify(err), inspect(err)]) expect(text).not.toContain(s.fake.apiKey);
    });

    it("error statuses are not parsed strictly: an HTML 502 page is still InternalServerError with its status", async () => {
      s = await setup(kind);
      s.fake.inject({ match: "/v2/scrape", status: 502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>", headers: { "content-type": "text/html" } });
      const err = (await s.client.scrape("https://example.com", {}, { maxRetries: 0 }).catch((e: unknown) => e)) as InternalServerError;
      expect(err).toBeInstanceOf(InternalServerError);
      expect(err.status).toBe(502);
      expect(err.serverMessage).toBe("Bad Gateway");
    });
  });
}
