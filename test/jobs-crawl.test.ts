import { afterEach, describe, expect, it, vi } from "vitest";
import { ConflictError, IdempotencyConflictError, NotFoundError, BadRequestError, ValidationError } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

describe.each(TRANSPORTS)("crawl over %s", (kind) => {
  it("starts a crawl with an idempotency key (idempotencyKeys on) and reads one status page without paginating", async () => {
    s = await setup(kind, {}, { idempotencyKeys: true });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const job = await s.client.startCrawl("https://acme.test/", { limit: 5, scrapeOptions: { formats: ["markdown"] } });
    expect(job.id).toMatch(UUID);
    expect(job.url).toBe(`${s.url}/v2/crawl/${job.id}`);
    expect(job).not.toHaveProperty("success");
    const post = s.fake.requests.find((r) => r.method === "POST");
    expect(post?.headers["x-idempotency-key"]).toMatch(UUID);
    expect(post?.body).toEqual({ url: "https://acme.test/", limit: 5, scrapeOptions: { formats: ["markdown"] } });

    fakeJobs(s.fake).advance(job.id, 3);
    const before = s.fake.requests.length;
    const page = await s.client.getCrawlStatus(job.id, { limit: 2 });
    expect(s.fake.requests.length - before).toBe(1);
    expect(s.fake.requests.at(-1)?.path).toBe(`/v2/crawl/${job.id}?limit=2`);
    expect(page).toMatchObject({ id: job.id, status: "scraping", completed: 3, total: 5 });
    expect(page.data).toHaveLength(2);
    expect(page.next).toBe(`${s.url}/v2/crawl/${job.id}?skip=2&limit=2`);
    expect(page).not.toHaveProperty("success");
  });

  it("crawls the fixture web within the site, honouring limit, include/exclude paths, depth and sitemap", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    const urls = async (opts: Parameters<Setup["client"]["startCrawl"]>[1]) => {
      const { id } = await s!.client.startCrawl("https://acme.test/", opts);
      jobs.finish(id);
      return jobs.get(id).docs.map((d) => (d.metadata as { sourceURL: string }).sourceURL).sort();
    };
    const all = await urls({ sitemap: "skip", limit: 100 });
    expect(all).toContain("https://acme.test/blog/second-post");
    expect(all).toContain("https://acme.test/many/24");
    expect(all.some((u) => u.includes("example.com"))).toBe(false);
    expect(all.some((u) => u.includes("/private/"))).toBe(false);
    expect(await urls({ limit: 3, sitemap: "skip" })).toHaveLength(3);
    expect(await urls({ sitemap: "skip", includePaths: ["^/blog/.*"], limit: 100 })).toEqual(["https://acme.test/", "https://acme.test/blog/first-post", "https://acme.test/blog/second-post"]);
    expect((await urls({ sitemap: "skip", excludePaths: ["^/many/"] })).some((u) => u.includes("/many/"))).toBe(false);
    expect(await urls({ sitemap: "skip", maxDiscoveryDepth: 1, excludePaths: ["^/many/"] })).not.toContain("https://acme.test/blog/second-post");
    expect(await urls({ sitemap: "only" })).toEqual(["https://acme.test/", "https://acme.test/about", "https://acme.test/blog/first-post", "https://acme.test/contact", "https://acme.test/products"]);
  });

  it("iterates every document across pages while the crawl runs", async () => {
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 3 });
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 12 });
    const docs = [];
    for await (const d of s.client.crawlDocuments(id, { pageLimit: 5, pollIntervalMs: 500 })) docs.push(d);
    const urls = docs.map((d) => d.metadata?.sourceURL);
    expect(urls).toHaveLength(12);
    expect(new Set(urls).size).toBe(12);
    expect(fakeJobs(s.fake).get(id).status).toBe("completed");
  });

  it("charges credits per scraped page and reports them in the status", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const before = s.fake.team.creditsUsed;
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 4 });
    expect(s.fake.team.creditsUsed).toBe(before);
    jobs.advance(id, 3);
    expect(s.fake.team.creditsUsed - before).toBe(3);
    expect((await s.client.getCrawlStatus(id)).creditsUsed).toBe(3);
  });

  it("lists errors, cancels, and reports active crawls", async () => {
    s = await setup(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 10 });
    jobs.advance(id, 2);
    const active = await s.client.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toEqual([id]);
    expect(active.crawls[0]).toMatchObject({ url: "https://acme.test/", options: { limit: 10 } });
    expect(await s.client.cancelCrawl(id)).toBe(true);
    expect((await s.client.getActiveCrawls()).crawls).toEqual([]);
    const errors = await s.client.getCrawlErrors(id);
    expect(errors.robotsBlocked).toEqual([]);
    expect(errors.errors.length).toBeGreaterThan(0);
    expect(errors.errors[0]).toMatchObject({ code: "UNKNOWN_ERROR", error: "Job cancelled" });
    expect((await s.client.getCrawlStatus(id)).status).toBe("cancelled");
  });

  it("maps cancel of a finished crawl to ConflictError and unknown ids to NotFoundError", async () => {
    s = await setup(kind);
    const { id } = await s.client.startCrawl("https://acme.test/contact", { limit: 1 });
    fakeJobs(s.fake).finish(id);
    const err = await s.client.cancelCrawl(id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).not.toBeInstanceOf(IdempotencyConflictError);
    expect((err as ConflictError).serverMessage).toBe("Crawl is already completed");
    const unknown = "00000000-0000-4000-8000-000000000000";
    await expect(s.client.cancelCrawl(unknown)).rejects.toMatchObject({ name: "NotFoundError", serverMessage: "Job not found" });
    await expect(s.client.getCrawlStatus(unknown)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.client.getCrawlErrors(unknown)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.client.getCrawlStatus("not-a-uuid")).rejects.toMatchObject({ name: "BadRequestError", serverMessage: "Invalid job ID format. Job ID must be a valid UUID." });
  });

  it("a start retried after a 503 or a dropped connection creates one crawl with one key", async () => {
    useJobTimers(); // the backoff between the three attempts passes on a fake clock
    s = await setup(kind, {}, { maxRetries: 3, idempotencyKeys: true });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, status: 503 });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, drop: true });
    const before = fakeJobs(s.fake).all.size;
    const job = await drive(s.client.startCrawl("https://acme.test/", { limit: 2 }));
    const posts = s.fake.requests.filter((r) => r.method === "POST" && r.pathname === "/v2/crawl");
    expect(posts).toHaveLength(3);
    const keys = new Set(posts.map((r) => r.headers["x-idempotency-key"]));
    expect(keys.size).toBe(1);
    expect(fakeJobs(s.fake).all.size - before).toBe(1);
    expect(fakeJobs(s.fake).all.has(job.id)).toBe(true);
  });

  it("a start whose first answer was lost after the server created the crawl returns that crawl, not a conflict", async () => {
    useJobTimers();
    s = await setup(kind, {}, { maxRetries: 2, idempotencyKeys: true });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, loseAnswer: true });
    const before = fakeJobs(s.fake).all.size;
    const job = await drive(s.client.startCrawl("https://acme.test/", { limit: 2 }));
    const posts = s.fake.requests.filter((r) => r.method === "POST" && r.pathname === "/v2/crawl");
    expect(posts).toHaveLength(2);
    expect(new Set(posts.map((r) => r.headers["x-idempotency-key"])).size).toBe(1);
    expect(fakeJobs(s.fake).all.size - before).toBe(1);
    expect(fakeJobs(s.fake).all.has(job.id)).toBe(true);
    expect(job.url).toBe(`${s.url}/v2/crawl/${job.id}`);
    expect(s.fake.requests.at(-1)).toMatchObject({ method: "GET", pathname: "/v2/crawl/active" });
  });

  it("explains a lost-answer conflict it cannot resolve (no running crawl matches)", async () => {
    useJobTimers();
    s = await setup(kind, {}, { maxRetries: 2, idempotencyKeys: true });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, loseAnswer: true });
    s.fake.inject({ match: "/v2/crawl/active", status: 200, body: { success: true, crawls: [] } });
    const err = (await drive(s.client.startCrawl("https://acme.test/", { limit: 2 }).catch((e: unknown) => e))) as IdempotencyConflictError;
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err.message).toMatch(/an earlier attempt of this call .* probably started the crawl/);
    expect(fakeJobs(s.fake).all.size).toBe(1);
  });

  it("sends the caller's idempotency key and maps a reused key to IdempotencyConflictError", async () => {
    s = await setup(kind);
    const key = "6f1c8a52-7a3e-4c55-9d0b-2f8e5b6a1c3d";
    await s.client.startCrawl("https://acme.test/", { limit: 1 }, { idempotencyKey: key });
    expect(s.fake.requests.at(-1)?.headers["x-idempotency-key"]).toBe(key);
    const err = await s.client.startCrawl("https://acme.test/", { limit: 1 }, { idempotencyKey: key }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as IdempotencyConflictError).serverMessage).toBe("Idempotency key already used");
    expect(s.fake.requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  it("refuses an idempotencyKey that is not a UUID (the server would answer 409) before sending", async () => {
    s = await setup(kind);
    for (const key of ["", "not-a-uuid", "6f1c8a52-7a3e-4c55-9d0b-2f8e5b6a1c3"]) {
      const err = await s.client.startCrawl("https://acme.test/", {}, { idempotencyKey: key }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).issues[0]!.path).toBe("idempotencyKey");
      await expect(s.client.v1.asyncCrawlUrl("https://acme.test/", {}, key)).rejects.toBeInstanceOf(ValidationError);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("a first attempt answered 409 'Idempotency key already used' throws that conflict, naming the POST (no recovery)", async () => {
    s = await setup(kind, {}, { idempotencyKeys: true });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, status: 409, body: { success: false, error: "Idempotency key already used" } });
    const err = (await s.client.startCrawl("https://acme.test/", { limit: 2 }).catch((e: unknown) => e)) as IdempotencyConflictError;
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err.endpoint).toBe("POST /v2/crawl");
    expect(err.serverMessage).toBe("Idempotency key already used");
    expect(s.fake.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual(["POST /v2/crawl"]);
  });

  it("without idempotencyKeys (default off for a non-public apiUrl) a start sends no key and is not retried after a 503", async () => {
    s = await setup(kind, {}, { maxRetries: 3 });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, status: 503, headers: { "retry-after": "0" } });
    await expect(s.client.startCrawl("https://acme.test/", { limit: 2 })).rejects.toMatchObject({ status: 503 });
    const job = await s.client.startCrawl("https://acme.test/", { limit: 2 });
    const posts = s.fake.requests.filter((r) => r.method === "POST" && r.pathname === "/v2/crawl");
    expect(posts).toHaveLength(2);
    expect(posts.map((r) => r.headers["x-idempotency-key"])).toEqual([undefined, undefined]);
    expect(fakeJobs(s.fake).all.has(job.id)).toBe(true);
  });

  it("passes unknown options through and lets the server judge them", async () => {
    s = await setup(kind);
    const err = await s.client.startCrawl("https://acme.test/", { crawlerOptions: { limit: 1 } } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(s.fake.requests.at(-1)?.body).toMatchObject({ crawlerOptions: { limit: 1 } });
  });
});

