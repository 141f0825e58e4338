/**
 * Client benchmark (`npm run bench`; not part of `npm test`, which runs it once
 * at tiny sizes to prove it works). Compares clients side by side, every figure
 * a ratio to a baseline measured in the same run:
 *
 * - per call: `--seq` sequential scrapes of a `--doc-kb` KB page, with the p99 of the single calls, and throughput:
 *   `--conc-total` scrapes with `--conc` in flight (baseline: raw `undici.request`). The server runs in a process
 *   of its own (`bench/serve.ts`) and each contender in a fresh process (`bench/contender.mjs`), in an order
 *   rotated run by run, `--call-runs` runs: how an app meets the client. `--only inprocess` adds the
 *   same two measures with the server and every contender in this one process (the old setup, which hides the client's delays);
 * - crawl memory: peak heap iterating a finished crawl of `--crawl-docs` 5 KB documents, 100 a page,
 *   and at a quarter of that to show growth (baseline: a raw page-by-page `fetch` loop), each in a fresh process;
 * - overhead: the SDK's own cost per call with the transport stubbed (baseline: `JSON.parse` of the answer);
 * - cold start: `import()` alone and `import()` + first scrape, in a fresh process (baseline: the official client);
 * - 429s: `--burst` scrapes at once, every 3rd answered 429 "retry after 1s" (`--retry-after-s`): how many succeed;
 * - browser bundles (esbuild, minified, gzip -9): webdata everything inlined, initial, and `import { scrape }`
 *   against the official client's (which builds only with `events` and `undici` stubbed);
 * - time to the first document of a watched crawl and status reads per job, on a virtual clock against the
 *   in-process fake (baseline: the fixed 2 s schedule the default was before the ramp);
 * - the goals (bench/README.md, "The goals"), each with its figure from this run.
 *
 * Each measure runs `--runs` times (per call and throughput: `--call-runs`); the table shows the median and the spread (min-max).
 * Contenders: the `node:http` floor, raw undici, raw global fetch, the official client
 * (`@mendable/firecrawl-js`, installed apart by scripts/official-client.mjs), and webdata over undici (Node entry) and over fetch.
 *
 *   npm run bench                       # defaults: a few minutes on 2 cores
 *   BENCH_QUICK=1 npm run bench         # quick (development): 1 run (2 for per call), 300 / 1,000 scrapes, 2,000-doc crawl
 *   BENCH_BEFORE=/tmp/before/index.js npm run bench -- --only call,throughput   # a copy of dist/node/ from before a change, in the same run
 *   npm run bench -- --runs 1 --seq 200 --conc-total 1000 --crawl-docs 2000   # quicker, by hand
 */
import { execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import type FirecrawlClient from "@mendable/firecrawl-js";
import { build, type Plugin } from "esbuild";
import { Agent as UndiciAgent, request as undiciRequest } from "undici";
// The Node entry as an app gets it (the exports map's "node" condition: the bundled dist/node/).
import { WebData as NodeWebData } from "webdata";
import { WebData as PortableWebData } from "../dist/index.js";
import { appDir, BUDGET, bundle, CLIENT_APP, SCRAPE_APP, WEBSOCKET_APP, ZOD4_APP } from "./bundles.js";
import { startBenchServer } from "./server.js";

// BENCH_QUICK=1: smaller defaults, for development (a flag given still wins).
const QUICK = process.env.BENCH_QUICK === "1";
const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: QUICK ? "1" : "3" },
    "call-runs": { type: "string", default: QUICK ? "2" : "5" },
    seq: { type: "string", default: QUICK ? "300" : "2000" },
    "doc-kb": { type: "string", default: "20" },
    conc: { type: "string", default: "256" },
    "conc-total": { type: "string", default: QUICK ? "1000" : "5000" },
    "crawl-docs": { type: "string", default: QUICK ? "2000" : "20000" },
    burst: { type: "string", default: "30" },
    "retry-after-s": { type: "string", default: "1" },
    only: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const num = (k: keyof typeof flags) => {
  const n = Number(flags[k]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${k} must be a positive number`);
  return n;
};
const RUNS = num("runs");
const CALL_RUNS = num("call-runs");
const SEQ = num("seq");
const DOC_BYTES = num("doc-kb") * 1024;
const CONC = num("conc");
const CONC_TOTAL = num("conc-total");
const CRAWL_DOCS = num("crawl-docs");
const BURST = num("burst");
const RETRY_AFTER_S = num("retry-after-s");
const ONLY = flags.only?.split(",");
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const KEY = "fc-bench";

/** The official client: by its name when scripts/official-client.mjs has linked it, else from its own install (test/official-client/). */
async function importOfficial(): Promise<{ default: typeof FirecrawlClient }> {
  try {
    return (await import("@mendable/firecrawl-js")) as { default: typeof FirecrawlClient };
  } catch {
    const req = createRequire(join(ROOT, "test", "official-client", "package.json"));
    const pkg = req.resolve("@mendable/firecrawl-js/package.json");
    const entry = (req(pkg) as { exports: { ".": { import: string } } }).exports["."].import; // its ESM entry, as `import` by name reaches it
    return (await import(pathToFileURL(join(dirname(pkg), entry)).href)) as { default: typeof FirecrawlClient };
  }
}
const Firecrawl = (await importOfficial()).default;

type Call = () => Promise<unknown>;
interface Stat {
  median: number;
  min: number;
  max: number;
}
const stat = (xs: number[]): Stat => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { median: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, min: s[0]!, max: s[s.length - 1]! };
};
const want = (measure: string) => !ONLY || ONLY.includes(measure);
const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

function httpContenders(base: string): [string, Call][] {
  const payload = JSON.stringify({ url: "https://acme.test", formats: ["markdown"] });
  const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };
  const agent = new HttpAgent({ keepAlive: true, maxSockets: CONC });
  const undiciAgent = new UndiciAgent({ connections: CONC, keepAliveTimeout: 10_000 });
  const url = `${base}/v2/scrape`;
  const nodeClient = new NodeWebData({ apiKey: KEY, apiUrl: base, logLevel: "off", maxRetries: 0 });
  const fetchClient = new PortableWebData({ apiKey: KEY, apiUrl: base, logLevel: "off", maxRetries: 0, fetch: globalThis.fetch });
  const official = new Firecrawl({ apiKey: KEY, apiUrl: base, maxRetries: 1 }); // its maxRetries counts attempts
  const rawHttp: Call = () =>
    new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(payload) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(payload);
    });
  return [
    ["node:http keep-alive (floor)", rawHttp],
    ["raw undici.request", async () => (await undiciRequest(url, { method: "POST", headers, body: payload, dispatcher: undiciAgent })).body.json()],
    ["raw global fetch", async () => (await fetch(url, { method: "POST", headers, body: payload })).json()],
    ["official 4.42.0", () => official.scrape("https://acme.test", { formats: ["markdown"] })],
    ["webdata (Node entry, undici)", () => nodeClient.scrape("https://acme.test", { formats: ["markdown"] })],
    ["webdata (fetch)", () => fetchClient.scrape("https://acme.test", { formats: ["markdown"] })],
  ];
}

/**
 * The SDK's own cost per call, without a network: webdata's scrape over a transport that answers at
 * once with the bench server's 20 KB scrape body, against the least any client does with that answer
 * (`JSON.parse`). What the difference buys: the request checked by zod, the body encoded, headers,
 * an abortable attempt with its timeout, the answer's key redaction and zod check, the result object.
 */
function overheadContenders(body: string): [string, Call][] {
  const headers = new Headers({ "content-type": "application/json; charset=utf-8", "content-length": String(Buffer.byteLength(body)) });
  const answer = async () => ({ status: 200, headers, text: async () => body, stream: () => null });
  const client = new NodeWebData({ apiKey: KEY, apiUrl: "http://127.0.0.1:1", logLevel: "off", maxRetries: 0, transport: answer });
  return [
    ["JSON.parse of the answer", async () => JSON.parse(await (await answer()).text()) as unknown],
    ["webdata scrape, transport stubbed", () => client.scrape("https://acme.test", { formats: ["markdown"] })],
  ];
}

async function sequential(call: Call): Promise<number> {
  for (let i = 0; i < Math.min(200, SEQ); i++) await call();
  const t0 = performance.now();
  for (let i = 0; i < SEQ; i++) await call();
  return ((performance.now() - t0) * 1000) / SEQ; // µs per call
}

async function concurrent(call: Call): Promise<number> {
  let left = Math.min(CONC_TOTAL, 1000);
  const worker = async () => {
    while (left-- > 0) await call();
  };
  await Promise.all(Array.from({ length: CONC }, worker)); // open and warm the sockets
  left = CONC_TOTAL;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONC }, worker));
  return CONC_TOTAL / ((performance.now() - t0) / 1000); // req/s
}

/**
 * The bench server in a process of its own (`bench/serve.ts`), so that no contender shares its event loop:
 * in one process the server takes turns with the client, and a client's own delays hide behind its work.
 */
function serverProcess(docKB: number): Promise<{ url: string; close: () => void }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", "bench/serve.ts", String(docKB)], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    proc.stdout.setEncoding("utf8");
    proc.stdout.on("data", (c: string) => {
      out += c;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve({ url: line.trim(), close: () => proc.kill("SIGTERM") });
    });
    proc.on("error", reject);
    proc.on("exit", (code) => reject(new Error(`bench/serve.ts exited (${code}) before it printed its URL`)));
  });
}

/** Per call and throughput of one contender in a fresh process (`bench/contender.mjs`). */
function contenderChild(id: string, url: string): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const args = ["bench/contender.mjs", id === "webdata-before" ? "webdata" : id, url, String(SEQ), String(CONC), String(CONC_TOTAL)];
    const env = id === "webdata-before" ? { ...process.env, BENCH_WEBDATA: BEFORE } : process.env;
    execFile(process.execPath, args, { cwd: ROOT, env, encoding: "utf8", timeout: 300_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`bench/contender.mjs ${id} failed: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, number>);
    });
  });
}

