import { afterAll, beforeAll, expect, it } from "vitest";
import { WebData } from "webdata";
import { createFakeService, fakeJobs, serveFake, type ServedFake } from "webdata/testing";
import { siteIndex, summarise } from "./app.js";

// Over real HTTP on 127.0.0.1: the client uses its own transport, as in production.
const fake = createFakeService();
let served: ServedFake;
let client: WebData;
beforeAll(async () => {
  served = await serveFake(fake);
  client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
});
afterAll(() => served.close());

it("retries a 429 and a 503 over loopback", async () => {
  fake.rateLimit({ retryAfterSeconds: 0 }); // "retry after 0s": no real waiting in this test
  fake.failNext(503, { headers: { "retry-after": "0" } }); // then a 503; the client retries again
  expect(await summarise(client, "https://acme.test/contact")).toMatchObject({ title: "Contact Acme" });
  expect(fake.requests.map((r) => r.path)).toEqual(["/v2/scrape", "/v2/scrape", "/v2/scrape"]);
});

it("survives a failed crawl over loopback", async () => {
  fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed" });
  expect(await siteIndex(client, "https://acme.test")).toEqual({ titles: [], error: "Crawl failed" });
});