describe("crawl input checks (nothing sent)", () => {
  it.each([
    ["a bad url", "not a url", {}],
    ["a bad include regex", "https://acme.test/", { includePaths: ["(unclosed"] }],
    ["a zero limit", "https://acme.test/", { limit: 0 }],
    ["a bad sitemap value", "https://acme.test/", { sitemap: "sometimes" }],
    ["a negative delay", "https://acme.test/", { delay: -1 }],
    ["a fractional maxConcurrency", "https://acme.test/", { maxConcurrency: 1.5 }],
    ["a long prompt", "https://acme.test/", { prompt: "x".repeat(10001) }],
    ["bad scrape options", "https://acme.test/", { scrapeOptions: { formats: ["changeTracking"] } }],
    ["a webhook with the signature header", "https://acme.test/", { webhook: { url: "https://hooks.test/x", headers: { "X-Firecrawl-Signature": "x" } } }],
    ["a webhook with an unknown event", "https://acme.test/", { webhook: { url: "https://hooks.test/x", events: ["finished"] } }],
  ])("rejects %s", async (_name, url, opts) => {
    s = await setup("fetch");
    await expect(s.client.startCrawl(url, opts as never)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("accepts a webhook as a URL string or an object", async () => {
    s = await setup("fetch");
    await s.client.startCrawl("https://acme.test/", { webhook: "https://hooks.test/a" });
    await s.client.startCrawl("https://acme.test/", { webhook: { url: "https://hooks.test/b", metadata: { run: "1" }, events: ["completed", "page"] } });
    expect(s.fake.requests.map((r) => (r.body as { webhook: unknown }).webhook)).toEqual(["https://hooks.test/a", { url: "https://hooks.test/b", metadata: { run: "1" }, events: ["completed", "page"] }]);
  });

  it("rejects bad skip/limit of a status read before sending", async () => {
    s = await setup("fetch");
    await expect(s.client.getCrawlStatus("0190f0f0-0000-7000-8000-000000000001", { skip: -1 })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.getCrawlStatus("", {})).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });
});
