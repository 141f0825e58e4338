/**
 * Every legacy v1 method warns once per process through the client's logger
 * at level `warn`, naming its v2 replacement; `silenceDeprecationWarnings`
 * turns the warnings off. (A file of its own: "once per process" is module state.)
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WebData, type Logger } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";
import { V2_REPLACEMENTS, type V1MethodName } from "../src/v1/deprecation.js";
import { V1Client } from "../src/v1/client.js";
import WebDataV1 from "../src/v1/index.js";
import { v1 as v1Face } from "../src/v1/index.js";

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const none = () => undefined;
  return { logger: { debug: none, info: none, error: none, warn: (m) => void warnings.push(m) }, warnings };
}

describe("deprecation warnings", () => {
  it("the table covers every public V1Client method", () => {
    const methods = Object.getOwnPropertyNames(V1Client.prototype).filter((n) => n !== "constructor").sort();
    expect(Object.keys(V2_REPLACEMENTS).sort()).toEqual(methods);
  });

  it("are silenced by silenceDeprecationWarnings (and then still owed to a client that wants them)", async () => {
    const fake = createFakeService();
    const { logger, warnings } = capture();
    const client = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger, silenceDeprecationWarnings: true });
    await client.v1.mapUrl("https://acme.test/");
    await client.v1.getQueueStatus();
    expect(warnings).toEqual([]);
    expect(fake.requests.map((r) => r.pathname)).toEqual(["/v1/map", "/v1/team/queue-status"]);
  });

  it("warn once per process per method, at level warn, naming the v2 replacement", async () => {
    const fake = createFakeService();
    const a = capture();
    const b = capture();
    const one = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger: a.logger });
    const two = new WebDataV1({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger: b.logger });
    await one.v1.mapUrl("https://acme.test/");
    await one.v1.mapUrl("https://acme.test/");
    await two.mapUrl("https://acme.test/");
    await one.v1.scrapeUrl("https://acme.test/");
    await two.getTokenUsage();
    expect(a.warnings).toEqual([
      "webdata: mapUrl() is a legacy v1 method; in v2: map (MIGRATION.md).",
      "webdata: scrapeUrl() is a legacy v1 method; in v2: scrape (MIGRATION.md).",
    ]);
    expect(b.warnings).toEqual(["webdata: getTokenUsage() is a legacy v1 method; in v2: getTokenUsage (MIGRATION.md)."]);
  });

  it("a warning is a log line: logLevel 'error' keeps it out", async () => {
    const fake = createFakeService();
    const c = capture();
    const client = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logger: c.logger, logLevel: "error" });
    await client.v1.getCreditUsage();
    expect(c.warnings).toEqual([]);
  });

  it("MIGRATION.md lists every v1 method with its v2 replacement", () => {
    const doc = readFileSync(new URL("../MIGRATION.md", import.meta.url), "utf8");
    for (const name of Object.keys(V2_REPLACEMENTS) as V1MethodName[]) {
      expect(doc, name).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|`));
    }
  });
});
