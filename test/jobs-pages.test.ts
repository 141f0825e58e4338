import { describe, expect, it, vi } from "vitest";
import { InternalServerError } from "../src/index.js";
import { jobDocuments } from "../src/jobs/pages.js";
import { fakeJobs } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { collect, drive, tick, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();
let s: Setup | undefined;

const gets = (s: Setup, id: string) => s.fake.requests.filter((r) => r.method === "GET" && r.path.includes(id));

describe.each(TRANSPORTS)("pagination over %s", (kind) => {
  it("follows next through pages cut by size, yielding every document once, in order", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 10 });
    jobs.finish(id);
    const sizes = jobs.get(id).docs.map((d) => JSON.stringify(d).length);
    // A cut a little above the largest document: at most one or two documents per page.
    jobs.configure({ maxPageBytes: Math.max(...sizes) + 10 });
    const first = await s.client.getCrawlStatus(id);
    expect(first.data.length).toBeGreaterThanOrEqual(1);
    expect(first.data.length).toBeLessThan(10);
    expect(first.next).toBe(`${s.url}/v2/crawl/${id}?skip=${first.data.length}`);
    const before = gets(s, id).length;
    const docs = await drive(collect(s.client.crawlDocuments(id)));
    expect(docs.map((d) => d.metadata?.sourceURL)).toEqual(jobs.get(id).docs.map((d) => (d.metadata as { sourceURL: string }).sourceURL));
    const pageRequests = gets(s, id).slice(before);
    expect(pageRequests.length).toBeGreaterThanOrEqual(5);
    expect(pageRequests.at(-1)?.path).toMatch(/\?skip=\d+$/);
  });

  it("takes RequestOptions last: per-call headers reach every page request", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ defaultPageSize: 2 });
    const { id } = await s.client.startCrawl("https://acme.test/", { limit: 5 });
    jobs.finish(id);
    const before = gets(s, id).length;
    const docs = await drive(collect(s.client.crawlDocuments(id, {}, { headers: { "x-trace": "t-7" } })));
    expect(docs).toHaveLength(5);
    const pages = gets(s, id).slice(before);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.every((r) => r.headers["x-trace"] === "t-7")).toBe(true);
  });

  it("a single document larger than the cut still comes alone on its page", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 3 });
    jobs.finish(id);
    jobs.configure({ maxPageBytes: 10 });
    const page = await s.client.getCrawlStatus(id);
    expect(page.data).toHaveLength(1);
    const docs = await drive(collect(s.client.crawlDocuments(id)));
    expect(docs).toHaveLength(3);
  });

  it("tolerates empty pages while the job runs, sleeping pollIntervalMs between them", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 4 });
    const all = collect(s.client.crawlDocuments(id, { pollIntervalMs: 1000 }));
    while (gets(s, id).length < 1) await tick();
    for (let i = 0; i < 10; i++) await tick();
    expect(gets(s, id)).toHaveLength(1); // empty page: no busy loop
    await vi.advanceTimersByTimeAsync(999);
    for (let i = 0; i < 10; i++) await tick();
    expect(gets(s, id)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    while (gets(s, id).length < 2) await tick();
    expect(gets(s, id)[1]?.path).toBe(`/v2/crawl/${id}?skip=0`);
    jobs.advance(id, 2);
    await vi.advanceTimersByTimeAsync(1000);
    jobs.finish(id);
    const docs = await drive(all);
    expect(docs).toHaveLength(4);
    expect(new Set(docs.map((d) => d.metadata?.sourceURL)).size).toBe(4);
  });

  it("a failed page request throws instead of ending the iteration", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9, maxRetries: 0 });
    const jobs = fakeJobs(s.fake);
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 6 });
    jobs.finish(id);
    s.fake.inject({ match: new RegExp(`^GET /v2/crawl/${id}\\?skip=2`), status: 500 });
    const seen: unknown[] = [];
    const err = await drive(
      (async () => {
        for await (const d of s!.client.crawlDocuments(id, { pageLimit: 2 })) seen.push(d);
      })().catch((e: unknown) => e),
    );
    expect(err).toBeInstanceOf(InternalServerError);
    expect(seen).toHaveLength(2);
  });

  it("re-bases a next URL on another origin (a proxy's public URL) onto apiUrl, so every page goes to apiUrl with the key", async () => {
    s = await open(kind, { authDisabled: true }, { timeoutMs: 1e9 });
    const mirror = kind === "fetch" ? "https://mirror.webdata.test" : s.url.replace("127.0.0.1", "localhost");
    (s.fake.options as { publicUrl: string | undefined }).publicUrl = mirror;
    const jobs = fakeJobs(s.fake);
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 4 });
    jobs.finish(id);
    const docs = await drive(collect(s.client.crawlDocuments(id, { pageLimit: 2 })));
    expect(docs).toHaveLength(4);
    const reqs = gets(s, id);
    expect(reqs.map((r) => r.path)).toEqual([`/v2/crawl/${id}?limit=2`, `/v2/crawl/${id}?skip=2&limit=2`]);
    for (const r of reqs) expect(s.fake.keyOf(r)).toBe(s.fake.apiKey);
    if (kind === "undici") expect(reqs.map((r) => r.headers.host)).toEqual([new URL(s.url).host, new URL(s.url).host]);
  });

  it("ends when a cancelled job has no more documents, although next is still present", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 10 });
    jobs.advance(id, 3);
    await s.client.cancelCrawl(id);
    const page = await s.client.getCrawlStatus(id, { skip: 3 });
    expect(page).toMatchObject({ status: "cancelled", data: [] });
    expect(page.next).toBeDefined();
    const docs = await drive(collect(s.client.crawlDocuments(id)));
    expect(docs).toHaveLength(3);
  });

  it("serves and follows v1 routes with the same machinery", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    const start = await s.client.http.request<{ id: string; url: string }>({ op: "crawl.start", method: "POST", path: "/v1/crawl", body: { url: "https://acme.test/", limit: 3, ignoreSitemap: true }, idempotent: true });
    expect(start.url).toBe(`${s.url}/v1/crawl/${start.id}`);
    jobs.finish(start.id);
    const docs = await drive(collect(jobDocuments(s.client.http, "crawl", start.id, { pageLimit: 2 }, undefined, "v1")));
    expect(docs).toHaveLength(3);
    expect(gets(s, start.id).map((r) => r.path)).toEqual([`/v1/crawl/${start.id}?limit=2`, `/v1/crawl/${start.id}?skip=2&limit=2`]);
  });

  it("reads v2 routes whatever the caller's options hold (the route version is not an option)", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    const { id } = await s.client.startCrawl("https://acme.test/", { sitemap: "skip", limit: 3 });
    jobs.finish(id);
    // Plain JavaScript can pass any key; an internal one must not change where the pages come from.
    const options = { pageLimit: 2, apiVersion: "v1" } as Parameters<typeof s.client.crawlDocuments>[1];
    expect(await drive(collect(s.client.crawlDocuments(id, options)))).toHaveLength(3);
    const paths = gets(s, id).map((r) => r.path);
    expect(paths.length).toBeGreaterThanOrEqual(2);
    expect(paths.every((p) => p.startsWith("/v2/crawl/"))).toBe(true);
  });
});
