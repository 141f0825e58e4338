/**
 * The peer range's oldest zod: an application on zod 3.25 (its `zod/v4`
 * subpath serving `zod/v4/mini` and `zod/v4/core`). The built package is
 * bundled with `zod` resolved to the `zod3` devDependency (3.25), then run:
 * request checks give the same messages, zod 3.25's zod 4 schemas convert
 * with its own `toJSONSchema` once `webdata/zod4` is imported, zod 3 schemas with zod-to-json-schema.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(REPO, "node_modules", ".cache", `webdata-zod325-${process.pid}`);

const APP = `
import { WebData } from "./dist/index.js";
import "./dist/zod3.js";
import { createFakeService } from "./dist/testing/index.js";
import * as z from "zod/v4";
import { z as z3 } from "zod/v3";
import { version } from "zod/v4/core";
export async function run() {
  const fake = createFakeService();
  const c = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
  const errors = [];
  for (const call of [
    () => c.map("https://acme.test/", { limit: 100001, sitemap: "never", timeout: 1.5 }),
    () => c.scrape("not a url"),
    () => c.scrape("https://acme.test/", { formats: [{ type: "changeTracking" }] }),
  ]) errors.push(await call().then(() => "no error", (e) => e.name + ": " + e.message));
  const sentBefore = fake.requests.length;
  const later = [];
  for (const format of [{ type: "question", question: "What does Acme make?" }, { type: "highlights", query: "widgets" }]) {
    later.push(await c.scrape("https://acme.test/", { formats: ["markdown", format] }).then(() => format.type + " sent", (e) => e.name + ": " + e.message));
  }
  // zod 3.25's zod/v4 schemas carry no JSON Schema of their own: refused, naming the import, until webdata/zod4 registers zod's converter.
  const sentBeforeRefusal = fake.requests.length;
  const refused = await c.scrape("https://acme.test/", { formats: [{ type: "json", schema: z.object({ title: z.string() }) }] }).then(() => "sent", (e) => e.name + ": " + e.message);
  const sentAtRefusal = fake.requests.length - sentBeforeRefusal;
  await import("./dist/zod4.js");
  await c.scrape("https://acme.test/", { formats: [{ type: "json", schema: z.object({ title: z.string().min(2).regex(/^A/) }) }] });
  const v4 = fake.requests.at(-1).body.formats[0].schema;
  await c.scrape("https://acme.test/", { formats: [{ type: "json", schema: z3.object({ n: z3.number().max(5) }) }] });
  const v3 = fake.requests.at(-1).body.formats[0].schema;
  return { errors, sentBefore, v4, v3, version, later, refused, sentAtRefusal };
}
`;

describe("an application on zod 3.25", () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it("checks requests and converts schemas with zod 3.25's zod/v4", async () => {
    if (!existsSync(join(REPO, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
    mkdirSync(OUT, { recursive: true });
    const file = join(OUT, "app.mjs");
    await build({
      stdin: { contents: APP, resolveDir: REPO, loader: "js" },
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      outfile: file,
      logLevel: "silent",
      alias: { zod: join(REPO, "node_modules", "zod3") },
    });
    const app = (await import(pathToFileURL(file).href)) as { run(): Promise<{ errors: string[]; sentBefore: number; v4: unknown; v3: unknown; version: { major: number; minor: number }; later: string[]; refused: string; sentAtRefusal: number }> };
    const r = await app.run();
    expect(r.version).toMatchObject({ major: 4, minor: 0 }); // zod 3.25's zod/v4 core
    expect(r.errors).toEqual([
      'ValidationError: Invalid map options: sitemap: must be "include" or "only" or "skip", got "never"; limit: must be <= 100000, got number 100001; timeout: expected int, got the number 1.5',
      "ValidationError: Invalid scrape options: url: must be an http(s) URL such as https://example.com",
      "ValidationError: Invalid scrape options: formats: the changeTracking format requires the markdown format as well",
    ]);
    expect(r.sentBefore).toBe(0);
    // The formats the server added after the baseline pass the format check on zod 3.25 too (they threw a raw TypeError there).
    expect(r.later).toEqual(["question sent", "highlights sent"]);
    expect(r.refused).toMatch(/^ValidationError: .*import "webdata\/zod4"/);
    expect(r.sentAtRefusal).toBe(0);
    expect(r.v4).toEqual({ type: "object", properties: { title: { type: "string", minLength: 2, pattern: "^A" } }, required: ["title"] });
    expect(r.v3).toEqual({ type: "object", properties: { n: { type: "number", maximum: 5 } }, required: ["n"] });
  });
});
