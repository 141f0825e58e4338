/**
 * `check` (core/validate.ts) remembers the JSON text of the values each schema accepted, so the same
 * options sent again skip zod (measured: about a tenth of a scrape's CPU in the Node entry's loop).
 * The verdict must stay the schema's own: a value mutated after it passed, a value that is not JSON
 * alone, a rejected value, each is checked again, with the same issues as a first check.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/v4/mini";
import { scrapeOptionsSchema } from "../src/api/scrape.js";
import { ValidationError } from "../src/core/errors.js";
import { check, httpUrl, jsonKey } from "../src/core/validate.js";
import { checkIssues } from "./support/check-issues.js";

const issues = checkIssues;

describe("check remembers accepted JSON values, never a verdict that could differ", () => {
  it("jsonKey: the JSON text of plain objects and arrays of JSON values; undefined for anything else", () => {
    expect(jsonKey({ formats: ["markdown"], n: 1, ok: true, none: null })).toBe('{"formats":["markdown"],"n":1,"ok":true,"none":null}');
    expect(jsonKey([{ a: "b" }])).toBe('[{"a":"b"}]');
    expect(jsonKey(Object.assign(Object.create(null) as object, { a: 1 }))).toBe('{"a":1}');
    class Options {
      formats = ["markdown"];
    }
    const sparse: unknown[] = [];
    sparse[1] = "x";
    for (const v of [
      "a string", 1, null, undefined, { a: undefined }, { a: Number.NaN }, { a: Number.POSITIVE_INFINITY }, { a: -0 }, { a: 1n },
      { a: new Date(0) }, { a: () => 1 }, { a: Symbol("s") }, { a: new AbortController().signal }, new Options(), { a: sparse },
      { a: z.string() }, { toJSON: () => ({}) }, { a: "x".repeat(2000) },
    ]) expect(jsonKey(v), String(v)).toBeUndefined();
    const deep: Record<string, unknown> = {};
    let cur = deep;
    for (let i = 0; i < 20; i++) cur = (cur.next = {}) as Record<string, unknown>;
    expect(jsonKey(deep)).toBeUndefined();
    expect(jsonKey({ many: Array.from({ length: 300 }, (_, i) => i) })).toBeUndefined();
  });

  it("an accepted object mutated into an invalid one is rejected, with the issues of a first check", () => {
    const schema = z.strictObject({ formats: z.optional(z.array(z.enum(["markdown", "html"]))), n: z.optional(z.number()) });
    const opts: Record<string, unknown> = { formats: ["markdown"] };
    expect(issues(schema, opts)).toBe("ok");
    expect(issues(schema, opts)).toBe("ok");
    (opts.formats as string[]).push("nope");
    const fresh = issues(z.strictObject({ formats: z.optional(z.array(z.enum(["markdown", "html"]))), n: z.optional(z.number()) }), { formats: ["markdown", "nope"] });
    expect(fresh).not.toBe("ok");
    expect(issues(schema, opts)).toEqual(fresh);
    opts.extra = 1;
    expect(issues(schema, opts)).not.toBe("ok");
  });

  it("a rejected value is rejected again, with the same issues (never remembered)", () => {
    const bad = { timeout: "soon" };
    const first = issues(scrapeOptionsSchema as z.ZodMiniType, bad);
    expect(first).not.toBe("ok");
    expect(issues(scrapeOptionsSchema as z.ZodMiniType, bad)).toEqual(first);
    expect(issues(scrapeOptionsSchema as z.ZodMiniType, { timeout: "soon" })).toEqual(first);
  });

  it("a value that is not JSON alone is checked every time: NaN after 0 in the same object is rejected", () => {
    const schema = z.object({ n: z.number() });
    const v = { n: 0 };
    expect(issues(schema, v)).toBe("ok");
    v.n = Number.NaN;
    expect(issues(schema, v)).not.toBe("ok");
    const w: { n?: number } = { n: 1 };
    expect(issues(z.object({ n: z.optional(z.number().check(z.positive())) }), w)).toBe("ok");
    w.n = -0;
    expect(issues(z.object({ n: z.optional(z.number().check(z.positive())) }), w)).not.toBe("ok");
  });

  it("checked twice in a row, any value gets the verdict and issues of a schema that never saw it", () => {
    const make = () => z.looseObject({ formats: z.optional(z.array(z.enum(["markdown", "html"]))), n: z.optional(z.number().check(z.gte(0))), s: z.optional(z.string()) });
    const shared = make();
    const value = fc.dictionary(
      fc.constantFrom("formats", "n", "s", "other"),
      fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: -3, max: 3 }), fc.constantFrom("markdown", "x"), fc.constantFrom(["markdown"], ["html", "nope"], [])),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(value, (v) => {
        const fresh = issues(make(), v);
        expect(issues(shared, v)).toEqual(fresh);
        expect(issues(shared, v)).toEqual(fresh);
      }),
      { numRuns: 300 },
    );
  });

  it("a field apart (a scrape's url): the options' verdict is kept whatever the URL, and the URL is still checked on every call", () => {
    let ruleRuns = 0;
    const make = () =>
      z.looseObject({ url: httpUrl, formats: z.optional(z.array(z.string())) }).check(
        z.refine(() => {
          ruleRuns += 1;
          return true;
        }),
      );
    const schema = make();
    expect(check(schema, { formats: ["markdown"], url: "https://a.test/1" }, "scrape options", "url")).toBeTruthy();
    expect(ruleRuns).toBe(1);
    // Another URL, the same options: remembered (zod and the rules are not run again).
    check(schema, { formats: ["markdown"], url: "https://a.test/2" }, "scrape options", "url");
    check(schema, { formats: ["markdown"], url: "https://b.test/any/path?q=1" }, "scrape options", "url");
    expect(ruleRuns).toBe(1);
    // Without `apart` each URL is a value of its own.
    check(schema, { formats: ["markdown"], url: "https://a.test/3" }, "scrape options");
    expect(ruleRuns).toBe(2);
    // A bad URL after the options were remembered: rejected, with the issues of a first check.
    for (const url of ["ftp://a.test/", "not a url", "", undefined]) {
      const first = issues(make(), { formats: ["markdown"], url });
      expect(first, String(url)).not.toBe("ok");
      let thrown: unknown;
      try {
        check(schema, { formats: ["markdown"], url }, "scrape options", "url");
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect((thrown as ValidationError).issues.map((i) => `${i.path}: ${i.message}`)).toEqual(first);
    }
    // Other options are their own verdict.
    expect(() => check(schema, { formats: [1], url: "https://a.test/1" }, "scrape options", "url")).toThrow(ValidationError);
  });
});
