import { http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { WebData } from "webdata";
import { createFakeService, fakeJobs } from "webdata/testing";
import { siteIndex, summarise } from "./app.js";

// msw routes the global fetch to the fake; your other handlers stay as they are.
const fake = createFakeService();
const server = setupServer(http.all("https://fake.test/*", ({ request }) => fake.handle(request)));
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => vi.useRealTimers());
afterAll(() => server.close());

// On Node, pass the global fetch: the client's default Node transport (undici) is not one msw sees.
const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: (input, init) => fetch(input, init), logLevel: "off" });

it("backs off on 429 through msw", async () => {
  vi.useFakeTimers();
  fake.rateLimit({ retryAfterSeconds: 2 });
  const result = summarise(client, "https://acme.test/products");
  await vi.advanceTimersByTimeAsync(1_999);
  expect(fake.requests).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(1);
  await expect(result).resolves.toMatchObject({ title: "Acme Products" });
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v2/scrape", "POST /v2/scrape"]);
});

it("survives a failed crawl through msw", async () => {
  vi.useFakeTimers();
  fakeJobs(fake).failNext({ kind: "crawl", error: "Crawl failed" });
  const index = siteIndex(client, "https://acme.test");
  await vi.runAllTimersAsync();
  expect(await index).toEqual({ titles: [], error: "Crawl failed" });
});
