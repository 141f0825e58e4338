/**
 * Users' extraction schemas reach the wire with every constraint: zod 4
 * (classic, mini, and zod 3.25's `zod/v4`) through zod's own `toJSONSchema`,
 * zod 3 through the `zod-to-json-schema` library (each registered by its
 * entry, `webdata/zod4` and `webdata/zod3`). The request is the one of the call.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z4 from "zod";
import * as zm from "zod/mini";
import { z as z3 } from "zod3";
import "../src/zod3.js"; // zod 3 schemas need the opt-in converter (webdata/zod3)
import "../src/zod4.js"; // zod mini and zod 3.25's zod/v4 schemas need the opt-in converter (webdata/zod4)
import * as z325 from "zod3/v4";
import { zodToJsonSchema } from "zod-to-json-schema";
import { toWireSchema } from "../src/index.js";
import type { SchemaInput } from "../src/types.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

type Rec = Record<string, unknown>;

const classic = z4.object({
  n: z4.number().min(1).max(10),
  s: z4.string().min(2).max(5).regex(/^[a-z]+$/),
  e: z4.enum(["a", "b"]),
  o: z4.string().optional(),
  nl: z4.number().nullable(),
  arr: z4.array(z4.string()).min(1).max(3),
  nested: z4.object({ k: z4.int().gte(0), tags: z4.array(z4.object({ t: z4.string().length(3) })) }),
});
const mini = zm.object({
  n: zm.number().check(zm.minimum(1), zm.maximum(10)),
  s: zm.string().check(zm.minLength(2), zm.maxLength(5), zm.regex(/^[a-z]+$/)),
  e: zm.enum(["a", "b"]),
  o: zm.optional(zm.string()),
  nl: zm.nullable(zm.number()),
  arr: zm.array(zm.string()).check(zm.minLength(1), zm.maxLength(3)),
  nested: zm.object({ k: zm.int().check(zm.gte(0)), tags: zm.array(zm.object({ t: zm.string().check(zm.length(3)) })) }),
});
const v4of325 = z325.object({
  n: z325.number().min(1).max(10),
  s: z325.string().min(2).max(5).regex(/^[a-z]+$/),
  e: z325.enum(["a", "b"]),
  o: z325.string().optional(),
  nl: z325.number().nullable(),
  arr: z325.array(z325.string()).min(1).max(3),
  nested: z325.object({ k: z325.int().gte(0), tags: z325.array(z325.object({ t: z325.string().length(3) })) }),
});
const zod3 = z3.object({
  n: z3.number().min(1).max(10),
  s: z3.string().min(2).max(5).regex(/^[a-z]+$/),
  e: z3.enum(["a", "b"]),
  o: z3.string().optional(),
  nl: z3.number().nullable(),
  arr: z3.array(z3.string()).min(1).max(3),
  nested: z3.object({ k: z3.number().int().gte(0), tags: z3.array(z3.object({ t: z3.string().length(3) })) }),
});

/** zod's own output for a zod 4 schema (the installed zod, as the SDK's peer), `$schema` stripped. */
function zodOwn(schema: unknown): Rec {
  const out = z4.toJSONSchema(schema as z4.ZodType, { target: "draft-7", io: "input" }) as Rec;
  delete out.$schema;
  return out;
}
/** The library's own output for a zod 3 schema. */
function libraryOwn(schema: unknown): Rec {
  const out = zodToJsonSchema(schema as never, { target: "jsonSchema7", removeAdditionalStrategy: "strict", allowedAdditionalProperties: undefined }) as Rec;
  delete out.$schema;
  return out;
}

const CASES: [string, SchemaInput, () => Rec][] = [
  ["zod 4 classic", classic, () => zodOwn(classic)],
  ["zod 4 mini", mini, () => zodOwn(mini)],
  ["zod 3.25 zod/v4", v4of325 as unknown as SchemaInput, () => zodOwn(v4of325)],
  ["zod 3", zod3, () => libraryOwn(zod3)],
];

/** Every constraint of the schemas above, as JSON Schema keywords. */
function expectEveryConstraint(out: Rec): void {
  const p = out.properties as Record<string, Rec>;
  expect(p.n).toMatchObject({ type: "number", minimum: 1, maximum: 10 });
  expect(p.s).toMatchObject({ type: "string", minLength: 2, maxLength: 5, pattern: "^[a-z]+$" });
  expect(p.e).toMatchObject({ enum: ["a", "b"] });
  expect(p.arr).toMatchObject({ type: "array", minItems: 1, maxItems: 3 });
  expect(JSON.stringify(p.nl)).toContain('"null"');
  const nested = p.nested as { properties: Record<string, Rec> };
  expect(nested.properties.k).toMatchObject({ type: "integer", minimum: 0 });
  expect((nested.properties.tags as { items: { properties: Record<string, Rec> } }).items.properties.t).toMatchObject({ minLength: 3, maxLength: 3 });
  expect(out.required).toEqual(expect.arrayContaining(["n", "s", "e", "nl", "arr", "nested"]));
  expect(out.required).not.toContain("o");
}

describe("the request is the one of the call", () => {
  it.each(TRANSPORTS)("over %s: options changed after the call do not change the request", async (kind) => {
    const s = await setup(kind);
    try {
      const options = { schema: v4of325 as unknown as SchemaInput, urls: ["https://acme.test/"] };
      const formats: Rec[] = [{ type: "json", schema: mini }];
      const pending = s.client.startAgent("find it", options as never).catch(() => undefined);
      const location = { country: "US", languages: ["en"] };
      const scraped = s.client.scrape("https://acme.test/", { formats, location } as never).catch(() => undefined);
      options.schema = { type: "object", properties: { changed: { type: "string" } } };
      options.urls[0] = "https://changed.test/"; // nested values too: the body was frozen at the call
      location.country = "DE";
      location.languages.push("de");
      formats[0] = { type: "json", schema: { type: "object", properties: { changed: { type: "string" } } } };
      await pending;
      await scraped;
      const agent = s.fake.requests.find((r) => r.pathname === "/v2/agent")?.body as Rec;
      expect(agent).toMatchObject({ prompt: "find it", urls: ["https://acme.test/"], schema: zodOwn(v4of325) });
      const scrape = s.fake.requests.find((r) => r.pathname === "/v2/scrape")?.body as Rec;
      expect(scrape.formats).toEqual([{ type: "json", schema: zodOwn(mini) }]);
      expect(scrape.location).toEqual({ country: "US", languages: ["en"] });
    } finally {
      await s.close();
    }
  });
});

describe("no constraint is lost (toWireSchema)", () => {
  it.each(CASES)("%s: equals the converter's own output and keeps min/max, lengths, pattern, enum, optional/nullable, arrays, nesting", async (_name, schema, own) => {
    const out = await toWireSchema(schema);
    expect(out).toEqual(own());
    expectEveryConstraint(out);
  });
});

describe.each(TRANSPORTS)("no constraint is lost on the wire (%s)", (kind) => {
  let s: Setup | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it.each(CASES)("%s in a json format is sent as the converter's output", async (_name, schema, own) => {
    s = await setup(kind);
    await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema }] }).catch(() => undefined);
    const sent = (s.fake.requests.at(-1)?.body as Rec).formats as Rec[];
    expect(sent).toEqual([{ type: "json", schema: own() }]);
    expectEveryConstraint(sent[0]!.schema as Rec);
  });
});
