/**
 * `check` (core/validate.ts) parses an options object against its object schema cut to the
 * keys the object has (plus the required ones): zod then runs a field per key given, not one
 * per field of the shape. The outcome must be the whole schema's: the same pass or fail, the
 * same issues in the same order, whatever the keys, their values and their number of lists.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/v4/mini";
import { crawlBody } from "../src/api/crawl.js";
import { mapBody } from "../src/api/map.js";
import { scrapeOptionsSchema, scrapeOptionsShape } from "../src/api/scrape.js";
import { searchBody } from "../src/api/search.js";
import { ValidationError } from "../src/core/errors.js";
import { check, describeIssue, httpUrl } from "../src/core/validate.js";
import { checkIssues } from "./support/check-issues.js";

/** The whole schema's verdict, without the cut: zod's own parse, worded as `check` words it. */
function whole(schema: z.ZodMiniType, value: unknown): string[] | "ok" {
  const r = z.safeParse(schema, value, { error: () => "\u0000default" });
  return r.success ? "ok" : r.error.issues.map((i) => { const d = describeIssue(i, value); return `${d.path}: ${d.message}`; });
}

const cut = checkIssues;

const withUrl = z.looseObject({ url: httpUrl, ...scrapeOptionsShape });
const SCHEMAS: [string, z.ZodMiniType][] = [
  ["scrape options", scrapeOptionsSchema as z.ZodMiniType],
  ["scrape options with a required url", withUrl],
  ["crawl body", crawlBody as z.ZodMiniType],
  ["map body", mapBody as z.ZodMiniType],
  ["search body", searchBody as z.ZodMiniType],
  ["a strict object", z.strictObject({ a: z.optional(z.string()), b: z.number() })],
];

/** Values of every kind, good and bad, for any field. */
const anyValue = fc.oneof(
  fc.constant(undefined), fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 200_000 }), fc.double({ noNaN: true }),
  fc.constantFrom("markdown", "https://acme.test", "US", "basic", "", "not a url"),
  fc.constantFrom(["markdown"], ["markdown", "changeTracking"], [{ type: "json" }], [{ type: "nope" }], [1], []),
  fc.constantFrom({ country: "US" }, { country: 1 }, { type: "wait", milliseconds: 1000 }),
);

describe("check cuts an object schema to the keys given, with the whole schema's outcome", () => {
  it.each(SCHEMAS)("%s: the same verdict and issues as the whole schema, for any keys and values", (_name, schema) => {
    const shape = (schema._zod.def as unknown as { shape: Record<string, unknown> }).shape;
    const keys = [...Object.keys(shape), "unknownKey", "other"];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 8 }), (value) => {
        expect(cut(schema, value)).toEqual(whole(schema, value));
      }),
      { numRuns: 400 },
    );
  });

  it("a required field the value lacks is still reported (it is always kept in the cut)", () => {
    expect(cut(withUrl, { formats: ["markdown"] })).toEqual(["url: is required (expected string)"]);
    expect(cut(withUrl, { formats: ["markdown"], url: "https://acme.test" })).toBe("ok");
  });

  it("past the number of key lists kept, the whole schema checks, with the same outcome", () => {
    const schema = z.looseObject({ n: z.optional(z.number()), ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, z.optional(z.string())])) });
    for (let i = 0; i < 40; i++) {
      expect(cut(schema, { [`k${i}`]: "x", n: 1 })).toBe("ok");
      expect(cut(schema, { [`k${i}`]: 1, n: "1" })).toEqual(whole(schema, { [`k${i}`]: 1, n: "1" }));
    }
  });
});
