/**
 * `redisBudget` of `webdata/redis` against a real redis-server on a loopback port (test/support/redis.ts): one credit
 * budget shared by several clients, reserved before each spending call and settled with what its answer reports; and
 * `creditFloor` of `webdata/team`, the service's own ledger (the fake's credit usage, which falls as credits are spent).
 */
import { describe, expect, it } from "vitest";
import { TimeoutError, ValidationError, WebData } from "webdata";
import { BudgetExceededError } from "webdata/team";
import { redisBudget, redisLimiter } from "webdata/redis";
import { createFakeService, fakeJobs, type FakeService } from "webdata/testing";
import { redisForFile } from "./support/redis.js";
import { team } from "../src/team.js";

const server = redisForFile();

let keys = 0;
/** A key of its own for each test. */
const freshKey = () => `webdata-budget-test:${process.pid}:${++keys}`;
const base = (key: string) => `webdata-budget:{${key}}:all`;
const scrapes = (fake: FakeService) => fake.requests.filter((r) => r.pathname === "/v2/scrape").length;
const clientOf = (fake: FakeService, budget: ReturnType<typeof redisBudget>) =>
  new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", budget });

describe("redisBudget", () => {
  it("two clients naming one budget share its cap: the call that does not fit is refused with BudgetExceededError, nothing sent", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const [a, b] = [0, 1].map(() => clientOf(fake, redisBudget({ redis: server().client(), key, credits: 5 })));
    const results = await Promise.allSettled([1, 2, 3, 4].flatMap((i) => [a!.scrape(`https://acme.test/many/${i}`), b!.scrape(`https://acme.test/many/${i + 4}`)]));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5); // a scrape costs 1 at the fake
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as BudgetExceededError);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toBeInstanceOf(BudgetExceededError);
    expect(refused[0]!.message).toContain('Redis budget "' + key + '"');
    expect(refused[0]!.message).toMatch(/\d+ spent and \d+ reserved by calls in flight/);
    expect(refused[0]!.reason).toBe("shared");
    expect(scrapes(fake)).toBe(5); // the refused ones were never sent
    const redis = server().client();
    expect(Number(await redis.get(`${base(key)}:spent`))).toBe(5);
    expect(await redis.hlen(`${base(key)}:holds`)).toBe(0); // every reservation settled
  });

  it("settles with what the answer reports: a JSON scrape reserves the documented minimum (1) and settles 5", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const client = clientOf(fake, redisBudget({ redis: server().client(), key, credits: 6 }));
    await client.scrape("https://acme.test/about", { formats: [{ type: "json", prompt: "the title" }] });
    expect(Number(await server().client().get(`${base(key)}:spent`))).toBe(5);
    await client.scrape("https://acme.test/about"); // 5 + its 1 reserved fits in 6
    await expect(client.scrape("https://acme.test/about")).rejects.toBeInstanceOf(BudgetExceededError);
    expect(scrapes(fake)).toBe(2);
  });

  it("a job start reserves its stated maximum: a crawl whose limit cannot fit is refused, nothing sent", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const client = clientOf(fake, redisBudget({ redis: server().client(), key, credits: 5 }));
    const err = await client.startCrawl("https://acme.test", { limit: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ requested: 10 });
    expect(fake.requests).toHaveLength(0);
  });

  it("a failed call gives its reservation back: nothing spent, nothing held", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const client = clientOf(fake, redisBudget({ redis: server().client(), key, credits: 1 }));
    await expect(client.scrape("https://unknown-host.example/x")).rejects.toThrow(); // the fake's 500: all engines failed
    const redis = server().client();
    expect(await redis.hlen(`${base(key)}:holds`)).toBe(0);
    expect(Number((await redis.get(`${base(key)}:spent`)) ?? 0)).toBe(0);
    await client.scrape("https://acme.test/about"); // the 1 credit is there again
  });

  it("a call that gets no concurrency slot in time gives its reservation back (the budget comes before the slot)", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const other = await redisLimiter({ redis: server().client(), key, limit: 1 }).acquire();
    const client = new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", limiter: redisLimiter({ redis: server().client(), key, limit: 1, retryMs: 5 }), budget: redisBudget({ redis: server().client(), key, credits: 1 }) });
    await expect(client.scrape("https://acme.test/about", {}, { timeoutMs: 80 })).rejects.toBeInstanceOf(TimeoutError);
    const redis = server().client();
    await new Promise((r) => setTimeout(r, 50));
    expect(await redis.hlen(`${base(key)}:holds`)).toBe(0);
    await other();
    await client.scrape("https://acme.test/about"); // its 1 credit is there
    expect(scrapes(fake)).toBe(1);
  });

  it("a watched job is cancelled once the team's total passes the cap (BudgetExceededError, cancelled)", async () => {
    const key = freshKey();
    const fake = createFakeService();
    const client = clientOf(fake, redisBudget({ redis: server().client(), key, credits: 8 }));
    fakeJobs(fake).configure({ pagesPerPoll: 1 });
    // Four pages reserve 4 (the documented 1 a page); with a JSON format each page costs 5 at the fake.
    const err = await client
      .crawl("https://acme.test/", { limit: 4, sitemap: "skip", scrapeOptions: { formats: [{ type: "json", prompt: "the title" }] }, pollIntervalMs: 5 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect(err).toMatchObject({ cancelled: true, reason: "shared" });
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(true);
    expect(Number(await server().client().get(`${base(key)}:spent`))).toBe(10); // two pages, read before the cancel
    expect(await server().client().hlen(`${base(key)}:holds`)).toBe(0); // the cancelled job holds nothing
  });

  it("a reservation whose worker stops refreshing it (its Redis connection gone) lapses after leaseMs", async () => {
    const key = freshKey();
    const dying = server().client();
    const budget = redisBudget({ redis: dying, key, credits: 3, leaseMs: 500 });
    const held = await budget.reserve(3);
    expect(held.held).toBe(true);
    dying.disconnect(); // the worker is gone: no refresh, no settle
    const other = redisBudget({ redis: server().client(), key, credits: 3 });
    expect((await other.reserve(1)).held).toBe(false); // still held
    await new Promise((r) => setTimeout(r, 700));
    const after = await other.reserve(3);
    expect(after.held).toBe(true);
    if (after.held) await after.release();
  });

  it("window: the figures live under the window's keys (a UTC day), which expire after it", async () => {
    const key = freshKey();
    const fake = createFakeService();
    await clientOf(fake, redisBudget({ redis: server().client(), key, credits: 5, window: "day" })).scrape("https://acme.test/about");
    const day = new Date().toISOString().slice(0, 10);
    const redis = server().client();
    expect(Number(await redis.get(`webdata-budget:{${key}}:${day}:spent`))).toBe(1);
    const ttl = await redis.pttl(`webdata-budget:{${key}}:${day}:spent`);
    expect(ttl).toBeGreaterThan(86_400_000);
    expect(await redis.exists(`${base(key)}:spent`)).toBe(0);
  });

  it("bad options are a ValidationError naming each", () => {
    expect(() => redisBudget({ redis: {} as never, key: "", credits: -1, window: "week" as never, whenRedisDown: { credits: -2 } })).toThrow(ValidationError);
    const err = (() => {
      try {
        redisBudget({ redis: {} as never, key: "", credits: -1, window: "week" as never });
      } catch (e) {
        return e as ValidationError;
      }
    })();
    expect(err?.message).toMatch(/redis.*key.*credits.*window/s);
  });
});

