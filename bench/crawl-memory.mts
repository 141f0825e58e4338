/**
 * Crawl memory, standalone (issue 36 item 3): what iterating a finished crawl holds, webdata's
 * `crawlDocuments` against a raw page loop (`undici.request` over the `next` links, keeping nothing),
 * over the same loopback crawl of 5 KB documents, 100 a page (`bench/server.ts`).
 *
 * The server runs in its own process; each measurement runs in a fresh `node --expose-gc` process, the
 * contenders in rotated order, `--runs` times. Printed: the median peak heap above the process's
 * baseline at `--small` and `--docs` documents, the heap growth from the small crawl to the large one
 * (run by run), each as a ratio to the raw loop of the same run, with the spread, and the targets judged
 * (growth <= 1.5x raw, peak <= 1.3x raw). A last row measures what the iteration keeps, free of GC timing:
 * the live heap after a full GC at a quarter of the large crawl and at its end, in one process.
 *
 *   npx tsx bench/crawl-memory.mts                       # 3 runs, 5,000 and 20,000 documents, webdata from src/
 *   npx tsx bench/crawl-memory.mts --runs 5 --dist       # webdata from the built package (npm run build first)
 *   npx tsx bench/crawl-memory.mts --same                # the raw loop's process loads webdata too, and both
 *                                                        # read one status page through it before the baseline
 *   npx tsx bench/crawl-memory.mts --src /tmp/old/src    # webdata from another src/ (an older commit's, for before/after)
 *   SPACES=1 npx tsx bench/crawl-memory.mts ...          # also print V8's heap spaces at baseline and peak (stderr)
 *   npx tsx bench/crawl-memory.mts --small 500 --docs 2000 --runs 1   # quick
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const KEY = "fc-bench";
const ID = "01a200de-0266-76d8-8503-80a52f44f4b3"; // bench/server.ts CRAWL_ID

const [role] = process.argv.slice(2);

if (role === "serve") {
  // The server process: serves the crawl until its parent closes stdin.
  const { startBenchServer } = await import("./server.js");
  const server = await startBenchServer({ crawlDocs: Number(process.argv[3]) });
  console.log(server.url);
  process.stdin.resume();
  process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
} else if (role === "measure") {
  const [, contender, apiUrl, docsArg, dist, mode, what] = process.argv.slice(2);
  // "retained": a full GC at a quarter of the documents and at the last, and the live heap's growth between (no peak).
  const marks = what === "retained" ? [Math.round(Number(docsArg) / 4), Number(docsArg)] : [];
  const live: number[] = [];
  const undici = await import("undici");
  // Both contenders load webdata and make a client (with --same, the raw loop too, and each makes one status
  // read through it): the processes differ only in the loop measured, not in the code loaded before the
  // baseline, which sizes V8's young generation (the peak's largest part).
  const loadsWebdata = contender !== "raw" || mode === "same";
  const mod = loadsWebdata
    ? ((dist === "dist" ? await import("webdata") : await import(dist === "src" ? "../src/node.js" : pathToFileURL(`${dist}/node.ts`).href)) as typeof import("../src/node.js"))
    : undefined;
  const client = mod && new mod.WebData({ apiKey: KEY, apiUrl, logLevel: "off", maxRetries: 0 });
  if (client && mode === "same") await client.getCrawlStatus(ID, { limit: 1 });
  let iterate: (use: (doc: { markdown?: string }) => void) => Promise<void>;
  if (contender === "raw") {
    if (mode === "same") await (await undici.request(`${apiUrl}/v2/crawl/${ID}?limit=1`, { headers: { authorization: `Bearer ${KEY}` } })).body.json();
    iterate = async (use) => {
      let next: string | undefined = `${apiUrl}/v2/crawl/${ID}`;
      while (next) {
        const res = await undici.request(next, { headers: { authorization: `Bearer ${KEY}` } });
        const page = (await res.body.json()) as { data: { markdown?: string }[]; next?: string };
        for (const doc of page.data) use(doc);
        next = page.next;
      }
    };
  } else {
    iterate = async (use) => {
      for await (const doc of client!.crawlDocuments(ID)) use(doc);
    };
  }
  globalThis.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const v8 = await import("node:v8");
  const spaces = () => Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, +(x.space_used_size / 1048576).toFixed(1)]));
  const baseSpaces = spaces();
  let peakSpaces = baseSpaces;
  const sample = () => {
    const h = process.memoryUsage().heapUsed;
    if (h > peak) { peak = h; if (process.env.SPACES) peakSpaces = spaces(); }
  };
  const timer = setInterval(sample, 5);
  let docs = 0;
  let bytes = 0;
  await iterate((doc) => {
    docs++;
    bytes += doc.markdown?.length ?? 0; // the application reads each document
    if (docs % 50 === 0) sample();
    if (marks.includes(docs)) {
      globalThis.gc?.();
      live.push(process.memoryUsage().heapUsed);
    }
  });
  sample();
  clearInterval(timer);
  if (docs !== Number(docsArg)) throw new Error(`expected ${docsArg} documents, got ${docs}`);
  if (process.env.SPACES) console.error(contender, JSON.stringify(baseSpaces), JSON.stringify(peakSpaces));
  console.log(JSON.stringify({ peakMB: (peak - base) / 1024 / 1024, docs, bytes, ...(live.length === 2 ? { retainedMB: (live[1]! - live[0]!) / 1024 / 1024 } : {}) }));
  process.exit(0);
} else {
  const { values } = parseArgs({
    options: { runs: { type: "string", default: "3" }, docs: { type: "string", default: "20000" }, small: { type: "string", default: "5000" }, dist: { type: "boolean", default: false }, same: { type: "boolean", default: false }, src: { type: "string" } },
  });
  const RUNS = Number(values.runs);
  const SIZES = [Number(values.small), Number(values.docs)];
  const CONTENDERS = ["raw", "webdata"] as const;
  const NAMES: Record<(typeof CONTENDERS)[number], string> = { raw: "raw undici.request page loop", webdata: `webdata crawlDocuments (${values.dist ? "dist" : (values.src ?? "src")})` };

  const tsx = ["--import", "tsx"];
  /** Starts the server process for `docs` documents; resolves its URL and a stop function. */
  const serve = async (docs: number) => {
    const p = spawn(process.execPath, [...tsx, SELF, "serve", String(docs)], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: p.stdout! }).once("line", resolve);
      p.once("exit", (code) => reject(new Error(`server exited ${code}`)));
    });
    return { url, stop: () => new Promise<void>((r) => (p.once("exit", () => r()), p.stdin!.end())) };
  };
  /** One measurement in a fresh process. */
  const measure = (contender: string, url: string, docs: number, what = "peak") =>
    new Promise<number>((resolve, reject) => {
      const p = spawn(process.execPath, ["--expose-gc", ...tsx, SELF, "measure", contender, url, String(docs), values.dist ? "dist" : (values.src ?? "src"), values.same ? "same" : "own", what], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      p.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      p.once("exit", (code) => {
        if (code !== 0) return reject(new Error(`${contender} exited ${code}`));
        const r = JSON.parse(out.trim().split("\n").at(-1)!) as { peakMB: number; retainedMB?: number };
        resolve(what === "retained" ? r.retainedMB! : r.peakMB);
      });
    });

  const peaks = new Map<string, number[][]>(); // contender -> [size index][run]
  const retained = new Map<string, number[]>(); // contender -> [run]
  for (const c of CONTENDERS) (peaks.set(c, SIZES.map(() => [])), retained.set(c, []));
  for (const [si, docs] of SIZES.entries()) {
    const server = await serve(docs);
    for (let run = 0; run < RUNS; run++) {
      // Rotated order: run 0 raw first, run 1 webdata first, ...
      const order = run % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
      for (const c of order) peaks.get(c)![si]!.push(await measure(c, server.url, docs));
      if (si === 1) for (const c of order) retained.get(c)!.push(await measure(c, server.url, docs, "retained"));
    }
    await server.stop();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const fmt = (xs: number[]) => `${median(xs).toFixed(1)} MB (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`;
  const rows: [title: string, per: (c: string) => number[]][] = [
    [`peak heap, finished crawl of ${SIZES[0]} 5 KB docs (100 a page)`, (c) => peaks.get(c)![0]!],
    [`peak heap, finished crawl of ${SIZES[1]} 5 KB docs (100 a page)`, (c) => peaks.get(c)![1]!],
    [`heap growth, ${SIZES[0]} to ${SIZES[1]} docs`, (c) => peaks.get(c)![1]!.map((p, i) => p - peaks.get(c)![0]![i]!)],
    [`live heap growth after a full GC, ${Math.round(SIZES[1]! / 4)} to ${SIZES[1]} docs of one crawl (what the iteration keeps)`, (c) => retained.get(c)!],
  ];
  const ratios: Record<string, number> = {};
  console.log(`Node ${process.version}, ${RUNS} run(s)${values.same ? ", both contenders loading webdata and reading one status page through it before the baseline (--same)" : ""}, ratios to the raw loop of the same runs (median (min-max))`);
  for (const [title, per] of rows) {
    console.log(`\n${title}`);
    const raw = median(per("raw"));
    for (const c of CONTENDERS) {
      const ratio = median(per(c)) / raw;
      ratios[`${title}|${c}`] = ratio;
      console.log(`  ${NAMES[c].padEnd(40)} ${fmt(per(c)).padEnd(24)} ${ratio.toFixed(2)}x`);
    }
  }
  const growth = ratios[`${rows[2]![0]}|webdata`]!;
  const peak = ratios[`${rows[1]![0]}|webdata`]!;
  console.log(`\ntargets: heap growth <= 1.5x raw: ${growth.toFixed(2)}x ${growth <= 1.5 ? "met" : "NOT met"}; peak <= 1.3x raw: ${peak.toFixed(2)}x ${peak <= 1.3 ? "met" : "NOT met"}`);
}
