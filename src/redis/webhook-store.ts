/** {@link redisWebhookStore}: a webhook receiver's store in Redis, with Redis's own atomic commands over your `ioredis` client, no lock of our own. */
import type { WebhookStore } from "../webhooks/store.js";
import { ValidationError } from "../core/errors.js";

/** The commands the store sends: an `ioredis` client (`new Redis(url)`) has them. */
export interface RedisWebhookClient {
  /** `SET key value PX ms NX`: `"OK"` when set, `null` when the key exists. */
  set(key: string, value: string, px: "PX", ms: number, nx: "NX"): Promise<"OK" | null>;
  /** `EVAL script numkeys ...keys ...args`. */
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
  /** `SMEMBERS key`. */
  smembers(key: string): Promise<string[]>;
}

/** Options of {@link redisWebhookStore}. */
export interface RedisWebhookStoreOptions {
  /** The Redis client (`ioredis`): neither connected nor closed by the store. A Redis error rejects the receiver's call (answer 5xx: the service may deliver again). */
  redis: RedisWebhookClient;
}

/** Adds ARGV[1] to the counter KEYS[1] and sets its TTL (ARGV[2] ms), in one step. */
const INCREMENT = "local n = redis.call('INCRBY', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[2]) return n";
/** Removes ARGV[1] from the set KEYS[1], or, without it, deletes KEYS[1]. */
const FORGET = "if ARGV[1] then return redis.call('SREM', KEYS[1], ARGV[1]) end return redis.call('DEL', KEYS[1])";
/** Adds ARGV[1] to the set KEYS[1] and sets its TTL (ARGV[2] ms), in one step. */
const REMEMBER = "redis.call('SADD', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1";

/**
 * A `WebhookStore` (of `webdata/webhooks`) in Redis: every receiver given the same Redis (and `prefix`) sees a
 * delivery once, whichever replica it reached. A claim is `SET key 1 NX PX ttlMs` (atomic: of two replicas
 * receiving the same page at once, exactly one gets it); counters and a job's seen set are updated with their
 * TTL in one script. Keys lapse `ttlMs` after their last write: Redis holds nothing forever.
 *
 * @example
 * import { Redis } from "ioredis";
 * import { webhookReceiver } from "webdata/webhooks";
 * import { redisWebhookStore } from "webdata/redis";
 *
 * const receiver = webhookReceiver({ secret: process.env.WEBHOOK_SECRET, store: redisWebhookStore({ redis: new Redis(process.env.REDIS_URL!) }) });
 */
export function redisWebhookStore(options: RedisWebhookStoreOptions): WebhookStore {
  const redis = (options ?? {}).redis as Partial<RedisWebhookClient> | undefined;
  if (typeof redis?.set !== "function" || typeof redis.eval !== "function" || typeof redis.smembers !== "function") {
    throw new ValidationError([{ path: "redis", message: "must be a Redis client (ioredis: new Redis(url))" }], "redisWebhookStore options");
  }
  const r = redis as RedisWebhookClient;
  return {
    claim: async (key, ttlMs) => (await r.set(key, "1", "PX", ttlMs, "NX")) === "OK",
    increment: async (key, by, ttlMs) => Number(await r.eval(INCREMENT, 1, key, by, ttlMs)),
    remember: async (key, member, ttlMs) => void (await r.eval(REMEMBER, 1, key, member, ttlMs)),
    members: (key) => r.smembers(key),
    forget: async (key, member) => void (await (member === undefined ? r.eval(FORGET, 1, key) : r.eval(FORGET, 1, key, member))),
  };
}
