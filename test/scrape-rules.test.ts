/**
 * The cross-field scrape rules, written once (`src/api/scrape-rules.ts`) and
 * read from two wire shapes: v2 `formats` of names and `{ type }` objects, v1
 * `formats` of names with `screenshot@fullPage`. Every rule gives the same
 * ValidationError (path and message) on both versions, top level and under
 * `scrapeOptions`, and nothing is sent.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ValidationError } from "../src/index.js";
import type { V1ScrapeParams } from "../src/v1/index.js";
import type { ScrapeParams } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { rejection } from "./support/rejection.js";

const URL_ = "https://acme.test/";
const waits = (n: number, ms: number) => Array.from({ length: n }, () => ({ type: "wait" as const, milliseconds: ms }));

/** Each rule broken once: the v2 options, the v1 options, and the issue both must give. */
const CASES: { rule: string; v2: ScrapeParams; v1: V1ScrapeParams; path: string; message: RegExp }[] = [
  { rule: "changeTracking needs markdown", v2: { formats: [{ type: "changeTracking" }] }, v1: { formats: ["changeTracking"] }, path: "formats", message: /changeTracking format requires the markdown format/ },
  { rule: "one screenshot", v2: { formats: [{ type: "screenshot" }, { type: "screenshot", fullPage: true }] }, v1: { formats: ["screenshot", "screenshot@fullPage"] }, path: "formats", message: /at most one screenshot format/ },
  { rule: "waitFor at most half of timeout", v2: { waitFor: 6_000, timeout: 10_000 }, v1: { waitFor: 6_000, timeout: 10_000 }, path: "waitFor", message: /waitFor must not exceed half of timeout/ },
  { rule: "at most 50 actions", v2: { actions: waits(51, 1) }, v1: { actions: waits(51, 1) }, path: "actions", message: /at most 50 actions/ },
  { rule: "total wait at most 60 s", v2: { waitFor: 30_000, actions: waits(2, 20_000) }, v1: { waitFor: 30_000, actions: waits(2, 20_000) }, path: "actions", message: /total wait time .* cannot exceed 60 seconds/ },
];

describe.each(TRANSPORTS)("cross-field scrape rules over %s", (kind) => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup(kind);
  });
  afterEach(() => s.close());

  const issue = (p: Promise<unknown>) => rejection(p, ValidationError);

  it.each(CASES)("$rule: the same issue on v2 and v1, top level and in scrapeOptions", async ({ v2, v1, path, message }) => {
    const errors = [
      await issue(s.client.scrape(URL_, v2)),
      await issue(s.client.v1.scrapeUrl(URL_, v1)),
      await issue(s.client.startCrawl(URL_, { scrapeOptions: v2 })),
      await issue(s.client.v1.asyncCrawlUrl(URL_, { scrapeOptions: v1 })),
    ];
    for (const err of errors) {
      const hit = err.issues.find((i) => message.test(i.message));
      expect(hit, err.message).toBeDefined();
      expect(hit?.path.endsWith(path)).toBe(true);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("waitFor over 60 s without wait actions is one issue, on waitFor (not a second one on actions)", async () => {
    for (const err of [await issue(s.client.scrape(URL_, { waitFor: 70_000 })), await issue(s.client.v1.scrapeUrl(URL_, { waitFor: 70_000 }))]) {
      expect(err.issues.map((i) => i.path), err.message).toEqual(["waitFor"]);
    }
    // With wait actions, the total is the actions' issue (as the server words it), beside waitFor's own.
    const both = await issue(s.client.scrape(URL_, { waitFor: 70_000, actions: waits(1, 1_000) }));
    expect(both.issues.map((i) => i.path)).toEqual(["waitFor", "actions"]);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("v1: screenshot@fullPage alone, or one name given twice, is one screenshot", async () => {
    await s.client.v1.scrapeUrl(URL_, { formats: ["markdown", "screenshot@fullPage"] });
    await s.client.v1.scrapeUrl(URL_, { formats: ["markdown", "screenshot", "screenshot"] });
    expect(s.fake.requests.filter((r) => r.pathname === "/v1/scrape")).toHaveLength(2);
  });

  it("v1 only: the extract and json formats pair with their options", async () => {
    const e1 = await issue(s.client.v1.scrapeUrl(URL_, { formats: ["extract"] }));
    expect(e1.issues.map((i) => i.path)).toContain("extract");
    const e2 = await issue(s.client.v1.scrapeUrl(URL_, { jsonOptions: { prompt: "x" } }));
    expect(e2.issues.map((i) => i.path)).toContain("jsonOptions");
    expect(s.fake.requests).toHaveLength(0);
  });
});
