/**
 * Typed JSON extraction: zod 4 (classic and mini), zod 3, Standard Schema
 * with and without a JSON Schema converter, and plain JSON Schema are
 * converted once to a non-empty JSON Schema on the wire, never mutating the
 * caller's object; schemas the service rejects fail before sending;
 * `validate: true` parses the result and names the failing path.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z4 from "zod";
import * as zm from "zod/mini";
import { z as z3 } from "zod3";
import "../src/zod3.js"; // zod 3 schemas need the opt-in converter (webdata/zod3)
import "../src/zod4.js"; // zod mini and zod 3.25's zod/v4 schemas need the opt-in converter (webdata/zod4)
import { zodToJsonSchema } from "zod-to-json-schema";
import { ResultValidationError, toWireSchema, ValidationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

type Rec = Record<string, unknown>;

function sentFormats(s: Setup): Rec[] {
  const req = s.fake.requests.at(-1);
  return ((req?.body as Rec).formats as Rec[]) ?? [];
}

describe("toWireSchema", () => {
  it("converts a zod 4 schema to a non-empty JSON Schema without $schema (the official client sent {})", async () => {
    const out = await toWireSchema(z4.object({ title: z4.string().describe("Page title"), price: z4.number().optional(), when: z4.date() }));
    expect(out.$schema).toBeUndefined();
    expect(out).toMatchObject({
      type: "object",
      properties: { title: { type: "string", description: "Page title" }, price: { type: "number" }, when: { type: "string", format: "date-time" } },
      required: ["title", "when"],
    });
  });

  it("converts a zod 4 mini schema (no ~standard.jsonSchema) with zod's toJSONSchema", async () => {
    const schema = zm.object({ name: zm.string(), n: zm.int(), tags: zm.array(zm.enum(["a", "b"])), note: zm.optional(zm.nullable(zm.string())) });
    const own = z4.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Rec;
    delete own.$schema;
    expect(await toWireSchema(schema)).toEqual(own);
    expect(own).toMatchObject({ type: "object", properties: { n: { type: "integer" }, tags: { type: "array", items: { enum: ["a", "b"] } } }, required: ["name", "n", "tags"] });
  });

  it("converts zod 3 schemas: objects, strings with formats, ints, booleans, arrays, enums, literals, optionals, nullables, unions, records, dates, defaults, descriptions", async () => {
    const schema = z3
      .object({
        email: z3.string().email(),
        url: z3.string().url().describe("Link"),
        n: z3.number().int(),
        ok: z3.boolean().default(true),
        list: z3.array(z3.string()),
        kind: z3.enum(["a", "b"]),
        lit: z3.literal("x"),
        maybe: z3.string().optional(),
        orNull: z3.number().nullable(),
        either: z3.union([z3.string(), z3.number()]),
        dict: z3.record(z3.string(), z3.number()),
        at: z3.date(),
        refined: z3.string().refine((v) => v.length > 0),
      })
      .strict();
    const out = await toWireSchema(schema);
    // The zod-to-json-schema library's own output (objects closed only when .strict(), as zod 4 does for input).
    const own = zodToJsonSchema(schema as never, { target: "jsonSchema7", removeAdditionalStrategy: "strict", allowedAdditionalProperties: undefined }) as Rec;
    delete own.$schema;
    expect(out).toEqual(own);
    expect(out).toMatchObject({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        url: { type: "string", format: "uri", description: "Link" },
        n: { type: "integer" },
        ok: { type: "boolean", default: true },
        kind: { type: "string", enum: ["a", "b"] },
        lit: { const: "x" },
        dict: { type: "object", additionalProperties: { type: "number" } },
        at: { type: "string", format: "date-time" },
      },
      required: ["email", "url", "n", "list", "kind", "lit", "orNull", "either", "dict", "at", "refined"],
      additionalProperties: false,
    });
  });

  it("uses a Standard Schema's own jsonSchema converter (Standard JSON Schema spec)", async () => {
    const calls: string[] = [];
    const std = {
      "~standard": {
        version: 1 as const,
        vendor: "acme",
        validate: (v: unknown) => ({ value: v }),
        jsonSchema: {
          input: (o: { target: string }) => (calls.push(o.target), { $schema: "x", type: "object", properties: { a: { type: "string" } } }),
          output: () => ({}),
        },
      },
    };
    expect(await toWireSchema(std)).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(calls).toEqual(["draft-07"]);
  });

  it("rejects a Standard Schema that cannot emit JSON Schema, saying what to do", async () => {
    const std = { "~standard": { version: 1 as const, vendor: "acme", validate: (v: unknown) => ({ value: v }) } };
    await expect(toWireSchema(std)).rejects.toThrow(/acme schema without ~standard.jsonSchema cannot be converted; pass a JSON Schema object/);
  });

  it("copies a plain JSON Schema, strips $schema, and never mutates the caller's object", async () => {
    const input = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" } } };
    const frozen = structuredClone(input);
    const out = await toWireSchema(input);
    expect(out).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(input).toEqual(frozen);
    out.properties = {};
    expect(input.properties).toEqual({ a: { type: "string" } });
  });

  it("rejects the shapes the service rejects (§3.3), with the reason and the path", async () => {
    const err1 = (await toWireSchema({ type: "object", properties: { meta: { type: "object" } } }, "formats.0.schema").catch((e: unknown) => e)) as ValidationError;
    expect(err1).toBeInstanceOf(ValidationError);
    expect(err1.issues[0]?.path).toBe("formats.0.schema.properties.meta");
    expect(err1.message).toMatch(/needs properties/);
    await expect(toWireSchema({ type: "object", additionalProperties: true })).rejects.toThrow(/needs properties/);
    await expect(toWireSchema({ type: "array", items: { type: "string" } })).rejects.toThrow(/top-level schema must describe an object/);
    await expect(toWireSchema(z4.string())).rejects.toThrow(/top-level schema must describe an object/);
    await expect(toWireSchema(z3.array(z3.string()))).rejects.toThrow(/top-level schema must describe an object/);
    await expect(toWireSchema(z4.object({ anything: z4.object({}).passthrough() }))).resolves.toBeTruthy();
    // a record (additionalProperties is a schema) is fine
    expect(await toWireSchema({ type: "object", properties: { m: { type: "object", additionalProperties: { type: "number" } } } })).toBeTruthy();
  });

  it("zod 3 lazy recursion converts without looping", async () => {
    type Node = { name: string; children: Node[] };
    const node: z3.ZodType<Node> = z3.lazy(() => z3.object({ name: z3.string(), children: z3.array(node) }));
    const out = (await toWireSchema(z3.object({ root: node }))).properties as Rec;
    expect(out.root).toMatchObject({ type: "object", properties: { name: { type: "string" }, children: { type: "array" } } });
  });
});

describe.each(TRANSPORTS)("typed JSON extraction over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("zod 4: sends a non-empty JSON Schema and returns data conforming to it", async () => {
    s = await setup(kind);
    const schema = z4.object({ title: z4.string(), price: z4.number(), tags: z4.array(z4.string()) });
    const doc = await s.client.scrape("https://acme.test/products", { formats: [{ type: "json", schema }] });
    const wire = sentFormats(s)[0] as Rec;
    expect(wire.schema).toMatchObject({ type: "object", properties: { title: { type: "string" }, price: { type: "number" } } });
    expect(JSON.stringify(wire.schema)).not.toContain("$schema");
    expect(doc.json?.title).toBe("Acme Products");
    expect(schema.safeParse(doc.json).success).toBe(true);
  });

  it("zod 3 with validate: true parses the result (and strips `validate` from the wire)", async () => {
    s = await setup(kind);
    const schema = z3.object({ title: z3.string(), count: z3.number().int().transform((n) => n * 2) });
    const doc = await s.client.scrape("https://acme.test/about", { formats: [{ type: "json", schema, validate: true, prompt: "title" }] });
    const wire = sentFormats(s)[0] as Rec;
    expect(wire).not.toHaveProperty("validate");
    expect(wire.prompt).toBe("title");
    expect(doc.json?.count).toBe("About Acme".length * 2);
  });

  it("validate: true throws ResultValidationError naming the failing path", async () => {
    s = await setup(kind);
    const schema = z4.object({ title: z4.string(), nested: z4.object({ n: z4.number() }) });
    s.fake.inject({
      match: "/v2/scrape",
      status: 200,
      body: { success: true, data: { json: { title: "x", nested: { n: "not a number" } }, metadata: { statusCode: 200, sourceURL: "https://acme.test/" } } },
    });
    const err = await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema, validate: true }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResultValidationError);
    const rv = err as ResultValidationError;
    expect(rv.issues[0]?.path).toBe("nested.n");
    expect(rv.value).toEqual({ title: "x", nested: { n: "not a number" } });
    expect(rv.message).toContain("https://acme.test/");
  });

  it("without validate, a non-matching result is returned as is", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/scrape", status: 200, body: { success: true, data: { json: { title: 1 }, metadata: { statusCode: 200 } } } });
    const doc = await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema: z4.object({ title: z4.string() }) }] });
    expect(doc.json).toEqual({ title: 1 });
  });

  it("plain JSON Schema passes through (copied) and the caller's objects are untouched", async () => {
    s = await setup(kind);
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const formats = [{ type: "json" as const, schema }];
    const before = JSON.stringify(formats);
    const doc = await s.client.scrape("https://acme.test/contact", { formats });
    expect(JSON.stringify(formats)).toBe(before);
    expect(sentFormats(s)[0]).toEqual({ type: "json", schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    expect(doc.json).toEqual({ name: "Contact Acme" });
  });

  it("changeTracking schemas are converted too", async () => {
    s = await setup(kind);
    await s.client.scrape("https://acme.test/", { formats: ["markdown", { type: "changeTracking", modes: ["json"], schema: z4.object({ price: z4.number() }) }] });
    expect(sentFormats(s)[1]).toEqual({ type: "changeTracking", modes: ["json"], schema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] } });
  });

  it("a schema the service rejects is a ValidationError before anything is sent", async () => {
    s = await setup(kind);
    const err = await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema: { type: "object", properties: { meta: { type: "object" } } } }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues[0]?.path).toBe("formats.0.schema.properties.meta");
    const err2 = await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema: z3.string() }] }).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(ValidationError);
    const err3 = await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema: { type: "object", properties: {} }, validate: true }] }).catch((e: unknown) => e);
    expect((err3 as ValidationError).message).toMatch(/validate: true needs a zod or Standard Schema/);
    expect(s.fake.requests.length).toBe(0);
  });

  it("the fake conforms to $ref, nullable, enum, formats and nested arrays", async () => {
    s = await setup(kind);
    const Item = z4.object({ name: z4.string(), at: z4.iso.datetime(), kind: z4.enum(["a", "b"]), note: z4.string().nullable() });
    const schema = z4.object({ items: z4.array(Item).min(2), email: z4.email(), first: Item });
    const doc = await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema, validate: true }] });
    expect(doc.json?.items).toHaveLength(2);
    expect(doc.json?.first.kind).toBe("a");
    expect(doc.json?.email).toBe("hello@acme.test");
  });
});
