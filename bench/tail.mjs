// Where a call's tail goes (what sets a fresh process's p99): sequential scrapes against the bench server (`npx tsx bench/serve.ts`,
// in a process of its own), timed one by one, with the client process's CPU time over each call and the process's
// GC pauses. Prints the median, p99 and p99.5 of the calls after a warm-up, and for the slowest 2%: their median
// wall and CPU time, and how many overlap a GC pause of this process.
//   node bench/tail.mjs <url> <undici|webdata> [calls=2000] [warm-up calls=200]
//   node --single-threaded bench/tail.mjs ...   # V8's background work (JIT compiles, concurrent GC) on the main thread
// BENCH_WEBDATA=<file>: another build of the Node entry (default: dist/node/index.js). Not run by `npm run bench`.
import { PerformanceObserver, performance } from "node:perf_hooks";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [apiUrl, who, callsArg, warmArg] = process.argv.slice(2);
if (!apiUrl || (who !== "undici" && who !== "webdata")) {
  console.error("usage: node bench/tail.mjs <url> <undici|webdata> [calls] [warm-up calls]");
  process.exit(2);
}
const CALLS = Number(callsArg ?? 2000);
const WARM = Number(warmArg ?? 200);
let n = 0;
const page = () => `https://acme.test/page/${n++}`;

let call;
if (who === "undici") {
  const { Agent, request } = await import("undici");
  const dispatcher = new Agent({ connections: 256, keepAliveTimeout: 10_000 });
  const headers = { "content-type": "application/json", authorization: "Bearer fc-bench" };
  call = async () => (await request(`${apiUrl}/v2/scrape`, { method: "POST", headers, body: JSON.stringify({ url: page(), formats: ["markdown"] }), dispatcher })).body.json();
} else {
  const { WebData } = await import(pathToFileURL(resolve(process.env.BENCH_WEBDATA ?? "dist/node/index.js")).href);
  const client = new WebData({ apiKey: "fc-bench", apiUrl, logLevel: "off", maxRetries: 0 });
  call = () => client.scrape(page(), { formats: ["markdown"] });
}

const gcs = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ["gc"] });
for (let i = 0; i < WARM; i++) await call();

const wall = new Float64Array(CALLS);
const cpu = new Float64Array(CALLS);
const start = new Float64Array(CALLS);
for (let i = 0; i < CALLS; i++) {
  const c = process.cpuUsage();
  const t = performance.now();
  await call();
  wall[i] = performance.now() - t;
  start[i] = t;
  const used = process.cpuUsage(c);
  cpu[i] = (used.user + used.system) / 1000;
}
await new Promise((r) => setTimeout(r, 50)); // the last GC entries

const sorted = Float64Array.from(wall).sort();
const q = (p) => Math.round(sorted[Math.min(CALLS - 1, Math.floor(p * CALLS))] * 1000);
const cut = sorted[Math.floor(0.98 * CALLS)];
const slow = [...wall.keys()].filter((i) => wall[i] >= cut);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const overlapGc = slow.filter((i) => gcs.some(([s, e]) => s < start[i] + wall[i] && e > start[i])).length;
console.log(
  JSON.stringify({
    who,
    calls: CALLS,
    warm: WARM,
    medianUs: q(0.5),
    p99Us: q(0.99),
    p995Us: q(0.995),
    slowest: slow.length,
    slowWallMs: +median(slow.map((i) => wall[i])).toFixed(2),
    slowCpuMs: +median(slow.map((i) => cpu[i])).toFixed(2),
    allCpuMs: +median([...cpu]).toFixed(3),
    slowOverlappingOwnGc: overlapGc,
  }),
);
process.exit(0);
