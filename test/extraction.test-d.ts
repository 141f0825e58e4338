/**
 * Type tests: the result type of JSON extraction follows the schema.
 */
import { describe, expectTypeOf, test } from "vitest";
import * as z4 from "zod";
import * as zm from "zod/mini";
import { z as z3 } from "zod3";
import { WebData, typedJsonSchema, type Document } from "../src/index.js";

const client = new WebData({ apiKey: "fc-x", apiUrl: "https://fake.test" });

describe("scrape json typing", () => {
  test("zod 4 schema", async () => {
    const schema = z4.object({ title: z4.string(), price: z4.number().optional() });
    const doc = await client.scrape("https://acme.test", { formats: ["markdown", { type: "json", schema }] });
    expectTypeOf(doc.json).toEqualTypeOf<{ title: string; price?: number | undefined } | undefined>();
    // @ts-expect-error: no such field in the schema
    void doc.json?.nope;
  });

  test("zod 4 mini schema", async () => {
    const schema = zm.object({ name: zm.string(), tags: zm.array(zm.string()) });
    const doc = await client.scrape("https://acme.test", { formats: [{ type: "json", schema }] });
    expectTypeOf(doc.json).toEqualTypeOf<{ name: string; tags: string[] } | undefined>();
  });

  test("zod 3 schema", async () => {
    const schema = z3.object({ title: z3.string(), count: z3.number().int() });
    const doc = await client.scrape("https://acme.test", { formats: [{ type: "json", schema, validate: true }] });
    expectTypeOf(doc.json).toEqualTypeOf<{ title: string; count: number } | undefined>();
    // @ts-expect-error: wrong field
    void doc.json?.titel;
  });

  test("plain JSON Schema gives unknown", async () => {
    const doc = await client.scrape("https://acme.test", { formats: [{ type: "json", schema: { type: "object", properties: { a: { type: "string" } } } }] });
    expectTypeOf(doc.json).toEqualTypeOf<unknown>();
  });

  test("a caller-named type for a plain JSON Schema", async () => {
    const schema = typedJsonSchema<{ a: string }>({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
    const doc = await client.scrape("https://acme.test", { formats: [{ type: "json", schema }] });
    expectTypeOf(doc.json).toEqualTypeOf<{ a: string } | undefined>();
  });

  test("no options: a plain Document", async () => {
    const doc = await client.scrape("https://acme.test");
    expectTypeOf(doc).toEqualTypeOf<Document<unknown>>();
  });
});

describe("search item typing", () => {
  test("listing only: items are the plain result types", async () => {
    const r = await client.search("q", { limit: 3 });
    expectTypeOf(r.web).toEqualTypeOf<import("../src/types.js").WebResult[] | undefined>();
    // @ts-expect-error: not scraped, no markdown
    void r.web?.[0]?.markdown;
    expectTypeOf(r.creditsUsed).toEqualTypeOf<number>();
    expectTypeOf(r.warning).toEqualTypeOf<string | undefined>();
  });

  test("scrapeOptions with formats: items carry document fields, json inferred from zod 4", async () => {
    const schema = z4.object({ price: z4.number() });
    const r = await client.search("q", { scrapeOptions: { formats: ["markdown", { type: "json", schema }] } });
    const item = r.web?.[0];
    expectTypeOf(item?.markdown).toEqualTypeOf<string | undefined>();
    expectTypeOf(item?.json).toEqualTypeOf<{ price: number } | undefined>();
    expectTypeOf(r.news?.[0]?.json).toEqualTypeOf<{ price: number } | undefined>();
    // @ts-expect-error: wrong field
    void item?.json?.cost;
  });

  test("zod 3 schema in search scrapeOptions", async () => {
    const r = await client.search("q", { scrapeOptions: { formats: [{ type: "json", schema: z3.object({ a: z3.boolean() }) }] } });
    expectTypeOf(r.images?.[0]?.json).toEqualTypeOf<{ a: boolean } | undefined>();
  });

  test("empty formats: no scraping", async () => {
    const r = await client.search("q", { scrapeOptions: { formats: [] } });
    // @ts-expect-error: not scraped
    void r.web?.[0]?.json;
  });
});

describe("extract and agent typing", () => {
  test("extract: data inferred from a zod 4 schema", async () => {
    const res = await client.extract({ urls: ["https://acme.test"], schema: z4.object({ company: z4.string() }) });
    expectTypeOf(res.data).toMatchTypeOf<{ company: string } | undefined>();
    // @ts-expect-error: wrong field
    void res.data?.compnay;
  });

  test("agent: data inferred from a zod 3 schema", async () => {
    const res = await client.agent("find it", { schema: z3.object({ n: z3.number() }) });
    expectTypeOf(res.data).toMatchTypeOf<{ n: number } | undefined>();
    // @ts-expect-error: wrong field
    void res.data?.m;
  });

  test("a named type wins; a plain JSON Schema gives unknown", async () => {
    const named = await client.agent<{ title: string }>("t", { schema: { type: "object", properties: { title: { type: "string" } } } });
    expectTypeOf(named.data).toMatchTypeOf<{ title: string } | undefined>();
    const plain = await client.extract({ prompt: "p", schema: { type: "object", properties: {} } });
    expectTypeOf(plain.data).toEqualTypeOf<unknown>();
  });
});

describe("crawl and batch scrape typing", () => {
  test("crawl: documents typed from the json format in scrapeOptions.formats", async () => {
    const schema = z4.object({ title: z4.string() });
    const job = await client.crawl("https://acme.test", { limit: 2, scrapeOptions: { formats: ["markdown", { type: "json", schema, validate: true }] } });
    expectTypeOf(job.data).toEqualTypeOf<Document<{ title: string }>[]>();
    expectTypeOf(job.data[0]?.json).toEqualTypeOf<{ title: string } | undefined>();
    // @ts-expect-error: wrong field
    void job.data[0]?.json?.titel;
  });

  test("crawl without a json schema: json is unknown", async () => {
    expectTypeOf((await client.crawl("https://acme.test")).data).toEqualTypeOf<Document<unknown>[]>();
    expectTypeOf((await client.crawl("https://acme.test", { limit: 1 })).data).toEqualTypeOf<Document<unknown>[]>();
    expectTypeOf((await client.crawl("https://acme.test", { scrapeOptions: { formats: ["markdown"] } })).data).toEqualTypeOf<Document<unknown>[]>();
  });

  test("batchScrape: documents typed from the json format (zod 3)", async () => {
    const job = await client.batchScrape(["https://acme.test"], { formats: [{ type: "json", schema: z3.object({ n: z3.number() }) }] });
    expectTypeOf(job.data).toEqualTypeOf<Document<{ n: number }>[]>();
    expectTypeOf(job.invalidURLs).toEqualTypeOf<string[] | undefined>();
    // @ts-expect-error: wrong field
    void job.data[0]?.json?.m;
    expectTypeOf((await client.batchScrape(["https://acme.test"])).data).toEqualTypeOf<Document<unknown>[]>();
  });

  test("document iterators and status: typed from options.schema, or named", async () => {
    const schema = z4.object({ price: z4.number() });
    for await (const doc of client.crawlDocuments("id", { schema })) {
      expectTypeOf(doc).toEqualTypeOf<Document<{ price: number }>>();
      // @ts-expect-error: wrong field
      void doc.json?.cost;
    }
    for await (const doc of client.batchScrapeDocuments<{ a: string }>("id")) expectTypeOf(doc.json).toEqualTypeOf<{ a: string } | undefined>();
    for await (const doc of client.crawlDocuments("id")) expectTypeOf(doc).toEqualTypeOf<Document<unknown>>();
    expectTypeOf((await client.getCrawlStatus<{ a: string }>("id")).data).toEqualTypeOf<Document<{ a: string }>[]>();
    expectTypeOf((await client.getBatchScrapeStatus("id")).data).toEqualTypeOf<Document<unknown>[]>();
  });

  test("extract and agent accept validate", async () => {
    const res = await client.extract({ urls: ["https://acme.test"], schema: z4.object({ company: z4.string() }), validate: true });
    expectTypeOf(res.data).toEqualTypeOf<{ company: string }>();
    const a = await client.agent("find it", { schema: z3.object({ n: z3.number() }), validate: true });
    expectTypeOf(a.data).toEqualTypeOf<{ n: number } | undefined>();
  });
});
