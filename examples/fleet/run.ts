/**
 * Many workers, one team: N worker processes (examples/fleet/worker.ts) scrape M pages each against the
 * fake service with a team limit (a plan of `teamLimit` browsers at once: one more is a 429, as on the
 * service), twice: each worker bounded by its own `maxConcurrency: teamLimit` (what a per-process
 * semaphore sized to the plan gives), then the whole fleet bounded by one `redisLimiter` on Redis.
 * Prints the 429s the fake answered (counted at the server: the client retries them) and the time taken.
 * Then the budget run ({@link runBudgetFleet}): the fleet shares one `redisLimiter` and one `redisBudget` of `credits`
 * for more pages than it pays for; each worker also sends a few of its URLs in one batch scrape whose webhook goes to
 * three receiver replicas sharing one `redisWebhookStore` (examples/fleet/receivers.ts: a round-robin that loses some
 * deliveries and sends some twice); one worker is killed with SIGKILL mid-run (a new one takes its URLs that had no
 * outcome, and its batch job is cancelled) and redis-server is restarted once. Prints the tally: pages done, refused
 * by the budget, credits the fake charged against the cap, 429s; deliveries, handled once, duplicates caught,
 * documents reconciled, handled twice and lost.
 * Every wait is bounded: a worker's calls by its deadline, the run by `deadlineMs` (what is still running then is
 * killed, and its URLs have no outcome).
 *
 * ```sh
 * npm run build
 * npx tsx examples/fleet/run.ts                   # 4 workers x 6 pages, team limit 2; starts its own redis-server
 * REDIS_URL=redis://127.0.0.1:6379 WORKERS=8 SCRAPES=10 npx tsx examples/fleet/run.ts
 * ```
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createFakeService, fakeJobs, fakeWebhooks, serveFake } from "webdata/testing";
import { startReceivers, WEBHOOK_SECRET, WEBHOOK_URL, type WebhookTally } from "./receivers.js";
import type { WorkerSpec } from "./worker.js";

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
  /** The longest the run may take, ms (default 40000): workers still running then are killed, and the run fails. */
  deadlineMs?: number | undefined;
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

/** A worker process: its spec, its JSON lines as they come, and the promise of its end (its exit code, or signal). */
interface Worker {
  child: ChildProcess;
  spec: WorkerSpec;
  ended: Promise<void>;
}

/** Starts a worker with `spec`; `onLine` gets each JSON line it prints. */
function spawnWorker(command: string[] | undefined, spec: WorkerSpec, onLine: (line: Record<string, unknown>, worker: Worker) => void): Worker {
  const [cmd, ...prefix] = command ?? [process.execPath, "--import", "tsx", WORKER];
  const child = spawn(cmd!, [...prefix, JSON.stringify(spec)], { stdio: ["pipe", "pipe", "inherit"] });
  const worker: Worker = { child, spec, ended: new Promise<void>((resolve) => child.once("exit", () => resolve())) };
  let buffer = "";
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const line of lines) if (line.startsWith("{")) onLine(JSON.parse(line) as Record<string, unknown>, worker);
  });
  child.stdin!.on("error", () => undefined); // a worker killed before it read its start signal
  return worker;
}

