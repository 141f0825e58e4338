/**
 * The per-call cost of `maxConcurrency` when no slot is contended: scrapes with `maxConcurrency` set far
 * above what is in flight against the same scrapes without it, each figure a ratio to the baseline (no
 * bound) measured in the same run. The transport is a stub `fetch` that answers a small scrape at once, so
 * what differs is the client's own work (taking and giving back a slot). Sequential calls, then 64 in
 * flight; each contender's rounds interleaved with the baseline's, median of `--runs`. The figure is CPU
 * time per call (`process.cpuUsage`, user + system), which a machine busy with other work disturbs far less
 * than wall time (on a 2-core machine at load 20, wall times of one contender spread over 3x).
 *
 *   npx tsx bench/concurrency-cost.mts                  # defaults: 5 runs of 5,000 calls
 *   npx tsx bench/concurrency-cost.mts --runs 3 --calls 1000
 */
import { parseArgs } from "node:util";
import { WebData, type ClientOptions, type ConcurrencyLimiter } from "../src/index.js";
import { team } from "../src/team.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, calls: { type: "string", default: "5000" }, inflight: { type: "string", default: "64" } } });
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);
const INFLIGHT = Number(values.inflight);

const ANSWER = JSON.stringify({ success: true, data: { markdown: "# Hello\n\nA small page.", metadata: { title: "Hello", sourceURL: "https://acme.test/", statusCode: 200 } } });
const stub: typeof fetch = async () => new Response(ANSWER, { status: 200, headers: { "content-type": "application/json" } });

/** An uncontended custom limiter: the cost of the `limiter` path (a timer and a signal per call). */
const freeLimiter: ConcurrencyLimiter = { acquire: async () => () => undefined };

const contenders: [string, ClientOptions][] = [
  ["no bound (baseline)", {}],
  ["the team plugin, nothing bounded", { plugins: [team] }],
  ["maxConcurrency: 1000000", { maxConcurrency: 1_000_000 }],
  [`maxConcurrency: ${INFLIGHT} (full, never over)`, { maxConcurrency: INFLIGHT }],
  ["limiter (custom, never waits)", { limiter: freeLimiter }],
];

// The team plugin (webdata/team) brings the stages; the baseline row is a plain client without it.
const clientOf = (o: ClientOptions) => new WebData({ apiKey: "fc-bench", apiUrl: "https://bench.test", fetch: stub, logLevel: "off", ...(Object.keys(o).length ? { plugins: [team] } : {}), ...o });

/** CPU µs per call of `run` (user + system). */
async function cpuPerCall(run: () => Promise<void>): Promise<number> {
  const t = process.cpuUsage();
  await run();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / CALLS;
}

function sequential(client: WebData): Promise<number> {
  return cpuPerCall(async () => {
    for (let i = 0; i < CALLS; i++) await client.scrape("https://acme.test/");
  });
}

function concurrent(client: WebData): Promise<number> {
  let next = 0;
  return cpuPerCall(async () => {
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next++ < CALLS) await client.scrape("https://acme.test/");
      }),
    );
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const [label, measure] of [
  [`per call, ${CALLS} sequential scrapes`, sequential],
  [`per call, ${CALLS} scrapes, ${INFLIGHT} in flight`, concurrent],
] as const) {
  const clients = contenders.map(([, o]) => clientOf(o));
  await measure(clients[0]!); // warm-up
  const times: number[][] = contenders.map(() => []);
  for (let r = 0; r < RUNS; r++) for (let c = 0; c < clients.length; c++) times[c]!.push(await measure(clients[c]!));
  const base = median(times[0]!);
  console.log(`\n${label}, CPU time (ratio to no bound)`);
  contenders.forEach(([name], c) => {
    const m = median(times[c]!);
    console.log(`  ${name.padEnd(42)} ${m.toFixed(1).padStart(7)} µs (${Math.min(...times[c]!).toFixed(1)}-${Math.max(...times[c]!).toFixed(1)})   ${(m / base).toFixed(2)}x`);
  });
}
