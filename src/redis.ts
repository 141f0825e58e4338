/**
 * `webdata/redis` (Node): what a team's workers must agree on, kept in Redis through your `ioredis` client (an optional
 * peer dependency, with `redis-semaphore` for the limit), so ten workers on three machines keep one team's plan:
 * - {@link redisLimiter}: the concurrency limit (`limiter`), over `redis-semaphore`;
 * - {@link redisBudget}: the credit budget (`budget`), atomic Lua scripts: each spending call reserves its stated
 *   maximum before it is sent and settles it with what its answer reports.
 *
 * Both hold leases, so a worker that dies (a crash, `kill -9`) does not keep its share: it comes back after `leaseMs`.
 * While Redis is away a call never waits on it: it fails with {@link RedisUnavailableError} (the default), or goes on under
 * this process's own bound (`whenRedisDown`); when Redis is back, the next calls use it again, without a restart.
 *
 * ```ts
 * import { Redis } from "ioredis"; // the named export (under NodeNext the default one is not constructable: TS2351)
 * import { WebData } from "webdata";
 * import { redisLimiter } from "webdata/redis"; // Node; npm install ioredis redis-semaphore
 * import { redisBudget } from "webdata/redis";
 * import { team } from "webdata/team";
 *
 * const redis = new Redis(process.env.REDIS_URL!);
 * const client = new WebData({
 *   plugins: [team],
 *   limiter: redisLimiter({ redis, key: "webdata:team-1", limit: 5 }),
 *   budget: redisBudget({ redis, key: "webdata:team-1", credits: 1000, window: "month" }),
 * });
 * ```
 */
export { redisLimiter, DEFAULT_LEASE_MS, DEFAULT_RETRY_MS, type RedisLimiterClient, type RedisLimiterOptions } from "./redis/limiter.js";
export { redisBudget, DEFAULT_BUDGET_LEASE_MS, type RedisBudgetClient, type RedisBudgetOptions } from "./redis/budget.js";
export { RedisUnavailableError, DEFAULT_REDIS_TIMEOUT_MS } from "./redis/unavailable.js";
export type { ConcurrencyLimiter, ReleaseSlot, SharedBudget, CreditReservation } from "./core/client-state.js";
export { redisWebhookStore, type RedisWebhookClient, type RedisWebhookStoreOptions } from "./redis/webhook-store.js";
