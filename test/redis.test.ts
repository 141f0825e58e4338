/**
 * `webdata/redis` against a real redis-server on a loopback port (test/support/redis.ts starts it and
 * kills it; without redis-server this suite fails and says how to install it). Real time: the slots are
 * Redis leases with real TTLs, kept short here (a lease of 1 s).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AbortError, TimeoutError, ValidationError, WebData } from "webdata";
import { redisLimiter } from "webdata/redis";
import { createFakeService } from "webdata/testing";
import { redisForFile } from "./support/redis.js";
import { team } from "../src/team.js";

const server = redisForFile();

let keys = 0;
/** A key of its own for each test. */
const freshKey = () => `webdata-test:${process.pid}:${++keys}`;
const held = (key: string) => server().client().zcard(`semaphore:${key}`);

describe("redisLimiter", () => {
  it("three clients sharing one Redis key never hold more than its limit together", async () => {
    const key = freshKey();
    const fake = createFakeService({ teamConcurrency: 2, browserHoldMs: 30 });
    const clients = [0, 1, 2].map(
      () => new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", limiter: redisLimiter({ redis: server().client(), key, limit: 2, retryMs: 5 }) }),
    );
    const docs = await Promise.all(clients.flatMap((c) => [1, 2, 3, 4].map((i) => c.scrape(`https://acme.test/many/${i}`))));
    expect(docs).toHaveLength(12);
    expect(fake.teamLoad()).toMatchObject({ peak: 2, rejected: 0 });
    expect(await held(key)).toBe(0); // every slot given back
  });

  it("a worker killed (SIGKILL) while it holds a slot: its slot comes back when its lease runs out", async () => {
    const key = freshKey();
    const holder = fileURLToPath(new URL("./support/redis-holder.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", holder, server().url, key, "1000"], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => d.toString().includes("held") && resolve());
      child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before it held a slot`)));
    });
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    const killedAt = Date.now();
    expect(await held(key)).toBe(1); // still taken: nobody gave it back
    const limiter = redisLimiter({ redis: server().client(), key, limit: 1, retryMs: 20 });
    const release = await limiter.acquire(AbortSignal.timeout(3_000));
    const waited = Date.now() - killedAt;
    expect(waited).toBeGreaterThan(300); // not at once: the dead worker's lease had to run out
    expect(waited).toBeLessThan(1_500); // within its 1 s lease
    await release();
    expect(await held(key)).toBe(0);
  }, 15_000);

  it("a call waiting for a shared slot stops at its signal (AbortError) and its timeoutMs (TimeoutError), holding nothing", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const other = await redisLimiter({ redis: server().client(), key, limit: 1 }).acquire();
    const client = new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", limiter: redisLimiter({ redis: server().client(), key, limit: 1, retryMs: 5 }) });
    const ctl = new AbortController();
    const aborted = client.scrape("https://acme.test/about", {}, { signal: ctl.signal }).catch((e: unknown) => e);
    const timed = client.scrape("https://acme.test/about", {}, { timeoutMs: 80 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    ctl.abort();
    expect(await aborted).toBeInstanceOf(AbortError);
    const late = await timed;
    expect(late).toBeInstanceOf(TimeoutError);
    expect((late as Error).message).toContain("waiting for a concurrency slot");
    expect(fake.requests).toHaveLength(0);
    expect(await held(key)).toBe(1); // only the other holder's
    await other();
    expect(await held(key)).toBe(0);
    await client.scrape("https://acme.test/about");
    expect(await held(key)).toBe(0);
  });

  it("checks its options when made", () => {
    expect(() => redisLimiter({} as never)).toThrow(ValidationError);
    expect(() => redisLimiter({} as never)).toThrow(/redis: must be a Redis client[\s\S]*key: must be a non-empty string[\s\S]*limit: must be an integer >= 1/);
    expect(() => redisLimiter({ redis: server().client(), key: "k", limit: 2, leaseMs: 1_000, refreshMs: 1_000 })).toThrow(/refreshMs: must be less than leaseMs/);
  });
});
