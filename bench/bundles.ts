/**
 * Browser bundles of the built package (dist/), as an app gets them: esbuild for the browser with
 * every dependency, minified, gzip -9, zod counted (a peer dependency, bundled as an app would).
 * Shared by `test/size.test.ts` (the budgets) and `bench/size.ts` (`npm run size`: where the bytes go).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, transform, type Plugin } from "esbuild";
import { rollup, type Plugin as RollupPlugin } from "rollup";

export const REPO = fileURLToPath(new URL("..", import.meta.url));
const nodeRequire = createRequire(join(REPO, "package.json"));

/** The ESM file of a package specifier (its `import` condition; these packages put it beside the CommonJS one). */
const esmFile = (id: string): string => nodeRequire.resolve(id).replace(/\.cjs$/, ".js").replace(/\/dist\/cjs\//, "/dist/esm/");

/** The two apps the budgets are for. */
export const CLIENT_APP = 'import { WebData } from "webdata"; export const c = new WebData({ apiUrl: "http://127.0.0.1:1" });';
/** An app that passes zod mini schemas (or zod before 4.2): it registers zod 4's converter. */
export const ZOD4_APP = `import "webdata/zod4"; ${CLIENT_APP}`;
export const SCRAPE_APP = 'import { scrape } from "webdata"; export const s = (u) => scrape(u, { formats: ["markdown"] });';
/** An app whose watchers take a job's events over the service's WebSocket (`webdata/websocket`'s plugin). */
export const WEBSOCKET_APP = 'import { WebData } from "webdata"; import { websocket } from "webdata/websocket"; export const c = new WebData({ apiUrl: "http://127.0.0.1:1", plugins: [websocket] });';

/**
 * The size ceilings of DESIGN.md ("Size", revised 2026-11-27), gzipped bytes, zod counted:
 * `import { WebData }`'s initial download (`client`), the same app with every `import()` inlined
 * (`inlined`: the Worker bundle; the zod schema converters are in neither: zod 3's,
 * zod-to-json-schema + `zod/v3` ~19 KB, only with `import "webdata/zod3"`, zod 4's `toJSONSchema`
 * ~7 KB only with `import "webdata/zod4"`), and `import { scrape }`'s initial download
 * (`scrapeOnly`). Guards against accidental growth, set about 5% above the measured figure: a
 * feature that needs more raises its ceiling in the same commit, with the figure in the message;
 * never shorten an error message or a hint to meet one.
 * Set on 2026-11-27 when the client stopped loading modules on demand (code is split at entry
 * points only, so `client` and `inlined` are one bundle): measured 41,427 B (Rollup 4: 41,779 B)
 * and 22,567 B (Rollup 4: 22,801 B) for `scrapeOnly`, which now carries the schema conversion.
 * Raised the same day for the features added then (hooks and the request id, keyless calls and
 * deprecation signals, the credit meter and budgets, the concurrency limit, stalled and expired jobs,
 * batch outcomes, resumable streams): 51.5 KB (+9.7) and 27.2 KB (+4.5), by module the request path
 * +4.4 KB minified, the error classes +3.8, batch outcomes +3.2, the client's state (meter, limiter) +3.0.
 * Lowered on 2026-11-29 when the team features (budget, meter, concurrency limit: `webdata/team`) and the v1 layer
 * (`webdata/v1`'s `v1`) became plugins of the client: `import { WebData }` measured 48,410 B (52,707 B before, in the
 * same run), so 50 KB; `import { scrape }` 27,708 B with the local check of misspelt format names (fastest-levenshtein).
 * Lowered again later that day when the watcher's server-sent-events transport (with eventsource-parser) became
 * `webdata/sse`'s plugin: `import { WebData }` 45,309 B (46,887 B before, in the same run), so 46.5 KB; `import { scrape }`
 * 28,055 B (the request path as named steps and the merged error classes: +300 B), so 28.8 KB.
 * Lowered on 2026-11-29 (third session) when the watcher's WebSocket transport became `webdata/websocket`'s plugin (built
 * into the Node entry and the drop-in): `import { WebData }` 44,234 B (45,330 B before, in the same run), so 45.4 KB.
 */
export const BUDGET = { client: 45.4 * 1024, inlined: 45.4 * 1024, scrapeOnly: 28.8 * 1024 } as const;

/** One bundle of an app. */
export interface Bundle {
  /** Minified bytes. */
  minified: number;
  /** Gzipped bytes (gzip -9). */
  gzipped: number;
  /** Package inputs in the bundle with their bytes, heaviest first (`dist/...` for this package, `pkg/...` for dependencies). */
  inputs: [string, number][];
  /** What the bundle loads by `import()` (left out of it). */
  lazy: string[];
}

/** How to bundle: which `import()` targets to leave out, and which modules to leave out altogether. */
export interface BundleOptions {
  /** Leave out every `import()` target (`true`) or those matching (a RegExp); `false`: inline them. */
  split: boolean | RegExp;
  /** Leave out every module whose name (as in {@link Bundle.inputs}) this returns true for: what the bundle is without it. */
  without?: ((name: string) => boolean) | undefined;
}

/** A throwaway app directory whose `node_modules/webdata` is this package (resolved through its exports map). */
export function appDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "webdata-size-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(REPO, join(dir, "node_modules", "webdata"), "dir");
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A file's name in reports: `dist/...` for this package (through the symlink or the real path), `pkg/...` for dependencies. */
export const moduleName = (file: string): string => file.replace(REPO, "").replace(/^.*node_modules\//, "").replace(/^webdata\//, "");

/** Leaves `import()` targets (all, or those matching `only`) and the modules `without` names out of the bundle. */
function leaveOut(lazy: [importer: string, target: string][], split: boolean | RegExp, without: BundleOptions["without"]): Plugin {
  return {
    name: "leave-out",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const dynamic = args.kind === "dynamic-import" && split !== false && (split === true || split.test(args.path));
        if (dynamic) {
          lazy.push([args.importer, join(args.resolveDir, args.path)]);
          return { path: args.path, external: true };
        }
        if (!without || args.kind === "entry-point") return undefined;
        const file = args.path.startsWith(".") || isAbsolute(args.path) ? join(args.resolveDir, args.path) : args.path;
        return without(moduleName(file)) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

/** Bundles `code` (which imports "webdata") from `dir` (see {@link appDir}) as a browser app would. */
export async function bundle(dir: string, code: string, { split, without }: BundleOptions): Promise<Bundle> {
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
    plugins: [leaveOut(lazy, split, without)],
  });
  const bytes = result.outputFiles[0]!.contents;
  const kept = Object.entries(Object.values(result.metafile.outputs)[0]!.inputs).filter(([, i]) => i.bytesInOutput > 0);
  const inputs = kept.map(([file, i]): [string, number] => [moduleName(file), i.bytesInOutput]).sort((x, y) => y[1] - x[1]);
  // Only the import() calls of modules that made it into the bundle (esbuild resolves the dead ones too).
  const live = new Set(inputs.map(([file]) => file));
  const loaded = lazy.filter(([importer]) => live.has(moduleName(importer))).map(([, target]) => moduleName(target));
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length, inputs, lazy: [...new Set(loaded)] };
}

/**
 * Cross-check with Rollup 4 (what Vite builds with): real code splitting, with the
 * package's `"sideEffects": false` honoured as @rollup/plugin-node-resolve does; each
 * chunk minified by esbuild and gzipped on its own. Returns the gzipped bytes of the
 * entry chunk plus the chunks it imports statically.
 */
export async function rollupInitial(code: string): Promise<number> {
  const dist = join(REPO, "dist") + "/";
  const resolve: RollupPlugin = {
    name: "resolve-webdata",
    async resolveId(id, importer, opts) {
      if (id === "webdata") return { id: join(dist, "index.js"), moduleSideEffects: false };
      if (id === "eventsource-parser") return join(REPO, "node_modules/eventsource-parser/dist/index.js");
      if (id === "p-retry" || id === "is-network-error") return join(REPO, `node_modules/${id}/index.js`);
      if (id === "fastest-levenshtein") return join(REPO, "node_modules/fastest-levenshtein/esm/mod.js");
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

/** One group of modules in a bundle, as `npm run size` reports it. */
export interface SizeRow {
  /** What the group is. */
  group: string;
  /** Minified bytes of the group's modules in the bundle. */
  minified: number;
  /** Gzipped bytes the bundle loses without the group (`undefined` for the rest). */
  gzipCost: number | undefined;
}

/** One budgeted bundle, as `npm run size -- --json` prints it. */
export interface SizeFigure {
  /** Which app, and how it is split. */
  name: string;
  /** Its budget, gzipped bytes. */
  budget: number;
  /** Minified bytes. */
  minified: number;
  /** Gzipped bytes. */
  gzipped: number;
  /** Rollup 4's initial chunks, gzipped bytes (initial figures only). */
  rollup: number | undefined;
  /** The groups, then the rest. */
  rows: SizeRow[];
}

/** Kilobytes with one decimal. */
export const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
