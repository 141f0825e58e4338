/** The TESTING.md fake-clock steps, shared by the tests that run them as a file's first call. */
import * as zm from "zod/v4/mini";
import { afterEach, expect, it, vi } from "vitest";
import type { WebData } from "../../src/index.js";
import { createFakeService, fakeJobs, type FakeService } from "../../src/testing/index.js";
import { v1 as v1Face } from "../../src/v1/index.js";

/** The TESTING.md steps: a 429 asking for 2 s, no retry at 1.999 s, the retry at 2 s. */
export async function backsOffOnTheFakeClock(fake: FakeService, call: () => Promise<unknown>, expected: object): Promise<void> {
  vi.useFakeTimers();
  fake.rateLimit({ retryAfterSeconds: 2 });
  const result = call();
  await vi.advanceTimersByTimeAsync(1_999);
  expect(fake.requests).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  await expect(result).resolves.toMatchObject(expected);
  expect(fake.requests).toHaveLength(2);
}

/**
 * `crawl()` as a test file's first waiting call, under fake timers: the start and the first status read
 * go out at once, the next read after exactly `pollIntervalMs`, and the call resolves once the crawl ends.
 */
export async function waiterPollsOnTheFakeClock(Client: typeof WebData): Promise<void> {
  const fake = createFakeService();
  const jobs = fakeJobs(fake);
  jobs.configure({ pagesPerPoll: 0 }); // the crawl stays where it is until the test finishes it
  const client = new Client({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  vi.useFakeTimers();
  const reads = () => fake.requests.filter((r) => r.method === "GET" && r.path.startsWith("/v2/crawl/")).length;
  const result = client.crawl("https://acme.test/", { limit: 5, pollIntervalMs: 1_000 });
  await vi.advanceTimersByTimeAsync(999);
  expect(fake.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  expect(reads()).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(reads()).toBe(2);
  const [started] = fake.requests;
  expect(started?.path).toBe("/v2/crawl");
  const id = fake.requests.find((r) => r.method === "GET")!.path.split("/")[3]!.split("?")[0]!;
  jobs.finish(id);
  await vi.runAllTimersAsync();
  await expect(result).resolves.toMatchObject({ status: "completed" });
}

/** A watcher's first polls under fake timers: the first status read at once, the next after exactly `pollIntervalMs`. */
export async function watcherPollsOnTheFakeClock(Client: typeof WebData): Promise<void> {
  const fake = createFakeService();
  const client = new Client({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  const { id } = await client.startCrawl("https://acme.test/", { limit: 5 });
  const jobs = fakeJobs(fake);
  jobs.configure({ pagesPerPoll: 0 }); // the crawl stays where it is until the test finishes it
  vi.useFakeTimers();
  const reads = () => fake.requests.filter((r) => r.method === "GET" && r.path.startsWith(`/v2/crawl/${id}`)).length;
  const events: string[] = [];
  const done = (async () => {
    for await (const ev of client.watcher(id, { transports: ["poll"], pollIntervalMs: 1_000 })) events.push(ev.type);
  })();
  await vi.advanceTimersByTimeAsync(999);
  expect(reads()).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(reads()).toBe(2);
  jobs.finish(id);
  await vi.runAllTimersAsync();
  await done;
  expect(events.at(-1)).toBe("done");
}

/**
 * The TESTING.md fake-clock steps as a test file's first use of each part of the client: the request
 * path, the job waiters, `client.v1`, the schema conversion (a zod mini schema: the file must import
 * `webdata/zod4`) and the watcher. Each part is first used by its own test, in this order, so a part
 * that loaded a module between a call and its timers would fail its test. Call it once, at the top
 * of a file that imports one entry (vitest gives each file a fresh module graph).
 */
export function firstUsesOnTheFakeClock(Client: typeof WebData): void {
  afterEach(() => vi.useRealTimers());
  const make = (fake: FakeService) => new Client({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });

  it("a first call that is rate limited backs off on the fake clock", async () => {
    const fake = createFakeService();
    await backsOffOnTheFakeClock(fake, () => make(fake).scrape("https://acme.test/about", { formats: ["markdown"] }), { metadata: { title: "About Acme" } });
  });

  it("crawl()'s first polls run on the fake clock", async () => {
    await waiterPollsOnTheFakeClock(Client);
  });

  it("a first client.v1 call backs off on the fake clock", async () => {
    const fake = createFakeService();
    await backsOffOnTheFakeClock(fake, () => make(fake).v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] }), { success: true });
  });

  it("a first request with a zod 4 mini schema backs off on the fake clock, with the schema converted", async () => {
    const fake = createFakeService();
    const schema = zm.object({ title: zm.string() });
    await backsOffOnTheFakeClock(fake, () => make(fake).scrape("https://acme.test/about", { formats: [{ type: "json", schema }] }), {});
    const body = fake.requests[0]?.body as { formats: { schema: { properties: object } }[] };
    expect(body.formats[0]?.schema.properties).toEqual({ title: { type: "string" } });
  });

  it("a watcher's first polls run on the fake clock", async () => {
    await watcherPollsOnTheFakeClock(Client);
  });
}
