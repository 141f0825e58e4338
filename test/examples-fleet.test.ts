/**
 * examples/fleet/run.ts at small N (3 workers x 4 pages, a team of 2 browsers), against a real redis-server
 * on loopback (test/support/redis.ts): each worker bounded alone gets 429s from the team limit; the fleet
 * sharing one redisLimiter gets none. Then the budget fleet, with webhook receivers on three replicas: its tally.
 * Every wait of a run is bounded (the run's `deadlineMs`): under load a run fails with what it saw, never hangs. The 429s are counted at the fake (the client retries them). The
 * workers run on the sources: worker.ts bundled once with `webdata` mapped to src/ (six tsx processes each
 * compiling the sources took 20 s on a loaded machine; a bundle starts in well under one).
 */
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBudgetFleet, runFleet } from "../examples/fleet/run.js";
import { startRedis, type RedisServer } from "./support/redis.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${REPO}.cache/fleet-worker-${process.pid}.mjs`;
let server: RedisServer;
/** A Redis that keeps its data across a restart (append-only file), for the budget run, which restarts it. */
let persistent: RedisServer;
beforeAll(async () => {
  server = await startRedis();
  persistent = await startRedis({ persist: true });
  mkdirSync(`${REPO}.cache`, { recursive: true });
  await build({
    entryPoints: [`${REPO}examples/fleet/worker.ts`],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: `${REPO}test/tsconfig.json`, // webdata -> src/
    external: ["ioredis", "redis-semaphore", "undici", "zod", "zod/*", "p-retry", "eventsource-parser"],
    define: { __WEBDATA_VERSION__: JSON.stringify("0.0.0-test") },
    logLevel: "error",
  });
}, 30_000);
afterAll(async () => {
  rmSync(bundle, { force: true });
  await server?.stop();
  await persistent?.stop();
});

describe("examples/fleet", () => {
  it("3 workers x 4 pages, a team of 2: 429s when each worker keeps its own bound, none with one shared on Redis", async () => {
    const fleet = { workers: 3, scrapes: 4, teamLimit: 2, holdMs: 50, workerCommand: [process.execPath, bundle] };
    const alone = await runFleet(fleet);
    expect(alone.rejected).toBeGreaterThan(0);
    expect(alone.peak).toBe(2);
    const shared = await runFleet({ ...fleet, redisUrl: server.url });
    expect(shared).toMatchObject({ rejected: 0, peak: 2, scraped: 12, failed: 0 });
    expect(alone.scraped + alone.failed).toBe(12);
  }, 60_000);

  it("a budget fleet: 3 workers x 10 pages (4 of them in a batch scrape whose webhooks go to 3 receiver replicas) share one Redis limit (2) and one Redis budget (20 credits); one worker SIGKILLed, redis-server restarted once", async () => {
    const teamLimit = 2;
    const credits = 20;
    const batch = 4;
    const run = await runBudgetFleet({
      workers: 3, scrapes: 10, batch, replicas: 3, teamLimit, credits, planCredits: 1_000, holdMs: 40,
      redisUrl: persistent.url, killAfter: 4, restartAfter: 9, restartRedis: () => persistent.restart(),
      workerCommand: [process.execPath, bundle], deadlineMs: 40_000, // with the tally (15 s at most), within the test's 60 s: a run that cannot end fails with what it saw
    });
    console.log(`budget fleet tally: ${JSON.stringify({ ...run, outcomes: undefined })}`);
    const failures = Object.entries(run.outcomes).filter(([, o]) => o.some((x) => x.startsWith("failed")));
    expect(failures).toEqual([]);
    expect(run).toMatchObject({ killed: 1, restarts: 1, rejected: 0, failed: 0 }); // 0 rejections for concurrency: no 429 at the fake
    expect(run.peak).toBeLessThanOrEqual(teamLimit);
    // Every input URL has exactly one outcome: done, or refused by the budget.
    const urls = Array.from({ length: 30 }, (_, i) => `https://acme.test/many/${i + 1}`);
    expect(Object.keys(run.outcomes).sort()).toEqual(urls.sort());
    for (const url of urls) expect(run.outcomes[url], url).toHaveLength(1);
    expect(run.done + run.refused).toBe(30);
    // The bound the README states: the cap, plus what the killed worker had in flight, whose reservations lapsed unsettled
    // (at most the team's limit of scrapes, 1 credit each, and the pages of its batch job, 1 credit each).
    expect(run.done).toBeLessThanOrEqual(credits);
    expect(run.spent).toBeLessThanOrEqual(credits + teamLimit + batch);
    expect(run.done).toBeGreaterThan(0);
    // The receivers: every document the jobs hold over REST was handled once by one replica, or returned by reconcile.
    const h = run.webhooks!;
    expect(h).toMatchObject({ handledTwice: 0, lost: 0 });
    expect(h.documents).toBeGreaterThan(0);
    expect(h.reconciled).toBeGreaterThanOrEqual(h.lostOnTheWay); // a document whose delivery was lost is found over REST
    expect(h.duplicates).toBeGreaterThanOrEqual(h.resent); // a delivery sent to two replicas: handled by one, a duplicate on the other
    expect(h.cancellations).toBe(h.cancelledJobs); // a dead worker's job, cancelled: its flood of failed pages reported once
    for (const n of h.byReplica) expect(n).toBeGreaterThan(0);
  }, 60_000);
});
