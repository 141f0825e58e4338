/**
 * The fake service mounted in msw, as `webdata/testing` documents: a client
 * using the global `fetch` (no injection) talks to the fake through msw's
 * interception.
 */
import { http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";

const fake = createFakeService();
const server = setupServer(http.all("https://fake-msw.webdata.test/*", ({ request }) => fake.handle(request)));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("the fake service in msw", () => {
  it("answers the portable client's global fetch, errors and retries included", async () => {
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake-msw.webdata.test", logLevel: "off" });
    const doc = await client.scrape("https://acme.test/about", { formats: ["markdown"] });
    expect(doc.markdown).toContain("founded in 1999");
    fake.rateLimit({ retryAfterSeconds: 0 });
    expect((await client.getCreditUsage()).planCredits).toBe(100_000);
    const err = await client.scrape("https://unknown-host.example/", {}, { maxRetries: 0 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "InternalServerError", code: "SCRAPE_ALL_ENGINES_FAILED" });
    expect(fake.requests.map((r) => r.pathname)).toEqual(["/v2/scrape", "/v2/team/credit-usage", "/v2/team/credit-usage", "/v2/scrape"]);
  });
});
