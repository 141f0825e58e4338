/**
 * Many workers, one team: N worker processes (examples/fleet/worker.ts) scrape M pages each against the
 * fake service with a team limit (a plan of `teamLimit` browsers at once: one more is a 429, as on the
 * service), twice: each worker bounded by its own `maxConcurrency: teamLimit` (what a per-process
 * semaphore sized to the plan gives), then the whole fleet bounded by one `redisLimiter` on Redis.
 * Prints the 429s the fake answered (counted at the server: the client retries them) and the time taken.
 * Then the budget run ({@link runBudgetFleet}): the fleet shares one `redisLimiter` and one `redisBudget` of `credits`
 * for more pages than it pays for; one worker is killed with SIGKILL mid-run (a new one takes its URLs that had no
 * outcome) and redis-server is restarted once. Prints the tally: pages done, refused by the budget, credits the fake
 * charged against the cap, 429s.
 *
 * ```sh
 * npm run build
 * npx tsx examples/fleet/run.ts                   # 4 workers x 6 pages, team limit 2; starts its own redis-server
 * REDIS_URL=redis://127.0.0.1:6379 WORKERS=8 SCRAPES=10 npx tsx examples/fleet/run.ts
 * ```
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
          const line = out.split("\n").find((l) => l.startsWith('{"scraped"'));
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

/** A budget fleet run: {@link FleetOptions} with one shared budget, a worker killed and Redis restarted mid-run. */
export interface BudgetFleetOptions {
  /** Worker processes. */
  workers: number;
  /** Pages each worker is given. */
  scrapes: number;
  /** The team's browsers at once (the fake's `teamConcurrency`, and the shared `redisLimiter`'s limit). */
  teamLimit: number;
  /** The shared `redisBudget`'s cap, credits (a scrape costs 1 at the fake). */
  credits: number;
  /** The fake team's credit balance (default 100000). */
  planCredits?: number | undefined;
  /** How long the fake holds each scrape, ms (default 50). */
  holdMs?: number | undefined;
  /** The leases of the shared limit and budget, ms (default 2000): how long a dead worker's share stays taken. */
  leaseMs?: number | undefined;
  /** Redis (`redis://host:port`). */
  redisUrl: string;
  /** Pages done (by any worker) before worker 0 is killed with SIGKILL (default: never). */
  killAfter?: number | undefined;
  /** Pages done before `restartRedis` runs, once (default: never). */
  restartAfter?: number | undefined;
  /** Restarts redis-server (with its data: it must persist it, as a budget's Redis must). */
  restartRedis?: (() => Promise<void>) | undefined;
  /** The command that starts a worker, before its arguments (as {@link FleetOptions.workerCommand}). */
  workerCommand?: string[] | undefined;
}

/** What a budget fleet run saw. */
export interface BudgetFleetResult {
  /** Each input URL's outcomes (`done`, `refused`, `failed: ...`), as the workers reported them: exactly one each when all went well. */
  outcomes: Record<string, string[]>;
  /** URLs done, refused by the budget, failed. */
  done: number;
  refused: number;
  failed: number;
  /** Credits the fake charged (its ledger): what the fleet really spent, to hold against the cap. */
  spent: number;
  /** 429s the fake answered because the team's browsers were all busy. */
  rejected: number;
  /** Most scrapes the team ran at once. */
  peak: number;
  /** Worker processes killed, and Redis restarts. */
  killed: number;
  restarts: number;
  /** Wall time, ms. */
  ms: number;
}

/** A worker process of a budget run: its URLs, and a promise of its end. */
interface Worker {
  child: ChildProcess;
  urls: string[];
  ended: Promise<void>;
}

/**
 * Runs a fleet sharing one `redisLimiter` and one `redisBudget` against a fresh fake with a plan limit and a credit
 * balance; kills worker 0 with SIGKILL after `killAfter` outcomes (a new worker takes its URLs without an outcome, as a
 * supervisor would restart it) and restarts Redis after `restartAfter` (both counted in pages done).
 */
