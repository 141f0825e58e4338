#!/usr/bin/env node
/**
 * The runtime matrix (`npm run test:matrix`, part of `npm test`): packs the
 * built package, installs the tarball into a consumer project in the cache
 * folder, and runs the same flows in Node 20/22/24 (ESM and CJS), Bun, Deno,
 * workerd and headless Chromium against a fake service served on loopback;
 * then compiles strict TypeScript consumers (node16, bundler, oldest TS).
 * Prints a runtime x flow table. Exits non-zero if anything failed or a
 * runtime is unavailable; only chromium, a system package installed only under
 * `CI=true`, is skipped (and named in the summary) when missing elsewhere.
 * `MATRIX_ONLY=deno,bun` runs a subset (local use).
 */
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { join } from "node:path";
import { bunJob, chromiumJob, denoJob, nodeJob, tscJob, workerdJob } from "./runtimes.mjs";
import { CHROMIUM, ensureChromium, ensureConsumer, ensureRuntimes, OLDEST_TS, pack } from "./setup.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const fixtures = fileURLToPath(new URL("./fixtures", import.meta.url));
const started = Date.now();

const bins = ensureRuntimes();
const chromiumVersion = ensureChromium();
const tarball = pack(repo);
const consumer = ensureConsumer(tarball, fixtures);
const setupSeconds = ((Date.now() - started) / 1000).toFixed(1);

/** name -> [version label, job]. */
const jobs = [
  ["node20 esm", bins.node20Version, nodeJob(bins.node20, "esm")],
  ["node20 cjs", bins.node20Version, nodeJob(bins.node20, "cjs")],
  ["node22 esm", bins.node22Version, nodeJob(bins.node22, "esm")],
  ["node22 cjs", bins.node22Version, nodeJob(bins.node22, "cjs")],
  ["node24 esm", bins.node24Version, nodeJob(bins.node24, "esm")],
  ["node24 cjs", bins.node24Version, nodeJob(bins.node24, "cjs")],
  ["bun", bins.bunVersion, bunJob(bins.bun)],
  ["deno", bins.denoVersion, denoJob(bins.deno)],
  ["workerd", bins.workerdVersion, workerdJob(bins.workerd)],
  ["chromium", chromiumVersion, chromiumJob(bins.playwright)],
  ["tsc node16", "strict", tscJob("typescript", "tsconfig.node16.json")],
  ["tsc bundler", "strict", tscJob("typescript", "tsconfig.bundler.json")],
  [`tsc ${OLDEST_TS} node16`, "strict, oldest", tscJob("typescript-oldest", "tsconfig.node16.json")],
  [`tsc ${OLDEST_TS} bundler`, "strict, oldest", tscJob("typescript-oldest", "tsconfig.bundler.json")],
];
const only = process.env.MATRIX_ONLY?.split(",").map((s) => s.trim());
if (only && process.env.CI) {
  console.error("MATRIX_ONLY is for local use: CI runs every runtime.");
  process.exit(1);
}
/** Rows that cannot run here, with why (chromium is a system package, installed only under CI=true). */
const skipped = chromiumVersion ? [] : [["chromium", `${CHROMIUM} is not installed (apt-get install chromium, or run with CI=true, which installs it)`]];
for (const [name, why] of skipped) console.log(`[matrix] ${name}: SKIPPED, ${why}`);
const selected = (only ? jobs.filter(([name]) => only.some((o) => name.startsWith(o))) : jobs).filter(([name]) => !skipped.some(([s]) => s === name));

const testing = await import(createRequire(join(consumer, "package.json")).resolve("webdata/testing"));

