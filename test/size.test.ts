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
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform, type Plugin } from "esbuild";
import { rollup, type Plugin as RollupPlugin } from "rollup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const nodeRequire = createRequire(join(REPO, "package.json"));

/** The ESM file of a package specifier (its `import` condition; these packages put it beside the CommonJS one). */
const esmFile = (id: string): string => nodeRequire.resolve(id).replace(/\.cjs$/, ".js").replace(/\/dist\/cjs\//, "/dist/esm/");

/** The budget for the initial download, gzipped bytes (zod counted, bundled as an app would). */
export const TARGET = { client: 25 * 1024, scrapeOnly: 17 * 1024 } as const;
/**
 * The budget for `import { WebData }` with everything it loads on first use inlined (v1 layer,
 * watcher transports), gzipped bytes. The zod schema converters are printed beside it, not
 * counted: zod 3's (zod-to-json-schema + `zod/v3`, ~19 KB) reaches only apps that bundle zod 3
 * already, zod 4's (`toJSONSchema`, ~7 KB) only apps that pass a zod mini schema.
 */
export const TARGET_INLINED = 34 * 1024;
/**
 * Where the bundles stand, gzipped bytes, over the budgets above: WebData 30.3 KB initial (31.6 KB in
 * Rollup), 40.9 KB inlined; scrape-only 20.7 KB (21.2 KB in Rollup). What is left to reach the budgets
 * (the closing notes of issue 11 have the figures): the watcher and the official-key checks loaded on
 * first use, the schema module split, and less code of our own (the inlined figure is the initial one
 * plus about 9 KB loaded on first use, so splitting alone cannot bring it to its budget). Until then
 * the test fails on growth past these ceilings and prints how far each figure is over its budget. Lower
 * them as figures drop; once a budget holds, its ceiling is the budget.
 */
export const CEILING = { client: 32 * 1024, inlined: 41.25 * 1024, scrapeOnly: 21.25 * 1024 } as const;
/** The limit a figure is held to: its budget, or the ceiling while the budget is not met. */
const limit = (budget: number, ceiling: number): number => Math.max(budget, ceiling);

interface Bundle {
  /** Minified bytes. */
  minified: number;
  /** Gzipped bytes (gzip -9). */
  gzipped: number;
  /** Package inputs in the bundle with their bytes, heaviest first. */
  inputs: [string, number][];
  /** What the bundle loads by `import()` (left out of it). */
  lazy: string[];
}

interface Figures {
  /** The bundle without the modules loaded on first use. */
  initial: Bundle;
  /** The bundle with them inlined. */
  all: Bundle;
  /** The bundle with them inlined, but for the zod schema converters. */
  allButConverters: Bundle;
}

let dir = "";

/** The two apps the budget is for. */
const CLIENT_APP = 'import { WebData } from "webdata"; export const c = new WebData({ apiUrl: "http://127.0.0.1:1" });';
const SCRAPE_APP = 'import { scrape } from "webdata"; export const s = (u) => scrape(u, { formats: ["markdown"] });';

/** Leaves every `import()` target out of the bundle (it becomes a chunk of its own). */
const splitDynamicImports = (lazy: [importer: string, target: string][], only?: RegExp): Plugin => ({
  name: "split-dynamic-imports",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== "dynamic-import" || (only && !only.test(args.path))) return undefined;
      lazy.push([args.importer, join(args.resolveDir, args.path)]);
      return { path: args.path, external: true };
    });
  },
});

/** The modules that convert users' zod schemas: loaded only by an app that passes a zod 4 mini / zod 3.25 `zod/v4` schema, or a zod 3 one (which bundles zod 3 itself). */
const SCHEMA_CONVERTERS = /\/zod[34]-json\.js$/;

async function bundle(code: string, split: boolean | RegExp): Promise<Bundle> {
  const lazy: [string, string][] = [];
  const result = await build({
    stdin: { contents: code, resolveDir: dir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: split ? [splitDynamicImports(lazy, split instanceof RegExp ? split : undefined)] : [],
  });
  const bytes = result.outputFiles[0]!.contents;
  // Paths as `dist/...` for this package (reached through the symlink or the real path), `pkg/...` for dependencies.
  const name = (file: string) => file.replace(REPO, "").replace(/^.*node_modules\//, "").replace(/^webdata\//, "");
  const kept = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs).filter(([, i]) => i.bytesInOutput > 0);
  const inputs = kept.map(([file, i]): [string, number] => [name(file), i.bytesInOutput]).sort((x, y) => y[1] - x[1]);
  // Only the import() calls of modules that made it into the bundle (esbuild resolves the dead ones too).
  const live = new Set(inputs.map(([file]) => file));
  const loaded = lazy.filter(([importer]) => live.has(name(importer))).map(([, target]) => name(target));
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length, inputs, lazy: [...new Set(loaded)] };
}

/** Bundles `code` (which imports "webdata") as a browser app would. */
async function measure(code: string): Promise<Figures> {
  return { initial: await bundle(code, true), all: await bundle(code, false), allButConverters: await bundle(code, SCHEMA_CONVERTERS) };
}

