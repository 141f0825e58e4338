/**
 * Schemas inside `scrapeOptions` of crawl, batch scrape and extract, and the
 * `schema` of extract and agent, reach the wire as JSON Schema (zod 3 and 4),
 * and service-rejected shapes fail before sending. `validate: true` is never
 * sent, and the waiters (and the document iterators' `schema`) apply it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as z4 from "zod";
import { z as z3 } from "zod3";
import "../src/zod3.js"; // zod 3 schemas need the opt-in converter (webdata/zod3)
import "../src/zod4.js"; // zod mini and zod 3.25's zod/v4 schemas need the opt-in converter (webdata/zod4)
import { ResultValidationError, ValidationError } from "../src/index.js";
import { fakeTasks } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, useJobTimers } from "./jobs-helpers.js";

type Rec = Record<string, unknown>;
const wire = { type: "object", properties: { title: { type: "string" } }, required: ["title"] };

describe.each(TRANSPORTS)("schemas in job starts over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const body = (path: string) => s.fake.requests.find((r) => r.pathname === path)?.body as Rec;

  it("crawl scrapeOptions: a zod 4 json schema is sent as JSON Schema, validate stripped from the wire", async () => {
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

/** A finished job's status body whose second document does not match `{ title: string; item: { sku: string } }`. */
function nonConformingJob(): Rec {
  const doc = (url: string, json: unknown) => ({ markdown: "x", json, metadata: { sourceURL: url, url, statusCode: 200 } });
  return {
    success: true,
    status: "completed",
    completed: 2,
    total: 2,
    creditsUsed: 2,
    expiresAt: "2030-01-01T00:00:00.000Z",
    data: [doc("https://acme.test/", { title: "Acme", item: { sku: "A-1" } }), doc("https://acme.test/about", { title: "About", item: { sku: 7 } })],
  };
}