/** Runs one job against its own fake; checks the fake saw the retry. */
async function runJob([name, version, job]) {
  const t0 = Date.now();
  const fake = testing.createFakeService();
  fake.rateLimit({ times: 1, retryAfterSeconds: 0.05, match: "/v2/team/token-usage" });
  // Two documents a page, so the crawl flow has to follow `next` across pages.
  testing.fakeJobs(fake).configure({ defaultPageSize: 2 });
  const served = await testing.serveFake(fake);
  try {
    const result = await job({ consumer, url: served.url, key: fake.apiKey });
    const crawl = result.flows.crawl;
    if (crawl?.ok) {
      const pages = fake.requests.filter((r) => r.method === "GET" && /^\/v2\/crawl\/[^/]+$/.test(r.pathname) && /[?&]skip=[1-9]/.test(r.path)).length;
      if (pages < 1) result.flows.crawl = { ok: false, detail: "crawlDocuments never followed a next page" };
      else crawl.detail = `${crawl.detail}, ${pages + 1}+ pages`;
    }
    const retry = result.flows.retry;
    if (retry?.ok) {
      const seen = fake.requests.filter((r) => r.pathname === "/v2/team/token-usage").length;
      if (seen !== 2) result.flows.retry = { ok: false, detail: `the fake saw ${seen} token-usage requests, expected 2 (429 then retry)` };
    }
    return { name, version, ...result, ms: Date.now() - t0 };
  } catch (err) {
    return { name, version, entry: "-", flows: {}, error: err instanceof Error ? err.message : String(err), ms: Date.now() - t0 };
  } finally {
    await served.close();
  }
}

const results = [];
const queue = [...selected];
await Promise.all(
  [1, 2].map(async () => {
    for (let next = queue.shift(); next; next = queue.shift()) results.push(await runJob(next));
  }),
);
results.sort((a, b) => selected.findIndex((j) => j[0] === a.name) - selected.findIndex((j) => j[0] === b.name));

const FLOWS = ["scrape", "schema", "map", "retry", "errors", "v1", "crawl", "watcher", "webhook"];
const cell = (f) => (!f ? "-" : f.ok === true ? "ok" : f.ok === null ? "n/a" : "FAIL");
const short = (v) => String(v).replace(/^(deno|workerd|Chromium) /, "").split(" ")[0];
const rows = results.map((r) => [r.name, short(r.version), r.entry, ...(r.flows.types ? ["types ok", ...FLOWS.slice(1).map(() => "")] : FLOWS.map((f) => (r.error ? "ERROR" : cell(r.flows[f])))), `${(r.ms / 1000).toFixed(1)}s`]);
const header = ["runtime", "version", "entry", ...FLOWS, "time"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (cols) => cols.map((c, i) => String(c).padEnd(widths[i])).join("  ");
console.log(`\nwebdata runtime matrix (${tarball.split("/").pop()}; setup ${setupSeconds}s)\n`);
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));

/** Every flow a runtime row must have passed (a type-check row: its one check). A missing or n/a flow is a failure. */
const expectedEntry = (name) => (/^node\d/.test(name) ? "node" : /^(bun|deno|workerd|chromium)/.test(name) ? "portable" : undefined);
const problems = (r) =>
  r.error ? [`ERROR ${r.error}`]
  : r.flows.types ? (r.flows.types.ok === true ? [] : [`types: ${r.flows.types.detail}`])
  : [
      ...FLOWS.filter((f) => r.flows[f]?.ok !== true).map((f) => `${f}: ${r.flows[f] ? r.flows[f].detail : "did not run"}`),
      ...(expectedEntry(r.name) && r.entry !== expectedEntry(r.name) ? [`entry: loaded the ${r.entry} entry, expected ${expectedEntry(r.name)}`] : []),
    ];
let failed = 0;
for (const r of results) {
  for (const p of problems(r)) {
    failed++;
    console.log(`\n${r.name} / ${p}`);
  }
}
if (only) console.log(`\nMATRIX_ONLY=${process.env.MATRIX_ONLY}: ran ${selected.length} of ${jobs.length} jobs`);
for (const [name, why] of skipped) console.log(`\nskipped: ${name} (${why})`);
const bad = results.filter((r) => problems(r).length > 0).length;
console.log(`\nmatrix took ${((Date.now() - started) / 1000).toFixed(1)}s`);
console.log(`matrix: ${results.length - bad} passed, ${bad} failed`);
process.exit(failed || selected.length === 0 ? 1 : 0);
