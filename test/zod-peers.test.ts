/**
 * Both ends of the zod peer range, side by side: one application, bundled
 * twice from the built package, once with `zod` resolved to zod 4 (the
 * `zod` devDependency) and once to zod 3.25 (the `zod3` devDependency, whose
 * `zod/v4` subpath the SDK then runs on). Every format and every path that
 * takes a user's schema (v2 and v1, our client and the drop-in entry) is
 * called against the fake; the two runs must send the same bodies and fail
 * with the same messages, and no schema may reach the wire empty (the official
 * client's bug with zod 4 schemas).
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(REPO, "node_modules", ".cache", `webdata-zod-peers-${process.pid}`);

/** The application: each case is a call; its outcome is the request body it sent (the part that carries formats and schemas) or its error. */
const APP = `
import { WebData } from "./dist/index.js";
import Firecrawl, { FirecrawlAppV1 } from "./dist/firecrawl/index.js";
import "./dist/zod3.js";
import "./dist/zod4.js"; // zod mini (and every zod 4 schema of zod 3.25) converts through zod's toJSONSchema
import { createFakeService } from "./dist/testing/index.js";
import * as z from "zod/v4";
import * as zm from "zod/v4/mini";
import { z as z3 } from "zod/v3";
import { version } from "zod/v4/core";
import { v1 as v1Face } from "./dist/v1/index.js";

const URL_ = "https://acme.test/";
const STRING_FORMATS = ["markdown", "html", "rawHtml", "links", "summary", "images", "branding", "screenshot", "json", "product", "menu", "audio", "video"];
const OBJECT_FORMATS = [
  { type: "json", prompt: "the title" },
  { type: "screenshot", fullPage: true, quality: 80, viewport: { width: 800, height: 600 } },
  { type: "changeTracking", modes: ["git-diff", "json"], prompt: "prices", tag: "daily" },
  { type: "attributes", selectors: [{ selector: "a", attribute: "href" }] },
  { type: "query", prompt: "What does Acme make?" },
  { type: "question", question: "What does Acme make?" },
  { type: "highlights", query: "widgets" },
];
const BAD_FORMATS = [
  "extract",
  "screenshot@fullPage",
  { type: "screenshot", quality: 200 },
  { type: "attributes" },
  { type: "query" },
  { type: "question" },
  { type: "json", prompt: 42 },
];
const schemas = {
  "zod 4 classic": z.object({ title: z.string().min(2), price: z.number().optional(), tags: z.array(z.enum(["a", "b"])) }),
  "zod 4 mini": zm.object({ title: zm.string().check(zm.minLength(2)), price: zm.optional(zm.number()), tags: zm.array(zm.enum(["a", "b"])) }),
  "zod 3": z3.object({ title: z3.string().min(2), price: z3.number().optional(), tags: z3.array(z3.enum(["a", "b"])) }),
  "JSON Schema": { type: "object", properties: { title: { type: "string", minLength: 2 } }, required: ["title"] },
};

export async function run() {
  const fake = createFakeService();
  const opts = { apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0, silenceDeprecationWarnings: true };
  const c = new WebData({ ...opts, plugins: [v1Face] });
  const official = new Firecrawl(opts);
  const officialV1 = new FirecrawlAppV1(opts);
  const out = {};
  const call = async (name, fn, pick) => {
    const before = fake.requests.length;
    try {
      await fn();
      const sent = fake.requests.slice(before).filter((r) => r.method === "POST");
      out[name] = sent.length ? { sent: pick(sent[0].body) } : { sent: "nothing" };
    } catch (e) {
      out[name] = { error: e.name + ": " + e.message, sent: fake.requests.length - before };
    }
  };
  const formats = (b) => b.formats;
  for (const f of STRING_FORMATS) await call("format " + f, () => c.scrape(URL_, { formats: f === "json" ? [f] : ["markdown", f] }), formats);
  await call("format changeTracking", () => c.scrape(URL_, { formats: ["markdown", "changeTracking"] }), formats);
  for (const f of OBJECT_FORMATS) await call("format " + JSON.stringify(f), () => c.scrape(URL_, { formats: ["markdown", f] }), formats);
  // A name the SDK does not know passes through (the server added formats before): the server is the judge.
  await call("unknown format name", () => c.scrape(URL_, { formats: ["markdown", "no-such-format"] }), formats);
  for (const f of BAD_FORMATS) await call("bad format " + JSON.stringify(f), () => c.scrape(URL_, { formats: [f] }), formats);
  // Options of more than one form (a name or an object, a URL or an object, "auto" or a number): each wrong one named, whichever zod.
  const BAD_OPTIONS = {
    "formats: an object without a type": () => c.scrape(URL_, { formats: [{}] }),
    "formats: a number": () => c.scrape(URL_, { formats: [5] }),
    "parsers: unknown name": () => c.scrape(URL_, { parsers: ["docx"] }),
    "parsers: bad mode": () => c.scrape(URL_, { parsers: [{ type: "pdf", mode: "slow" }] }),
    "parsers: number": () => c.scrape(URL_, { parsers: [5] }),
    "search sources: unknown name": () => c.search("acme", { sources: ["video"] }),
    "search sources: web with a bad tbs": () => c.search("acme", { sources: [{ type: "web", tbs: 5 }] }),
    "search sources: unknown type": () => c.search("acme", { sources: [{ type: "maps" }] }),
    "search categories: bad object": () => c.search("acme", { categories: [{ type: "nope" }] }),
    "webhook: not a URL": () => c.startCrawl(URL_, { webhook: "not a url" }),
    "webhook: signature header": () => c.startCrawl(URL_, { webhook: { url: "https://hooks.test/", headers: { "X-Firecrawl-Signature": "x" } } }),
    "webhook: number": () => c.startCrawl(URL_, { webhook: 5 }),
    "v1 webhook: bad events": () => c.v1.asyncCrawlUrl(URL_, { webhook: { url: "https://hooks.test/", events: ["done"] } }),
    "maxConcurrency: 0": async () => new WebData({ plugins: [v1Face], ...opts, maxConcurrency: 0 }),
    "maxConcurrency: a word": async () => new WebData({ plugins: [v1Face], ...opts, maxConcurrency: "many" }),
  };
  for (const [name, fn] of Object.entries(BAD_OPTIONS)) await call("bad option " + name, fn, (b) => b);
  for (const [kind, schema] of Object.entries(schemas)) {
    await call(kind + ": scrape json", () => c.scrape(URL_, { formats: [{ type: "json", schema }] }), formats);
    await call(kind + ": scrape changeTracking json", () => c.scrape(URL_, { formats: ["markdown", { type: "changeTracking", modes: ["json"], schema }] }), formats);
    await call(kind + ": startCrawl scrapeOptions", () => c.startCrawl(URL_, { limit: 2, scrapeOptions: { formats: [{ type: "json", schema }] } }), (b) => b.scrapeOptions);
    await call(kind + ": startBatchScrape", () => c.startBatchScrape([URL_], { formats: [{ type: "json", schema }] }), formats);
    await call(kind + ": search scrapeOptions", () => c.search("acme", { limit: 1, scrapeOptions: { formats: [{ type: "json", schema }] } }), (b) => b.scrapeOptions);
    await call(kind + ": startExtract", () => c.startExtract({ urls: [URL_], schema }), (b) => ({ schema: b.schema }));
    await call(kind + ": startAgent", () => c.startAgent("find the title", { schema }), (b) => ({ schema: b.schema }));
    await call(kind + ": v1 scrapeUrl jsonOptions", () => c.v1.scrapeUrl(URL_, { formats: ["json"], jsonOptions: { schema } }), (b) => b.jsonOptions);
    await call(kind + ": v1 scrapeUrl extract", () => c.v1.scrapeUrl(URL_, { formats: ["extract"], extract: { schema } }), (b) => b.extract);
    await call(kind + ": v1 scrapeUrl changeTrackingOptions", () => c.v1.scrapeUrl(URL_, { formats: ["markdown", "changeTracking"], changeTrackingOptions: { modes: ["json"], schema } }), (b) => b.changeTrackingOptions);
    await call(kind + ": v1 asyncExtract", () => c.v1.asyncExtract([URL_], { schema }), (b) => ({ schema: b.schema }));
    await call(kind + ": official scrape json", () => official.scrape(URL_, { formats: [{ type: "json", schema }] }), formats);
    await call(kind + ": official startExtract", () => official.startExtract({ urls: [URL_], schema }), (b) => ({ schema: b.schema }));
    await call(kind + ": official startAgent", () => official.startAgent({ prompt: "find the title", schema }), (b) => ({ schema: b.schema }));
    await call(kind + ": official v1 scrapeUrl", () => officialV1.scrapeUrl(URL_, { formats: ["json"], jsonOptions: { schema } }), (b) => b.jsonOptions);
  }
  return { version, out };
}
`;

