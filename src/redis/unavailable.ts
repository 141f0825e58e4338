/**
 * What `webdata/redis` does when Redis cannot be reached, for the limiter and the budget alike: a command is never sent
 * to a connection ioredis reports down, and never waited for longer than `redisTimeoutMs` (so no call waits forever on
 * ioredis's offline queue or its reconnects); either is a {@link RedisUnavailableError}, which names Redis and the
 * option `whenRedisDown` that chooses between failing closed (the default) and the process's own bound.
 */
import { WebDataError } from "../core/errors.js";
import { after } from "../core/time.js";

/** Default `redisTimeoutMs` of `redisLimiter` and `redisBudget`: how long one Redis command may take before Redis counts as unreachable, ms. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2_000;

/** The connection states of an ioredis client in which a command would wait in its offline queue: Redis is away. */
const DOWN = new Set(["reconnecting", "close", "end"]);

/** What a shared bound is, for the message. */
const KINDS = {
  limit: { thing: "concurrency limit", verb: "taken", maker: "redisLimiter", own: "{ limit: n } to go on under this process's own limit of n slots" },
  budget: { thing: "credit budget", verb: "reserved or settled", maker: "redisBudget", own: "{ credits: n } to go on under this process's own budget of n credits" },
} as const;

/**
 * Redis could not be reached (its connection is down, or a command had no answer within `redisTimeoutMs`) when a
 * shared limit or budget of `webdata/redis` needed it, and its `whenRedisDown` is `"fail"` (the default): nothing was
 * sent. Its `code` is `"redis_unavailable"`. When Redis comes back (ioredis reconnects by itself), the next calls use it
 * again: no restart.
 */
export class RedisUnavailableError extends WebDataError {
  override name = "RedisUnavailableError";
  /** Always `"redis_unavailable"`. */
  readonly code = "redis_unavailable" as const;
  /** The option that chooses what happens while Redis is away: `whenRedisDown` (of `redisLimiter` or `redisBudget`). */
  readonly option = "whenRedisDown" as const;
  /** What could not be had: the shared `"limit"` or the shared `"budget"`. */
  readonly shared: "limit" | "budget";
  /** The shared bound's key. */
  readonly key: string;

  constructor(shared: "limit" | "budget", key: string, reason: string, cause?: unknown) {
    const k = KINDS[shared];
    super(
      `Redis is unreachable (${reason}): the ${k.thing} "${key}" shared through Redis could not be ${k.verb}, and nothing was sent. The option whenRedisDown of ${k.maker} chooses what happens while Redis is away: "fail" (the default: this error) or ${k.own} until Redis is back`,
      cause === undefined ? undefined : { cause },
    );
    this.shared = shared;
    this.key = key;
  }
}

/** The part of an ioredis client the guard reads: its connection state. */
export interface RedisState {
  /** ioredis's `status`: `"ready"`, `"connecting"`, `"reconnecting"`, `"end"`, ... (absent: unknown, tried). */
  readonly status?: string | undefined;
}

/** True when ioredis reports the connection down (a command would wait in its offline queue). */
export function redisDown(redis: RedisState): boolean {
  return DOWN.has(String(redis.status));
}

/**
 * Runs the Redis command `run`, or fails with the error `down` makes: at once when the connection is down, after
 * `timeoutMs` without an answer, or when the command fails for any reason but Redis's own answer (a `ReplyError`,
 * which is passed on as it is: a script's error is not an outage).
 */
export function guarded<T>(redis: RedisState, timeoutMs: number, run: () => Promise<T>, down: (reason: string, cause?: unknown) => Error): Promise<T> {
  if (redisDown(redis)) return Promise.reject(down(`its connection is ${String(redis.status)}`));
  return new Promise<T>((resolve, reject) => {
    const cancel = after(timeoutMs, () => reject(down(`no answer within redisTimeoutMs, ${timeoutMs} ms`)));
    run().then(
      (value) => (cancel(), resolve(value)),
      (err: unknown) => (cancel(), reject((err as Error | null)?.name === "ReplyError" ? err : down(String((err as Error | null)?.message ?? err), err))),
    );
  });
}