/** Resolves `work`, or rejects once `ms` have passed (then `onLate` runs: it kills what is left). */
async function bounded<T>(work: Promise<T>, ms: number, what: string | (() => string), onLate: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const say = () => (typeof what === "string" ? what : what());
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => (onLate(), reject(new Error(`${say()} did not end within ${ms} ms`))), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs one fleet against a fresh fake served on loopback. */
export async function runFleet(options: FleetOptions): Promise<FleetResult> {
  const fake = createFakeService({ teamConcurrency: options.teamLimit, browserHoldMs: options.holdMs ?? 100, manyPages: options.workers * options.scrapes });
  const served = await serveFake(fake);
  const key = `webdata-fleet:${process.pid}:${Date.now()}`;
  const workers: Worker[] = [];
  const totals: { scraped: number; failed: number }[] = [];
  const killAll = () => workers.forEach((w) => w.child.exitCode === null && w.child.kill("SIGKILL"));
  try {
    let ready = 0;
    let allReady!: () => void;
    const go = new Promise<void>((resolve) => (allReady = resolve));
    for (let w = 0; w < options.workers; w++) {
      const urls = Array.from({ length: options.scrapes }, (_, i) => `https://acme.test/many/${w * options.scrapes + i + 1}`);
      const spec: WorkerSpec = { apiUrl: served.url, apiKey: fake.apiKey, teamLimit: options.teamLimit, urls, redisUrl: options.redisUrl, redisKey: key };
      workers.push(
        spawnWorker(options.workerCommand, spec, (line) => {
          if (line.ready && ++ready === options.workers) allReady();
          if (typeof line.scraped === "number") totals.push(line as unknown as { scraped: number; failed: number });
        }),
      );
    }
    const deadline = options.deadlineMs ?? 40_000;
    await bounded(Promise.race([go, Promise.all(workers.map((w) => w.ended)).then(() => Promise.reject(new Error("every worker exited before it was ready")))]), deadline, "the workers' start", killAll);
    const started = performance.now();
    for (const w of workers) w.child.stdin!.end("go\n");
    await bounded(Promise.all(workers.map((w) => w.ended)), deadline, "the fleet", killAll);
    const ms = Math.round(performance.now() - started);
    if (totals.length !== options.workers) throw new Error(`${options.workers - totals.length} worker(s) ended without their totals`);
    const { rejected, peak } = fake.teamLoad();
    return { rejected, peak, ms, scraped: totals.reduce((n, t) => n + t.scraped, 0), failed: totals.reduce((n, t) => n + t.failed, 0) };
  } finally {
    killAll();
    await served.close();
  }
}

/** A budget fleet run: {@link FleetOptions} with one shared budget, webhook receivers, a worker killed and Redis restarted mid-run. */
export interface BudgetFleetOptions {
  /** Worker processes. */
  workers: number;
  /** Pages each worker is given. */
  scrapes: number;
  /** Of them, how many the worker sends in one batch scrape with a webhook (default 3; 0: none, and no receivers). */
  batch?: number | undefined;
  /** Webhook receiver replicas (default 3). */
  replicas?: number | undefined;
  /** The team's browsers at once (the fake's `teamConcurrency`, and the shared `redisLimiter`'s limit). */
  teamLimit: number;
  /** The shared `redisBudget`'s cap, credits (a page costs 1 at the fake). */
  credits: number;
  /** The fake team's credit balance (default 100000). */
  planCredits?: number | undefined;
  /** How long the fake holds each scrape, ms (default 50). */
  holdMs?: number | undefined;
  /** The leases of the shared limit and budget, ms (default 3000): how long a dead worker's share stays taken. */
  leaseMs?: number | undefined;
  /** Redis (`redis://host:port`). */
  redisUrl: string;
  /** Pages done (by any worker) before a worker with URLs still to do is killed with SIGKILL, one whose batch job runs by preference (default: never). */
  killAfter?: number | undefined;
  /** Pages done before `restartRedis` runs, once (default: never). */
  restartAfter?: number | undefined;
  /** Restarts redis-server (with its data: it must persist it, as a budget's Redis must). */
  restartRedis?: (() => Promise<void>) | undefined;
  /** The command that starts a worker, before its arguments (as {@link FleetOptions.workerCommand}). */
  workerCommand?: string[] | undefined;
  /** The longest the run may take, ms (default 40000; each worker's own deadline is 5 s less). */
  deadlineMs?: number | undefined;
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
  /** The webhook receivers' tally (undefined with `batch: 0`). */
  webhooks: WebhookTally | undefined;
  /** Wall time, ms. */
  ms: number;
}

/**
 * Runs a fleet sharing one `redisLimiter` and one `redisBudget` against a fresh fake with a plan limit and a credit
 * balance, each worker's batch scrape delivering its webhooks to `replicas` receivers; kills a worker with SIGKILL once
 * `killAfter` pages are done (one whose batch job runs, or by twice `killAfter` any with URLs to do; a new worker takes its URLs without an
 * outcome, as a supervisor would restart it) and restarts Redis once `restartAfter` are. Every wait is bounded by
 * `deadlineMs`.
 */
export async function runBudgetFleet(options: BudgetFleetOptions): Promise<BudgetFleetResult> {
  const batchSize = options.batch ?? 3;
  const fake = createFakeService({ teamConcurrency: options.teamLimit, browserHoldMs: options.holdMs ?? 50, manyPages: options.workers * options.scrapes, planCredits: options.planCredits ?? 100_000, webhookSecret: WEBHOOK_SECRET });
  fakeJobs(fake).configure({ pagesPerPoll: 1 }); // a batch runs over several status reads, so a worker can die while its job runs
  const served = await serveFake(fake);
  const key = `webdata-fleet-budget:${process.pid}:${Date.now()}`;
  const receivers = batchSize > 0 ? await startReceivers({ replicas: options.replicas ?? 3, redisUrl: options.redisUrl, prefix: `${key}:webhooks` }) : undefined;
  if (receivers) fakeWebhooks(fake).configure({ fetch: receivers.fetch, timeoutMs: 5_000 });
  const deadlineMs = options.deadlineMs ?? 40_000;
  const outcomes: Record<string, string[]> = {};
  const running = new Map<Worker, string>(); // a worker's batch job, from its start until its URLs' outcomes
  let seen = 0;
  let killed = 0;
  let restarts = 0;
  const workers: Worker[] = [];
  // The first workers start together once all are ready; a replacement at once.
  let ready = 0;
  const told = new Set<Worker>();
  const replaced = new Set<Worker>();
  const pending: Promise<void>[] = [];
  let restarting: Promise<void> | undefined;
  const alive = (w: Worker) => w.child.exitCode === null && w.child.signalCode === null;
  const left = (w: Worker) => [...w.spec.urls, ...(w.spec.batch ?? [])].filter((u) => !outcomes[u]);
  // A worker whose batch job runs, so that its job is left behind; with none such by twice `killAfter` pages, any with URLs to do.
  const kill = () => {
    const candidates = workers.filter((w) => alive(w) && left(w).length > 0);
    const target = candidates.find((w) => running.has(w)) ?? (seen >= 2 * options.killAfter! ? candidates[0] : undefined);
    if (!target) return;
    killed++;
    target.child.kill("SIGKILL");
  };
  const onLine = (line: Record<string, unknown>, worker: Worker) => {
    if (line.ready && (++ready >= options.workers || replaced.has(worker))) for (const w of workers) if (!told.has(w)) (told.add(w), w.child.stdin!.end("go\n"));
    if (typeof line.job === "string") running.set(worker, line.job);
    if (typeof line.url !== "string") return;
    (outcomes[line.url] ??= []).push(String(line.outcome));
    if (worker.spec.batch?.includes(line.url)) running.delete(worker);
    if (line.outcome === "done") seen++;
    if (options.killAfter !== undefined && seen >= options.killAfter && killed === 0) kill();
    if (options.restartAfter !== undefined && seen >= options.restartAfter && options.restartRedis && !restarting) restarting = options.restartRedis().then(() => void restarts++);
  };
  const start = (urls: string[], batch: string[], replacing = false): void => {
    const spec: WorkerSpec = {
      apiUrl: served.url, apiKey: fake.apiKey, teamLimit: options.teamLimit, urls, batch, webhook: WEBHOOK_URL,
      redisUrl: options.redisUrl, redisKey: key, credits: options.credits, leaseMs: options.leaseMs ?? 3_000, deadlineMs: deadlineMs - 5_000,
    };
    const worker = spawnWorker(options.workerCommand, spec, onLine);
    workers.push(worker);
    if (replacing) replaced.add(worker);
    // A worker killed: a new one takes its URLs that had no outcome (its batch URLs in a batch of its own).
    pending.push(
      worker.ended.then(() => {
        if (worker.child.signalCode !== "SIGKILL" || !left(worker).length) return;
        start(urls.filter((u) => !outcomes[u]), batch.filter((u) => !outcomes[u]), true);
      }),
    );
  };
  const killAll = () => workers.forEach((w) => alive(w) && w.child.kill("SIGKILL"));
  const started = performance.now();
  try {
    for (let w = 0; w < options.workers; w++) {
      const urls = Array.from({ length: options.scrapes }, (_, i) => `https://acme.test/many/${w * options.scrapes + i + 1}`);
      start(urls.slice(batchSize), urls.slice(0, batchSize));
    }
    const everyWorker = async () => {
      for (let i = 0; i < pending.length; i++) await pending[i]; // grows while workers are replaced
      await restarting;
    };
    const unfinished = () => `the budget fleet (${workers.filter(alive).length} workers running, URLs without an outcome: ${workers.flatMap(left).join(" ") || "none"}${restarts === 0 && restarting ? ", Redis restarting" : ""})`;
    await bounded(everyWorker(), deadlineMs, unfinished, killAll);
    const webhooks = await (receivers ? bounded(receivers.tally(fake, served.url), 15_000, "the webhook tally", () => undefined) : undefined);
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
      webhooks,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    killAll();
    await receivers?.close();
    await served.close();
  }
}

/** True when a Redis on `port` answers PING (within a second). */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    const done = (ok: boolean) => (socket.destroy(), clearTimeout(timer), resolve(ok));
    const timer = setTimeout(() => done(false), 1_000);
    socket.on("data", (d: Buffer) => done(d.toString().startsWith("+PONG")));
    socket.on("error", () => done(false));
  });
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
    // Until it answers PING (at most 10 s): the workers' clients reconnect by themselves, the restart counts once it is back.
    for (const end = Date.now() + 10_000; !(await pong(port)); ) {
      if (Date.now() > end) throw new Error(`redis-server on port ${port} did not answer PING within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
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
    const h = b.webhooks!;
    console.log(`webhooks of the workers' batch scrapes, to ${h.byReplica.length} receiver replicas sharing one redisWebhookStore (handled: ${h.byReplica.join(" / ")}):`);
    console.log(`  ${h.deliveries} deliveries, ${h.lostOnTheWay} lost on the way, ${h.resent} sent to a second replica too; ${h.handled} handled once, ${h.duplicates} duplicates caught`);
    console.log(`  ${h.cancellations} cancellation reported for ${h.cancelledJobs} job cancelled; ${h.reconciled} documents returned by reconcile; of ${h.documents} documents, ${h.handledTwice} handled twice, ${h.lost} lost`);
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
