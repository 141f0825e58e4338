/**
 * The poll numbers stated once in `src/jobs/pages.ts`: one default
 * (2000 ms) and one public floor (500 ms) for every poll, the watcher's
 * included; only the internal test-only option lowers the floor.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WatcherOptions } from "../src/index.js";
import { DEFAULT_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, POLL_FLOOR_OPTION, pollInterval } from "../src/jobs/pages.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup } from "./helpers.js";
import { drive, tick } from "./jobs-helpers.js";
import { inProcessSetup } from "./watch-helpers.js";

describe("pollInterval", () => {
  it("defaults to 2000 ms and raises anything shorter than 500 ms", () => {
    expect([DEFAULT_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS]).toEqual([2000, 500]);
    expect(pollInterval(undefined)).toBe(2000);
    expect(pollInterval(Number.NaN)).toBe(2000);
    expect(pollInterval(Number.POSITIVE_INFINITY)).toBe(2000);
    expect(pollInterval(1)).toBe(500);
    expect(pollInterval(0)).toBe(500);
    expect(pollInterval(750)).toBe(750);
  });

  it("only the internal option lowers the floor; a public-looking key does not", () => {
    expect(pollInterval(20, { [POLL_FLOOR_OPTION]: 50 })).toBe(50);
    expect(pollInterval(80, { [POLL_FLOOR_OPTION]: 50 })).toBe(80);
    expect(pollInterval(20, { [POLL_FLOOR_OPTION]: -1 })).toBe(500);
    expect(pollInterval(20, { minPollIntervalMs: 1 } as never)).toBe(500);
  });
});

describe("the watcher's REST polling uses the same floor", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] }));
  afterEach(() => vi.useRealTimers());

  /** Status reads of a never-ending job over `ms` of fake time while a polling watcher runs. */
  async function statusReads(options: WatcherOptions, ms: number): Promise<number> {
    const { fake, client } = inProcessSetup();
    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    const job = await client.startCrawl("https://acme.test/", { limit: 3 });
    const watcher = client.watcher(job.id, { transports: ["poll"], ...options });
    watcher.on("status", () => undefined);
    for (let t = 0; t < ms; t += 50) {
      for (let i = 0; i < 3; i++) await tick();
      await vi.advanceTimersByTimeAsync(50);
    }
    watcher.close();
    return fake.requests.filter((r) => r.method === "GET" && r.pathname.endsWith(job.id)).length;
  }

  it("a public pollIntervalMs below 500 ms polls at most every 500 ms", async () => {
    const reads = await statusReads({ pollIntervalMs: 1 }, 2_600);
    // The first read plus one per 500 ms.
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(6);
  });

  it("the internal test-only option polls faster", async () => {
    const reads = await statusReads({ pollIntervalMs: 50, [POLL_FLOOR_OPTION]: 50 } as WatcherOptions, 2_600);
    expect(reads).toBeGreaterThanOrEqual(20);
  });
});

describe("the v1 waiters' default interval", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] }));
  afterEach(() => vi.useRealTimers());

  it("crawlUrl without pollInterval polls every 2 seconds (V1_DEFAULT_POLL_SECONDS)", async () => {
    const s = await setup("fetch");
    const jobs = fakeJobs(s.fake);
    jobs.configure({ pagesPerPoll: 0 });
    const done = s.client.v1.crawlUrl("https://acme.test/", { limit: 2 });
    const polls = () => s.fake.requests.filter((r) => r.method === "GET" && r.path.endsWith("?limit=1")).length;
    for (let i = 0; i < 100 && polls() < 1; i++) await tick();
    expect(polls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_999);
    for (let i = 0; i < 5; i++) await tick();
    expect(polls()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    for (let i = 0; i < 5; i++) await tick();
    expect(polls()).toBe(2);
    jobs.finish([...jobs.all.keys()][0] as string);
    expect(await drive(done)).toMatchObject({ success: true, status: "completed" });
  });
});