describe("creditFloor: the service's ledger as the record", () => {
  it("refuses spending calls once the remaining credits the ledger reports fall below the floor; reads it at most every maxAgeMs", async () => {
    const fake = createFakeService({ planCredits: 5 });
    const client = new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", creditFloor: { credits: 3, maxAgeMs: 0 } });
    await client.scrape("https://acme.test/many/1"); // 5 left
    await client.scrape("https://acme.test/many/2"); // 4 left
    await client.scrape("https://acme.test/many/3"); // 3 left
    const err = await client.scrape("https://acme.test/many/4").catch((e: unknown) => e); // 2 left < 3
    expect(err).toBeInstanceOf(BudgetExceededError);
    expect((err as Error).message).toContain("below the creditFloor of 3");
    expect(err).toMatchObject({ reason: "floor" });
    expect(scrapes(fake)).toBe(3);
    await client.getCreditUsage(); // a free call is never refused
    const usageReads = fake.requests.filter((r) => r.pathname === "/v2/team/credit-usage").length;
    expect(usageReads).toBe(5); // before each of the four spending calls (maxAgeMs 0), and the caller's own

    const cached = new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", creditFloor: { credits: 0 } });
    await cached.map("https://acme.test");
    await cached.map("https://acme.test");
    expect(fake.requests.filter((r) => r.pathname === "/v2/team/credit-usage").length).toBe(usageReads + 1); // one read for both (30 s default)
  });

  it("works with a Redis budget too, and needs the team plugin", async () => {
    const fake = createFakeService({ planCredits: 2 });
    const client = new WebData({ plugins: [team], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, maxRetries: 0, logLevel: "off", creditFloor: { credits: 2, maxAgeMs: 0 }, budget: redisBudget({ redis: server().client(), key: freshKey(), credits: 100 }) });
    await client.scrape("https://acme.test/about");
    await expect(client.scrape("https://acme.test/about")).rejects.toBeInstanceOf(BudgetExceededError);
    expect(() => new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, creditFloor: { credits: 1 } })).toThrow(/webdata\/team/);
  });
});
