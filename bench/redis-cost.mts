/**
 * The per-call cost of the fleet's shared governance (`webdata/redis`) against a loopback redis-server: scrapes with a
 * `redisLimiter` (a limit far above what is in flight: never waits), with a `redisBudget` (a cap never reached), and with
 * both, beside the same scrapes with no governance at all, in one run; each figure a ratio to that baseline. The
 * transport is a stub `fetch` that answers a small scrape at once, so what differs is the client's own work and its
 * Redis round trips (the limit: redis-semaphore's acquire and release scripts; the budget: our reserve and settle
 * scripts). Wall time per call (the round trips are waits, not CPU) and CPU time per call (user + system), median of
 * `--runs`, each contender's rounds interleaved with the baseline's. The redis-server is started here (Debian's
 * `redis-server` on PATH, a free loopback port) and killed at the end.
 *
 *   npx tsx bench/redis-cost.mts                   # defaults: 5 runs of 1,000 calls, then 16 in flight
 *   npx tsx bench/redis-cost.mts --runs 3 --calls 300
 */
import { parseArgs } from "node:util";
import { WebData, type ClientOptions } from "../src/index.js";
import { team } from "../src/team.js";
import { redisBudget, redisLimiter } from "../src/redis.js";
import { startRedis } from "../test/support/redis.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, calls: { type: "string", default: "1000" }, inflight: { type: "string", default: "16" } } });
const RUNS = Number(values.runs);
const CALLS = Number(values.calls);
const INFLIGHT = Number(values.inflight);

const ANSWER = JSON.stringify({ success: true, data: { markdown: "# Hello\n\nA small page.", metadata: { title: "Hello", sourceURL: "https://acme.test/", statusCode: 200, creditsUsed: 1 } } });
const stub: typeof fetch = async () => new Response(ANSWER, { status: 200, headers: { "content-type": "application/json" } });

const server = await startRedis();
const redis = server.client();
const key = `webdata-bench:${process.pid}`;
const limiter = () => redisLimiter({ redis, key: `${key}:limit`, limit: 1_000_000 });
const budget = () => redisBudget({ redis, key: `${key}:budget`, credits: Number.MAX_SAFE_INTEGER });

const contenders: [string, ClientOptions][] = [
  ["no governance (baseline)", {}],
  ["redisLimiter (never waits)", { plugins: [team], limiter: limiter() }],
  ["redisBudget (cap never reached)", { plugins: [team], budget: budget() }],
  ["redisLimiter + redisBudget", { plugins: [team], limiter: limiter(), budget: budget() }],
];
const clientOf = (o: ClientOptions) => new WebData({ apiKey: "fc-bench", apiUrl: "https://bench.test", fetch: stub, logLevel: "off", maxRetries: 0, ...o });

/** Wall and CPU µs per call of `run`. */
async function perCall(run: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const t = process.cpuUsage();
  const w = performance.now();
  await run();
  const d = process.cpuUsage(t);
  return { wall: ((performance.now() - w) * 1000) / CALLS, cpu: (d.user + d.system) / CALLS };
}

const sequential = (client: WebData) =>
  perCall(async () => {
    for (let i = 0; i < CALLS; i++) await client.scrape("https://acme.test/");
  });

const concurrent = (client: WebData) => {
  let next = 0;
  return perCall(async () => {
    await Promise.all(Array.from({ length: INFLIGHT }, async () => {
      while (next++ < CALLS) await client.scrape("https://acme.test/");
    }));
  });
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  for (const [label, measure] of [
    [`per call, ${CALLS} sequential scrapes`, sequential],
    [`per call, ${CALLS} scrapes, ${INFLIGHT} in flight`, concurrent],
  ] as const) {
    const clients = contenders.map(([, o]) => clientOf(o));
    for (const c of clients) await measure(c); // warm-up (and each script loaded once)
    const times: { wall: number; cpu: number }[][] = contenders.map(() => []);
    for (let r = 0; r < RUNS; r++) for (let c = 0; c < clients.length; c++) times[c]!.push(await measure(clients[c]!));
    const wall0 = median(times[0]!.map((t) => t.wall));
    const cpu0 = median(times[0]!.map((t) => t.cpu));
    console.log(`\n${label}, loopback redis-server (ratio to no governance)`);
    console.log(`  ${"".padEnd(34)} ${"wall".padStart(9)}          ${"CPU".padStart(9)}`);
    contenders.forEach(([name], c) => {
      const wall = median(times[c]!.map((t) => t.wall));
      const cpu = median(times[c]!.map((t) => t.cpu));
      console.log(`  ${name.padEnd(34)} ${wall.toFixed(1).padStart(7)} µs ${(wall / wall0).toFixed(2).padStart(6)}x   ${cpu.toFixed(1).padStart(7)} µs ${(cpu / cpu0).toFixed(2).padStart(6)}x`);
    });
  }
} finally {
  await server.stop();
}
