/**
 * One home for time (`src/core/time.ts`): every timer of the library takes any value it accepted
 * without overflowing (a runtime's `setTimeout` fires at once above 2^31-1 ms, and vitest's fake
 * clock does the same), and the watcher's options are bounded where `crawl()` bounds them. All on
 * the fake clock.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ValidationError, WebData } from "../src/index.js";
import { after, delay, idleTimer, MAX_TIMER_MS } from "../src/core/time.js";
import { createFakeService } from "../src/testing/index.js";
import { until, useJobTimers } from "./jobs-helpers.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("the timers of src/core/time.ts", () => {
  it("after() waits past 2^31-1 ms as long as asked, never firing early (setTimeout alone fires at once)", async () => {
    vi.useFakeTimers();
    const fired: number[] = [];
    const start = Date.now();
    after(3e9, () => fired.push(Date.now() - start));
    await vi.advanceTimersByTimeAsync(10);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(3e9 - MAX_TIMER_MS - 11);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual([3e9]);
  });

  it("after() is cancelled in any leg of a chained wait; a negative or NaN delay waits 0 ms", async () => {
    vi.useFakeTimers();
    const fired: string[] = [];
    const cancel = after(5e9, () => fired.push("long"));
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 5);
    cancel();
    after(-5, () => fired.push("negative"));
    after(Number.NaN, () => fired.push("nan"));
    await vi.advanceTimersByTimeAsync(0);
    expect(fired).toEqual(["negative", "nan"]);
    await vi.advanceTimersByTimeAsync(5e9);
    expect(fired).toEqual(["negative", "nan"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("delay() past 2^31-1 ms resolves on time, and an abort ends it in any leg", async () => {
    vi.useFakeTimers();
    let done = false;
    void delay(2 ** 32).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2 ** 32 - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    const ctl = new AbortController();
    const waiting = delay(2 ** 32, ctl.signal);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 1);
    ctl.abort(new Error("stop"));
    await expect(waiting).rejects.toMatchObject({ name: "AbortError" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("idleTimer() fires after the silence, not counting the paused time, and heard() starts the silence again", async () => {
    vi.useFakeTimers();
    let idleAt: number | undefined;
    const start = Date.now();
    const t = idleTimer(1_000, () => (idleAt = Date.now() - start));
    await vi.advanceTimersByTimeAsync(600);
    t.heard(); // silence from 600
    await vi.advanceTimersByTimeAsync(600); // 1200: 600 of silence
    t.pause();
    await vi.advanceTimersByTimeAsync(5_000); // 6200: paused
    t.resume();
    await vi.advanceTimersByTimeAsync(399); // 6599: 999 of silence
    expect(idleAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(idleAt).toBe(6_600);
  });
});

describe("every timer of the library takes any accepted value without overflowing", () => {
  it("a server's Retry-After past 2^31-1 ms, within a client's maxRetryAfterMs, is waited out in full before the retry", async () => {
    vi.useFakeTimers();
    const fake = createFakeService();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", maxRetryAfterMs: 4e9 });
    fake.rateLimit({ retryAfterSeconds: 3_000_000 }); // 3e9 ms, about 35 days
    const result = client.scrape("https://acme.test/about");
    result.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS + 10);
    expect(fake.requests).toHaveLength(1); // the overflowing timer retried after 1 ms
    await vi.advanceTimersByTimeAsync(3e9 - MAX_TIMER_MS);
    await expect(result).resolves.toMatchObject({ metadata: { title: "About Acme" } });
    expect(fake.requests).toHaveLength(2);
  });
});

describe("the watcher's options are bounded where crawl()'s are", () => {
  it("watcher(id, { pollIntervalMs: 3e9 }) fails with the ValidationError crawl() gives, before any status read (the timer overflowed: 497 reads a second)", async () => {
    vi.useFakeTimers();
    const fake = createFakeService();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const job = await client.startCrawl("https://acme.test/", { limit: 50 });
    const before = fake.requests.length;
    const events: string[] = [];
    const iterate = (async () => {
      for await (const e of client.watcher(job.id, { pollIntervalMs: 3e9, transports: ["poll"] })) events.push(e.type);
    })();
    const outcome = iterate.then(
      () => undefined,
      (err: unknown) => err,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    const err = await outcome;
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe("Invalid watcher options: pollIntervalMs: must be <= 2147483647, got number 3000000000");
    const crawlErr = await client.crawl("https://acme.test/", { pollIntervalMs: 3e9 }).catch((e: unknown) => e);
    expect((crawlErr as Error).message).toBe("Invalid crawl options: pollIntervalMs: must be <= 2147483647, got number 3000000000");
    expect(fake.requests.length - before).toBe(0);
    expect(events).toEqual([]);
  });

  it("the largest accepted pollIntervalMs waits that long between status reads", async () => {
    useJobTimers();
    const fake = createFakeService();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const job = await client.startCrawl("https://acme.test/", { limit: 50 });
    const reads = () => fake.requests.filter((r) => r.method === "GET" && r.pathname.endsWith(job.id)).length;
    const w = client.watcher(job.id, { pollIntervalMs: MAX_TIMER_MS, transports: ["poll"] });
    w.on("status", () => undefined);
    await until(() => reads() > 0, "the first status read"); // the transport may load on first use: real I/O
    await vi.advanceTimersByTimeAsync(1_000);
    const first = reads();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads()).toBe(first);
    w.close();
  });
});
