/**
 * examples/fleet/run.ts at small N (3 workers x 4 pages, a team of 2 browsers), against a real redis-server
 * on loopback (test/support/redis.ts): each worker bounded alone gets 429s from the team limit; the fleet
 * sharing one redisLimiter gets none. The 429s are counted at the fake (the client retries them). The
 * workers run on the sources: worker.ts bundled once with `webdata` mapped to src/ (six tsx processes each
 * compiling the sources took 20 s on a loaded machine; a bundle starts in well under one).
 */
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFleet } from "../examples/fleet/run.js";
import { startRedis, type RedisServer } from "./support/redis.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${REPO}.cache/fleet-worker-${process.pid}.mjs`;
let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
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
});