interface Outcome {
  sent: unknown;
  error?: string;
}
interface Run {
  version: { major: number; minor: number };
  out: Record<string, Outcome>;
}

async function bundleAndRun(name: string, alias: Record<string, string>): Promise<Run> {
  const file = join(OUT, `${name}.mjs`);
  await build({ stdin: { contents: APP, resolveDir: REPO, loader: "js" }, bundle: true, format: "esm", platform: "neutral", mainFields: ["module", "main"], outfile: file, logLevel: "silent", alias });
  const app = (await import(pathToFileURL(file).href)) as { run(): Promise<Run> };
  return app.run();
}

/** Every JSON Schema object in a sent body (a `schema` key anywhere). */
function sentSchemas(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const v of value) sentSchemas(v, found);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "schema") found.push(v);
      sentSchemas(v, found);
    }
  }
  return found;
}

describe("the zod peer range, both ends", () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it("zod 4 and zod 3.25 send the same bodies and fail with the same messages, for every format and every schema path", async () => {
    if (!existsSync(join(REPO, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
    mkdirSync(OUT, { recursive: true });
    const zod4 = await bundleAndRun("zod4", {});
    const zod325 = await bundleAndRun("zod325", { zod: join(REPO, "node_modules", "zod3") });
    expect(zod4.version.major).toBe(4);
    expect(zod4.version.minor).toBeGreaterThanOrEqual(1);
    expect(zod325.version).toMatchObject({ major: 4, minor: 0 }); // zod 3.25's zod/v4 core

    const cases = Object.keys(zod4.out);
    expect(cases.length).toBeGreaterThanOrEqual(80);
    expect(Object.keys(zod325.out)).toEqual(cases);
    // Each wrong option is named at its field, with what it must be (a zod union said only "does not match any
    // accepted form", and zod 3.25's never more): the same words on both ends, so checked on one.
    const named: Record<string, string> = {
      "formats: an object without a type": "formats.0.type: is required (expected string)",
      "formats: a number": "formats.0: must be a format name or { type, ... }, got 5",
      "parsers: unknown name": 'parsers.0: must be "pdf", got "docx"',
      "parsers: bad mode": 'parsers.0.mode: must be "fast" or "auto" or "ocr", got "slow"',
      "parsers: number": 'parsers.0: must be "pdf" or { type: "pdf", mode, maxPages }, got 5',
      "search sources: unknown name": 'sources.0: must be "web" or "news" or "images", got "video"',
      "search sources: web with a bad tbs": "sources.0.tbs: expected string, got number 5",
      "search sources: unknown type": 'sources.0.type: must be "web" or "news" or "images", got "maps"',
      "search categories: bad object": 'categories.0.type: must be "github" or "research" or "pdf", got "nope"',
      "webhook: not a URL": "webhook: must be an absolute http(s) URL",
      "webhook: signature header": "webhook.headers: The following headers are not allowed: x-firecrawl-signature",
      "webhook: number": "webhook: must be a URL or { url, headers, metadata, events }, got 5",
      "v1 webhook: bad events": 'webhook.events.0: must be "completed" or "failed" or "page" or "started", got "done"',
      "maxConcurrency: 0": "maxConcurrency: must be >= 1, got number 0",
      "maxConcurrency: a word": 'maxConcurrency: must be "auto" or a whole number >= 1',
    };
    for (const [name, words] of Object.entries(named)) expect(zod4.out[`bad option ${name}`]?.error, name).toContain(words);
    for (const name of cases) expect(zod325.out[name], name).toEqual(zod4.out[name]);

    // What the runs agree on is right: good calls are sent with a real schema, bad ones fail before sending.
    for (const [name, o] of Object.entries(zod4.out)) {
      if (name.startsWith("bad format") || name.startsWith("bad option")) {
        expect(o.error, name).toMatch(/^ValidationError: /);
        expect(o.sent, name).toBe(0);
        continue;
      }
      if (name === "unknown format name") {
        expect(o.error, name).toMatch(/^BadRequestError: /); // sent, and the server's 400
        expect(o.sent, name).toBe(1);
        continue;
      }
      expect(o.error, name).toBeUndefined();
      expect(o.sent, name).not.toBe("nothing");
      for (const schema of sentSchemas(o.sent)) {
        expect(schema, name).toMatchObject({ type: "object", properties: { title: { type: "string", minLength: 2 } } });
      }
      if (name.includes(": ")) expect(sentSchemas(o.sent).length, name).toBeGreaterThan(0);
    }
  });
});
