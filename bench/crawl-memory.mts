/**
 * Crawl memory, standalone: what iterating a finished crawl holds, webdata's
 * `crawlDocuments` against a raw page loop (`undici.request` over the `next` links, keeping nothing),
 * over the same loopback crawl of 5 KB documents, 100 a page (`bench/server.ts`).
 *
 * The server runs in its own process; each measurement runs in a fresh `node --expose-gc` process
 * (`bench/crawl-memory-child.mjs`; plain node with `--dist`, as an app runs the package, else under tsx,
 * which webdata's sources need), the contenders in rotated order, `--runs` times. Printed: the median peak
 * heap above the process's baseline at `--small` and `--docs` documents, the heap growth from the small
 * crawl to the large one (run by run), each as a ratio to the raw loop of the same run, with the spread, and
 * the targets judged (growth <= 1.5x raw, peak <= 1.3x raw). Rows free of GC timing follow: the live heap
 * after a full GC at a quarter of the large crawl (what the iteration holds at once) and its growth to the
 * end (what it keeps), in one process; and V8's young generation at the baseline and at the end.
 *
 * The peak is mostly the young generation filling up between two scavenges, so it is about twice as high
 * in a process whose semi-spaces V8 has grown to 16 MB as in one at 8 MB, whatever the loop holds. What a
 * process loads before the baseline decides it: compiling webdata's sources through tsx (or any package of
 * that size: zod alone does it) leaves 8 MB semi-spaces, loading undici alone 4 MB, and each process grows
 * them one step during the crawl (to 16 and 8 MB). Until 2026-11-27 only webdata's process loaded webdata,
 * and the peak ratio (1.6x) measured that difference: with the young generation the same size in both
 * (`--max-semi-space-size=8`, or `--min-semi-space-size=16`), webdata's peak was 0.92-0.96x the raw loop's.
 * So by default both processes load webdata and make a client before the baseline, and differ only in the
 * loop measured; the young generation of each peak run is printed.
 *
 *   npx tsx bench/crawl-memory.mts                       # 3 runs, 5,000 and 20,000 documents, webdata from src/
 *   npx tsx bench/crawl-memory.mts --runs 5 --dist       # webdata from the built package (npm run build first), plain node
 *   npx tsx bench/crawl-memory.mts --same                # both also read one status page before the baseline
 *                                                        # (webdata's through it, the raw loop's with undici.request)
 *   npx tsx bench/crawl-memory.mts --own                 # the raw loop's process loads undici alone (the setup
 *                                                        # before 2026-11-27: it compares young generations)
 *   npx tsx bench/crawl-memory.mts --src /tmp/old/src    # webdata from another src/ (an older commit's, for before/after)
 *   SPACES=1 npx tsx bench/crawl-memory.mts ...          # also print V8's heap spaces at baseline and peak (stderr)
 *   npx tsx bench/crawl-memory.mts --small 500 --docs 2000 --runs 1   # quick
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const SELF = fileURLToPath(import.meta.url);
const CHILD = fileURLToPath(new URL("./crawl-memory-child.mjs", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));

const [role] = process.argv.slice(2);

if (role === "serve") {
  // The server process: serves the crawl until its parent closes stdin.
  const { startBenchServer } = await import("./server.js");
  const server = await startBenchServer({ crawlDocs: Number(process.argv[3]) });
  console.log(server.url);
  process.stdin.resume();
  process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
} else {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "3" },
      docs: { type: "string", default: "20000" },
      small: { type: "string", default: "5000" },
      dist: { type: "boolean", default: false },
      same: { type: "boolean", default: false },
      own: { type: "boolean", default: false },
      src: { type: "string" },
    },
  });
  if (values.same && values.own) throw new Error("--same and --own exclude each other");
  const RUNS = Number(values.runs);
  const SIZES = [Number(values.small), Number(values.docs)];
  const SOURCE = values.dist ? "dist" : (values.src ?? "src");
  const PRELOAD = values.same ? "same" : values.own ? "own" : "load";
  const CONTENDERS = ["raw", "webdata"] as const;
  const NAMES: Record<(typeof CONTENDERS)[number], string> = { raw: "raw undici.request page loop", webdata: `webdata crawlDocuments (${SOURCE})` };

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
  /** What one measurement prints (`bench/crawl-memory-child.mjs`). */
  interface Measured {
    peakMB?: number;
    heldMB?: number;
    retainedMB?: number;
    /** The young generation's semi-space, MB: at the baseline, at the end. */
    young: [number, number];
  }
  /** One measurement in a fresh process: plain node for the built package, tsx for sources. */
  const measure = (contender: string, url: string, docs: number, what = "peak") =>
    new Promise<Measured>((resolve, reject) => {
      const args = ["--expose-gc", ...(SOURCE === "dist" ? [] : tsx), CHILD, contender, url, String(docs), SOURCE, PRELOAD, what];
      const p = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      p.stdout!.on("data", (c: Buffer) => (out += c.toString()));
      p.once("exit", (code) => {
        if (code !== 0) return reject(new Error(`${contender} exited ${code}`));
        resolve(JSON.parse(out.trim().split("\n").at(-1)!) as Measured);
      });
    });

  const peaks = new Map<string, Measured[][]>(); // contender -> [size index][run]
  const retained = new Map<string, Measured[]>(); // contender -> [run]
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
  const peakOf = (c: string, si: number) => peaks.get(c)![si]!.map((m) => m.peakMB!);
  const rows: [title: string, per: (c: string) => number[]][] = [
    [`peak heap, finished crawl of ${SIZES[0]} 5 KB docs (100 a page)`, (c) => peakOf(c, 0)],
    [`peak heap, finished crawl of ${SIZES[1]} 5 KB docs (100 a page)`, (c) => peakOf(c, 1)],
    [`heap growth, ${SIZES[0]} to ${SIZES[1]} docs`, (c) => peakOf(c, 1).map((p, i) => p - peakOf(c, 0)[i]!)],
    [`live heap after a full GC at doc ${Math.round(SIZES[1]! / 4)} of ${SIZES[1]}, above the baseline (what the iteration holds at once)`, (c) => retained.get(c)!.map((m) => m.heldMB!)],
    [`live heap growth after a full GC, ${Math.round(SIZES[1]! / 4)} to ${SIZES[1]} docs of one crawl (what the iteration keeps)`, (c) => retained.get(c)!.map((m) => m.retainedMB!)],
  ];
  const ratios: Record<string, number> = {};
  const setup = {
    load: "both processes loading webdata and making a client before the baseline",
    same: "both processes loading webdata and reading one status page before the baseline (--same)",
    own: "the raw loop's process loading undici alone (--own: the young generations differ)",
  }[PRELOAD];
  console.log(`Node ${process.version}, ${RUNS} run(s), ${SOURCE === "dist" ? "plain node" : "under tsx"}, ${setup}; ratios to the raw loop of the same runs (median (min-max))`);
  for (const [title, per] of rows) {
    console.log(`\n${title}`);
    const raw = median(per("raw"));
    for (const c of CONTENDERS) {
      const ratio = median(per(c)) / raw;
      ratios[`${title}|${c}`] = ratio;
      console.log(`  ${NAMES[c].padEnd(40)} ${fmt(per(c)).padEnd(24)} ${ratio.toFixed(2)}x`);
    }
  }
  // The young generation sizes the peak: a contender whose semi-space is larger at the baseline peaks higher whatever it holds.
  console.log(`\nV8 young generation (semi-space MB) at the baseline -> at the end, each peak run of the ${SIZES[1]}-doc crawl`);
  for (const c of CONTENDERS) console.log(`  ${NAMES[c].padEnd(40)} ${peaks.get(c)![1]!.map((m) => `${m.young[0]}->${m.young[1]}`).join("  ")}`);
  const growth = ratios[`${rows[2]![0]}|webdata`]!;
  const peak = ratios[`${rows[1]![0]}|webdata`]!;
  console.log(`\ntargets: heap growth <= 1.5x raw: ${growth.toFixed(2)}x ${growth <= 1.5 ? "met" : "NOT met"}; peak <= 1.3x raw: ${peak.toFixed(2)}x ${peak <= 1.3 ? "met" : "NOT met"}`);
}
