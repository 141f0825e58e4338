/**
 * Where the bytes of the browser bundles go (`npm run size`; `test/size.test.ts` holds the ceilings).
 *
 * For the three figures DESIGN.md budgets (`import { WebData }` initial and with everything inlined,
 * `import { scrape }` initial), prints each group of modules with its minified bytes in the bundle
 * (these add up) and what the gzipped bundle loses when that group alone is left out (gzip does not
 * add up: the rest of the bundle compresses a little worse without it, and modules that only the
 * group uses, zod's parts included, go with it). The last row is what no group claims.
 *
 * `--against <dir>` instead compares this checkout with another built one (a `git worktree` of an
 * older commit, `npm run build` run there), in one run: the first browser download (`import { WebData }`,
 * initial chunk), the inlined (Worker) bundle, and the Node cold `import("webdata")` (median of
 * `--runs` fresh processes each, the two checkouts alternating).
 *
 *   npm run size
 *   npm run size -- --json
 *   npm run size -- --against /tmp/base --runs 15
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { appDir, BUDGET, bundle, CLIENT_APP, kb, REPO, rollupInitial, SCRAPE_APP, type Bundle, type BundleOptions, type SizeFigure, type SizeRow } from "./bundles.js";

const { values: flags } = parseArgs({
  options: { json: { type: "boolean", default: false }, against: { type: "string" }, runs: { type: "string", default: "15" } },
});

if (flags.against !== undefined) {
  await compare(resolve(flags.against), Number(flags.runs));
  process.exit(0);
}

/** The three figures DESIGN.md budgets, for this checkout and `other`, side by side. */
async function compare(other: string, runs: number): Promise<void> {
  const roots = [["before", other], ["after", REPO]] as const;
  const rows: { name: string; initial: number; inlined: number; cold: number[] }[] = [];
  for (const [name, root] of roots) {
    // A throwaway app whose node_modules/webdata is that checkout.
    const dir = mkdtempSync(join(tmpdir(), "webdata-compare-"));
    try {
      mkdirSync(join(dir, "node_modules"));
      symlinkSync(root, join(dir, "node_modules", "webdata"), "dir");
      const initial = (await bundle(dir, CLIENT_APP, { split: true })).gzipped;
      const inlined = (await bundle(dir, CLIENT_APP, { split: false })).gzipped;
      rows.push({ name: `${name} (${root})`, initial, inlined, cold: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // Cold import: a fresh process per sample, `import("webdata")` by the package's own name (its exports map, Node conditions).
  const script = 'const t0 = performance.now(); await import("webdata"); console.log(performance.now() - t0);';
  for (let i = 0; i < runs; i++) {
    for (const [j, [, root]] of roots.entries()) {
      rows[j]!.cold.push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" }).trim()));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const out = rows.map((r) => ({ name: r.name, initialGzip: r.initial, inlinedGzip: r.inlined, coldImportMs: Number(median(r.cold).toFixed(1)), coldRange: [Math.min(...r.cold), Math.max(...r.cold)].map((x) => Number(x.toFixed(1))) }));
  if (flags.json) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(`${"".padEnd(16)}${"first download".padStart(18)}${"inlined (Worker)".padStart(18)}${"Node cold import".padStart(20)}`);
    for (const r of out) console.log(`${r.name.split(" ")[0]!.padEnd(16)}${`${r.initialGzip} B`.padStart(18)}${`${r.inlinedGzip} B`.padStart(18)}${`${r.coldImportMs} ms`.padStart(20)}  (${r.coldRange.join("-")} ms, ${runs} runs)`);
  }
}

/** The groups, first match wins; module names as in `Bundle.inputs` (`dist/...`, `pkg/...`). */
const GROUPS: readonly { label: string; test: RegExp }[] = [
  { label: "zod (the app's own, a peer dependency)", test: /^zod(\/|$)/ },
  { label: "p-retry + is-network-error", test: /^(p-retry|is-network-error)(\/|$)/ },
  { label: "v1 warnings", test: /^dist\/v1\/deprecation\.js$/ },
  { label: "v1 layer (client.v1)", test: /^dist\/v1\// },
  { label: "watcher and its transports", test: /^dist\/jobs\/watch/ },
  { label: "job waiters, polling, pages", test: /^dist\/jobs\/(waiters|polling|pages)\.js$/ },
  { label: "users' schemas (JSON extraction)", test: /^dist\/api\/(schema|schema-types|zod-converters|zod-like)\.js$/ },
  { label: "endpoints: options and answer schemas", test: /^dist\/(api|jobs)\// },
];

/** The three budgeted figures: the app, how it is split, the budget (gzipped bytes, DESIGN.md). */
const FIGURES: readonly { name: string; code: string; split: BundleOptions["split"]; budget: number; rollup: boolean }[] = [
  { name: "import { WebData }, initial", code: CLIENT_APP, split: true, budget: BUDGET.client, rollup: true },
  { name: "import { WebData }, everything inlined", code: CLIENT_APP, split: false, budget: BUDGET.inlined, rollup: false },
  { name: "import { scrape }, initial", code: SCRAPE_APP, split: true, budget: BUDGET.scrapeOnly, rollup: true },
];

const groupOf = (name: string): string | undefined => GROUPS.find((g) => g.test.test(name))?.label;

interface Figure extends Omit<SizeFigure, "minified" | "gzipped"> {
  bundle: Bundle;
}

const { dir, remove } = appDir();
const figures: Figure[] = [];
try {
  for (const f of FIGURES) {
    const whole = await bundle(dir, f.code, { split: f.split });
    const rows: SizeRow[] = [];
    for (const g of GROUPS) {
      const minified = whole.inputs.filter(([name]) => groupOf(name) === g.label).reduce((s, [, n]) => s + n, 0);
      if (!minified) continue;
      const without = await bundle(dir, f.code, { split: f.split, without: (name) => groupOf(name) === g.label });
      rows.push({ group: g.label, minified, gzipCost: whole.gzipped - without.gzipped });
    }
    const rest = whole.inputs.filter(([name]) => groupOf(name) === undefined).reduce((s, [, n]) => s + n, 0);
    rows.push({ group: "the rest: client, request path, retries, errors, checks", minified: rest, gzipCost: undefined });
    figures.push({ name: f.name, budget: f.budget, bundle: whole, rollup: f.rollup ? await rollupInitial(f.code) : undefined, rows });
  }
} finally {
  remove();
}

if (flags.json) {
  console.log(JSON.stringify(figures.map(({ bundle: b, ...f }) => ({ ...f, minified: b.minified, gzipped: b.gzipped })), null, 2));
} else {
  for (const f of figures) {
    const over = f.bundle.gzipped - f.budget;
    const state = over > 0 ? `over by ${kb(over)}` : "within";
    const viaRollup = f.rollup === undefined ? "" : `; Rollup 4: ${kb(f.rollup)}`;
    console.log(`\n${f.name}: ${kb(f.bundle.gzipped)} gzipped (${kb(f.bundle.minified)} minified${viaRollup}); budget ${kb(f.budget)}: ${state}`);
    console.log(`  ${"group".padEnd(58)}${"minified".padStart(10)}${"gzip, left out".padStart(16)}`);
    for (const r of f.rows) {
      console.log(`  ${r.group.padEnd(58)}${kb(r.minified).padStart(10)}${(r.gzipCost === undefined ? "" : `-${kb(r.gzipCost)}`).padStart(16)}`);
    }
  }
  console.log('\n"gzip, left out": how much smaller the gzipped bundle is without that group alone (these do not add up).');
}
