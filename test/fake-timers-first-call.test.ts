/**
 * The TESTING.md pattern (fake timers, the fake's 429 with a 2 s wait) as the
 * very first call of a test file: nothing the client loads on demand may sit
 * between the request and the retry's timer, or the test's
 * `advanceTimersByTimeAsync` runs before the timer exists and the call never
 * ends. Each test file gets a fresh module graph, so this file's first call is
 * the client's first call. The portable entry's first call, and the Node
 * entry's first `client.v1` call (the portable entry loads the v1 layer on
 * first use, for browser bundles; under fake timers there, make one real-time
 * call first, as TESTING.md says).
 */
import { afterEach, expect, it, vi } from "vitest";
import { WebData } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { createFakeService } from "../src/testing/index.js";

afterEach(() => vi.useRealTimers());

it("a first call that is rate limited backs off on the fake clock", async () => {
  const fake = createFakeService();
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  vi.useFakeTimers();
  fake.rateLimit({ retryAfterSeconds: 2 });
  const doc = client.scrape("https://acme.test/about", { formats: ["markdown"] });
  await vi.advanceTimersByTimeAsync(1_999);
  expect(fake.requests).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  await expect(doc).resolves.toMatchObject({ metadata: { title: "About Acme" } });
  expect(fake.requests).toHaveLength(2);
});

it("the same through client.v1 on the Node entry (which has the v1 layer up front)", async () => {
  const fake = createFakeService();
  const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
  vi.useFakeTimers();
  fake.rateLimit({ retryAfterSeconds: 2 });
  const doc = client.v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] });
  await vi.advanceTimersByTimeAsync(1_999);
  expect(fake.requests).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  await expect(doc).resolves.toMatchObject({ success: true });
  expect(fake.requests).toHaveLength(2);
});
