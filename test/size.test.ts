/**
 * Size ceilings of what browser users get: the built package (dist/, so run
 * `npm run build` first; `npm test` does) bundled by esbuild for the browser
 * with every dependency, minified and gzipped, zod counted (a peer dependency,
 * bundled as an app would). Code is split at entry points only (DESIGN.md,
 * "Size"): the client loads nothing by `import()`, so the initial download is
 * the whole bundle, the one a Worker inlines. zod's schema converters are not
 * in it (opt-in entries). The ceilings (`BUDGET`) sit about 5% above the
 * measured figures: guards against accidental growth. Also proves the portable
 * bundles pull no `node:*` or undici.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDir, BUDGET, bundle, CLIENT_APP, kb, REPO, rollupInitial, SCRAPE_APP, type Bundle } from "../bench/bundles.js";

/** The limit a figure is held to: its ceiling (DESIGN.md's guards against growth, `BUDGET`). */
const limit = (budget: number): number => budget;

interface Figures {
  /** The bundle without the modules it would load by `import()` (there are none). */
  initial: Bundle;
  /** The bundle with every `import()` inlined. */
  all: Bundle;
}

let dir = "";
let removeDir = (): void => undefined;

/** Bundles `code` (which imports "webdata") as a browser app would: initial, and everything inlined. */
async function measure(code: string): Promise<Figures> {
  return {
    initial: await bundle(dir, code, { split: true }),
    all: await bundle(dir, code, { split: false }),
  };
}

function report(name: string, f: Figures, target: number): void {
  const { initial: i, all } = f;
  const state = i.gzipped <= target ? "within" : `OVER by ${kb(i.gzipped - target)}`;
  console.log(`size ${name}: initial ${kb(i.minified)} minified, ${kb(i.gzipped)} gzipped (budget ${kb(target)}: ${state})`);
  console.log(`  heaviest: ${i.inputs.slice(0, process.env.SIZE_ALL ? 200 : 6).map(([file, n]) => `${file} ${kb(n)}`).join(", ")}`);
  if (i.lazy.length) console.log(`  loaded by import(): ${i.lazy.join(", ")}`);
  console.log(`  with those inlined: ${kb(all.minified)} minified, ${kb(all.gzipped)} gzipped`);
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
    // Nothing is loaded on demand: the initial download is the whole client (the job waiters, the watcher's
    // transports, the schema conversion), byte for byte the bundle with every import() inlined. The plugins are not
    // in it: the v1 layer (`webdata/v1`'s `v1`), the governance stages (`webdata/team`'s `team`) and the watcher's
    // push transports, server-sent events with eventsource-parser (`webdata/sse`'s `sse`) and the WebSocket
    // (`webdata/websocket`'s `websocket`), come with their import.
    expect(f.initial.lazy).toEqual([]);
    expect(f.initial.gzipped).toBe(f.all.gzipped);
    for (const part of ["dist/jobs/waiters.js", "dist/jobs/polling.js", "dist/jobs/pages.js", "dist/jobs/watch-poll.js", "dist/api/schema.js"]) {
      expect(files(f.initial)).toContain(part);
    }
    for (const part of ["dist/v1/client.js", "dist/team.js", "dist/team/budget.js", "dist/team/meter.js", "dist/team/limit.js", "p-queue/dist/index.js", "dist/api/credit-rules.js", "dist/jobs/watch-sse.js", "eventsource-parser/dist/index.js", "dist/jobs/watch-ws.js"]) {
      expect(files(f.initial)).not.toContain(part);
    }
    // zod's converters are opt-in: zod 3's (zod-to-json-schema and zod 3, ~20 KB gzipped) with `import "webdata/zod3"`,
    // zod 4's `toJSONSchema` (~7 KB gzipped) with `import "webdata/zod4"`: neither is in the inlined bundle.
    // (esbuild keeps an empty 17-byte shell of a module that zod's index re-exports: more than 100 bytes is code.)
    expect(f.all.inputs.filter(([file, bytes]) => /^zod\/v3\/|^zod-to-json-schema\/|zod[34]-json|json-schema-processors|to-json-schema/.test(file) && bytes > 100)).toEqual([]);
    expect(f.all.gzipped).toBeLessThanOrEqual(limit(BUDGET.inlined));
    expect(f.initial.gzipped).toBeLessThanOrEqual(limit(BUDGET.client));
    const viaRollup = await rollupInitial(CLIENT_APP);
    console.log(`  Rollup 4 (as Vite), initial chunks: ${kb(viaRollup)} gzipped`);
    expect(viaRollup).toBeLessThanOrEqual(limit(BUDGET.client));
  });

  it(`import { scrape } from "webdata": at most ${BUDGET.scrapeOnly / 1024} KB gzipped`, async () => {
    const f = await measure(SCRAPE_APP);
    report("scrape-only", f, BUDGET.scrapeOnly);
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
    // Nothing else of the client: no jobs, no v1, no WebData class; and nothing loaded on demand.
    expect(files(f.all).filter((file) => /dist\/(jobs|v1)\/|dist\/client\.js/.test(file))).toEqual([]);
    expect(f.initial.lazy).toEqual([]);
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

  it('import "webdata/zod4" brings zod 4\'s toJSONSchema into the bundle (the entry is kept as a side effect)', async () => {
    const f = await bundle(dir, 'import "webdata/zod4"; import { WebData } from "webdata"; export const c = new WebData({ apiKey: "k" });', { split: false });
    expect(f.inputs.filter(([file, bytes]) => /json-schema-processors|to-json-schema/.test(file) && bytes > 100).length).toBeGreaterThan(0);
    expect(files(f)).toContain("dist/zod4.js");
  });

  it("the testing entry's portable build pulls no node:* either", async () => {
    const f = await measure('import { createFakeService } from "webdata/testing"; export const f = createFakeService();');
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
  });
});
