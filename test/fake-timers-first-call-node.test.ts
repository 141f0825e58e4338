/**
 * The TESTING.md fake-clock pattern as a test file's first use of what the
 * portable entry loads on demand (the v1 layer, the schema conversion, the
 * watcher's transports), on the Node entry, which hands them over up front:
 * nothing is loaded between a call and its timers. (The portable entry loads
 * them on first use, for browser bundles; TESTING.md says how to test that.)
 */
import * as zm from "zod/v4/mini";
import { afterEach, expect, it, vi } from "vitest";
import { WebData as NodeWebData } from "../src/node.js";
import { createFakeService, fakeJobs } from "../src/testing/index.js";
import { backsOffOnTheFakeClock, waiterPollsOnTheFakeClock } from "./support/fake-clock.js";
import "../src/zod4.js"; // zod mini schemas need the opt-in converter (webdata/zod4), registered at import: nothing loads at the call

afterEach(() => vi.useRealTimers());

it("the same through client.v1 on the Node entry (which has the v1 layer up front)", async () => {
  const fake = createFakeService();
  const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
  await backsOffOnTheFakeClock(fake, () => client.v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] }), { success: true });
});

it("a zod 4 mini schema's first request on the Node entry (schema conversion up front, zod 4's converter registered by webdata/zod4)", async () => {
  const fake = createFakeService();
  const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  const schema = zm.object({ title: zm.string() });
  await backsOffOnTheFakeClock(fake, () => client.scrape("https://acme.test/about", { formats: [{ type: "json", schema }] }), {});
  const body = fake.requests[0]?.body as { formats: { schema: { properties: object } }[] };
  expect(body.formats[0]?.schema.properties).toEqual({ title: { type: "string" } });
});

it("a watcher's first polls on the Node entry (which has the watcher's transports up front) run on the fake clock", async () => {
  const fake = createFakeService();
  const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
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
});

it("crawl()'s first polls on the Node entry (which has the job waiters up front) run on the fake clock", async () => {
  await waiterPollsOnTheFakeClock(NodeWebData);
});
