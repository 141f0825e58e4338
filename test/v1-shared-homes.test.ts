/**
 * The v1 layer maps names and shapes onto the shared homes, so the rules that live
 * there hold for v1 calls as for v2 ones: error classes by status and code (a used
 * idempotency key is `IdempotencyConflictError`), the 404 grace right after a job
 * start (waiters and watcher alike), and the job start itself (`api/job-starts.ts`).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConflictError, IdempotencyConflictError } from "../src/index.js";
import type { V1DoneDetail, V1ErrorDetail } from "../src/v1/index.js";
import { fakeJobs, FIXTURE_ORIGIN } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, drivePaced, useJobTimers } from "./jobs-helpers.js";

const HOME = `${FIXTURE_ORIGIN}/`;
const KEY = "6f1c8a52-7a3e-4c55-9d0b-2f8e5b6a1c3d";
const USED = { status: 409, body: { success: false, error: "Idempotency key already used" } };
const NOT_FOUND = { status: 404, body: { success: false, error: "Job not found" } };
let s: Setup | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await s?.close();
  s = undefined;
});

function outcome(w: EventTarget): Promise<{ type: string; detail: V1DoneDetail | V1ErrorDetail }> {
  return new Promise((resolve) => {
    for (const type of ["done", "error"]) w.addEventListener(type, (ev) => resolve({ type, detail: (ev as CustomEvent<V1DoneDetail | V1ErrorDetail>).detail }));
  });
}

describe.each(TRANSPORTS)("v1 over the shared homes, %s", (kind) => {
  it("a used idempotency key is IdempotencyConflictError from asyncCrawlUrl, as from v2 startCrawl (never retried)", async () => {
    s = await setup(kind, {}, { maxRetries: 2 });
    s.fake.inject({ match: /^POST \/v1\/crawl$/, ...USED });
    const err = await s.client.v1.asyncCrawlUrl(HOME, { limit: 1 }, KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ status: 409, serverMessage: "Idempotency key already used", endpoint: "POST /v1/crawl" });
    expect(s.fake.requests.map((r) => `${r.method} ${r.pathname} ${r.headers["x-idempotency-key"]}`)).toEqual([`POST /v1/crawl ${KEY}`]);
  });

  it("a used idempotency key is IdempotencyConflictError from asyncBatchScrapeUrls and batchScrapeUrls", async () => {
    s = await setup(kind, {}, { maxRetries: 2 });
    s.fake.inject({ match: /^POST \/v1\/batch\/scrape$/, times: 2, ...USED });
    const started = await s.client.v1.asyncBatchScrapeUrls([HOME], {}, KEY).catch((e: unknown) => e);
    expect(started).toBeInstanceOf(IdempotencyConflictError);
    expect(started).toMatchObject({ serverMessage: "Idempotency key already used", endpoint: "POST /v1/batch/scrape" });
    const waited = await s.client.v1.batchScrapeUrls([HOME], {}, 1, KEY).catch((e: unknown) => e);
    expect(waited).toBeInstanceOf(IdempotencyConflictError);
    expect(s.fake.requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  it("crawlUrlAndWatch: a 404 right after the start is 'not visible yet' (the v2 watcher's rule), not an error event", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 3 });
    const watcher = await drive(s.client.v1.crawlUrlAndWatch(HOME, { limit: 3 }));
    // The job was started by this client a moment ago: its first status reads answer 404.
    s.fake.inject({ match: new RegExp(`^GET /v1/crawl/${watcher.id}`), times: 2, ...NOT_FOUND });
    // Paced: on the Node entry the watcher streams over undici's WebSocket first, real I/O that must not pass for the 10 s grace
    // (at 10 fake ms a real one the grace lasts a real second; at the default 50, 0.2 s, a loaded machine's socket I/O outlasted it).
    const end = await drivePaced(outcome(watcher), { ratio: 10 });
    expect(end.type).toBe("done");
    expect(end.detail).toMatchObject({ status: "completed", id: watcher.id });
    expect(end.detail.data).toHaveLength(3);
    const reads = s.fake.requests.filter((r) => r.method === "GET" && r.pathname.startsWith(`/v1/crawl/${watcher.id}`));
    expect(reads.length).toBeGreaterThan(2);
  });

  it("crawlUrlAndWatch of a job not found long after its start still ends in one error event (the grace is 10 s)", async () => {
    useJobTimers();
    // A server that no longer knows the job serves no socket for it either (the fake's own socket would stream the
    // running job: the Node entry's v1 watchers take undici's WebSocket, as its v2 ones do, whatever ran before).
    s = await setup(kind, {}, {}, { webSocket: false });
    fakeJobs(s.fake).configure({ pagesPerPoll: 0 });
    const watcher = await drive(s.client.v1.crawlUrlAndWatch(HOME, { limit: 3 }));
    s.fake.inject({ match: new RegExp(`^GET /v1/crawl/${watcher.id}`), times: 1000, ...NOT_FOUND });
    const end = await drive(outcome(watcher));
    expect(end.type).toBe("error");
    expect(end.detail).toMatchObject({ id: watcher.id });
  });

  it("crawlUrl and batchScrapeUrls wait through a 404 right after their start, like crawl() and batchScrape()", async () => {
    useJobTimers();
    s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 2 });
    s.fake.inject({ match: /^GET \/v1\/crawl\/[^/]+$/, times: 2, ...NOT_FOUND });
    const crawled = await drive(s.client.v1.crawlUrl(HOME, { limit: 2 }, 1));
    expect(crawled).toMatchObject({ success: true, status: "completed" });
    s.fake.inject({ match: /^GET \/v1\/batch\/scrape\/[^/]+$/, times: 2, ...NOT_FOUND });
    const batch = await drive(s.client.v1.batchScrapeUrls([HOME], {}, 1));
    expect(batch).toMatchObject({ success: true, status: "completed" });
    if (!batch.success) throw new Error(batch.error);
    expect(batch.data).toHaveLength(1);
  });
});
