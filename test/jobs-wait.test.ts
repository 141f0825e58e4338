import { describe, expect, it, vi } from "vitest";
import { AbortError, JobFailedError, JobTimeoutError, NotFoundError } from "../src/index.js";
import { fakeJobs } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { drive, tick, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();
let s: Setup | undefined;

const statusPolls = (s: Setup, id: string) => s.fake.requests.filter((r) => r.method === "GET" && r.pathname.endsWith(id));

describe.each(TRANSPORTS)("crawl and batch waiters over %s", (kind) => {
  it("polls with a small limit, never returns while scraping, then downloads every page once", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    // Every page done after 2 polls, but the server keeps saying `scraping` for 3 more reads (finalizer lag).
    fakeJobs(s.fake).configure({ pagesPerPoll: 3, settlePolls: 3, defaultPageSize: 4 });
    const job = await drive(s.client.crawl("https://acme.test/", { sitemap: "skip", limit: 6, pollIntervalMs: 1000 }));
    expect(job.status).toBe("completed");
    expect(job.data).toHaveLength(6);
    expect(new Set(job.data.map((d) => d.metadata?.sourceURL)).size).toBe(6);
    expect(job.next).toBeUndefined();
    expect(job).toMatchObject({ completed: 6, total: 6 });
    const polls = statusPolls(s, job.id).map((r) => r.path);
    const waits = polls.filter((p) => p.endsWith("?limit=1"));
    // Polls 1-2 scrape 6 pages; polls 2-4 still say scraping with every page done (completed === total); poll 5 says completed.
    expect(waits).toHaveLength(5);
    // Then the download: page 1 (4 docs) and page 2 (2 docs) via next, once each.
    const downloads = s.fake.requests.filter((r) => r.method === "GET" && !r.path.endsWith("?limit=1") && r.path.includes(job.id));
    expect(downloads.map((r) => r.path)).toEqual([`/v2/crawl/${job.id}`, `/v2/crawl/${job.id}?skip=4`]);
  });

  it("batchScrape waits and returns every document plus invalidURLs", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const job = await drive(
      s.client.batchScrape(["https://acme.test/about", "https://acme.test/contact", "nope"], { ignoreInvalidURLs: true, formats: ["markdown"], pollIntervalMs: 500 }),
    );
    expect(job.status).toBe("completed");
    expect(job.invalidURLs).toEqual(["nope"]);
    expect(job.data.map((d) => d.metadata?.sourceURL)).toEqual(["https://acme.test/about", "https://acme.test/contact"]);
    expect(job.data[0]?.markdown).toContain("# About Acme");
  });

  it("a failed job throws JobFailedError with the id and the server's error", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const p = s.client.crawl("https://acme.test/", { pollIntervalMs: 500 });
    const settled = p.catch((e: unknown) => e);
    while (jobs.all.size === 0) await tick();
    const id = [...jobs.all.keys()][0] as string;
    jobs.fail(id, "Start URL is blocked");
    const err = await drive(settled);
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ jobId: id, status: "failed", serverError: "Start URL is blocked" });
  });

  it("a job cancelled mid-wait throws JobFailedError (cancelled)", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 1 });
    const settled = s.client.crawl("https://acme.test/", { sitemap: "skip", limit: 20, pollIntervalMs: 500 }).catch((e: unknown) => e);
    while (jobs.all.size === 0) await tick();
    const id = [...jobs.all.keys()][0] as string;
    while (statusPolls(s, id).length < 2) {
      await tick();
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(await s.client.cancelCrawl(id)).toBe(true);
    const err = await drive(settled);
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ jobId: id, status: "cancelled" });
  });

  it("a crawl this client cancelled fails even when the server later reports it completed", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 1, cancelledReportsAs: "completed" });
    const settled = s.client.crawl("https://acme.test/", { sitemap: "skip", limit: 20, pollIntervalMs: 500 }).catch((e: unknown) => e);
    while (jobs.all.size === 0) await tick();
    const id = [...jobs.all.keys()][0] as string;
    await s.client.cancelCrawl(id);
    const err = await drive(settled);
    expect(err).toMatchObject({ name: "JobFailedError", jobId: id, status: "cancelled" });
  });

  it("a deadline throws JobTimeoutError with the id and the last status seen", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const err = await drive(s.client.crawl("https://acme.test/", { pollIntervalMs: 500, timeoutMs: 5_000 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(JobTimeoutError);
    const t = err as JobTimeoutError;
    expect(t.jobId).toMatch(/-/);
    expect(t.timeoutMs).toBe(5_000);
    expect(t.lastStatus).toMatchObject({ id: t.jobId, status: "scraping" });
  });

  it("a job's failure and its deadline carry the request id of the status read that learned the outcome", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const settled = s.client.crawl("https://acme.test/", { pollIntervalMs: 500 }).catch((e: unknown) => e);
    while (jobs.all.size === 0) await tick();
    const id = [...jobs.all.keys()][0] as string;
    jobs.fail(id, "Start URL is blocked");
    const failed = (await drive(settled)) as JobFailedError;
    expect(failed).toBeInstanceOf(JobFailedError);
    const lastRead = statusPolls(s, id).at(-1)!;
    expect(failed.requestId).toBe(lastRead.headers["x-request-id"]);
    expect(JSON.parse(JSON.stringify(failed))).toMatchObject({ requestId: failed.requestId });

    const timedOut = (await drive(s.client.crawl("https://acme.test/", { pollIntervalMs: 500, timeoutMs: 5_000 }).catch((e: unknown) => e))) as JobTimeoutError;
    expect(timedOut).toBeInstanceOf(JobTimeoutError);
    const reads = statusPolls(s, timedOut.jobId).map((r) => r.headers["x-request-id"]);
    expect(timedOut.requestId).toBeDefined();
    expect(reads).toContain(timedOut.requestId); // the read whose answer is lastStatus
    expect((timedOut.lastStatus as { _requestId?: string })._requestId).toBe(timedOut.requestId);
  });

  it("the deadline counts from the call: a slow start leaves less time for polling", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, delayMs: 1_200 });
    // On the fake clock, which stands still during real I/O: the start's 1.2 s pass exactly (not a loopback
    // round trip's worth more), the first status read goes out at once, then 50 ms steps run out the deadline.
    const settled = s.client.crawl("https://acme.test/", { pollIntervalMs: 500, timeoutMs: 1_500 }).catch((e: unknown) => e);
    const gets = () => s!.fake.requests.filter((r) => r.method === "GET").length;
    while (!s.fake.requests.some((r) => r.method === "POST")) await tick();
    await tick();
    await vi.advanceTimersByTimeAsync(1_200);
    for (let i = 0; i < 1_000 && gets() === 0; i++) await tick();
    const err = await drive(settled, 50);
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect((err as JobTimeoutError).timeoutMs).toBe(1_500);
    // 1.2 s went to the start; the remaining 0.3 s allows one status read, not the three that 1.5 s of polling would.
    expect(s.fake.requests.filter((r) => r.method === "GET").length).toBeLessThanOrEqual(1);
  });

  it("a start slower than the whole deadline: JobTimeoutError naming the caller's timeoutMs (at most one status read), not a ValidationError", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    s.fake.inject({ match: /^POST \/v2\/crawl$/, delayMs: 400 });
    const settled = s.client.crawl("https://acme.test/", { pollIntervalMs: 500, timeoutMs: 300 }).catch((e: unknown) => e);
    while (!s.fake.requests.some((r) => r.method === "POST")) await tick();
    await tick();
    await vi.advanceTimersByTimeAsync(400);
    const err = await drive(settled, 50);
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect((err as JobTimeoutError).timeoutMs).toBe(300);
    // What is left is 1 ms: a status read may be cut by the deadline (the fake clock moves while it is in flight).
    expect(s.fake.requests.filter((r) => r.method === "GET").length).toBeLessThanOrEqual(1);
  });

  it("an abort during a poll sleep rejects at once with AbortError and polls no more", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const ctl = new AbortController();
    const settled = s.client.crawl("https://acme.test/", { pollIntervalMs: 60_000, signal: ctl.signal }).catch((e: unknown) => e);
    while (jobs.all.size === 0) await tick();
    const id = [...jobs.all.keys()][0] as string;
    while (statusPolls(s, id).length < 1) await tick();
    for (let i = 0; i < 5; i++) await tick();
    ctl.abort();
    // No fake time passes: the 60 s sleep must end on the abort alone.
    let result: unknown;
    for (let i = 0; i < 50 && result === undefined; i++) {
      await tick();
      result = await Promise.race([settled, Promise.resolve(undefined)]);
    }
    expect(result).toBeInstanceOf(AbortError);
    expect(statusPolls(s, id)).toHaveLength(1);
  });

  it("pollIntervalMs has a floor of 500 ms", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const settled = s.client.crawl("https://acme.test/", { pollIntervalMs: 1, timeoutMs: 2_600 }).catch((e: unknown) => e);
    let id: string | undefined;
    for (let elapsed = 0; elapsed < 3_000; elapsed += 50) {
      for (let i = 0; i < 3; i++) await tick();
      await vi.advanceTimersByTimeAsync(50);
      id ??= [...jobs.all.keys()][0];
    }
    expect(await settled).toBeInstanceOf(JobTimeoutError);
    // At most one poll per 500 ms over 2.6 s (plus the first).
    expect(statusPolls(s, id as string).length).toBeLessThanOrEqual(6);
    expect(statusPolls(s, id as string).length).toBeGreaterThanOrEqual(2);
  });

  it("treats a 404 right after the start as not visible yet", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9, maxRetries: 0 });
    s.fake.inject({ match: /^GET \/v2\/crawl\/[^/]+\?limit=1$/, times: 2, status: 404, body: { success: false, error: "Job not found" } });
    const job = await drive(s.client.crawl("https://acme.test/contact", { limit: 1, pollIntervalMs: 500 }));
    expect(job.status).toBe("completed");
    expect(job.data).toHaveLength(1);
  });

  it("a 404 that persists past the grace period is an error", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9, maxRetries: 0 });
    s.fake.inject({ match: /^GET \/v2\/crawl\/[^/]+\?limit=1$/, times: 100, status: 404, body: { success: false, error: "Job not found" } });
    const err = await drive(s.client.crawl("https://acme.test/contact", { limit: 1, pollIntervalMs: 500 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(NotFoundError);
  });

  it("retries a transient 503 while polling", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9, maxRetries: 2 });
    s.fake.inject({ match: /^GET \/v2\/crawl\/[^/]+\?limit=1$/, status: 503 });
    const job = await drive(s.client.crawl("https://acme.test/contact", { limit: 1, pollIntervalMs: 500 }));
    expect(job.status).toBe("completed");
  });
});
