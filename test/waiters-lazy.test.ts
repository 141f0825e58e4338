/**
 * The portable entry's job waiters load on first use: a waiting call made before
 * the load sends its options as they were at the call, not as changed while the
 * module loaded. (Must be the file's first waiting call, and must not import the
 * Node or server entry, which hand the waiters over up front.)
 */
import { expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { jobWaiters } from "../src/client.js";
import { POLL_FLOOR_OPTION } from "../src/jobs/poll-timing.js";
import { createFakeService } from "../src/testing/index.js";

it("crawl() called before the waiters load starts the crawl with the options of the call", async () => {
  expect(jobWaiters.now).toBeUndefined();
  const fake = createFakeService();
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  const options = { limit: 2, pollIntervalMs: 50, [POLL_FLOOR_OPTION]: 50 };
  const done = client.crawl("https://acme.test/", options);
  options.limit = 99;
  await expect(done).resolves.toMatchObject({ status: "completed" });
  expect((fake.requests[0]?.body as { limit?: number }).limit).toBe(2);
  expect(jobWaiters.now).toBeDefined();
});
