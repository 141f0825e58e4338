/**
 * The entry of Deno, Bun and Workers (`server.ts`: the portable entry with every
 * on-demand part handed over up front) under fake timers, from a test file's
 * first use of each part: nothing is loaded between a call and its timers.
 * (Browsers get `index.ts`, which loads them on first use; TESTING.md says how
 * to test that.) Must not import the Node entry, which hands the parts over too.
 */
import { afterEach, it, vi } from "vitest";
import { WebData } from "../src/server.js";
import { createFakeService } from "../src/testing/index.js";
import { backsOffOnTheFakeClock, waiterPollsOnTheFakeClock } from "./support/fake-clock.js";

afterEach(() => vi.useRealTimers());

it("crawl()'s first polls run on the fake clock", async () => {
  await waiterPollsOnTheFakeClock(WebData);
});

it("a first client.v1 call backs off on the fake clock", async () => {
  const fake = createFakeService();
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
  await backsOffOnTheFakeClock(fake, () => client.v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] }), { success: true });
});
