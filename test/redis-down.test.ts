/**
 * `webdata/redis` when Redis goes away, against a real redis-server killed and started again mid-test
 * (test/support/redis.ts, its own server: this suite stops it). For the limit and the budget alike: no call waits for
 * Redis, the error is typed and names Redis and `whenRedisDown`; `whenRedisDown: { limit } / { credits }` goes on under
 * the process's own bound; when Redis is back the same clients use it again. A Redis that stops answering (CLIENT
 * PAUSE) leaks no reservation beyond its lease.
 */
import { describe, expect, it } from "vitest";
import { WebData } from "webdata";
import { BudgetExceededError } from "webdata/team";
import { redisBudget, redisLimiter, RedisUnavailableError } from "webdata/redis";
import { createFakeService } from "webdata/testing";
import { redisForFile } from "./support/redis.js";
import { team } from "../src/team.js";

const server = redisForFile();

const until = async (ok: () => Promise<boolean>, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > end) throw new Error("not in time");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("when Redis goes away", () => {
  it("fails closed by default (RedisUnavailableError naming Redis and whenRedisDown, nothing sent, no wait), and goes on when Redis is back", async () => {
    const fake = createFakeService();
    // ioredis's defaults: it queues commands while it reconnects (the offline queue) and reconnects by itself.
    const redis = server().client({ reconnecting: true });
    const client = new WebData({
      plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off",
      limiter: redisLimiter({ redis, key: "down-limit", limit: 2, redisTimeoutMs: 500 }),
      budget: redisBudget({ redis, key: "down-budget", credits: 100, redisTimeoutMs: 500 }),
    });
    await client.scrape("https://acme.test/about");
    await until(async () => (await redis.get("webdata-budget:{down-budget}:all:spent")) === "1"); // its settle (sent after the answer) has landed: not tried again on the next server
    await server().kill();
    const started = Date.now();
    const errs = await Promise.all([client.scrape("https://acme.test/about").catch((e: unknown) => e), client.map("https://acme.test").catch((e: unknown) => e)]);
    expect(Date.now() - started).toBeLessThan(1_500); // never the call's own 120 s
    for (const err of errs) {
      expect(err).toBeInstanceOf(RedisUnavailableError);
      expect((err as Error).message).toMatch(/^Redis is unreachable .*whenRedisDown/);
      expect(err).toMatchObject({ code: "redis_unavailable", option: "whenRedisDown" });
    }
    expect(fake.requests).toHaveLength(1);
    await server().restart();
    await until(async () => redis.status === "ready");
    await client.scrape("https://acme.test/about"); // the same client, no restart
    expect(Number(await redis.get("webdata-budget:{down-budget}:all:spent"))).toBe(1); // counted in Redis again (a new server: from 0)
    expect(await redis.zcard("semaphore:down-limit")).toBe(0);
  }, 20_000);

  it("whenRedisDown { limit } / { credits }: goes on under the process's own bound while Redis is away", async () => {
    const fake = createFakeService({ teamConcurrency: 1, browserHoldMs: 20 });
    const redis = server().client({ reconnecting: true });
    const client = new WebData({
      plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off",
      limiter: redisLimiter({ redis, key: "fallback-limit", limit: 1, redisTimeoutMs: 500, whenRedisDown: { limit: 1 } }),
      budget: redisBudget({ redis, key: "fallback-budget", credits: 100, redisTimeoutMs: 500, whenRedisDown: { credits: 2 } }),
    });
    await until(async () => redis.status === "ready");
    await server().kill();
    const results = await Promise.allSettled([1, 2, 3].map((i) => client.scrape(`https://acme.test/many/${i}`)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(BudgetExceededError); // this process's own 2 credits
    expect(fake.teamLoad()).toMatchObject({ peak: 1, rejected: 0 }); // this process's own limit of 1
    await server().restart();
    await until(async () => redis.status === "ready");
    await client.scrape("https://acme.test/many/4"); // Redis's budget again: 100 credits
    expect(Number(await redis.get("webdata-budget:{fallback-budget}:all:spent"))).toBe(1);
  }, 20_000);

  it("a Redis that stops answering: the call fails after redisTimeoutMs, and the reservation Redis makes late lapses with its lease", async () => {
    const fake = createFakeService();
    const redis = server().client({ reconnecting: true });
    await until(async () => redis.status === "ready");
    const client = new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", budget: redisBudget({ redis, key: "paused", credits: 5, redisTimeoutMs: 300, leaseMs: 800 }) });
    const admin = server().client();
    await admin.call("CLIENT", "PAUSE", "1000", "WRITE");
    const started = Date.now();
    const err = await client.scrape("https://acme.test/about").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RedisUnavailableError);
    expect((err as Error).message).toContain("no answer within redisTimeoutMs, 300 ms");
    expect(Date.now() - started).toBeLessThan(900);
    expect(fake.requests).toHaveLength(0);
    await until(async () => (await admin.hlen("webdata-budget:{paused}:all:holds")) === 1); // Redis ran the reserve after the pause
    const budget = redisBudget({ redis, key: "paused", credits: 5 });
    expect((await budget.reserve(5)).held).toBe(false); // the late reservation holds 1 of the 5
    // Nobody refreshes it (its call is over): it lapses with its lease, and all 5 are there again.
    await until(async () => {
      const all = await budget.reserve(5);
      if (all.held) await all.release();
      return all.held;
    }, 3_000);
  }, 20_000);

  it("a settle Redis could not take is tried again once it answers, and counts once (the late first try included)", async () => {
    const redis = server().client({ reconnecting: true });
    await until(async () => redis.status === "ready");
    const budget = redisBudget({ redis, key: "late-settle", credits: 10, redisTimeoutMs: 200 });
    const held = await budget.reserve(3);
    if (!held.held) throw new Error("not reserved");
    const admin = server().client();
    await admin.call("CLIENT", "PAUSE", "700", "WRITE");
    expect(await held.settle(3)).toBe(3); // the first try timed out (and ran after the pause); a later one answered
    expect(await budget.spent()).toBe(3);
  }, 20_000);

  it("a settle Redis could not take is not tried again once its client has ended (closed, or its retryStrategy gave up): it can never answer, so nothing keeps the process alive for a minute", async () => {
    const redis = server().client(); // retryStrategy: () => null: once the server is gone, the client ends
    await until(async () => redis.status === "ready");
    const budget = redisBudget({ redis, key: "settle-after-end", credits: 10, redisTimeoutMs: 200 });
    const held = await budget.reserve(1);
    if (!held.held) throw new Error("not reserved");
    await server().kill();
    await until(async () => redis.status === "end");
    const started = Date.now();
    await expect(held.settle(1)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_000); // not the 60 s a settle is tried for while Redis may come back
    await server().restart();
  }, 20_000);
});