/** The per-call and throughput contenders (bench/contender.mjs ids), under their names in the table. */
const CALL_CONTENDERS: [string, string][] = [
  ["node:http keep-alive (floor)", "http"],
  ["raw undici.request", "undici"],
  ["raw global fetch", "fetch"],
  ["official 4.42.0", "official"],
  ["webdata (Node entry, undici)", "webdata"],
  ["webdata (fetch)", "webdata-fetch"],
];
// BENCH_BEFORE=<file>: another build of the Node entry (e.g. a copy of dist/node/ made before a change) as one more
// contender, "webdata before", so that a change's before and after come from the same run.
const BEFORE = process.env.BENCH_BEFORE;
if (BEFORE) CALL_CONTENDERS.push(["webdata before (BENCH_BEFORE)", "webdata-before"]);
const UNDICI = "raw undici.request";

/** Runs bench/child.mjs in a fresh process (async: the servers answering it live in this process). */
function child(args: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--expose-gc", "bench/child.mjs", ...args], { cwd: ROOT, encoding: "utf8", timeout: 300_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`bench/child.mjs ${args.join(" ")} failed: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, number>);
    });
  });
}

/** `events` and `undici` as empty modules: the official client does not build for the browser without them. */
const stubNodeOnly: Plugin = {
  name: "stub-node-only",
  setup(b) {
    b.onResolve({ filter: /^(events|undici)$/ }, (a) => ({ path: a.path, namespace: "stub" }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export default {}; export class EventEmitter {}; export class Agent {}", loader: "js" }));
  },
};

/** The official client's browser bundle, built as an app would build it: the same app shape (import, construct), `events` and `undici` stubbed. */
async function officialBundleKB(): Promise<number> {
  const app = 'import Firecrawl from "@mendable/firecrawl-js"; export const c = new Firecrawl({ apiKey: "fc-x", apiUrl: "http://127.0.0.1:1" });';
  // nodePaths: its own install (test/official-client/) when scripts/official-client.mjs has not linked it by name.
  const nodePaths = [join(ROOT, "test", "official-client", "node_modules")];
  const out = await build({ stdin: { contents: app, resolveDir: ROOT, loader: "js" }, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent", plugins: [stubNodeOnly], nodePaths });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length / 1024;
}

interface Row {
  measure: string;
  contender: string;
  unit: string;
  value: Stat;
  ratio: number;
  base: string;
}
const rows: Row[] = [];
const notes: string[] = [];
const add = (measure: string, unit: string, base: string, results: [string, number[]][], higherIsBetter = false) => {
  const baseline = stat(results.find(([n]) => n === base)![1]).median;
  for (const [contender, xs] of results) {
    const value = stat(xs);
    rows.push({ measure, contender, unit, value, ratio: higherIsBetter ? value.median / baseline : value.median / baseline, base });
  }
};

const server = await startBenchServer({ docBytes: DOC_BYTES, crawlDocs: CRAWL_DOCS });
try {
  log(`Node ${process.version}, loopback, ${RUNS} run(s) a measure`);
  if (want("call") || want("throughput")) {
    // The server in its own process, each contender in a fresh one, the order rotated run by run: how an app meets the client.
    const srv = await serverProcess(DOC_BYTES / 1024);
    try {
      const results = new Map<string, Record<string, number>[]>(CALL_CONTENDERS.map(([n]) => [n, []]));
      for (let run = 0; run < CALL_RUNS; run++) {
        const order = CALL_CONTENDERS.map((_, i) => CALL_CONTENDERS[(i + run) % CALL_CONTENDERS.length]!);
        for (const [name, id] of order) results.get(name)!.push(await contenderChild(id, srv.url));
        log(`per call / throughput (server and contenders in processes of their own): run ${run + 1} of ${CALL_RUNS} done`);
      }
      const pick = (k: string): [string, number[]][] => [...results].map(([n, rs]) => [n, rs.map((r) => r[k]!)]);
      const setup = `${DOC_BYTES / 1024} KB scrapes, server and each client in a process of their own`;
      if (want("call")) {
        add(`per call, ${SEQ} sequential ${setup}`, "µs", UNDICI, pick("perCallUs"));
        add(`per call p99, ${SEQ} sequential ${setup}`, "µs", UNDICI, pick("p99Us"));
        // The client process's CPU time a call (user + system): on a busy machine the wall time swings with the
        // other jobs, this much less.
        add(`per call CPU time, ${SEQ} sequential ${setup}`, "µs", UNDICI, pick("cpuUs"));
      }
      if (want("throughput")) add(`throughput, ${CONC_TOTAL} scrapes, ${CONC} in flight, server and each client in a process of their own`, "req/s", UNDICI, pick("reqPerS"), true);
    } finally {
      srv.close();
    }
  }
  if (ONLY?.includes("inprocess")) {
    // The old setup (not run by default; the server takes turns with the client and hides its delays): the server and every contender in this process, on one event loop.
    const contenders = httpContenders(server.url);
    const seq = new Map<string, number[]>(contenders.map(([n]) => [n, []]));
    const conc = new Map<string, number[]>(contenders.map(([n]) => [n, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const [name, call] of contenders) {
        seq.get(name)!.push(await sequential(call));
        conc.get(name)!.push(await concurrent(call));
      }
      log(`in-process per call / throughput: run ${run + 1} of ${RUNS} done`);
    }
    add(`in one process (server and client), per call, ${SEQ} sequential ${DOC_BYTES / 1024} KB scrapes`, "µs", UNDICI, [...seq]);
    add(`in one process (server and client), throughput, ${CONC_TOTAL} scrapes, ${CONC} in flight`, "req/s", UNDICI, [...conc], true);
  }
  if (want("overhead")) {
    const body = await (await fetch(`${server.url}/v2/scrape`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: "{}" })).text();
    const contenders = overheadContenders(body);
    const results: [string, number[]][] = contenders.map(([n]) => [n, []]);
    const calls = SEQ * 10;
    for (let run = 0; run < RUNS; run++) {
      for (const [i, [, call]] of contenders.entries()) {
        for (let k = 0; k < Math.min(2000, calls); k++) await call();
        const t0 = performance.now();
        for (let k = 0; k < calls; k++) await call();
        results[i]![1].push(((performance.now() - t0) * 1000) / calls);
      }
    }
    add(`SDK overhead per call, no network, ${calls} calls (${DOC_BYTES / 1024} KB answer)`, "µs", "JSON.parse of the answer", results);
    log("overhead done");
  }
  if (want("memory")) {
    const peaks: [string, number[]][][] = [];
    for (const docs of [Math.round(CRAWL_DOCS / 4), CRAWL_DOCS]) {
      const mem = await startBenchServer({ crawlDocs: docs });
      try {
        const results: [string, number[]][] = [["raw page-by-page loop", []], ["official 4.42.0", []], ["webdata (Node entry, undici)", []], ["webdata (fetch)", []]];
        const ids: Record<string, string> = { "raw page-by-page loop": "raw", "official 4.42.0": "official", "webdata (Node entry, undici)": "webdata", "webdata (fetch)": "webdata-fetch" };
        for (let run = 0; run < RUNS; run++) for (const [name, xs] of results) xs.push((await child(["crawl-memory", ids[name]!, mem.url, String(docs)])).peakMB!);
        add(`peak heap, finished crawl of ${docs} 5 KB docs (100 a page)`, "MB", "raw page-by-page loop", results);
        peaks.push(results);
      } finally {
        await mem.close();
      }
      log(`crawl memory at ${docs} docs done`);
    }
    // The growth from the small crawl to the large one, run by run (the baseline of each process cancels out).
    const [small, large] = peaks as [[string, number[]][], [string, number[]][]];
    add(
      `heap growth, crawl of ${Math.round(CRAWL_DOCS / 4)} to ${CRAWL_DOCS} docs`,
      "MB",
      "raw page-by-page loop",
      large.map(([name, xs], i) => [name, xs.map((x, run) => x - small[i]![1][run]!)]),
    );
  }
  if (want("cold")) {
    const titles: Record<string, string> = {
      import: "cold import(), fresh process",
      "import+scrape": "cold import() + first scrape, fresh process",
      "import-zod-loaded": "cold import(), fresh process that has loaded its zod (an app using zod)",
    };
    for (const measure of ["import", "import+scrape", "import-zod-loaded"]) {
      // zod/v4/mini alone (its import, nothing of webdata): what webdata's Node entry read at import while it took the
      // request checks' zod from the package; it now bundles the part it uses (tsup.config.ts).
      const zodAlone = measure === "import" ? ([["zod/v4/mini alone (webdata's peer)", []]] as [string, number[]][]) : [];
      const results: [string, number[]][] = [["official 4.42.0", []], ["webdata (Node entry, undici)", []], ["webdata (fetch)", []], ...zodAlone];
      const ids: Record<string, string> = { "official 4.42.0": "official", "webdata (Node entry, undici)": "webdata", "webdata (fetch)": "webdata-fetch", "zod/v4/mini alone (webdata's peer)": "zod" };
      // A fresh process is a fraction of a second, and its timing swings by a fifth between processes on a
      // small machine: three samples a run, interleaved across contenders.
      for (let run = 0; run < RUNS * 3; run++) for (const [name, xs] of results) xs.push((await child([measure, ids[name]!, server.url])).ms!);
      add(titles[measure]!, "ms", "official 4.42.0", results);
    }
    log("cold start done");
  }
  if (want("429")) {
    const rl = await startBenchServer({ rateLimitEvery: 3, retryAfterS: RETRY_AFTER_S });
    try {
      const results: [string, number[]][] = [];
      const clients: [string, Call][] = [
        ["official 4.42.0", () => new Firecrawl({ apiKey: KEY, apiUrl: rl.url }).scrape("https://acme.test", { formats: ["markdown"] })],
        ["webdata (Node entry, undici)", () => new NodeWebData({ apiKey: KEY, apiUrl: rl.url, logLevel: "off" }).scrape("https://acme.test", { formats: ["markdown"] })],
      ];
      for (const [name, call] of clients) {
        const oks: number[] = [];
        for (let run = 0; run < Math.min(RUNS, 2); run++) {
          const settled = await Promise.allSettled(Array.from({ length: BURST }, () => call()));
          oks.push(settled.filter((s) => s.status === "fulfilled").length);
        }
        results.push([name, oks]);
      }
      add(`${BURST} scrapes at once, every 3rd answered 429 "retry after ${RETRY_AFTER_S}s": succeeded`, "ok", "official 4.42.0", results, true);
    } finally {
      await rl.close();
    }
    log("429 burst done");
  }
  if (want("bundle")) {
    const { dir, remove } = appDir();
    try {
      const kb = async (code: string, split: boolean | RegExp) => (await bundle(dir, code, { split })).gzipped / 1024;
      add("browser bundle, esbuild minified, gzip -9 (an app that imports the client and makes one)", "KB", "official 4.42.0", [
        ["official 4.42.0", [await officialBundleKB()]],
        ["webdata everything inlined", [await kb(CLIENT_APP, false)]],
        ['webdata everything inlined, with import "webdata/zod4"', [await kb(ZOD4_APP, false)]],
        ["webdata import { WebData }, initial", [await kb(CLIENT_APP, true)]],
        ["webdata import { WebData } + webdata/websocket", [await kb(WEBSOCKET_APP, true)]],
        ["webdata import { scrape }, initial", [await kb(SCRAPE_APP, true)]],
      ]);
      notes.push('browser bundle: the official client builds for the browser only with "events" and "undici" stubbed (as an app would build it); zod\'s JSON Schema converters are opt-in (import "webdata/zod4" for zod mini or zod before 4.2, "webdata/zod3" for zod 3; classic zod 4.2+ schemas convert themselves), so the inlined figure has none');
    } finally {
      remove();
    }
    log("bundles done");
  }
  if (want("watch")) {
    const results: [string, number[]][] = [
      ["fixed 2 s polls (before the ramp)", []],
      ["webdata default (ramped polls)", []],
    ];
    const reads5: [string, number[]][] = results.map(([n]) => [n, []]);
    const reads60: [string, number[]][] = results.map(([n]) => [n, []]);
    for (const [i, id] of ["fixed", "ramped"].entries()) {
      const r = await child(["first-document", id, "-"]);
      results[i]![1].push(r.firstMs!);
      reads5[i]![1].push(r.reads5s!);
      reads60[i]![1].push(r.reads60s!);
    }
    const base = "fixed 2 s polls (before the ramp)";
    add("time to the first document of a watched crawl, scraped at 1 s (fake clock)", "ms", base, results);
    add("status reads of a watched 5 s crawl (fake clock)", "reads", base, reads5);
    add("status reads of a watched 60 s crawl (fake clock)", "reads", base, reads60);
    log("watch timing done");
  }
} finally {
  await server.close();
}

/** One goal (bench/README.md, "The goals"), judged on this run's figures. */
interface Goal {
  goal: string;
  figure: string;
  met: boolean | undefined;
}
const goals: Goal[] = [];
const row = (measure: string, contender: string) => rows.find((r) => r.measure.startsWith(measure) && r.contender === contender);
const judge = (goal: string, measure: string, contender: string, ok: (r: Row) => boolean, figure: (r: Row) => string = (r) => `${r.ratio.toFixed(2)}x`) => {
  const r = row(measure, contender);
  if (r) goals.push({ goal, figure: figure(r), met: ok(r) });
};
const KiB = (r: Row) => `${(r.value.median * 1024).toFixed(0)} B (${r.ratio.toFixed(2)}x the official's)`;
judge("everything-inlined bundle <= 0.85x the official client's", "browser bundle", "webdata everything inlined", (r) => r.ratio <= 0.85, KiB);
judge(`import { WebData } initial <= ${BUDGET.client / 1024} KB (ceiling)`, "browser bundle", "webdata import { WebData }, initial", (r) => r.value.median <= BUDGET.client / 1024, KiB);
judge(`import { scrape } initial <= ${BUDGET.scrapeOnly / 1024} KB (ceiling)`, "browser bundle", "webdata import { scrape }, initial", (r) => r.value.median <= BUDGET.scrapeOnly / 1024, KiB);
judge("import { scrape } initial <= 22 KB (goal)", "browser bundle", "webdata import { scrape }, initial", (r) => r.value.median <= 22, KiB);
judge("per call <= 1.2x undici.request", "per call,", "webdata (Node entry, undici)", (r) => r.ratio <= 1.2);
judge(`throughput at ${CONC} in flight >= 0.85x undici.request`, "throughput", "webdata (Node entry, undici)", (r) => r.ratio >= 0.85);
{
  // Tail latency: our p99 above undici.request's by no more than the per-call gap.
  const mean = row("per call,", "webdata (Node entry, undici)");
  const meanU = row("per call,", UNDICI);
  const p99 = row("per call p99", "webdata (Node entry, undici)");
  const p99U = row("per call p99", UNDICI);
  if (mean && meanU && p99 && p99U) {
    const gap = mean.value.median - meanU.value.median;
    const tail = p99.value.median - p99U.value.median;
    goals.push({ goal: "p99 above undici.request's by <= the per-call gap", figure: `${tail.toFixed(0)} µs (gap ${gap.toFixed(0)} µs)`, met: tail <= Math.max(gap, 0) });
  }
}
judge("heap growth 5,000 to 20,000 docs <= 1.3x the raw loop's", "heap growth", "webdata (Node entry, undici)", (r) => r.ratio <= 1.3, (r) => `${r.value.median.toFixed(1)} MB (${r.ratio.toFixed(2)}x)`);
judge("cold import() <= 0.5x the official client's", "cold import(), fresh process", "webdata (Node entry, undici)", (r) => r.ratio <= 0.5);
judge("first document scraped at 1 s delivered by about 1.3 s", "time to the first document", "webdata default (ramped polls)", (r) => r.value.median <= 1300, (r) => `${r.value.median.toFixed(0)} ms (fixed 2 s polls: ${row("time to the first document", "fixed 2 s polls (before the ramp)")?.value.median.toFixed(0)} ms)`);
judge("status reads of a 5 s job <= 1.5x the fixed schedule's", "status reads of a watched 5 s", "webdata default (ramped polls)", (r) => r.ratio <= 1.5);
judge("status reads of a 60 s job <= 1.5x the fixed schedule's", "status reads of a watched 60 s", "webdata default (ramped polls)", (r) => r.ratio <= 1.5);

if (flags.json) {
  console.log(JSON.stringify({ rows, notes, goals }, null, 2));
} else {
  const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
  let current = "";
  const w = Math.max(...rows.map((r) => r.contender.length));
  for (const r of rows) {
    if (r.measure !== current) {
      current = r.measure;
      console.log(`\n${r.measure} (ratio to ${r.base})`);
    }
    const spread = r.value.min === r.value.max ? "" : ` (${fmt(r.value.min)}-${fmt(r.value.max)})`;
    console.log(`  ${r.contender.padEnd(w)}  ${`${fmt(r.value.median)} ${r.unit}${spread}`.padEnd(28)}  ${r.ratio.toFixed(2)}x`);
  }
  // The summary table: per call with its p99, and throughput, webdata against undici.request.
  const perCall = rows.filter((r) => r.measure.startsWith("per call,"));
  if (perCall.length || rows.some((r) => r.measure.startsWith("throughput"))) {
    const cols: [string, string][] = [
      ["node:http keep-alive", "node:http keep-alive (floor)"],
      ["undici.request", UNDICI],
      ["official 4.42.0", "official 4.42.0"],
      ["webdata", "webdata (Node entry, undici)"],
      ["webdata (fetch)", "webdata (fetch)"],
      ...(BEFORE ? ([["webdata before", "webdata before (BENCH_BEFORE)"]] as [string, string][]) : []),
    ];
    const cell = (r: Row | undefined, unit: string) => (r ? `${fmt(r.value.median)} ${unit} (${fmt(r.value.min)}-${fmt(r.value.max)})` : "-");
    console.log(`\nwebdata against undici.request, server and each client in processes of their own (median of ${CALL_RUNS} runs, min-max):\n`);
    console.log(`| measure | ${cols.map(([t]) => t).join(" | ")} | webdata / undici.request |`);
    console.log(`|---|${cols.map(() => "---|").join("")}---|`);
    const line = (title: string, measure: string, unit: string, p99?: string) => {
      const cells = cols.map(([, c]) => {
        const r = row(measure, c);
        const tail = p99 ? row(p99, c) : undefined;
        return cell(r, unit) + (tail ? `, p99 ${fmt(tail.value.median)} ${unit}` : "");
      });
      const w = row(measure, "webdata (Node entry, undici)");
      console.log(`| ${title} | ${cells.join(" | ")} | ${w ? `${w.ratio.toFixed(2)}x` : "-"} |`);
    };
    if (perCall.length) line(`per call, ${SEQ} x ${DOC_BYTES / 1024} KB scrapes`, "per call,", "µs", "per call p99");
    if (rows.some((r) => r.measure.startsWith("throughput"))) line(`throughput, ${CONC_TOTAL} @ ${CONC} in flight`, "throughput", "req/s");
  }
  for (const n of notes) console.log(`\n${n}`);
  if (goals.length) {
    console.log("\ngoals, this run:");
    const gw = Math.max(...goals.map((g) => g.goal.length));
    for (const g of goals) console.log(`  ${g.goal.padEnd(gw)}  ${g.figure.padEnd(40)}  ${g.met ? "met" : "NOT met"}`);
  }
  console.log("\nµs, ms, MB and KB: lower is better; req/s and ok: higher is better. Medians of the runs (cold start: three fresh processes a run), spread in brackets.");
}
