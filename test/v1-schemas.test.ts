/**
 * v1 `schema` fields take what v1-era code passed (zod 4, zod 3, Standard
 * Schema, plain JSON Schema): each is converted to plain JSON Schema on the
 * wire (`$schema` stripped), the caller's objects are left as they were, and
 * the only `any` in the source is the documented v1 compatibility alias.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod3";
import "../src/zod3.js"; // zod 3 schemas need the opt-in converter (webdata/zod3)
import { ValidationError } from "../src/index.js";
import { FIXTURE_ORIGIN, v1FakeState } from "../src/testing/index.js";
import { setup, type Setup } from "./helpers.js";

const HOME = `${FIXTURE_ORIGIN}/`;
const PRODUCTS = `${FIXTURE_ORIGIN}/products`;
const WIRE = { type: "object", properties: { title: { type: "string" } }, required: ["title"] };

describe("v1 schema fields", () => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup("fetch", {}, { silenceDeprecationWarnings: true, maxRetries: 0 });
  });
  afterEach(() => s.close());

  /** The body of the one request sent to `pathname`. */
  function body(pathname: string): Record<string, unknown> {
    const hits = s.fake.requests.filter((r) => r.method === "POST" && r.pathname === pathname);
    expect(hits).toHaveLength(1);
    return hits[0]!.body as Record<string, unknown>;
  }

  it.each([
    ["zod 4", () => z.object({ title: z.string() })],
    ["zod 3", () => z3.object({ title: z3.string() })],
    ["plain JSON Schema with $schema", () => ({ $schema: "http://json-schema.org/draft-07/schema#", ...structuredClone(WIRE) })],
  ])("scrapeUrl jsonOptions.schema (%s) is sent as plain JSON Schema; the result is the extracted JSON", async (_, make) => {
    const schema = make();
    const params = { formats: ["json" as const], jsonOptions: { prompt: "title", schema } };
    const before = structuredClone(params.jsonOptions.prompt);
    const res = await s.client.v1.scrapeUrl(HOME, params);
    const sent = body("/v1/scrape").jsonOptions as { schema: Record<string, unknown> };
    expect(sent.schema).toMatchObject(WIRE);
    expect(sent.schema).not.toHaveProperty("$schema");
    expect(sent.schema).not.toBe(schema);
    if (!res.success) throw new Error(res.error);
    expect(res.json).toEqual({ title: "Acme Test Site" });
    // The caller's objects are untouched.
    expect(params.jsonOptions.schema).toBe(schema);
    expect(params.jsonOptions.prompt).toBe(before);
    if (!("~standard" in schema)) expect(schema).toHaveProperty("$schema");
  });

  it("scrapeUrl: extract.schema and changeTrackingOptions.schema are converted too", async () => {
    const res = await s.client.v1.scrapeUrl(HOME, { formats: ["extract"], extract: { schema: z3.object({ title: z3.string() }) } });
    expect(body("/v1/scrape").extract).toEqual({ schema: expect.objectContaining(WIRE) });
    if (!res.success) throw new Error(res.error);
    expect(res.extract).toEqual({ title: "Acme Test Site" });
    s.fake.requests.length = 0;
    await s.client.v1
      .scrapeUrl(HOME, { formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["json"], schema: z.object({ title: z.string() }) } })
      .catch(() => undefined);
    expect((body("/v1/scrape").changeTrackingOptions as { schema: unknown }).schema).toMatchObject(WIRE);
  });

  it("extract and asyncExtract: a zod schema is sent as JSON Schema", async () => {
    v1FakeState(s.fake).pollsToFinish = 0;
    const schema = z.object({ title: z.string() });
    const res = await s.client.v1.extract([PRODUCTS], { prompt: "title", schema });
    expect(body("/v1/extract").schema).toMatchObject(WIRE);
    if (!res.success) throw new Error(res.error);
    expect(res.data.title).toBe("Acme Products");
    s.fake.requests.length = 0;
    const job = await s.client.v1.asyncExtract([PRODUCTS], { schema: z3.object({ title: z3.string() }), scrapeOptions: { formats: ["json"], jsonOptions: { schema } } });
    expect(body("/v1/extract")).toMatchObject({ schema: WIRE, scrapeOptions: { jsonOptions: { schema: WIRE } } });
    if (!job.success) throw new Error(job.error);
    expect((await s.client.v1.getExtractStatus(job.id)).data.title).toBe("Acme Products");
  });

  it("crawl, batch scrape, search and deep research: nested zod schemas are converted", async () => {
    const schema = z.object({ title: z.string() });
    await s.client.v1.asyncCrawlUrl(HOME, { limit: 1, scrapeOptions: { formats: ["json"], jsonOptions: { schema } } });
    expect(body("/v1/crawl").scrapeOptions).toEqual({ formats: ["json"], jsonOptions: { schema: expect.objectContaining(WIRE) } });
    await s.client.v1.asyncBatchScrapeUrls([HOME], { formats: ["json"], jsonOptions: { schema: z3.object({ title: z3.string() }) } });
    expect(body("/v1/batch/scrape").jsonOptions).toEqual({ schema: expect.objectContaining(WIRE) });
    await s.client.v1.search("acme", { limit: 1, scrapeOptions: { formats: ["json"], jsonOptions: { schema } } });
    expect((body("/v1/search").scrapeOptions as { jsonOptions: unknown }).jsonOptions).toEqual({ schema: expect.objectContaining(WIRE) });
    await s.client.v1.asyncDeepResearch("widgets", { formats: ["json"], jsonOptions: { schema } });
    expect(body("/v1/deep-research").jsonOptions).toEqual({ schema: expect.objectContaining(WIRE) });
  });

  it("a schema the service would reject is a ValidationError naming the field, before anything is sent", async () => {
    const err = await s.client.v1.scrapeUrl(HOME, { formats: ["json"], jsonOptions: { schema: z.string() as never } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).message).toContain("jsonOptions.schema");
    const err2 = await s.client.v1.asyncCrawlUrl(HOME, { scrapeOptions: { formats: ["json"], jsonOptions: { schema: { type: "object" } } } }).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });
});

describe("`any` in the source", () => {
  it("appears only where documented: the V1Any alias of the v1 compatibility types, and the rejection of APIPromise's then/catch (typed exactly as Promise's, whose rejection is any)", () => {
    const root = fileURLToPath(new URL("../src/", import.meta.url));
    const files = (function list(dir: string): string[] {
      return readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        return statSync(p).isDirectory() ? list(p) : p.endsWith(".ts") ? [p] : [];
      });
    })(root);
    const hits: string[] = [];
    for (const file of files) {
      const src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (node.kind === ts.SyntaxKind.AnyKeyword) hits.push(`${file.slice(root.length)}: ${node.parent.getText(src)}`);
        ts.forEachChild(node, visit);
      };
      visit(src);
    }
    expect(hits).toEqual(["core/request.ts: reason: any", "core/request.ts: reason: any", "v1/shapes.ts: export type V1Any = any;"]);
  });
});
