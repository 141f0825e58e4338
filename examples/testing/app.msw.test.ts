import { http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebData } from "webdata";
import { createFakeService } from "webdata/testing";
import { summarise } from "./app.js";

// msw routes the global fetch to the fake; your other handlers stay as they are.
const fake = createFakeService();
const server = setupServer(http.all("https://fake.test/*", ({ request }) => fake.handle(request)));
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

it("summarises through msw, retrying a 503", async () => {
  // On Node, pass the global fetch: the client's default Node transport (undici) is not one msw sees.
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: (input, init) => fetch(input, init), logLevel: "off" });
  fake.failNext(503, { headers: { "retry-after": "0" } });
  expect(await summarise(client, "https://acme.test/products")).toMatchObject({ title: "Acme Products" });
  expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v2/scrape", "POST /v2/scrape"]);
});
