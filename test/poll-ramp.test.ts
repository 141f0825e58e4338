/**
 * The first polls ramp up (`src/jobs/pages.ts`): without a
 * `pollIntervalMs`, a watcher (REST polling), a waiter and a document iterator pause
 * 500, 750, 1125, 1687.5 ms, then 2000 ms. Measured on the fake's clock (fake timers,
 * the in-process fake): a crawl whose first document is scraped at 1 s is seen at
 * 1.25 s instead of 2 s, for at most 1.5x the status reads of the fixed 2 s schedule
 * (what the default was, and what an explicit `pollIntervalMs: 2000` still gets).
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { WatcherOptions } from "../src/index.js";
import { DEFAULT_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, POLL_FLOOR_OPTION, pollPauses } from "../src/jobs/pages.js";
import { fakeJobs } from "../src/testing/index.js";
import { tick } from "./jobs-helpers.js";
import { inProcessSetup } from "./watch-helpers.js";

const STEP_MS = 25;

describe("pollPauses", () => {
  it("ramps from the floor by 1.5x up to the default interval when no interval is given", () => {
    const next = pollPauses(undefined);
    expect(Array.from({ length: 7 }, next)).toEqual([500, 750, 1125, 1687.5, 2000, 2000, 2000]);
    expect(MIN_POLL_INTERVAL_MS).toBe(500);
    expect(DEFAULT_POLL_INTERVAL_MS).toBe(2000);
  });

  it("keeps an explicit interval from the first pause (raised to the floor), and never pauses below the floor", () => {
    expect(Array.from({ length: 3 }, pollPauses(2000))).toEqual([2000, 2000, 2000]);
    expect(Array.from({ length: 3 }, pollPauses(5000))).toEqual([5000, 5000, 5000]);
    expect(Array.from({ length: 3 }, pollPauses(1))).toEqual([500, 500, 500]);
    expect(Math.min(...Array.from({ length: 20 }, pollPauses(undefined)))).toBe(500);
  });

  it("the internal test floor lowers an explicit interval only, not the ramp", () => {
    expect(Array.from({ length: 2 }, pollPauses(50, { [POLL_FLOOR_OPTION]: 50 }))).toEqual([50, 50]);
    expect(pollPauses(undefined, { [POLL_FLOOR_OPTION]: 50 })()).toBe(500);
  });
});

/** What a polling watcher saw of one crawl, on the fake's clock. */
interface Seen {
  /** ms from the watcher's start to its first document. */
  firstDocumentMs: number;
  /** ms from the start to `done`. */
  doneMs: number;
  /** Status reads (GET of the job) until `done`. */
  statusReads: number;
}

/**
 * A crawl whose first document is scraped at `firstDocAt` ms and which ends at `endAt` ms, watched
 * from its start over REST polling with `options`.
 */
async function watchCrawl(options: WatcherOptions, firstDocAt: number, endAt: number): Promise<Seen> {
  const { fake, client } = inProcessSetup();
  const jobs = fakeJobs(fake);
  jobs.configure({ pagesPerPoll: 0 });
  const job = await client.startCrawl("https://acme.test/", { limit: 5 });
  const t0 = Date.now();
  let firstDocumentMs = Number.NaN;
  let doneMs = Number.NaN;
  const watcher = client.watcher(job.id, { transports: ["poll"], ...options });
  watcher.on("document", () => {
    if (Number.isNaN(firstDocumentMs)) firstDocumentMs = Date.now() - t0;
  });
  watcher.on("done", () => (doneMs = Date.now() - t0));
  watcher.on("error", () => undefined);
  let scraped = false;
  let ended = false;
  for (let t = 0; Number.isNaN(doneMs) && t < endAt + 10_000; t += STEP_MS) {
    if (!scraped && t >= firstDocAt) {
      jobs.advance(job.id, 1);
      scraped = true;
    }
    if (!ended && t >= endAt) {
      jobs.finish(job.id);
      ended = true;
    }
    for (let i = 0; i < 3; i++) await tick();
    await vi.advanceTimersByTimeAsync(STEP_MS);
  }
  watcher.close();
  const statusReads = fake.requests.filter((r) => r.method === "GET" && r.pathname.endsWith(job.id)).length;
  return { firstDocumentMs, doneMs, statusReads };
}

