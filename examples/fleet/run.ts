/**
 * Many workers, one team: N worker processes (examples/fleet/worker.ts) scrape M pages each against the
 * fake service with a team limit (a plan of `teamLimit` browsers at once: one more is a 429, as on the
 * service), twice: each worker bounded by its own `maxConcurrency: teamLimit` (what a per-process
 * semaphore sized to the plan gives), then the whole fleet bounded by one `redisLimiter` on Redis.
 * Prints the 429s the fake answered (counted at the server: the client retries them) and the time taken.
 *
 * ```sh
 * npm run build
 * npx tsx examples/fleet/run.ts                   # 4 workers x 6 pages, team limit 2; starts its own redis-server
 * REDIS_URL=redis://127.0.0.1:6379 WORKERS=8 SCRAPES=10 npx tsx examples/fleet/run.ts
 * ```
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createFakeService, serveFake } from "webdata/testing";

/** A fleet run. */
export interface FleetOptions {
  /** Worker processes. */
  workers: number;
  /** Pages each worker scrapes (all at once, within its bound). */
  scrapes: number;
  /** The team's browsers at once (the fake's `teamConcurrency`). */
  teamLimit: number;
  /** How long the fake holds each scrape, ms (default 100). */
  holdMs?: number;
  /** Redis for the shared limit (`redis://host:port`); without it each worker keeps its own bound. */
  redisUrl?: string | undefined;
  /** The command that starts a worker, before its arguments (default: `node --import tsx examples/fleet/worker.ts`; the test suite runs a bundle of it). */
  workerCommand?: string[] | undefined;
}

/** What a fleet run saw. */
export interface FleetResult {
  /** 429s the fake answered because the team's browsers were all busy. */
  rejected: number;
  /** Most scrapes the team ran at once. */
  peak: number;
  /** Pages scraped, and calls that failed (after their retries). */
  scraped: number;
  failed: number;
  /** Wall time from the start signal to the last worker's answer, ms. */
  ms: number;
}

const WORKER = fileURLToPath(new URL("./worker.ts", import.meta.url));

/** Runs one fleet against a fresh fake served on loopback. */
export async function runFleet(options: FleetOptions): Promise<FleetResult> {
  const fake = createFakeService({ teamConcurrency: options.teamLimit, browserHoldMs: options.holdMs ?? 100, manyPages: options.workers * options.scrapes });
  const served = await serveFake(fake);
  const key = `webdata-fleet:${process.pid}:${Date.now()}`;
  const [command, ...prefix] = options.workerCommand ?? [process.execPath, "--import", "tsx", WORKER];
  const workers: ChildProcess[] = [];
  try {
    const answers = Array.from({ length: options.workers }, (_, w) => {
      const urls = Array.from({ length: options.scrapes }, (_, i) => `https://acme.test/many/${w * options.scrapes + i + 1}`).join(",");
      const args = [served.url, fake.apiKey, String(options.teamLimit), urls, ...(options.redisUrl ? [options.redisUrl, key] : [])];
      const child = spawn(command!, [...prefix, ...args], { stdio: ["pipe", "pipe", "inherit"] });
      workers.push(child);
      let out = "";
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("ready\n")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`worker ${w} exited (${code}) before it was ready`)));
      });
      const done = new Promise<{ scraped: number; failed: number }>((resolve, reject) => {
        child.once("exit", (code) => {
          const line = out.split("\n").find((l) => l.startsWith("{"));
          if (code === 0 && line) resolve(JSON.parse(line) as { scraped: number; failed: number });
          else reject(new Error(`worker ${w} exited (${code}): ${out}`));
        });
      });
      return { child, ready, done };
    });
    await Promise.all(answers.map((a) => a.ready));
    const started = performance.now();
    for (const a of answers) a.child.stdin!.end("go\n");
    const totals = await Promise.all(answers.map((a) => a.done));
    const ms = Math.round(performance.now() - started);
    const { rejected, peak } = fake.teamLoad();
    return { rejected, peak, ms, scraped: totals.reduce((n, t) => n + t.scraped, 0), failed: totals.reduce((n, t) => n + t.failed, 0) };
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill();
    await served.close();
  }
}

/** A redis-server of our own on a free loopback port (when REDIS_URL is not set); `stop` kills it. */
async function ownRedis(): Promise<{ url: string; stop(): void }> {
  const port = await new Promise<number>((resolve, reject) => {
    const srv = createServer().once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port: p } = srv.address() as { port: number };
      srv.close(() => resolve(p));
    });
  });
  const proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  await new Promise<void>((resolve, reject) => {
    proc.once("error", () => reject(new Error("redis-server not found: install it (node scripts/redis-server.mjs, or apt-get install redis-server) or set REDIS_URL")));
    proc.once("spawn", () => resolve());
  });
  await new Promise((r) => setTimeout(r, 300)); // it listens within a few ms; the workers' clients retry anyway
  return { url: `redis://127.0.0.1:${port}`, stop: () => void proc.kill() };
}

async function main(): Promise<void> {
  const workers = Number(process.env.WORKERS ?? 4);
  const scrapes = Number(process.env.SCRAPES ?? 6);
  const teamLimit = Number(process.env.TEAM_LIMIT ?? 2);
  const redis = process.env.REDIS_URL ? { url: process.env.REDIS_URL, stop: () => undefined } : await ownRedis();
  try {
    console.log(`${workers} workers x ${scrapes} pages, a team of ${teamLimit} browsers`);
    const alone = await runFleet({ workers, scrapes, teamLimit });
    console.log(`each worker its own maxConcurrency: ${teamLimit}: ${alone.rejected} 429s, ${alone.scraped} pages, ${alone.failed} failed, ${alone.ms} ms`);
    const shared = await runFleet({ workers, scrapes, teamLimit, redisUrl: redis.url });
    console.log(`one redisLimiter shared on Redis:   ${shared.rejected} 429s, ${shared.scraped} pages, ${shared.failed} failed, ${shared.ms} ms`);
  } finally {
    redis.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
