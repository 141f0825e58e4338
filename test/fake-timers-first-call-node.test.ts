/**
 * The TESTING.md fake-clock pattern as a test file's first `client.v1` call on
 * the Node entry, which hands `client.v1` its layer up front: nothing is loaded
 * between the 429 and the retry's timer. (The portable entry loads the v1 layer
 * on first use, for browser bundles; TESTING.md says how to test that.)
 */
import { afterEach, it, vi } from "vitest";
import { WebData as NodeWebData } from "../src/node.js";
import { createFakeService } from "../src/testing/index.js";
import { backsOffOnTheFakeClock } from "./support/fake-clock.js";

afterEach(() => vi.useRealTimers());

it("the same through client.v1 on the Node entry (which has the v1 layer up front)", async () => {
  const fake = createFakeService();
  const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
  await backsOffOnTheFakeClock(fake, () => client.v1.scrapeUrl("https://acme.test/about", { formats: ["markdown"] }), { success: true });
});
