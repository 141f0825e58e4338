/**
 * `redisLimiter`: a {@link ConcurrencyLimiter} in Redis, built on `redis-semaphore` (its `Semaphore`: atomic Lua scripts,
 * each slot a lease with a TTL refreshed while it is held) over your `ioredis` client, its commands sent through the
 * guard of `redis/unavailable.ts`.
 */
import { Semaphore, type LockOptions } from "redis-semaphore";
import type { ConcurrencyLimiter, ReleaseSlot } from "../core/client-state.js";
import { ValidationError } from "../core/errors.js";
import { LocalSlots } from "../team/limit.js";
import { DEFAULT_REDIS_TIMEOUT_MS, guarded, redisDown, RedisUnavailableError, type RedisState } from "./unavailable.js";

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
  /**
   * While Redis cannot be reached: `"fail"` (the default) fails the call with `RedisUnavailableError` (nothing sent);
   * `{ limit: n }` takes a slot of this process's own limit of `n` instead, until Redis is back.
   */
  whenRedisDown?: "fail" | { limit: number } | undefined;
  /** How long one Redis command may take before Redis counts as unreachable, ms (default 2000). */
  redisTimeoutMs?: number | undefined;
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
    ...positiveInt(o.redisTimeoutMs, "redisTimeoutMs", true),
    ...(o.whenRedisDown === undefined || o.whenRedisDown === "fail" || positiveInt((o.whenRedisDown as { limit?: unknown } | null)?.limit, "whenRedisDown.limit", false).length === 0
      ? []
      : [{ path: "whenRedisDown", message: 'must be "fail" or { limit: n } (n an integer >= 1, this process\'s own limit while Redis is away)' }]),
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
  const client = guardedClient(redis, key, o.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS);
  const local = typeof o.whenRedisDown === "object" ? new LocalSlots(o.whenRedisDown.limit) : undefined;
  return {
    async acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
      if (local && redisDown(redis as RedisState)) return local.acquire(signal);
      const slot = new LeasedSemaphore(client, key, limit, lock);
      try {
        await slot.acquire(signal);
      } catch (err) {
        if (local && err instanceof RedisUnavailableError) return local.acquire(signal);
        throw err;
      }
      return () => slot.release();
    },
  };
}

/** A semaphore whose lease refresh, when Redis does not answer, is tried again at the next tick (the library's own would throw from its timer); a lease found gone is reported as lost. */
class LeasedSemaphore extends Semaphore {
  protected override async _refresh(): Promise<boolean> {
    try {
      return await super._refresh();
    } catch {
      return true; // not known lost: the next refresh (Redis back, or the lease gone) tells
    }
  }
}

/** `redis` with the commands redis-semaphore sends bounded by the guard: at once, or within `timeoutMs`, a `RedisUnavailableError` while Redis is away. */
function guardedClient(redis: RedisLimiterClient, key: string, timeoutMs: number): RedisLimiterClient {
  const down = (reason: string, cause?: unknown) => new RedisUnavailableError("limit", key, reason, cause);
  const commands = (["eval", "evalsha", "get", "set", "zrem"] as const).map((name) => {
    const fn = redis[name] as (...args: unknown[]) => Promise<unknown>;
    return [name, (...args: unknown[]) => guarded(redis as RedisState, timeoutMs, () => fn.apply(redis, args), down)];
  });
  return { ...Object.fromEntries(commands), options: redis.options } as RedisLimiterClient;
}
