/**
 * The v1 crawl and batch-scrape methods over the shared job machinery: exact
 * v1 endpoints, methods and bodies (checked against the v1 OpenAPI request
 * schemas), positional signatures (poll interval in SECONDS, idempotency key,
 * batch extras), v1 result shapes (`checkCrawlStatus(id, getAllData)`).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { BadRequestError, ConflictError, JobFailedError, NotFoundError, ValidationError } from "../src/index.js";
import { fakeJobs, FIXTURE_ORIGIN } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, tick, useJobTimers } from "./jobs-helpers.js";
import { v1BodyProblems } from "./support/openapi.js";

const HOME = `${FIXTURE_ORIGIN}/`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEY = "0195f0a8-3c1e-7a1b-9c2d-3e4f5a6b7c8d";
let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

function posts(path: string) {
  return s!.fake.requests.filter((r) => r.method === "POST" && r.pathname === path);
}
function gets(prefix: string) {
  return s!.fake.requests.filter((r) => r.method === "GET" && r.pathname.startsWith(prefix));
}

describe.each(TRANSPORTS)("v1 crawl over %s", (kind) => {
  it("asyncCrawlUrl(url, params, idempotencyKey): POST /v1/crawl with v1 options and the caller's key", async () => {
    s = await setup(kind);
    const params = { limit: 4, maxDepth: 3, allowBackwardLinks: true, ignoreSitemap: true, scrapeOptions: { formats: ["markdown" as const], parsePDF: false } };
    const res = await s.client.v1.asyncCrawlUrl(HOME, params, KEY);
    const [req] = posts("/v1/crawl");
    expect(req!.body).toEqual({ url: HOME, ...params });
    expect(req!.headers["x-idempotency-key"]).toBe(KEY);
    expect(v1BodyProblems("POST", "/v1/crawl", req!.body)).toEqual([]);
    if (!res.success) throw new Error(res.error);
    expect(res).toEqual({ success: true, id: expect.stringMatching(UUID), url: `${s.url}/v1/crawl/${res.id}` });
  });

  it("asyncCrawlUrl without a key generates one (idempotencyKeys on); unknown options reach the v1 server (strict 400)", async () => {
    s = await setup(kind, {}, { idempotencyKeys: true });
    await s.client.v1.asyncCrawlUrl(HOME, { limit: 1 });
    expect(posts("/v1/crawl")[0]!.headers["x-idempotency-key"]).toMatch(UUID);
    const err = await s.client.v1.asyncCrawlUrl(HOME, { limit: 1, sitemap: "skip" } as never).catch((e: unknown) => e);
    expect((posts("/v1/crawl")[1]!.body as Record<string, unknown>).sitemap).toBe("skip");
    expect(err).toBeInstanceOf(BadRequestError);
  });

  it("asyncCrawlUrl / crawlUrl: bad input is a ValidationError before anything is sent", async () => {
    s = await setup(kind);
    await expect(s.client.v1.asyncCrawlUrl("not a url")).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.asyncCrawlUrl(HOME, { limit: 0 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.asyncCrawlUrl(HOME, { scrapeOptions: { formats: ["extract"] } })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.crawlUrl(HOME, {}, 0)).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.crawlUrl(HOME, {}, -1)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("crawlUrl / batchScrapeUrls: a pollInterval no timer holds (over 2147483 s) is a ValidationError before the job is started (the poll loop checked it only after)", async () => {
    s = await setup(kind);
    await expect(s.client.v1.crawlUrl(HOME, {}, 3e6)).rejects.toThrow(/pollInterval: must be at most 2147483 seconds \(what a timer holds\), got 3000000/);
    await expect(s.client.v1.batchScrapeUrls([HOME], {}, 3e6)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("crawlUrl(url, params, pollInterval, key): waits, returns every document in the v1 status shape", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 2, defaultPageSize: 2 });
    const res = await drive(s.client.v1.crawlUrl(HOME, { limit: 5, ignoreSitemap: true, scrapeOptions: { formats: ["markdown"] } }, 0.5, KEY));
    expect(posts("/v1/crawl")[0]!.headers["x-idempotency-key"]).toBe(KEY);
    expect(gets("/v1/crawl/").length).toBeGreaterThan(1);
    expect(gets("/v2/")).toHaveLength(0);
    if (!res.success) throw new Error(res.error);
    expect(res).toMatchObject({ success: true, status: "completed", completed: 5, total: 5 });
    expect(res.expiresAt).toBeInstanceOf(Date);
    expect(res.data).toHaveLength(5);
    expect(res).not.toHaveProperty("next");
    expect(res.data[0]!.markdown).toContain("Acme makes");
  });

  it("crawlUrl with v1-only formats (screenshot@fullPage, json + jsonOptions) returns v1 documents", async () => {
    useJobTimers();
    s = await setup(kind);
    const scrapeOptions = { formats: ["markdown" as const, "screenshot@fullPage" as const, "json" as const], jsonOptions: { prompt: "the title" } };
    const res = await drive(s.client.v1.crawlUrl(HOME, { limit: 2, scrapeOptions }, 0.5));
    expect(v1BodyProblems("POST", "/v1/crawl", posts("/v1/crawl")[0]!.body)).toEqual([]);
    if (!res.success) throw new Error(res.error);
    expect(res.data).toHaveLength(2);
    for (const doc of res.data) {
      expect(doc.screenshot).toMatch(/^data:image\/png/);
      expect(doc.json).toBeDefined();
      expect(doc).not.toHaveProperty("extract");
    }
  });

  it("crawlUrl: the poll interval is in SECONDS, converted once (3 -> 3000 ms between polls)", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const p = s.client.v1.crawlUrl(HOME, { limit: 2 }, 3);
    p.catch(() => undefined);
    const polls = () => gets("/v1/crawl/").length;
    for (let i = 0; i < 20 && polls() < 1; i++) await tick();
    expect(polls()).toBe(1);
    await vi.advanceTimersByTimeAsync(2999);
    for (let i = 0; i < 5; i++) await tick();
    expect(polls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    for (let i = 0; i < 20 && polls() < 2; i++) await tick();
    expect(polls()).toBe(2);
    fakeJobs(s.fake).finish(s.fake.requests.find((r) => r.pathname.startsWith("/v1/crawl/"))!.pathname.split("/")[3]!);
    const res = await drive(p, 3000);
    expect(res).toMatchObject({ success: true, status: "completed" });
  });

  it("crawlUrl: a failed crawl throws JobFailedError with the job id", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const p = s.client.v1.crawlUrl(HOME, { limit: 2 }, 0.5);
    p.catch(() => undefined);
    for (let i = 0; i < 50 && posts("/v1/crawl").length === 0; i++) await tick();
    for (let i = 0; i < 50 && fakeJobs(s.fake).all.size === 0; i++) await tick();
    const [id] = [...fakeJobs(s.fake).all.keys()];
    fakeJobs(s.fake).fail(id!, "Crawl failed: boom");
    const err = await drive(p).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ jobId: id, serverError: "Crawl failed: boom" });
  });

  it("checkCrawlStatus(id): one page, v1 shape with next kept", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0, defaultPageSize: 2 });
    const { id } = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 5, ignoreSitemap: true })) as { id: string };
    jobs.advance(id, 3);
    const res = await s.client.v1.checkCrawlStatus(id);
    expect(gets(`/v1/crawl/${id}`)).toHaveLength(1);
    if (!res.success) throw new Error(res.error);
    expect(res).toMatchObject({ success: true, status: "scraping", completed: 3, total: 5 });
    expect(res.data).toHaveLength(2);
    expect(res.next).toBe(`${s.url}/v1/crawl/${id}?skip=2`);
    expect(res.expiresAt).toBeInstanceOf(Date);
  });

  it("checkCrawlStatus(id, false, nextURL, skip, limit): follows the given URL with skip/limit applied", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 5, ignoreSitemap: true })) as { id: string };
    jobs.finish(id);
    const byQuery = await s.client.v1.checkCrawlStatus(id, false, undefined, 1, 2);
    expect(s.fake.requests.at(-1)!.path).toBe(`/v1/crawl/${id}?skip=1&limit=2`);
    expect(byQuery.success && byQuery.data).toHaveLength(2);
    const byNext = await s.client.v1.checkCrawlStatus(id, false, `${s.url}/v1/crawl/${id}?skip=4`);
    expect(s.fake.requests.at(-1)!.path).toBe(`/v1/crawl/${id}?skip=4`);
    expect(byNext.success && byNext.data).toHaveLength(1);
  });

  it("checkCrawlStatus(id, true): a finished crawl is read page by page to the end; a running one is not paginated", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0, defaultPageSize: 2 });
    const { id } = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 5, ignoreSitemap: true })) as { id: string };
    jobs.advance(id, 3);
    const running = await s.client.v1.checkCrawlStatus(id, true);
    expect(gets(`/v1/crawl/${id}`)).toHaveLength(1);
    expect(running).toMatchObject({ success: true, status: "scraping" });
    expect(running.success && running.data).toHaveLength(2);

    jobs.finish(id);
    const all = await s.client.v1.checkCrawlStatus(id, true);
    expect(gets(`/v1/crawl/${id}`)).toHaveLength(1 + 3);
    if (!all.success) throw new Error(all.error);
    expect(all).toMatchObject({ status: "completed", completed: 5, total: 5 });
    expect(all.data).toHaveLength(5);
    expect(all).not.toHaveProperty("next");
    expect(new Set(all.data.map((d) => d.metadata?.sourceURL)).size).toBe(5);
  });

  it("checkCrawlStatus of a failed kickoff is the v1 error result (200 success:false)", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 2 })) as { id: string };
    jobs.fail(id, "Crawl failed: unresolvable host");
    const res = await s.client.v1.checkCrawlStatus(id);
    expect(res).toMatchObject({ success: false, error: "Crawl failed: unresolvable host" });
  });

  it("checkCrawlStatus: unknown id is NotFoundError; bad skip is a ValidationError before sending", async () => {
    s = await setup(kind);
    await expect(s.client.v1.checkCrawlStatus("00000000-0000-4000-8000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
    const n = s.fake.requests.length;
    await expect(s.client.v1.checkCrawlStatus("x", false, undefined, -1)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(n);
  });

  it("checkCrawlErrors: GET /v1/crawl/<id>/errors -> { errors, robotsBlocked }", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 5, ignoreSitemap: true })) as { id: string };
    jobs.advance(id, 1);
    jobs.cancel(id);
    const res = await s.client.v1.checkCrawlErrors(id);
    expect(gets(`/v1/crawl/${id}/errors`)).toHaveLength(1);
    expect(res).toMatchObject({ robotsBlocked: [] });
    expect("errors" in res && res.errors.length).toBeGreaterThan(0);
  });

  it("cancelCrawl: DELETE /v1/crawl/<id> -> { success, status: cancelled }; a finished crawl is ConflictError", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 5 })) as { id: string };
    expect(await s.client.v1.cancelCrawl(id)).toEqual({ success: true, status: "cancelled" });
    expect(s.fake.requests.filter((r) => r.method === "DELETE").map((r) => r.path)).toEqual([`/v1/crawl/${id}`]);
    const done = (await s.client.v1.asyncCrawlUrl(HOME, { limit: 1 })) as { id: string };
    jobs.finish(done.id);
    await expect(s.client.v1.cancelCrawl(done.id)).rejects.toBeInstanceOf(ConflictError);
  });
});

describe.each(TRANSPORTS)("v1 batch scrape over %s", (kind) => {
  const URLS = [HOME, `${FIXTURE_ORIGIN}/about`, `${FIXTURE_ORIGIN}/contact`];

  it("asyncBatchScrapeUrls(urls, params, key, webhook, ignoreInvalidURLs): POST /v1/batch/scrape", async () => {
    s = await setup(kind);
        const webhook = { url: "https://hooks.test/x", events: ["completed" as const] };
    const res = await s.client.v1.asyncBatchScrapeUrls([...URLS, "not a valid url"], { formats: ["markdown", "html"] }, KEY, webhook, true);
    const [req] = posts("/v1/batch/scrape");
    expect(req!.body).toEqual({ urls: [...URLS, "not a valid url"], webhook, ignoreInvalidURLs: true, formats: ["markdown", "html"] });
    expect(req!.headers["x-idempotency-key"]).toBe(KEY);
    const { urls: _u, ...rest } = req!.body as Record<string, unknown>;
    expect(v1BodyProblems("POST", "/v1/batch/scrape", { ...rest, urls: URLS })).toEqual([]);
    expect(res).toEqual({ success: true, id: expect.stringMatching(UUID), url: expect.stringContaining("/v1/batch/scrape/"), invalidURLs: ["not a valid url"] });
  });

  it("asyncBatchScrapeUrls: invalid URLs without ignoreInvalidURLs are caught before sending", async () => {
    s = await setup(kind);
    await expect(s.client.v1.asyncBatchScrapeUrls([HOME, "not a valid url"])).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.asyncBatchScrapeUrls([])).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.v1.batchScrapeUrls([HOME], { formats: ["json"] })).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("batchScrapeUrls(urls, params, pollInterval, key, webhook, ignoreInvalidURLs, maxConcurrency): waits for every document", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 2 });
    const res = await drive(s.client.v1.batchScrapeUrls(URLS, { formats: ["markdown"] }, 0.5, KEY, undefined, false, 2));
    const [req] = posts("/v1/batch/scrape");
    expect(req!.body).toEqual({ urls: URLS, ignoreInvalidURLs: false, maxConcurrency: 2, formats: ["markdown"] });
    expect(v1BodyProblems("POST", "/v1/batch/scrape", req!.body)).toEqual([]);
    expect(req!.headers["x-idempotency-key"]).toBe(KEY);
    expect(gets("/v1/batch/scrape/").length).toBeGreaterThan(0);
    if (!res.success) throw new Error(res.error);
    expect(res).toMatchObject({ success: true, status: "completed", completed: 3, total: 3 });
    expect(res.data.map((d) => d.metadata?.sourceURL)).toEqual(URLS);
  });

  it("checkBatchScrapeStatus(id, getAllData) and checkBatchScrapeErrors(id) read the v1 batch routes", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0, defaultPageSize: 1 });
    const { id } = (await s.client.v1.asyncBatchScrapeUrls([...URLS, "https://nowhere.invalid/"], {})) as { id: string };
    jobs.finish(id);
    const one = await s.client.v1.checkBatchScrapeStatus(id);
    expect(s.fake.requests.at(-1)!.path).toBe(`/v1/batch/scrape/${id}`);
    expect(one).toMatchObject({ success: true, status: "completed", next: `${s.url}/v1/batch/scrape/${id}?skip=1` });
    const all = await s.client.v1.checkBatchScrapeStatus(id, true);
    expect(all.success && all.data).toHaveLength(3);
    const errors = await s.client.v1.checkBatchScrapeErrors(id);
    expect(s.fake.requests.at(-1)!.path).toBe(`/v1/batch/scrape/${id}/errors`);
    expect(errors).toMatchObject({ errors: [{ url: "https://nowhere.invalid/", code: "SCRAPE_ALL_ENGINES_FAILED" }], robotsBlocked: [] });
  });
});
