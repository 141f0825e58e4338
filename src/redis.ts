/**
 * `webdata/redis` (Node): a {@link ConcurrencyLimiter} shared by every process and machine that uses the
 * same Redis and key, so ten workers on three machines keep one team's browsers within its plan.
 * Built on `redis-semaphore` (its `Semaphore`: atomic Lua scripts, each slot a lease with a TTL that
 * is refreshed while it is held), over your `ioredis` client; both are optional peer dependencies.
 * A worker that dies holding a slot (a crash, `kill -9`) does not keep it: its lease runs out after
 * `leaseMs` and the slot comes back.
 *
 * ```ts
 * import { Redis } from "ioredis"; // the named export (under NodeNext the default one is not constructable: TS2351)
 * import { WebData } from "webdata";
 * import { redisLimiter } from "webdata/redis";
 * import { team } from "webdata/team";
 *
 * const client = new WebData({ plugins: [team], limiter: redisLimiter({ redis: new Redis(process.env.REDIS_URL!), key: "webdata:team-1", limit: 5 }) });
 * ```
 */
import { Semaphore, type LockOptions } from "redis-semaphore";
import type { ConcurrencyLimiter, ReleaseSlot } from "./core/client-state.js";
import { ValidationError } from "./core/errors.js";

export type { ConcurrencyLimiter, ReleaseSlot } from "./core/client-state.js";

/** The Redis client `redis-semaphore` works with: an `ioredis` client (`new Redis(url)`), or one with its API (`eval`, `evalsha`, ...). */
export type RedisLimiterClient = ConstructorParameters<typeof Semaphore>[0];

/** Options of {@link redisLimiter}. */
export interface RedisLimiterOptions {
  /** The Redis client (`ioredis`). The limiter neither connects nor closes it: it is yours. */
  redis: RedisLimiterClient;
  /** The name of the bound: every limiter with the same Redis and key shares its slots (Redis key `semaphore:<key>`). Use one per team. */
  key: string;
  /** Most slots held at once by all the limiters of the key together: the team's concurrency (an integer >= 1). */
  limit: number;
  /** How long a slot's lease lasts without a refresh, ms (default 30000): the longest a dead worker's slot stays taken. */
  leaseMs?: number | undefined;
  /** How often a held slot's lease is refreshed, ms (default a third of `leaseMs`). */
  refreshMs?: number | undefined;
  /** How often a waiting call asks Redis for a free slot again, ms (default 50). */
  retryMs?: number | undefined;
  /**
   * Called when a held slot's lease could not be refreshed in time (Redis unreachable, or the process paused
   * past `leaseMs`): the call goes on, but its slot may have passed to another worker. Default: nothing.
   */
  onLeaseLost?: ((error: Error) => void) | undefined;
}

/** Default {@link RedisLimiterOptions.leaseMs}. */
export const DEFAULT_LEASE_MS = 30_000;
/** Default {@link RedisLimiterOptions.retryMs}. */
export const DEFAULT_RETRY_MS = 50;

/** A positive integer, or the issue that says it is not. */
function positiveInt(value: unknown, path: string, optional: boolean): { path: string; message: string }[] {
  if (optional && value === undefined) return [];
  return Number.isInteger(value) && (value as number) >= 1 ? [] : [{ path, message: `must be an integer >= 1, got ${JSON.stringify(value) ?? typeof value}` }];
}

/**
 * A limiter whose slots are leases in Redis, shared by every limiter (in any process, on any machine) given
 * the same Redis and `key`: together they never hold more than `limit`. Give it to `new WebData({ limiter })`.
 * A call's wait polls Redis every `retryMs` and ends with its signal (the client's `timeoutMs` and `signal`);
 * a held slot is refreshed every `refreshMs` and given back when the call settles, or lapses `leaseMs` after
 * its process died.
 *
 * @example const limiter = redisLimiter({ redis, key: "webdata:team-1", limit: 5, leaseMs: 15_000 });
 */
export function redisLimiter(options: RedisLimiterOptions): ConcurrencyLimiter {
  const o = (options ?? {}) as Partial<RedisLimiterOptions>;
  const issues = [
    ...(typeof (o.redis as { eval?: unknown } | undefined)?.eval === "function" ? [] : [{ path: "redis", message: "must be a Redis client (ioredis: new Redis(url))" }]),
    ...(typeof o.key === "string" && o.key !== "" ? [] : [{ path: "key", message: "must be a non-empty string" }]),
    ...positiveInt(o.limit, "limit", false),
    ...positiveInt(o.leaseMs, "leaseMs", true),
    ...positiveInt(o.refreshMs, "refreshMs", true),
    ...positiveInt(o.retryMs, "retryMs", true),
  ];
  if (issues.length) throw new ValidationError(issues, "redisLimiter options");
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const refreshMs = o.refreshMs ?? Math.max(1, Math.floor(leaseMs / 3));
  if (refreshMs >= leaseMs) throw new ValidationError([{ path: "refreshMs", message: `must be less than leaseMs (${leaseMs}), or the lease lapses between refreshes` }], "redisLimiter options");
  const onLeaseLost = o.onLeaseLost;
  const lock: LockOptions = {
    lockTimeout: leaseMs,
    // The client bounds the wait (the call's timeoutMs and signal): the library's own limit is never the one that ends it.
    acquireTimeout: Number.MAX_SAFE_INTEGER,
    retryInterval: o.retryMs ?? DEFAULT_RETRY_MS,
    refreshInterval: refreshMs,
    // The library's default throws where nothing can catch it (the refresh timer): the call goes on instead.
    onLockLost: (err) => onLeaseLost?.(err),
  };
  const { redis, key, limit } = o as RedisLimiterOptions;
  return {
    async acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
      const slot = new Semaphore(redis, key, limit, lock);
      await slot.acquire(signal);
      return () => slot.release();
    },
  };
}
export { redisWebhookStore, type RedisWebhookClient, type RedisWebhookStoreOptions } from "./redis/webhook-store.js";
