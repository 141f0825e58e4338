/**
 * Size budget of what browser users get: the built package (dist/, so run
 * `npm run build` first; `npm test` does) bundled by esbuild for the browser
 * with every dependency, minified and gzipped. The budget is for the initial
 * download, zod counted (a peer dependency, bundled as an app would): the
 * app's bundle with the modules the SDK loads by `import()` on first use (the
 * v1 layer behind `client.v1`, the watcher's transports, the zod schema
 * converters) left out, as Vite, Rollup and webpack split them by default. The
 * bundle with those inlined has a budget too (the schema converters printed
 * beside it). Also proves the portable bundles pull no `node:*` or undici.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDir, BUDGET, bundle, CLIENT_APP, kb, REPO, rollupInitial, SCHEMA_CONVERTERS, SCRAPE_APP, type Bundle } from "../bench/bundles.js";

/** The limit a figure is held to: its budget (DESIGN.md's ceilings against growth, `BUDGET`). */
const limit = (budget: number): number => budget;

interface Figures {
  /** The bundle without the modules loaded on first use. */
  initial: Bundle;
  /** The bundle with them inlined. */
  all: Bundle;
  /** The bundle with them inlined, but for the zod schema converters. */
  allButConverters: Bundle;
}

let dir = "";
let removeDir = (): void => undefined;

/** Bundles `code` (which imports "webdata") as a browser app would: initial, everything inlined, and inlined but for the schema converters. */
async function measure(code: string): Promise<Figures> {
  return {
    initial: await bundle(dir, code, { split: true }),
    all: await bundle(dir, code, { split: false }),
    allButConverters: await bundle(dir, code, { split: SCHEMA_CONVERTERS }),
  };
}

function report(name: string, f: Figures, target: number): void {
  const { initial: i, all } = f;
  const state = i.gzipped <= target ? "within" : `OVER by ${kb(i.gzipped - target)}`;
  console.log(`size ${name}: initial ${kb(i.minified)} minified, ${kb(i.gzipped)} gzipped (budget ${kb(target)}: ${state})`);
  console.log(`  heaviest: ${i.inputs.slice(0, process.env.SIZE_ALL ? 200 : 6).map(([file, n]) => `${file} ${kb(n)}`).join(", ")}`);
  if (i.lazy.length) console.log(`  loaded on first use: ${i.lazy.join(", ")}`);
  console.log(`  with those inlined: ${kb(f.allButConverters.minified)} minified, ${kb(f.allButConverters.gzipped)} gzipped; with the zod schema converters too: ${kb(all.minified)} minified, ${kb(all.gzipped)} gzipped`);
}

const files = (b: Bundle): string[] => b.inputs.map(([file]) => file);

describe("browser bundle size", () => {
  beforeAll(() => {
    if (!existsSync(join(REPO, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
    // A throwaway app whose node_modules/webdata is this package, resolved through its exports map.
    ({ dir, remove: removeDir } = appDir());
  });
  afterAll(() => removeDir());

  it(`import { WebData } from "webdata": at most ${BUDGET.client / 1024} KB gzipped`, async () => {
    const f = await measure(CLIENT_APP);
    report("WebData", f, BUDGET.client);
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
    // What keeps the initial download small: the v1 layer, the job waiters, the watcher transports and the zod schema converters load on first use.
    for (const lazy of ["dist/v1/client.js", "dist/jobs/waiting.js", "dist/jobs/waiters.js", "dist/jobs/polling.js", "dist/jobs/pages.js", "dist/jobs/watch-ws.js", "dist/jobs/watch-sse.js", "dist/jobs/watch-poll.js", "eventsource-parser/dist/index.js", "dist/api/zod4-json.js", "dist/api/schema-convert.js"]) {
      expect(files(f.initial)).not.toContain(lazy);
      expect(files(f.all)).toContain(lazy);
    }
    // zod 3's converter (zod-to-json-schema and zod 3, ~20 KB gzipped) is opt-in (`import "webdata/zod3"`): not even in the inlined bundle.
    expect(files(f.all).filter((file) => /^zod\/v3\/|^zod-to-json-schema\/|zod3-json/.test(file))).toEqual([]);
    expect(f.initial.gzipped).toBeLessThanOrEqual(limit(BUDGET.client));
    expect(f.allButConverters.gzipped).toBeLessThanOrEqual(limit(BUDGET.inlined));
    const viaRollup = await rollupInitial(CLIENT_APP);
    console.log(`  Rollup 4 (as Vite), initial chunks: ${kb(viaRollup)} gzipped`);
    expect(viaRollup).toBeLessThanOrEqual(limit(BUDGET.client));
  });

  it(`import { scrape } from "webdata": at most ${BUDGET.scrapeOnly / 1024} KB gzipped`, async () => {
    const f = await measure(SCRAPE_APP);
    report("scrape-only", f, BUDGET.scrapeOnly);
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
    // Nothing else of the client: no jobs, no v1, no WebData class.
    expect(files(f.all).filter((file) => /dist\/(jobs|v1)\/|dist\/client\.js/.test(file))).toEqual([]);
    expect(f.initial.gzipped).toBeLessThanOrEqual(limit(BUDGET.scrapeOnly));
    const viaRollup = await rollupInitial(SCRAPE_APP);
    console.log(`  Rollup 4 (as Vite), initial chunks: ${kb(viaRollup)} gzipped`);
    expect(viaRollup).toBeLessThanOrEqual(limit(BUDGET.scrapeOnly));
  });

  it('import "webdata/zod3" brings the zod 3 converter into the bundle (the entry is kept as a side effect)', async () => {
    const f = await bundle(dir, 'import "webdata/zod3"; import { WebData } from "webdata"; export const c = new WebData({ apiKey: "k" });', { split: false });
    expect(files(f).filter((file) => /^zod-to-json-schema\//.test(file)).length).toBeGreaterThan(0);
    expect(files(f)).toContain("dist/zod3.js");
  });

  it("the testing entry's portable build pulls no node:* either", async () => {
    const f = await measure('import { createFakeService } from "webdata/testing"; export const f = createFakeService();');
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
  });
});