/**
 * Cross-check with Rollup 4 (what Vite builds with): real code splitting, with the
 * package's `"sideEffects": false` honoured as @rollup/plugin-node-resolve does; each
 * chunk minified by esbuild and gzipped on its own. Returns the gzipped bytes of the
 * entry chunk plus the chunks it imports statically.
 */
async function rollupInitial(code: string): Promise<number> {
  const dist = join(REPO, "dist") + "/";
  const resolve: RollupPlugin = {
    name: "resolve-webdata",
    async resolveId(id, importer, opts) {
      if (id === "webdata") return { id: join(dist, "index.js"), moduleSideEffects: false };
      if (id === "eventsource-parser") return join(REPO, "node_modules/eventsource-parser/dist/index.js");
      if (id === "p-retry" || id === "is-network-error") return join(REPO, `node_modules/${id}/index.js`);
      // zod (a peer: the app's own) and the zod 3 converter, by their ESM files; both packages are "sideEffects": false.
      if (/^(zod|zod-to-json-schema)($|\/)/.test(id)) return { id: esmFile(id), moduleSideEffects: false };
      if (id === "\0app") return id;
      const r = await this.resolve(id, importer, { ...opts, skipSelf: true });
      return r && r.id.startsWith(dist) ? { id: r.id, moduleSideEffects: false } : r;
    },
    load: (id) => (id === "\0app" ? code : null),
  };
  const b = await rollup({ input: "\0app", plugins: [resolve], onwarn: () => undefined });
  const { output } = await b.generate({ format: "es" });
  await b.close();
  const chunks = new Map(output.flatMap((c) => (c.type === "chunk" ? [[c.fileName, c] as const] : [])));
  const initial = new Set<string>();
  const visit = (name: string): void => {
    if (initial.has(name)) return;
    initial.add(name);
    for (const i of chunks.get(name)!.imports) visit(i);
  };
  visit([...chunks.values()].find((c) => c.isEntry)!.fileName);
  let gz = 0;
  for (const name of initial) gz += gzipSync((await transform(chunks.get(name)!.code, { minify: true, format: "esm" })).code, { level: 9 }).length;
  return gz;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

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
    dir = mkdtempSync(join(tmpdir(), "webdata-size-"));
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(REPO, join(dir, "node_modules", "webdata"), "dir");
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(`import { WebData } from "webdata": budget ${TARGET.client / 1024} KB gzipped, no growth past ${CEILING.client / 1024} KB`, async () => {
    const f = await measure(CLIENT_APP);
    report("WebData", f, TARGET.client);
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
    // What keeps the initial download small: the v1 layer, the job waiters, the watcher transports and the zod schema converters load on first use.
    for (const lazy of ["dist/v1/client.js", "dist/jobs/waiting.js", "dist/jobs/waiters.js", "dist/jobs/polling.js", "dist/jobs/pages.js", "dist/jobs/watch-ws.js", "dist/jobs/watch-sse.js", "dist/jobs/watch-poll.js", "eventsource-parser/dist/index.js", "dist/api/zod4-json.js", "dist/api/zod3-json.js"]) {
      expect(files(f.initial)).not.toContain(lazy);
      expect(files(f.all)).toContain(lazy);
    }
    expect(f.initial.gzipped).toBeLessThanOrEqual(limit(TARGET.client, CEILING.client));
    expect(f.allButConverters.gzipped).toBeLessThanOrEqual(limit(TARGET_INLINED, CEILING.inlined));
    const viaRollup = await rollupInitial(CLIENT_APP);
    console.log(`  Rollup 4 (as Vite), initial chunks: ${kb(viaRollup)} gzipped`);
    expect(viaRollup).toBeLessThanOrEqual(limit(TARGET.client, CEILING.client));
  });

  it(`import { scrape } from "webdata": budget ${TARGET.scrapeOnly / 1024} KB gzipped, no growth past ${CEILING.scrapeOnly / 1024} KB`, async () => {
    const f = await measure(SCRAPE_APP);
    report("scrape-only", f, TARGET.scrapeOnly);
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
    // Nothing else of the client: no jobs, no v1, no WebData class.
    expect(files(f.all).filter((file) => /dist\/(jobs|v1)\/|dist\/client\.js/.test(file))).toEqual([]);
    expect(f.initial.gzipped).toBeLessThanOrEqual(limit(TARGET.scrapeOnly, CEILING.scrapeOnly));
    const viaRollup = await rollupInitial(SCRAPE_APP);
    console.log(`  Rollup 4 (as Vite), initial chunks: ${kb(viaRollup)} gzipped`);
    expect(viaRollup).toBeLessThanOrEqual(limit(TARGET.scrapeOnly, CEILING.scrapeOnly));
  });

  it("the testing entry's portable build pulls no node:* either", async () => {
    const f = await measure('import { createFakeService } from "webdata/testing"; export const f = createFakeService();');
    expect(files(f.all).filter((file) => /^node:|undici/.test(file))).toEqual([]);
  });
});
