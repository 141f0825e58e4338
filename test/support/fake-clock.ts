/** The TESTING.md fake-clock steps, shared by the tests that run them as a file's first call. */
import { expect, vi } from "vitest";
import type { WebData } from "../../src/index.js";
import { createFakeService, fakeJobs, type FakeService } from "../../src/testing/index.js";

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
  const client = new Client({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
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
