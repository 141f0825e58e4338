/**
 * `search` against the fake service over both transports: grouping by
 * source, per-source limits, scraping merged into items (typed json), every
 * option checked before sending and passed through, the recorded search
 * exchanges, and each documented error status.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z4 from "zod";
import {
  BadRequestError,
  InternalServerError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  RequestTimeoutError,
  ResultValidationError,
  ValidationError,
} from "../src/index.js";
import { recorded, setup, TRANSPORTS, type Setup } from "./helpers.js";

type Rec = Record<string, unknown>;

describe.each(TRANSPORTS)("search over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const lastBody = () => s.fake.requests.at(-1)?.body as Rec;

  it("returns web results by default, with creditsUsed and id", async () => {
    s = await setup(kind);
    const r = await s.client.search("widgets");
    expect(r.web?.map((w) => w.url)).toEqual(expect.arrayContaining(["https://acme.test/", "https://acme.test/blog/first-post"]));
    expect(r.web?.[0]).toMatchObject({ title: expect.any(String), description: expect.any(String), position: 1 });
    expect(r.news).toBeUndefined();
    expect(r.creditsUsed).toBe(2);
    expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(lastBody()).toEqual({ query: "widgets" });
    expect(s.fake.team.creditsUsed).toBe(2);
  });

  it("keeps the grouping for web, news and images, and applies limit per source", async () => {
    s = await setup(kind);
    const r = await s.client.search("widgets gadgets", { sources: ["web", { type: "news" }, "images"], limit: 1 });
    expect(r.web).toHaveLength(1);
    expect(r.news).toHaveLength(1);
    expect(r.news?.[0]).toMatchObject({ url: expect.stringContaining("/blog/"), snippet: expect.any(String), date: expect.any(String) });
    expect(r.images).toHaveLength(1);
    expect(r.images?.[0]).toMatchObject({ imageUrl: "https://acme.test/img/widget.png", imageWidth: 640, imageHeight: 480 });
  });

  it("scrapes results into the items when scrapeOptions.formats is set, json typed and conforming", async () => {
    s = await setup(kind);
    const schema = z4.object({ title: z4.string() });
    const r = await s.client.search("gadget", { limit: 2, scrapeOptions: { formats: ["markdown", { type: "json", schema, validate: true }] } });
    const item = r.web?.[0];
    expect(item?.markdown).toContain("#");
    expect(item?.metadata?.statusCode).toBe(200);
    expect(typeof item?.json?.title).toBe("string");
    const sent = (lastBody().scrapeOptions as Rec).formats as Rec[];
    expect(sent[1]).toEqual({ type: "json", schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] } });
  });

  it("validate: true on search items throws ResultValidationError with the path", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/search", status: 200, body: { success: true, data: { web: [{ url: "https://a.test", json: { title: 3 }, metadata: { statusCode: 200, sourceURL: "https://a.test" } }] }, creditsUsed: 2, id: "x" } });
    const err = await s.client.search("q", { scrapeOptions: { formats: [{ type: "json", schema: z4.object({ title: z4.string() }), validate: true }] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResultValidationError);
    expect((err as ResultValidationError).issues[0]?.path).toBe("title");
  });

  it("sends every option as the wire names it, and passes unknown options through", async () => {
    s = await setup(kind);
    const opts = {
      sources: [{ type: "web" as const, tbs: "qdr:d", country: "de" }],
      categories: ["github" as const, { type: "pdf" as const }],
      limit: 5,
      tbs: "qdr:w",
      filter: "site:acme.test",
      lang: "de",
      country: "de",
      location: "Berlin,Germany",
      timeout: 30000,
      ignoreInvalidURLs: true,
      enterprise: ["default" as const],
      origin: "test",
    };
    const r = await s.client.search("widgets", opts);
    expect(lastBody()).toEqual({ query: "widgets", ...opts });
    expect(r.web?.[0]?.category).toBe("github");
    await s.client.search("widgets", { asyncScraping: true } as never);
    expect(lastBody()).toEqual({ query: "widgets", asyncScraping: true });
  });

  it("exposes the warning when nothing is found", async () => {
    s = await setup(kind);
    const r = await s.client.search("zzzz-nothing");
    expect(r.web).toEqual([]);
    expect(r.warning).toBe("No search results found");
    expect(r.creditsUsed).toBe(0);
  });

  it.each([
    ["an empty query", "", {}, /query/],
    ["limit 0", "q", { limit: 0 }, /limit: .*>= ?1/],
    ["limit 101", "q", { limit: 101 }, /limit: .*<= ?100/],
    ["a fractional limit", "q", { limit: 2.5 }, /limit/],
    ["an unknown source", "q", { sources: ["video"] }, /sources\.0/],
    ["an unknown category", "q", { categories: ["blogs"] }, /categories\.0/],
    ["a zero timeout", "q", { timeout: 0 }, /timeout/],
    ["an unknown enterprise mode", "q", { enterprise: ["fast"] }, /enterprise\.0/],
    ["a format search cannot scrape", "q", { scrapeOptions: { formats: ["branding"] } }, /search cannot scrape the "branding" format/],
    ["changeTracking in search", "q", { scrapeOptions: { formats: ["markdown", { type: "changeTracking" }] } }, /search cannot scrape the "changeTracking" format/],
    ["a bad scrape option", "q", { scrapeOptions: { waitFor: -1 } }, /scrapeOptions\.waitFor/],
  ])("rejects %s before sending", async (_name, query, options, message) => {
    s = await setup(kind);
    const err = await s.client.search(query, options as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(message);
    expect(s.fake.requests.length).toBe(0);
  });

  it("parses the recorded 400 (no `code`) into BadRequestError with details", async () => {
    s = await setup(kind);
    const rec = await recorded("search-v2-400-missing-query.json");
    s.fake.inject({ match: "/v2/search", status: rec.response.status, body: rec.response.body });
    const err = (await s.client.search("q").catch((e: unknown) => e)) as BadRequestError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.code).toBeUndefined();
    expect(err.serverMessage).toBe("Invalid request body");
    expect(err.details).toEqual((rec.response.body as Rec).details);
  });

  it("the fake's own 400 has the same shape as the recording", async () => {
    s = await setup(kind);
    const rec = await recorded("search-v2-400-missing-query.json");
    const res = await s.fake.fetch(`${s.url}/v2/search`, { method: "POST", headers: { authorization: `Bearer ${s.fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify(rec.request.body) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(rec.response.body);
  });

  it("parses the recorded no-provider answer (data {}) into an empty grouping", async () => {
    s = await setup(kind);
    const rec = await recorded("search-v2-no-search-provider.json");
    s.fake.inject({ match: "/v2/search", status: rec.response.status, body: rec.response.body });
    const r = await s.client.search("firecrawl", { limit: 3 });
    expect(r).toEqual({ creditsUsed: 0, id: "01a200ed-f22b-7632-8d25-c38fd6a967d7" });
  });

  it.each([
    [402, PaymentRequiredError, { success: false, error: "Insufficient credits to perform this request." }],
    [403, PermissionDeniedError, { success: false, error: "Enterprise search modes are not enabled for your team." }],
    [408, RequestTimeoutError, { success: false, code: "SCRAPE_TIMEOUT", error: "Request timed out" }],
    [429, RateLimitError, { success: false, error: "Rate limit exceeded. please retry after 1s" }],
    [500, InternalServerError, { success: false, error: "Search provider failed" }],
  ])("maps HTTP %i to its error class (no retry budget left)", async (status, Ctor, body) => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.inject({ match: "/v2/search", status, body });
    const err = await s.client.search("q").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Ctor);
    expect((err as InternalServerError).serverMessage).toBe(body.error);
  });

  it("a 402 from the fake when the team has too few credits for the limit", async () => {
    s = await setup(kind, { planCredits: 5 });
    await expect(s.client.search("widgets", { limit: 10 })).rejects.toBeInstanceOf(PaymentRequiredError);
  });
});
