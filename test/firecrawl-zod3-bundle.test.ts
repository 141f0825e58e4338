/**
 * The zod 3 converter in bundles: `import Firecrawl from "webdata/firecrawl"` bundled for the
 * browser by esbuild (as test/size.test.ts bundles, through `bench/bundles.ts`) carries it, and the
 * drop-in converts a zod 3 schema in the bundle (a bundler keeps the registration: it is a call in the
 * classes' constructors, not a side-effect import that `"sideEffects"` lets a bundler drop); a zod 4 app
 * importing only `webdata` still carries none (test/size.test.ts holds that too). Needs `npm run build`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDir, bundle, REPO } from "../bench/bundles.js";

let dir = "";
let remove = (): void => undefined;
beforeAll(() => {
  if (!existsSync(join(REPO, "dist", "firecrawl", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  ({ dir, remove } = appDir());
});
afterAll(() => remove());

const converter = (inputs: [string, number][]) => inputs.filter(([file]) => /^zod-to-json-schema\//.test(file));

describe("the zod 3 converter in a browser bundle", () => {
  it('import Firecrawl from "webdata/firecrawl" carries it (dist/firecrawl/zod3.js and zod-to-json-schema)', async () => {
    const f = await bundle(dir, 'import Firecrawl from "webdata/firecrawl"; export const c = new Firecrawl({ apiKey: "k" });', { split: false });
    expect(converter(f.inputs).length).toBeGreaterThan(0);
    expect(f.inputs.map(([file]) => file)).toContain("dist/firecrawl/zod3.js");
  });

  it('only FirecrawlAppV1 from "webdata/firecrawl" carries it too', async () => {
    const f = await bundle(dir, 'import { FirecrawlAppV1 } from "webdata/firecrawl"; export const c = new FirecrawlAppV1({ apiKey: "k" });', { split: false });
    expect(converter(f.inputs).length).toBeGreaterThan(0);
  });

  it('a zod 4 app importing only "webdata" carries none', async () => {
    const f = await bundle(dir, 'import { WebData } from "webdata"; export const c = new WebData({ apiKey: "k" });', { split: false });
    expect(converter(f.inputs)).toEqual([]);
    expect(f.inputs.map(([file]) => file).filter((file) => file.includes("zod3"))).toEqual([]);
  });
});
