/**
 * Schemas inside `scrapeOptions` of crawl, batch scrape and extract, and the
 * `schema` of extract and agent, reach the wire as JSON Schema (zod 3 and 4),
 * and service-rejected shapes fail before sending.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z4 from "zod";
import { z as z3 } from "zod3";
import { ValidationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

type Rec = Record<string, unknown>;
const wire = { type: "object", properties: { title: { type: "string" } }, required: ["title"] };

describe.each(TRANSPORTS)("schemas in job starts over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const body = (path: string) => s.fake.requests.find((r) => r.pathname === path)?.body as Rec;

  it("crawl scrapeOptions: a zod 4 json schema is sent as JSON Schema, validate stripped", async () => {
    s = await setup(kind);
    const schema = z4.object({ title: z4.string() });
    await s.client.startCrawl("https://acme.test/", { limit: 2, scrapeOptions: { formats: [{ type: "json", schema, validate: true }] } });
    expect((body("/v2/crawl").scrapeOptions as Rec).formats).toEqual([{ type: "json", schema: wire }]);
  });

  it("batch scrape formats: a zod 3 json schema is sent as JSON Schema", async () => {
    s = await setup(kind);
    await s.client.startBatchScrape(["https://acme.test/"], { formats: [{ type: "json", schema: z3.object({ title: z3.string() }) }] });
    expect(body("/v2/batch/scrape").formats).toEqual([{ type: "json", schema: wire }]);
  });

  it("extract: schema and scrapeOptions schemas are converted", async () => {
    s = await setup(kind);
    await s.client.startExtract({ urls: ["https://acme.test/"], schema: z4.object({ title: z4.string() }), scrapeOptions: { formats: [{ type: "json", schema: z3.object({ title: z3.string() }) }] } });
    const b = body("/v2/extract");
    expect(b.schema).toEqual(wire);
    expect((b.scrapeOptions as Rec).formats).toEqual([{ type: "json", schema: wire }]);
  });

  it("agent: a zod 3 schema is converted", async () => {
    s = await setup(kind);
    await s.client.startAgent("find the title", { schema: z3.object({ title: z3.string() }) }).catch(() => undefined);
    expect(body("/v2/agent").schema).toEqual(wire);
  });

  it("a service-rejected schema in crawl scrapeOptions fails before sending, with the path", async () => {
    s = await setup(kind);
    const err = await s.client.startCrawl("https://acme.test/", { scrapeOptions: { formats: [{ type: "json", schema: { type: "object", properties: { x: { type: "object" } } } }] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]?.path).toBe("scrapeOptions.formats.0.schema.properties.x");
    expect(s.fake.requests.length).toBe(0);
  });
});