export async function runBudgetFleet(options: BudgetFleetOptions): Promise<BudgetFleetResult> {
  const fake = createFakeService({ teamConcurrency: options.teamLimit, browserHoldMs: options.holdMs ?? 50, manyPages: options.workers * options.scrapes, planCredits: options.planCredits ?? 100_000 });
  const served = await serveFake(fake);
  const key = `webdata-fleet-budget:${process.pid}:${Date.now()}`;
  const [command, ...prefix] = options.workerCommand ?? [process.execPath, "--import", "tsx", WORKER];
  const outcomes: Record<string, string[]> = {};
  let seen = 0;
  let killed = 0;
  let restarts = 0;
  const workers: Worker[] = [];
  const pending: Promise<void>[] = [];
  let restarting: Promise<void> | undefined;
  const start = (urls: string[]): Worker => {
    const args = [served.url, fake.apiKey, String(options.teamLimit), urls.join(","), options.redisUrl, key, String(options.credits), String(options.leaseMs ?? 2_000)];
    const child = spawn(command!, [...prefix, ...args], { stdio: ["pipe", "pipe", "inherit"] });
    let buffer = "";
    child.stdout!.on("data", (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop()!;
      for (const line of lines) {
        if (line === "ready") child.stdin!.end("go\n");
        if (!line.startsWith('{"url"')) continue;
        const { url, outcome } = JSON.parse(line) as { url: string; outcome: string };
        (outcomes[url] ??= []).push(outcome);
        if (outcome === "done") seen++;
        if (seen === options.killAfter && killed === 0 && workers[0]!.child.exitCode === null) {
          killed++;
          workers[0]!.child.kill("SIGKILL");
        }
        if (seen === options.restartAfter && options.restartRedis && !restarting) restarting = options.restartRedis().then(() => void restarts++);
      }
    });
    const worker: Worker = { child, urls, ended: new Promise<void>((resolve) => child.once("exit", () => resolve())) };
    workers.push(worker);
    // A worker killed: a new one takes its URLs that had no outcome.
    pending.push(
      worker.ended.then(() => {
        const left = urls.filter((u) => !outcomes[u]);
        if (child.signalCode === "SIGKILL" && left.length) start(left);
      }),
    );
    return worker;
  };
  const started = performance.now();
  try {
    for (let w = 0; w < options.workers; w++) start(Array.from({ length: options.scrapes }, (_, i) => `https://acme.test/many/${w * options.scrapes + i + 1}`));
    for (let i = 0; i < pending.length; i++) await pending[i]; // grows while workers are replaced
    await Promise.all(workers.map((w) => w.ended));
    await restarting;
    const all = Object.values(outcomes).flat();
    const { rejected, peak } = fake.teamLoad();
    return {
      outcomes,
      done: all.filter((o) => o === "done").length,
      refused: all.filter((o) => o === "refused").length,
      failed: all.filter((o) => o.startsWith("failed")).length,
      spent: fake.team.creditsUsed,
      rejected,
      peak,
      killed,
      restarts,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill();
    await served.close();
  }
}

/** A redis-server of our own on a free loopback port (when REDIS_URL is not set), keeping its data across a restart (AOF, every write); `stop` kills it. */
async function ownRedis(): Promise<{ url: string; restart(): Promise<void>; stop(): void }> {
  const port = await new Promise<number>((resolve, reject) => {
    const srv = createServer().once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port: p } = srv.address() as { port: number };
      srv.close(() => resolve(p));
    });
  });
  const dir = mkdtempSync(join(tmpdir(), "webdata-fleet-redis-"));
  let proc: ChildProcess;
  const up = async () => {
    proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", dir], { stdio: "ignore" });
    await new Promise<void>((resolve, reject) => {
      proc.once("error", () => reject(new Error("redis-server not found: install it (node scripts/redis-server.mjs, or apt-get install redis-server) or set REDIS_URL")));
      proc.once("spawn", () => resolve());
    });
    await new Promise((r) => setTimeout(r, 300)); // it listens within a few ms; the workers' clients retry anyway
  };
  const down = async () => {
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGKILL");
    await exited;
  };
  await up();
  return {
    url: `redis://127.0.0.1:${port}`,
    restart: async () => (await down(), await up()),
    stop: () => (proc.kill(), rmSync(dir, { recursive: true, force: true })),
  };
}

async function main(): Promise<void> {
  const workers = Number(process.env.WORKERS ?? 4);
  const scrapes = Number(process.env.SCRAPES ?? 6);
  const teamLimit = Number(process.env.TEAM_LIMIT ?? 2);
  const credits = Number(process.env.CREDITS ?? Math.floor((workers * scrapes * 2) / 3));
  const redis = process.env.REDIS_URL ? { url: process.env.REDIS_URL, restart: undefined, stop: () => undefined } : await ownRedis();
  try {
    console.log(`${workers} workers x ${scrapes} pages, a team of ${teamLimit} browsers`);
    const alone = await runFleet({ workers, scrapes, teamLimit });
    console.log(`each worker its own maxConcurrency: ${teamLimit}: ${alone.rejected} 429s, ${alone.scraped} pages, ${alone.failed} failed, ${alone.ms} ms`);
    const shared = await runFleet({ workers, scrapes, teamLimit, redisUrl: redis.url });
    console.log(`one redisLimiter shared on Redis:   ${shared.rejected} 429s, ${shared.scraped} pages, ${shared.failed} failed, ${shared.ms} ms`);
    const pages = workers * scrapes;
    const b = await runBudgetFleet({ workers, scrapes, teamLimit, credits, redisUrl: redis.url, killAfter: Math.floor(pages / 6), restartAfter: Math.floor(pages / 3), restartRedis: redis.restart });
    const once = Object.values(b.outcomes).filter((o) => o.length === 1).length;
    console.log(`one redisBudget of ${credits} credits for ${pages} pages, ${b.killed} worker killed (SIGKILL), ${b.restarts} Redis restart:`);
    console.log(`  ${b.done} done, ${b.refused} refused by the budget, ${b.failed} failed; ${once} of ${pages} URLs with exactly one outcome`);
    console.log(`  ${b.spent} credits charged by the service for a cap of ${credits}; ${b.rejected} 429s (peak ${b.peak} of ${teamLimit}); ${b.ms} ms`);
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
