/**
 * Type tests: the `webdata/redis` snippets (the README's "Concurrency" and the module's own doc in
 * src/redis.ts) compile as written under `module`/`moduleResolution` NodeNext against the installed
 * ioredis 6 (the devDependency). Its default import is not constructable there (TS2351: ioredis's
 * declarations are CommonJS, `export default` beside named exports); the named `Redis` export is, in
 * ioredis 5 and 6, and at run time in ESM and CommonJS alike. test/readme-snippets.test.ts checks
 * that every line of both snippets is in this file.
 */
import { describe, expectTypeOf, test } from "vitest";
import { Redis } from "ioredis"; // the named export (under NodeNext the default one is not constructable: TS2351)
import { WebData } from "webdata";
import { redisLimiter } from "webdata/redis"; // Node; npm install ioredis redis-semaphore
import { redisBudget } from "webdata/redis";
import { team } from "webdata/team";

describe("README: a limit shared through Redis", () => {
  test("the snippet compiles as written", () => {
    const client = new WebData({ plugins: [team], limiter: redisLimiter({ redis: new Redis(process.env.REDIS_URL!), key: "webdata:team-1", limit: 5 }) });
    expectTypeOf(client).toEqualTypeOf<WebData>();
  });
});

describe("webdata/redis's own doc (src/redis.ts)", () => {
  test("its snippet compiles as written", () => {
    const client = new WebData({ plugins: [team], limiter: redisLimiter({ redis: new Redis(process.env.REDIS_URL!), key: "webdata:team-1", limit: 5 }) });
    expectTypeOf(new Redis(process.env.REDIS_URL!)).toEqualTypeOf<Redis>();
    expectTypeOf(client).toEqualTypeOf<WebData>();
  });
});

describe("README: Running a fleet (a limit and a budget shared through Redis, and the ledger's floor)", () => {
  test("the snippet compiles as written", () => {
    const redis = new Redis(process.env.REDIS_URL!);
    const client = new WebData({
      plugins: [team],
      limiter: redisLimiter({ redis, key: "webdata:team-1", limit: 5 }),
      budget: redisBudget({ redis, key: "webdata:team-1", credits: 3000, window: "month" }),
      creditFloor: { credits: 200 }, // the service's own ledger: stop once the team has fewer than 200 credits left
    });
    expectTypeOf(client).toEqualTypeOf<WebData>();
  });
});

describe("webdata/redis's own doc (src/redis.ts): the limit and the budget", () => {
  test("its snippet compiles as written", () => {
    const redis = new Redis(process.env.REDIS_URL!);
    const client = new WebData({
      plugins: [team],
      limiter: redisLimiter({ redis, key: "webdata:team-1", limit: 5 }),
      budget: redisBudget({ redis, key: "webdata:team-1", credits: 1000, window: "month" }),
    });
    expectTypeOf(client).toEqualTypeOf<WebData>();
  });
});
