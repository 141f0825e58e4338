/**
 * One test per legacy v1 method (non-job ones here; crawl and batch scrape in
 * v1-jobs.test.ts): the exact v1 endpoint, method and body sent (read from the
 * fake's request log and checked against the v1 OpenAPI request schema) and
 * the v1 result shape. Bad input is a ValidationError before anything is sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ValidationError, NotFoundError, JobFailedError, BadRequestError } from "../src/index.js";
import { FIXTURE_ORIGIN, v1FakeState } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, tick, useJobTimers } from "./jobs-helpers.js";
import { v1BodyProblems } from "./support/openapi.js";

const HOME = `${FIXTURE_ORIGIN}/`;
const PRODUCTS = `${FIXTURE_ORIGIN}/products`;
const schema = { type: "object", properties: { title: { type: "string" } }, required: ["title"] };

describe.each(TRANSPORTS)("v1 methods over %s", (kind) => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup(kind);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await s.close();
  });

  /** The one request the call sent (asserting there was exactly one to that path). */
  function sent(method: string, pathname: string) {
    const hits = s.fake.requests.filter((r) => r.method === method && r.pathname === pathname);
    expect(hits).toHaveLength(1);
    return hits[0]!;
  }

  it("scrapeUrl: POST /v1/scrape with v1 formats and jsonOptions, returns { success: true, ...document }", async () => {
    const res = await s.client.v1.scrapeUrl(HOME, { formats: ["markdown", "json", "screenshot@fullPage"], jsonOptions: { prompt: "title", schema }, parsePDF: false });
    const req = sent("POST", "/v1/scrape");
    expect(req.body).toEqual({ url: HOME, formats: ["markdown", "json", "screenshot@fullPage"], jsonOptions: { prompt: "title", schema }, parsePDF: false });
    expect(v1BodyProblems("POST", "/v1/scrape", req.body)).toEqual([]);
    if (!res.success) throw new Error(res.error);
    expect(res.success).toBe(true);
    expect(res.markdown).toContain("Acme makes");
    expect(res.json).toEqual({ title: "Acme Test Site" });
    expect(res.screenshot).toMatch(/^data:image\/png/);
    expect(res.metadata?.sourceURL).toBe(HOME);
    expect(res).not.toHaveProperty("data");
  });

  it("scrapeUrl: the v1 extract format fills `extract` (reference §15.2; the 2026 OpenAPI no longer lists it)", async () => {
    const res = await s.client.v1.scrapeUrl(HOME, { formats: ["extract"], extract: { schema } });
    expect(sent("POST", "/v1/scrape").body).toEqual({ url: HOME, formats: ["extract"], extract: { schema } });
    expect(res).toMatchObject({ success: true, extract: { title: "Acme Test Site" } });
    expect(res).not.toHaveProperty("json");
  });

  it("scrapeUrl: unknown options pass through; the v1 server's strict 400 comes back as BadRequestError", async () => {
    const err = await s.client.v1.scrapeUrl(HOME, { formats: ["markdown"], brandNewOption: 1 } as never).catch((e: unknown) => e);
    expect((sent("POST", "/v1/scrape").body as Record<string, unknown>).brandNewOption).toBe(1);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).message).toContain("Unrecognized key");
  });

  it("scrapeUrl: v1 rules are checked before sending", async () => {
    for (const params of [
      { formats: ["json"] },
      { formats: ["markdown"], extract: { prompt: "x" } },
      { formats: ["screenshot", "screenshot@fullPage"] },
      { formats: ["images"] },
      { timeout: 10 },
    ]) {
      await expect(s.client.v1.scrapeUrl(HOME, params as never)).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(s.client.v1.scrapeUrl("ftp://x", {})).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("scrapeUrl never mutates the caller's params", async () => {
    const params = { formats: ["json" as const], jsonOptions: { schema: { $schema: "http://json-schema.org/draft-07/schema#", ...schema } } };
    const copy = structuredClone(params);
    await s.client.v1.scrapeUrl(HOME, params);
    expect(params).toEqual(copy);
    expect((sent("POST", "/v1/scrape").body as { jsonOptions: { schema: Record<string, unknown> } }).jsonOptions.schema).not.toHaveProperty("$schema");
  });

  it("search: POST /v1/search, flat data: Document[]", async () => {
    const res = await s.client.v1.search("widgets", { limit: 3, scrapeOptions: { formats: ["markdown"] } });
    const req = sent("POST", "/v1/search");
    expect(req.body).toEqual({ query: "widgets", limit: 3, scrapeOptions: { formats: ["markdown"] } });
    expect(v1BodyProblems("POST", "/v1/search", req.body)).toEqual([]);
    expect(res.success).toBe(true);
    expect(Array.isArray(res.data)).toBe(true);
    expect(res.data.length).toBeGreaterThan(0);
    expect(res.data[0]).toMatchObject({ url: expect.any(String), title: expect.any(String), markdown: expect.any(String) });
  });

  it("search: bad input is rejected before sending", async () => {
    await expect(s.client.v1.search("", {})).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.search("x", { limit: 101 })).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("mapUrl: POST /v1/map with ignoreSitemap/sitemapOnly, links: string[]", async () => {
    const res = await s.client.v1.mapUrl(HOME, { sitemapOnly: true, ignoreSitemap: false, limit: 3 });
    const req = sent("POST", "/v1/map");
    expect(req.body).toEqual({ url: HOME, sitemapOnly: true, ignoreSitemap: false, limit: 3 });
    expect(v1BodyProblems("POST", "/v1/map", req.body)).toEqual([]);
    if (!res.success) throw new Error(res.error);
    expect(res.links.every((l) => typeof l === "string")).toBe(true);
    expect(res.links).toHaveLength(3);
  });

  it("asyncExtract + getExtractStatus: POST /v1/extract, GET /v1/extract/<id>", async () => {
    const start = await s.client.v1.asyncExtract([PRODUCTS], { prompt: "title", schema, showSources: true });
    const req = sent("POST", "/v1/extract");
    expect(req.body).toEqual({ urls: [PRODUCTS], prompt: "title", schema, showSources: true });
    expect(v1BodyProblems("POST", "/v1/extract", req.body)).toEqual([]);
    if (!start.success) throw new Error(start.error);
    expect(start).toMatchObject({ success: true, id: expect.any(String) });
    const status = await s.client.v1.getExtractStatus(start.id);
    expect(sent("GET", `/v1/extract/${start.id}`).body).toBeUndefined();
    expect(status).toMatchObject({ success: true, status: "completed", data: { title: "Acme Products" } });
  });

  it("extract: starts, polls until completed, returns { success, data, sources }", async () => {
    v1FakeState(s.fake).pollsToFinish = 0;
    const res = await s.client.v1.extract([PRODUCTS], { schema, showSources: true });
    expect(sent("POST", "/v1/extract").body).toEqual({ urls: [PRODUCTS], schema, showSources: true });
    expect(res).toEqual({ success: true, data: { title: "Acme Products" }, sources: expect.any(Object) });
  });

  it("extract: polls every second (as v1 did) while the job is processing", async () => {
    useJobTimers();
    v1FakeState(s.fake).pollsToFinish = 2;
    const p = s.client.v1.extract([PRODUCTS], { prompt: "title" });
    const polls = () => s.fake.requests.filter((r) => r.method === "GET" && r.pathname.startsWith("/v1/extract/")).length;
    for (let i = 0; i < 30 && polls() < 1; i++) await tick();
    expect(polls()).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    for (let i = 0; i < 5; i++) await tick();
    expect(polls()).toBe(1);
    const res = await drive(p, 1000);
    expect(polls()).toBe(3);
    expect(res).toMatchObject({ success: true, data: { title: "Acme Products", description: expect.any(String) } });
  });

  it("deepResearch: while processing, activities already reported are not reported again", async () => {
    useJobTimers();
    v1FakeState(s.fake).pollsToFinish = 1;
    const activities: string[] = [];
    const res = await drive(s.client.v1.deepResearch("widgets", { maxDepth: 1 }, (a) => activities.push(a.message)), 2000);
    expect(s.fake.requests.filter((r) => r.pathname.startsWith("/v1/deep-research/"))).toHaveLength(2);
    expect(activities).toEqual(["Searched for widgets", "Analyzed sources"]);
    expect(res).toMatchObject({ success: true, status: "completed" });
  });

  it("extract: a failed job throws JobFailedError with the server's text", async () => {
    v1FakeState(s.fake).failNext = "No AI key";
    const err = await s.client.v1.extract([PRODUCTS], { prompt: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect((err as JobFailedError).serverError).toBe("No AI key");
  });

  it("extract: urls or prompt, at most 10 urls, checked before sending", async () => {
    await expect(s.client.v1.extract(undefined, { schema })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.asyncExtract(Array.from({ length: 11 }, (_, i) => `https://a${i}.test`))).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("getExtractStatus: unknown id is NotFoundError", async () => {
    await expect(s.client.v1.getExtractStatus("00000000-0000-4000-8000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("asyncGenerateLLMsText + checkGenerateLLMsTextStatus: POST /v1/llmstxt, GET /v1/llmstxt/<id>", async () => {
    const start = await s.client.v1.asyncGenerateLLMsText(HOME, { maxUrls: 2, showFullText: true });
    const req = sent("POST", "/v1/llmstxt");
    expect(req.body).toEqual({ url: HOME, maxUrls: 2, showFullText: true });
    expect(v1BodyProblems("POST", "/v1/llmstxt", req.body)).toEqual([]);
    if (!start.success) throw new Error(start.error);
    const status = await s.client.v1.checkGenerateLLMsTextStatus(start.id);
    expect(sent("GET", `/v1/llmstxt/${start.id}`)).toBeDefined();
    expect(status).toMatchObject({ success: true, status: "completed", data: { llmstxt: expect.stringContaining("# Acme Test Site"), llmsfulltxt: expect.any(String) } });
  });

  it("generateLLMsText: waits and returns the completed status", async () => {
    const res = await s.client.v1.generateLLMsText(HOME, { maxUrls: 1 });
    expect(sent("POST", "/v1/llmstxt").body).toEqual({ url: HOME, maxUrls: 1 });
    expect(res).toMatchObject({ success: true, status: "completed", data: { llmstxt: expect.any(String) } });
  });

  it("generateLLMsText: bad maxUrls rejected before sending", async () => {
    await expect(s.client.v1.generateLLMsText(HOME, { maxUrls: 0 })).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("asyncDeepResearch + checkDeepResearchStatus: POST /v1/deep-research, GET /v1/deep-research/<id>", async () => {
    const start = await s.client.v1.asyncDeepResearch("widgets", { maxDepth: 2, timeLimit: 60, formats: ["markdown", "json"], jsonOptions: { schema } });
    const req = sent("POST", "/v1/deep-research");
    expect(req.body).toEqual({ query: "widgets", maxDepth: 2, timeLimit: 60, formats: ["markdown", "json"], jsonOptions: { schema } });
    expect(v1BodyProblems("POST", "/v1/deep-research", req.body)).toEqual([]);
    if (!start.success) throw new Error(start.error);
    const status = await s.client.v1.checkDeepResearchStatus(start.id);
    expect(status).toMatchObject({ success: true, status: "completed", data: { finalAnalysis: expect.stringContaining("widgets"), json: { title: expect.any(String) } }, maxDepth: 2 });
    expect(status.success && "activities" in status && status.activities.length).toBe(2);
  });

  it("deepResearch: waits, reporting each activity and source exactly once", async () => {
    const activities: string[] = [];
    const sources: string[] = [];
    const res = await s.client.v1.deepResearch("widgets", {}, (a) => activities.push(a.message), (src) => sources.push(src.url));
    expect(sent("POST", "/v1/deep-research").body).toEqual({ query: "widgets" });
    expect(res).toMatchObject({ success: true, status: "completed" });
    expect(activities).toEqual(["Searched for widgets", "Analyzed sources"]);
    expect(new Set(sources).size).toBe(sources.length);
    expect(sources).toHaveLength(2);
  });

  it("deepResearch: limits and json/jsonOptions pairing checked before sending", async () => {
    await expect(s.client.v1.asyncDeepResearch("q", { maxDepth: 13 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.asyncDeepResearch("q", { timeLimit: 10 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.asyncDeepResearch("q", { formats: ["json"] })).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("getTokenUsage / getCreditUsage: GET /v1/team/..., snake_case records", async () => {
    const t = await s.client.v1.getTokenUsage();
    const c = await s.client.v1.getCreditUsage();
    expect(sent("GET", "/v1/team/token-usage")).toBeDefined();
    expect(sent("GET", "/v1/team/credit-usage")).toBeDefined();
    expect(Object.keys(t).sort()).toEqual(["billing_period_end", "billing_period_start", "plan_tokens", "remaining_tokens"]);
    expect(Object.keys(c).sort()).toEqual(["billing_period_end", "billing_period_start", "plan_credits", "remaining_credits"]);
  });

  it("getQueueStatus: GET /v1/team/queue-status", async () => {
    const q = await s.client.v1.getQueueStatus();
    expect(sent("GET", "/v1/team/queue-status")).toBeDefined();
    expect(q).toMatchObject({ success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: expect.any(Number) });
  });
});

describe("webdata/v1 entries", () => {
  it("the Node entry's default export sends through undici to a loopback server", async () => {
    const { default: App } = await import("../src/v1/node.js");
    const { createFakeService, serveFake } = await import("../src/testing/node.js");
    const fake = createFakeService();
    const served = await serveFake(fake);
    try {
      const app = new App({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
      const res = await app.scrapeUrl(HOME, { formats: ["markdown"] });
      expect(res).toMatchObject({ success: true, markdown: expect.stringContaining("Acme") });
      expect(fake.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual(["POST /v1/scrape"]);
      expect(fake.keyOf(fake.requests[0]!)).toBe(fake.apiKey);
    } finally {
      await served.close();
    }
  });

  it("the portable entry's default export is WebDataV1", async () => {
    const mod = await import("../src/v1/index.js");
    expect(mod.default).toBe(mod.WebDataV1);
    const { createFakeService } = await import("../src/testing/index.js");
    const fake = createFakeService();
    const app = new mod.default({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    expect(await app.getQueueStatus()).toMatchObject({ success: true });
  });
});