describe("the watcher's REST polling ramps its first polls (fake clock)", () => {
  beforeAll(() => import("../src/jobs/watch-poll.js"));
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] }));
  afterEach(() => vi.useRealTimers());

  it("a document scraped at 1 s arrives by 1.3 s (2 s on the fixed schedule)", async () => {
    const fixed = await watchCrawl({ pollIntervalMs: 2000 }, 1000, 5000);
    const ramped = await watchCrawl({}, 1000, 5000);
    expect(fixed.firstDocumentMs).toBeGreaterThanOrEqual(2000);
    expect(ramped.firstDocumentMs).toBeGreaterThanOrEqual(1000);
    expect(ramped.firstDocumentMs).toBeLessThanOrEqual(1300);
  });

  it("reads the status at most 1.5x as often as the fixed schedule, for a 5 s and a 60 s job", async () => {
    for (const endAt of [5000, 60_000]) {
      const fixed = await watchCrawl({ pollIntervalMs: 2000 }, 1000, endAt);
      const ramped = await watchCrawl({}, 1000, endAt);
      // The end is seen within one interval either way (the phases differ: 6063 ms against 6000 for the 5 s job).
      expect(ramped.doneMs - endAt, `${endAt} ms job`).toBeLessThanOrEqual(DEFAULT_POLL_INTERVAL_MS);
      expect(fixed.doneMs - endAt, `${endAt} ms job`).toBeLessThanOrEqual(DEFAULT_POLL_INTERVAL_MS);
      if (process.env.WEBDATA_PRINT_RAMP) console.log(endAt, { fixed, ramped });
      expect(ramped.statusReads / fixed.statusReads, `${endAt} ms job: ${ramped.statusReads} reads vs ${fixed.statusReads}`).toBeLessThanOrEqual(1.5);
    }
  });

  it("an explicit pollIntervalMs is kept from the first poll", async () => {
    const slow = await watchCrawl({ pollIntervalMs: 5000 }, 1000, 20_000);
    expect(slow.firstDocumentMs).toBeGreaterThanOrEqual(5000);
  });
});

describe("the waiters ramp too (fake clock)", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] }));
  afterEach(() => vi.useRealTimers());

  /** When `crawl()` returns for a job that ends at `endAt`, and its status reads. */
  async function waitCrawl(pollIntervalMs: number | undefined, endAt: number): Promise<{ ms: number; reads: number }> {
    const { fake, client } = inProcessSetup();
    const jobs = fakeJobs(fake);
    jobs.configure({ pagesPerPoll: 0 });
    const t0 = Date.now();
    let ms = Number.NaN;
    const done = client.crawl("https://acme.test/", { limit: 3, ...(pollIntervalMs ? { pollIntervalMs } : {}) }).then(() => (ms = Date.now() - t0));
    let ended = false;
    for (let t = 0; Number.isNaN(ms) && t < endAt + 10_000; t += STEP_MS) {
      if (!ended && t >= endAt) {
        for (const id of jobs.all.keys()) jobs.finish(id);
        ended = true;
      }
      for (let i = 0; i < 3; i++) await tick();
      await vi.advanceTimersByTimeAsync(STEP_MS);
    }
    await done;
    const reads = fake.requests.filter((r) => r.method === "GET" && /\/v2\/crawl\/[0-9a-f-]+$/.test(r.pathname)).length;
    return { ms, reads };
  }

  it("a crawl that ends at 1 s returns by 1.3 s (2 s fixed), for at most 1.5x the reads of a 5 s one", async () => {
    const fixed = await waitCrawl(2000, 1000);
    const ramped = await waitCrawl(undefined, 1000);
    expect(fixed.ms).toBeGreaterThanOrEqual(2000);
    expect(ramped.ms).toBeLessThanOrEqual(1300);
    const fixed5 = await waitCrawl(2000, 5000);
    const ramped5 = await waitCrawl(undefined, 5000);
    expect(ramped5.reads / fixed5.reads).toBeLessThanOrEqual(1.5);
  });
});