describe.each(TRANSPORTS)("validate: true on crawl, batch scrape, extract and agent over %s", (kind) => {
  let s: Setup;
  beforeEach(() => useJobTimers());
  afterEach(async () => {
    vi.useRealTimers();
    await s?.close();
  });
  const strict = z4.object({ title: z4.string(), item: z4.object({ sku: z4.string() }) });
  const titled = z4.object({ title: z4.string() });
  const statusGets = (path: string) => new RegExp(`^GET ${path}/[0-9a-f-]+`);
  const failure = async (p: Promise<unknown>) => {
    const err = await drive(p.then(() => undefined, (e: unknown) => e));
    expect(err).toBeInstanceOf(ResultValidationError);
    return err as ResultValidationError;
  };

  it("crawl: every document of conforming data is parsed and returned", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    const job = await drive(s.client.crawl("https://acme.test/", { limit: 3, sitemap: "skip", pollIntervalMs: 500, scrapeOptions: { formats: [{ type: "json", schema: titled, validate: true }] } }));
    expect(job.data.length).toBe(3);
    for (const doc of job.data) expect(doc.json).toEqual({ title: expect.any(String) });
  });

  it("crawl: a non-conforming document throws ResultValidationError naming the document and the path", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    s.fake.inject({ match: statusGets("/v2/crawl"), times: Infinity, status: 200, body: nonConformingJob() });
    const err = await failure(s.client.crawl("https://acme.test/", { pollIntervalMs: 500, scrapeOptions: { formats: [{ type: "json", schema: strict, validate: true }] } }));
    expect(err.issues.map((i) => i.path)).toEqual(["item.sku"]);
    expect(err.where).toBe("json of https://acme.test/about");
    expect(err.message).toContain("https://acme.test/about");
    expect(err.value).toEqual({ title: "About", item: { sku: 7 } });
  });

  it("crawl without validate returns the same data unchecked", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    s.fake.inject({ match: statusGets("/v2/crawl"), times: Infinity, status: 200, body: nonConformingJob() });
    const job = await drive(s.client.crawl("https://acme.test/", { pollIntervalMs: 500, scrapeOptions: { formats: [{ type: "json", schema: strict }] } }));
    expect(job.data[1]?.json).toEqual({ title: "About", item: { sku: 7 } });
  });

  it("batch scrape: conforming data passes; a non-conforming document throws with its URL and path", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    const formats = [{ type: "json" as const, schema: titled, validate: true }];
    const ok = await drive(s.client.batchScrape(["https://acme.test/about", "https://acme.test/contact"], { formats, pollIntervalMs: 500 }));
    expect(ok.data.map((d) => d.json?.title)).toEqual(["About Acme", expect.any(String)]);
    s.fake.inject({ match: statusGets("/v2/batch/scrape"), times: Infinity, status: 200, body: nonConformingJob() });
    const err = await failure(s.client.batchScrape(["https://acme.test/"], { formats: [{ type: "json", schema: strict, validate: true }], pollIntervalMs: 500 }));
    expect(err.issues[0]?.path).toBe("item.sku");
    expect(err.where).toBe("json of https://acme.test/about");
  });

  it("crawlDocuments / batchScrapeDocuments with schema: parsed as yielded; the first mismatch throws after the conforming ones", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    const { id } = await s.client.startCrawl("https://acme.test/", { limit: 2, sitemap: "skip", scrapeOptions: { formats: [{ type: "json", schema: titled }] } });
    const docs: unknown[] = [];
    await drive((async () => { for await (const d of s.client.crawlDocuments(id, { schema: titled, pollIntervalMs: 500 })) docs.push(d.json); })());
    expect(docs).toEqual([{ title: expect.any(String) }, { title: expect.any(String) }]);

    const batch = await s.client.startBatchScrape(["https://acme.test/"], { formats: [{ type: "json", schema: strict }] });
    s.fake.inject({ match: statusGets("/v2/batch/scrape"), times: Infinity, status: 200, body: nonConformingJob() });
    const seen: unknown[] = [];
    const err = await failure((async () => { for await (const d of s.client.batchScrapeDocuments(batch.id, { schema: strict })) seen.push(d.metadata.sourceURL); })());
    expect(seen).toEqual(["https://acme.test/"]);
    expect(err.issues[0]?.path).toBe("item.sku");
    expect(err.where).toBe("json of https://acme.test/about");
  });

  it("extract: validate parses data (not sent); a non-conforming result throws with the path", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    fakeTasks(s.fake).configure({ pollsToFinish: 1 });
    const ok = await drive(s.client.extract({ urls: ["https://acme.test/about"], schema: titled, validate: true, pollIntervalMs: 500 }));
    expect(ok.data).toEqual({ title: "About Acme" });
    expect(s.fake.requests.find((r) => r.pathname === "/v2/extract")?.body).not.toHaveProperty("validate");
    s.fake.inject({ match: statusGets("/v2/extract"), times: Infinity, status: 200, body: { success: true, status: "completed", data: { title: "x", item: { sku: null } } } });
    const err = await failure(s.client.extract({ urls: ["https://acme.test/about"], schema: strict, validate: true, pollIntervalMs: 500 }));
    expect(err.issues.map((i) => i.path)).toEqual(["item.sku"]);
    expect(err.where).toMatch(/^data of extract [0-9a-f-]+$/);
  });

  it("agent: validate parses data (not sent); a non-conforming result throws with the path", async () => {
    s = await setup(kind, {}, { timeoutMs: 1e9 });
    const ok = await drive(s.client.agent("Find the title", { urls: ["https://acme.test/contact"], schema: z3.object({ title: z3.string() }), validate: true, pollIntervalMs: 500 }));
    expect(ok.data).toEqual({ title: expect.any(String) });
    expect(s.fake.requests.find((r) => r.pathname === "/v2/agent")?.body).not.toHaveProperty("validate");
    s.fake.inject({ match: statusGets("/v2/agent"), times: Infinity, status: 200, body: { success: true, status: "completed", data: { title: 3 } } });
    const err = await failure(s.client.agent("Find the title", { schema: z3.object({ title: z3.string() }), validate: true, pollIntervalMs: 500 }));
    expect(err.issues.map((i) => i.path)).toEqual(["title"]);
    expect(err.where).toMatch(/^data of agent [0-9a-f-]+$/);
  });

  it("validate: true with a plain JSON Schema (or none) is a ValidationError before sending", async () => {
    s = await setup(kind);
    const plain = { type: "object", properties: { title: { type: "string" } } };
    for (const p of [
      s.client.extract({ urls: ["https://acme.test/"], schema: plain, validate: true }),
      s.client.agent("x", { schema: plain, validate: true }),
      s.client.agent("x", { validate: true }),
      s.client.crawl("https://acme.test/", { scrapeOptions: { formats: [{ type: "json", schema: plain, validate: true }] } }),
      s.client.batchScrape(["https://acme.test/"], { formats: [{ type: "json", schema: plain, validate: true }] }),
    ]) {
      const err = await p.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).issues[0]?.path).toMatch(/validate$/);
    }
    expect(s.fake.requests.length).toBe(0);
  });
});
