/**
 * The TESTING.md pattern (fake timers, the fake's 429 with a 2 s wait) as the
 * very first call of a test file: nothing the client loads on demand may sit
 * between the request and the retry's timer, or the test's
 * `advanceTimersByTimeAsync` runs before the timer exists and the call never
 * ends. Each test file gets a fresh module graph, so this file's first call is
 * the client's first call. This file imports only the portable entry: the
 * Node entry would load, up front, modules the portable one loads on demand.
 * The Node entry's `client.v1` is in fake-timers-first-call-node.test.ts.
 */
import { afterEach, it, vi } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";
import { backsOffOnTheFakeClock } from "./support/fake-clock.js";

afterEach(() => vi.useRealTimers());

it("a first call that is rate limited backs off on the fake clock", async () => {
  const fake = createFakeService();
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  await backsOffOnTheFakeClock(fake, () => client.scrape("https://acme.test/about", { formats: ["markdown"] }), { metadata: { title: "About Acme" } });
});
