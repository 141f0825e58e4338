/**
 * `webdata/firecrawl` takes zod 3 schemas with no other import: the official client is built
 * on zod 3 and converts its users' zod 3 schemas itself, so code moved to the drop-in with only the
 * import changed passes zod 3 schemas. Each case loads one drop-in entry in a fresh module registry
 * (nothing else registers a converter: this file imports neither `webdata/zod3` nor the drop-in up
 * front; a drop-in class registers the converter when it is made) and sends the same schema through it and through the official client (`@mendable/firecrawl-js`)
 * at the same served fake, comparing the JSON Schema each sends. The root entry still refuses a zod 3
 * schema until `import "webdata/zod3"` (test/zod-opt-in.test.ts); its bundle carries no zod 3 converter
 * (test/size.test.ts).
 */
import OfficialFirecrawl from "@mendable/firecrawl-js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z as z3 } from "zod3";
import { z } from "zod/v3";
import type { Firecrawl } from "../src/firecrawl/index.js";
import { setup, type Setup } from "./helpers.js";

const SITE = "https://acme.test/";
let s: Setup | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

type Entry = "index" | "node";
/** The drop-in's class from one entry, loaded fresh: only what that entry imports is registered. */
async function dropIn(entry: Entry): Promise<new (o: { apiKey: string; apiUrl: string; logLevel?: "off" }) => Firecrawl> {
  vi.resetModules();
  const mod = (await (entry === "index" ? import("../src/firecrawl/index.js") : import("../src/firecrawl/node.js"))) as { Firecrawl: new (o: { apiKey: string; apiUrl: string; logLevel?: "off" }) => Firecrawl };
  return mod.Firecrawl;
}

/** A zod 3 schema with constraints, a description, an optional, an enum and a nullable. */
const schemas = {
  'zod/v3 (zod 3.25+\'s zod 3)': () => z.object({ title: z.string().min(2).describe("the page title"), tags: z.array(z.string()).optional(), n: z.number().int().max(5), kind: z.enum(["a", "b"]).nullable() }),
  "zod 3.x": () => z3.object({ title: z3.string().min(2).describe("the page title"), tags: z3.array(z3.string()).optional(), n: z3.number().int().max(5), kind: z3.enum(["a", "b"]).nullable() }),
};

/**
 * The official client sends zod-to-json-schema's default output; the drop-in sends what WebData sends
 * for the same schema: without `$schema` (never sent, for any schema), objects closed
 * (`additionalProperties: false`) only when `.strict()` (MIGRATION.md, intended differences).
 */
function asWebDataSends(official: unknown): unknown {
  return JSON.parse(JSON.stringify(official, (k, v: unknown) => (k === "$schema" || (k === "additionalProperties" && v === false) ? undefined : v)));
}

describe.each(["index", "node"] as const)("webdata/firecrawl (%s entry) takes a zod 3 schema with no other import", (entry) => {
  it.each(Object.entries(schemas))("%s: scrape's json format and extract send the JSON Schema the official client sends", async (_name, make) => {
    s = await setup("undici");
    const Ours = await dropIn(entry);
    const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
    const ours = new Ours({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
    const sentSchemas = (path: string) =>
      s!.fake.requests.filter((r) => r.method === "POST" && r.pathname === path).map((r) => {
        const body = r.body as { schema?: unknown; formats?: { schema?: unknown }[] };
        return body.schema ?? body.formats?.[0]?.schema;
      });

    await official.scrape(SITE, { formats: [{ type: "json", schema: make() }] });
    const doc = await ours.scrape(SITE, { formats: [{ type: "json", schema: make() }] });
    expect(doc.json).toBeDefined();
    // Its types name the zod this repository installs (4); at run time it converts zod 3, as official code has it.
    await official.startExtract({ urls: [SITE], schema: make() as never });
    await ours.startExtract({ urls: [SITE], schema: make() });
    await ours.extract({ urls: [SITE], schema: make(), timeout: 0.001 }).catch(() => undefined); // the waiter sends its start the same way

    const [officialScrape, ourScrape] = sentSchemas("/v2/scrape");
    const [officialExtract, ourExtract, ourExtractWaiter] = sentSchemas("/v2/extract");
    // The official one really is the converted schema (not the zod object's own JSON).
    expect(officialScrape).toMatchObject({ type: "object", properties: { title: { type: "string", minLength: 2, description: "the page title" }, n: { type: "integer", maximum: 5 } }, required: ["title", "n", "kind"] });
    expect(ourScrape).toEqual(asWebDataSends(officialScrape));
    expect(officialExtract).toEqual(officialScrape);
    expect(ourExtract).toEqual(asWebDataSends(officialExtract));
    expect(ourExtractWaiter).toEqual(ourExtract);
  });

  it("the official v1 class alone (FirecrawlAppV1) takes them too; nothing is registered before a drop-in class is made", async () => {
    vi.resetModules();
    const { FirecrawlAppV1 } = (await (entry === "index" ? import("../src/firecrawl/index.js") : import("../src/firecrawl/node.js"))) as typeof import("../src/firecrawl/index.js");
    const { toWireSchema } = await import("../src/index.js");
    const schema = z.object({ n: z.number().max(5) });
    await expect(toWireSchema(schema)).rejects.toThrow('add import "webdata/zod3"');
    new FirecrawlAppV1({ apiKey: "fc-test", apiUrl: "https://fake.webdata.test" });
    expect(await toWireSchema(schema)).toEqual({ type: "object", properties: { n: { type: "number", maximum: 5 } }, required: ["n"] });
  });

  it("the v1 class's jsonOptions.schema (app.v1.scrapeUrl): the JSON Schema the official v1 class sends", async () => {
    s = await setup("undici");
    const Ours = await dropIn(entry);
    const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
    const ours = new Ours({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
    const make = schemas["zod/v3 (zod 3.25+'s zod 3)"];
    await official.v1.scrapeUrl(SITE, { formats: ["json"], jsonOptions: { schema: make() as never } });
    const doc = await ours.v1.scrapeUrl(SITE, { formats: ["json"], jsonOptions: { schema: make() } });
    expect(doc.success).toBe(true);
    const [want, got] = s.fake.requests.filter((r) => r.pathname === "/v1/scrape").map((r) => (r.body as { jsonOptions: { schema: unknown } }).jsonOptions.schema);
    expect(want).toMatchObject({ type: "object", required: ["title", "n", "kind"] });
    expect(got).toEqual(asWebDataSends(want));
  });

  it("a .strict() zod 3 object: the same JSON Schema as the official client's, additionalProperties false included", async () => {
    s = await setup("undici");
    const Ours = await dropIn(entry);
    const official = new OfficialFirecrawl({ apiKey: s.fake.apiKey, apiUrl: s.url });
    const ours = new Ours({ apiKey: s.fake.apiKey, apiUrl: s.url, logLevel: "off" });
    const make = () => z.object({ title: z.string() }).strict();
    await official.scrape(SITE, { formats: [{ type: "json", schema: make() }] });
    await ours.scrape(SITE, { formats: [{ type: "json", schema: make() }] });
    const [want, got] = s.fake.requests.filter((r) => r.pathname === "/v2/scrape").map((r) => (r.body as { formats: { schema: Record<string, unknown> }[] }).formats[0]!.schema);
    const { $schema, ...rest } = want!;
    expect($schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(got).toEqual(rest);
    expect(got).toMatchObject({ additionalProperties: false });
  });
});
