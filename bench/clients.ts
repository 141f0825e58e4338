/**
 * Client benchmark (`npm run bench`; not part of `npm test`, which runs it once
 * at tiny sizes to prove it works). Compares clients side by side, every figure
 * a ratio to a baseline measured in the same run:
 *
 * - per call: sequential scrapes of a `--doc-kb` KB page (baseline: a keep-alive `node:http` agent, the floor);
 * - throughput: `--conc-total` scrapes with `--conc` in flight (same baseline);
 * - crawl memory: peak heap iterating a finished crawl of `--crawl-docs` 5 KB documents, 100 a page,
 *   and at a quarter of that to show growth (baseline: a raw page-by-page `fetch` loop), each in a fresh process;
 * - overhead: the SDK's own cost per call with the transport stubbed (baseline: `JSON.parse` of the answer);
 * - cold start: `import()` alone and `import()` + first scrape, in a fresh process (baseline: the official client);
 * - 429s: `--burst` scrapes at once, every 3rd answered 429 "retry after 1s" (`--retry-after-s`): how many succeed;
 * - browser bundle size of `import { WebData }` vs the official client (esbuild, minified, gzip -9).
 *
 * Each measure runs `--runs` times; the table shows the median and the spread (min-max).
 * Contenders: the `node:http` floor, raw undici, raw global fetch, the official client
 * (`@mendable/firecrawl-js`, a devDependency), and webdata over undici (Node entry) and over fetch.
 *
 *   npm run bench                       # defaults: a few minutes on 2 cores
 *   npm run bench -- --runs 1 --seq 200 --conc-total 1000 --crawl-docs 2000   # quicker
 */
import { execFile } from "node:child_process";
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import Firecrawl from "@mendable/firecrawl-js";
import { build } from "esbuild";
import { Agent as UndiciAgent, request as undiciRequest } from "undici";
// The Node entry as an app gets it (the exports map's "node" condition: the bundled dist/node/).
import { WebData as NodeWebData } from "webdata";
import { WebData as PortableWebData } from "../dist/index.js";
import { startBenchServer } from "./server.js";

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    seq: { type: "string", default: "2000" },
    "doc-kb": { type: "string", default: "20" },
    conc: { type: "string", default: "256" },
    "conc-total": { type: "string", default: "5000" },
    "crawl-docs": { type: "string", default: "20000" },
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

/** Runs bench/child.mjs in a fresh process (async: the servers answering it live in this process). */
function child(args: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--expose-gc", "bench/child.mjs", ...args], { cwd: ROOT, encoding: "utf8", timeout: 300_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`bench/child.mjs ${args.join(" ")} failed: ${err.message}\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, number>);
    });
  });
}

async function bundleKB(entry: string): Promise<number> {
  const out = await build({ stdin: { contents: entry, resolveDir: ROOT, loader: "js" }, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
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
    const contenders = httpContenders(server.url);
    const seq = new Map<string, number[]>(contenders.map(([n]) => [n, []]));
    const conc = new Map<string, number[]>(contenders.map(([n]) => [n, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const [name, call] of contenders) {
        if (want("call")) seq.get(name)!.push(await sequential(call));
        if (want("throughput")) conc.get(name)!.push(await concurrent(call));
      }
      log(`per call / throughput: run ${run + 1} of ${RUNS} done`);
    }
    if (want("call")) add(`per call, ${SEQ} sequential ${DOC_BYTES / 1024} KB scrapes`, "µs", "node:http keep-alive (floor)", [...seq]);
    if (want("throughput")) add(`throughput, ${CONC_TOTAL} scrapes, ${CONC} in flight`, "req/s", "node:http keep-alive (floor)", [...conc], true);
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
    for (const docs of [Math.round(CRAWL_DOCS / 4), CRAWL_DOCS]) {
      const mem = await startBenchServer({ crawlDocs: docs });
      try {
        const results: [string, number[]][] = [["raw page-by-page loop", []], ["official 4.42.0", []], ["webdata (Node entry, undici)", []], ["webdata (fetch)", []]];
        const ids: Record<string, string> = { "raw page-by-page loop": "raw", "official 4.42.0": "official", "webdata (Node entry, undici)": "webdata", "webdata (fetch)": "webdata-fetch" };
        for (let run = 0; run < RUNS; run++) for (const [name, xs] of results) xs.push((await child(["crawl-memory", ids[name]!, mem.url, String(docs)])).peakMB!);
        add(`peak heap, finished crawl of ${docs} 5 KB docs (100 a page)`, "MB", "raw page-by-page loop", results);
      } finally {
        await mem.close();
      }
      log(`crawl memory at ${docs} docs done`);
    }
  }
  if (want("cold")) {
    const titles: Record<string, string> = {
      import: "cold import(), fresh process",
      "import+scrape": "cold import() + first scrape, fresh process",
      "import-zod-loaded": "cold import(), fresh process that has loaded its zod (an app using zod)",
    };
    for (const measure of ["import", "import+scrape", "import-zod-loaded"]) {
      const results: [string, number[]][] = [["official 4.42.0", []], ["webdata (Node entry, undici)", []], ["webdata (fetch)", []]];
      const ids: Record<string, string> = { "official 4.42.0": "official", "webdata (Node entry, undici)": "webdata", "webdata (fetch)": "webdata-fetch" };
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
    const webdataKB = await bundleKB(`import { WebData } from "./dist/index.js"; console.log(WebData);`);
    let officialKB: number | undefined;
    try {
      officialKB = await bundleKB(`import F from "@mendable/firecrawl-js"; console.log(F);`);
    } catch (err) {
      const n = (err as { errors?: unknown[] }).errors?.length ?? 0;
      notes.push(`browser bundle: the official client does not build for the browser (esbuild, platform browser: ${n} unresolved Node modules such as "events" and undici's "node:*")`);
    }
    add("browser bundle, esbuild minified, gzip -9", "KB", "webdata import { WebData }", [
      ["webdata import { WebData }", [webdataKB]],
      ...(officialKB === undefined ? [] : ([["official 4.42.0", [officialKB]]] as [string, number[]][])),
    ]);
  }
} finally {
  await server.close();
}

if (flags.json) {
  console.log(JSON.stringify({ rows, notes }, null, 2));
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
  for (const n of notes) console.log(`\n${n}`);
  console.log("\nµs, ms, MB and KB: lower is better; req/s and ok: higher is better. Medians of the runs (cold start: three fresh processes a run), spread in brackets.");
}
