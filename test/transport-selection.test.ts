/**
 * Transport selection (`selectTransport` in `src/core/transport.ts`), the one
 * rule behind `new WebData()` on both entries and the standalone `scrape`: a
 * caller's `fetch` always wins, then the runtime entry's transport (undici on
 * Node), else the global `fetch`, looked up at each call.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { scrape, WebData as PortableWebData } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { createFakeService, FIXTURE_ORIGIN, serveFake } from "../src/testing/node.js";

const URL_ = "https://fake.webdata.test";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("transport selection", () => {
  it("the Node client sends through a caller's fetch, not undici", async () => {
    const fake = createFakeService();
    // No server listens at this URL: undici would fail to connect.
    const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: URL_, fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
    const doc = await client.scrape(`${FIXTURE_ORIGIN}/`);
    expect(doc.markdown).toBeTruthy();
    expect(fake.requests.map((r) => r.path)).toEqual(["/v2/scrape"]);
  });

  it("the Node client without fetch sends through undici (global fetch untouched)", async () => {
    const fake = createFakeService();
    const served = await serveFake(fake);
    try {
      const globalFetch = vi.fn(() => Promise.reject(new Error("global fetch must not be used")));
      vi.stubGlobal("fetch", globalFetch);
      const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: served.url, logLevel: "off", maxRetries: 0 });
      await client.scrape(`${FIXTURE_ORIGIN}/`);
      expect(globalFetch).not.toHaveBeenCalled();
      expect(fake.requests).toHaveLength(1);
    } finally {
      await served.close();
    }
  });

  it("the portable client uses the global fetch in force at the call, not at construction", async () => {
    const fake = createFakeService();
    const client = new PortableWebData({ apiKey: fake.apiKey, apiUrl: URL_, logLevel: "off", maxRetries: 0 });
    vi.stubGlobal("fetch", fake.fetch);
    await client.scrape(`${FIXTURE_ORIGIN}/`);
    expect(fake.requests).toHaveLength(1);
  });

  it("standalone scrape: a caller's fetch wins, else the global fetch at the call", async () => {
    const viaOption = createFakeService();
    await scrape(`${FIXTURE_ORIGIN}/`, undefined, { apiKey: viaOption.apiKey, apiUrl: URL_, fetch: viaOption.fetch, logLevel: "off" });
    expect(viaOption.requests).toHaveLength(1);

    const viaGlobal = createFakeService();
    vi.stubGlobal("fetch", viaGlobal.fetch);
    await scrape(`${FIXTURE_ORIGIN}/`, undefined, { apiKey: viaGlobal.apiKey, apiUrl: URL_, logLevel: "off" });
    expect(viaGlobal.requests).toHaveLength(1);
  });
});
