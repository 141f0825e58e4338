/**
 * `client.v1` is a `V1Client` over the client's own request layer. The method
 * lists the drop-in's `FirecrawlAppV1` forwards (`v1/methods.ts`) must match
 * `V1Client`, split by what each returns (`APIPromise` with `.withResponse()`,
 * or a plain `Promise`).
 */
import { describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { APIPromise } from "../src/core/request.js";
import { createFakeService } from "../src/testing/index.js";
import { V1Client } from "../src/v1/client.js";
import { V1_API_METHODS, V1_PROMISE_METHODS } from "../src/v1/methods.js";
import { v1 as v1Face } from "../src/v1/index.js";

describe("client.v1", () => {
  const fake = createFakeService();
  const opts = { apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0, silenceDeprecationWarnings: true } as const;

  it("lists every V1Client method once, split by what the method returns", async () => {
    const methods = Object.getOwnPropertyNames(V1Client.prototype).filter((n) => n !== "constructor").sort();
    expect([...V1_API_METHODS, ...V1_PROMISE_METHODS].sort()).toEqual(methods);
    const real = new V1Client(new WebData({ ...opts, plugins: [v1Face] }).http) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const name of methods) {
      const result = real[name]!(12345, { limit: -5 });
      await result.catch(() => undefined);
      expect(result instanceof APIPromise, name).toBe((V1_API_METHODS as readonly string[]).includes(name));
    }
  });

  it("is a V1Client over the client's request layer, with .withResponse() and typed errors", async () => {
    const client = new WebData({ ...opts, plugins: [v1Face] });
    expect(client.v1).toBeInstanceOf(V1Client);
    const p = client.v1.mapUrl("https://acme.test/");
    expect(p).toBeInstanceOf(APIPromise);
    const { data, response } = await p.withResponse();
    expect(response.status).toBe(200);
    expect(data).toMatchObject({ success: true });
    expect(client.v1).toBe(client.v1);
    await expect(client.v1.scrapeUrl("not a url")).rejects.toMatchObject({ name: "ValidationError" });
    const crawl = await client.v1.crawlUrl("https://acme.test/", { limit: 2 }, 0.5);
    expect(crawl).toMatchObject({ success: true, status: "completed" });
  });
});
