/**
 * A requested format the answer lacks: a self-hosted server without an AI key answers a `json`
 * format scrape with 200 and no `json` (recorded: scrape-v2-json-format-empty-options). The client
 * says so once, at `warn`, naming the likely cause; the result is still returned as sent.
 */
import { describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";
import { recorded } from "./helpers.js";

describe("a json format answered without json", () => {
  it("warns once, naming the likely cause; the document is returned as the server sent it", async () => {
    const rec = await recorded("scrape-v2-json-format-empty-options.json");
    const fake = createFakeService();
    const warnings: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger, logLevel: "warn" });
    fake.inject({ match: /^POST \/v2\/scrape$/, times: 2, status: 200, body: rec.response.body });
    const doc = await client.scrape("https://acme.test/", { formats: ["markdown", { type: "json", prompt: "the title" }] });
    expect(doc.json).toBeUndefined();
    await client.scrape("https://acme.test/", { formats: ["json"] } as never).catch(() => undefined);
    expect(warnings).toEqual(["webdata: no json in the answer to a json format (no AI key on the server?)"]);
  });

  it("is said once per client: what one client was told does not keep it from another (the flag was module state)", async () => {
    const rec = await recorded("scrape-v2-json-format-empty-options.json");
    const fake = createFakeService();
    fake.inject({ match: /^POST \/v2\/scrape$/, times: 3, status: 200, body: rec.response.body });
    const told: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const warnings: string[] = [];
      told.push(warnings);
      const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
      const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger, logLevel: "warn" });
      await client.scrape("https://acme.test/", { formats: [{ type: "json", prompt: "the title" }] });
      if (i === 1) await client.scrape("https://acme.test/", { formats: [{ type: "json", prompt: "the title" }] });
    }
    expect(told).toEqual([["webdata: no json in the answer to a json format (no AI key on the server?)"], ["webdata: no json in the answer to a json format (no AI key on the server?)"]]);
  });
});
