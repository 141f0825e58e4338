import { afterAll, beforeAll, expect, it } from "vitest";
import { WebData } from "webdata";
import { createFakeService, serveFake, type ServedFake } from "webdata/testing";
import { summarise } from "./app.js";

// Over real HTTP on 127.0.0.1: the client uses its own transport, as in production.
const fake = createFakeService();
let served: ServedFake;
beforeAll(async () => {
  served = await serveFake(fake);
});
afterAll(() => served.close());

it("summarises over loopback and survives a dropped connection", async () => {
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off" });
  fake.dropConnection(); // the first attempt's socket is reset; the client retries
  expect(await summarise(client, "https://acme.test/contact")).toMatchObject({ title: "Contact Acme" });
  expect(fake.requests).toHaveLength(2);
});
