import { describe, expect, it, vi } from "vitest";
import { BadRequestError, ConflictError, ConnectionError, InternalServerError, ValidationError } from "../src/index.js";
import type { RetryEvent } from "../src/types.js";
import { WebData as NodeWebData } from "../src/node.js";
import { fakeJobs } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { collect, drive, jobTestSetups } from "./jobs-helpers.js";
import { refusedUrl } from "./support/fault-server.js";

const { open } = jobTestSetups();
let s: Setup | undefined;

const posts = (s: Setup) => s.fake.requests.filter((r) => r.method === "POST" && r.pathname === "/v2/batch/scrape");

describe.each(TRANSPORTS)("batch scrape over %s", (kind) => {
  it("starts with scrape options at the top level and no idempotency key", async () => {
    s = await open(kind);
    const job = await s.client.startBatchScrape(["https://acme.test/about", "https://acme.test/contact"], { formats: ["markdown", "links"], onlyMainContent: false, maxConcurrency: 2 });
    expect(job.url).toBe(`${s.url}/v2/batch/scrape/${job.id}`);
    expect(job.invalidURLs).toBeUndefined();
    const post = posts(s)[0];
    expect(post?.body).toEqual({ urls: ["https://acme.test/about", "https://acme.test/contact"], formats: ["markdown", "links"], onlyMainContent: false, maxConcurrency: 2 });
    expect(post?.headers["x-idempotency-key"]).toBeUndefined();
    fakeJobs(s.fake).finish(job.id);
    const page = await s.client.getBatchScrapeStatus(job.id);
    expect(page).toMatchObject({ status: "completed", completed: 2, total: 2 });
    expect(page.data[1]?.links).toBeDefined();
    expect(page.next).toBeUndefined();
    const docs = await drive(collect(s.client.batchScrapeDocuments(job.id)));
    expect(docs).toHaveLength(2);
  });

  it("returns invalidURLs with ignoreInvalidURLs: true", async () => {
    s = await open(kind);
    const job = await s.client.startBatchScrape(["https://acme.test/about", "not a url"], { ignoreInvalidURLs: true });
    expect(job.invalidURLs).toEqual(["not a url"]);
  });

  it("is not retried after a 5xx (the server may have created the job)", async () => {
    s = await open(kind, {}, { maxRetries: 3 });
    s.fake.inject({ match: "/v2/batch/scrape", status: 502 });
    await expect(s.client.startBatchScrape(["https://acme.test/about"])).rejects.toBeInstanceOf(InternalServerError);
    expect(posts(s)).toHaveLength(1);
  });

  it("is not retried after a timeout once the request was sent", async () => {
    vi.useRealTimers();
    s = await open(kind, {}, { maxRetries: 3 });
    s.fake.inject({ match: "/v2/batch/scrape", delayMs: 5_000 });
    await expect(s.client.startBatchScrape(["https://acme.test/about"], {}, { timeoutMs: 100 })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(posts(s)).toHaveLength(1);
  });

  it("is not retried after a dropped connection, but is after a 429 or a refused connection", async () => {
    s = await open(kind, {}, { maxRetries: 3 });
    s.fake.inject({ match: "/v2/batch/scrape", drop: true });
    await expect(s.client.startBatchScrape(["https://acme.test/about"])).rejects.toMatchObject({ name: "ConnectionError" });
    expect(posts(s)).toHaveLength(1);
    s.fake.rateLimit({ match: "/v2/batch/scrape", retryAfterSeconds: 0 });
    // A refused connection can only be simulated in-process (over loopback the socket was accepted).
    if (kind === "fetch") s.fake.inject({ match: "/v2/batch/scrape", refuse: true });
    const job = await drive(s.client.startBatchScrape(["https://acme.test/about"]));
    expect(job.id).toBeDefined();
    expect(posts(s)).toHaveLength(kind === "fetch" ? 4 : 3);
    expect(fakeJobs(s.fake).all.size).toBe(1);
  });

  it("errors, cancel and appendToId share the crawl machinery", async () => {
    s = await open(kind);
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const job = await s.client.startBatchScrape(["https://acme.test/about", "https://nowhere.invalid/x"]);
    await s.client.startBatchScrape(["https://acme.test/contact"], { appendToId: job.id });
    expect(jobs.get(job.id).queue.map((q) => q.url)).toEqual(["https://acme.test/about", "https://nowhere.invalid/x", "https://acme.test/contact"]);
    jobs.advance(job.id, 2);
    const errors = await s.client.getBatchScrapeErrors(job.id);
    expect(errors.errors).toHaveLength(1);
    expect(errors.errors[0]).toMatchObject({ url: "https://nowhere.invalid/x", code: "SCRAPE_ALL_ENGINES_FAILED" });
    expect(await s.client.cancelBatchScrape(job.id)).toBe(true);
    jobs.configure({ pagesPerPoll: 2 });
    const other = await s.client.startBatchScrape(["https://acme.test/about"]);
    jobs.finish(other.id);
    await expect(s.client.cancelBatchScrape(other.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("the server rejects an unknown option it does not accept (passed through)", async () => {
    s = await open(kind);
    await expect(s.client.startBatchScrape(["https://acme.test/about"], { crawlerOptions: {} } as never)).rejects.toBeInstanceOf(BadRequestError);
    expect(posts(s)[0]?.body).toMatchObject({ crawlerOptions: {} });
  });
});

describe("batch scrape input checks (nothing sent)", () => {
  it.each([
    ["no urls", [], {}],
    ["an invalid url without ignoreInvalidURLs", ["https://acme.test/", "not a url"], {}],
    ["an invalid url with ignoreInvalidURLs false", ["not a url"], { ignoreInvalidURLs: false }],
    ["a bad appendToId", ["https://acme.test/"], { appendToId: "abc" }],
    ["bad scrape options", ["https://acme.test/"], { waitFor: 70000 }],
    ["a bad webhook", ["https://acme.test/"], { webhook: "not a url" }],
  ])("rejects %s", async (_name, urls, opts) => {
    s = await open("fetch");
    await expect(s.client.startBatchScrape(urls, opts as never)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });
});

describe("batch start over undici to a port where nothing listens", () => {
  it("retries a refused connection (provably never sent), then reports it", async () => {
    const apiUrl = await refusedUrl();
    const retries: RetryEvent[] = [];
    vi.spyOn(Math, "random").mockReturnValue(0); // backoff 0.5 s, then 1 s, on the fake clock
    const client = new NodeWebData({ apiKey: "fc-test-key", apiUrl, maxRetries: 2, onRetry: (e) => void retries.push(e), logLevel: "off" });
    const err = await drive(client.startBatchScrape(["https://acme.test/about"]).catch((e: unknown) => e));
    vi.restoreAllMocks();
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as ConnectionError).notSent).toBe(true);
    expect(retries.map((e) => [e.endpoint, e.attempt, e.error])).toEqual([
      ["POST /v2/batch/scrape", 1, expect.any(ConnectionError)],
      ["POST /v2/batch/scrape", 2, expect.any(ConnectionError)],
    ]);
  });
});
