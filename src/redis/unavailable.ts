/**
 * What `webdata/redis` does when Redis cannot be reached, for the limiter and the budget alike: a command is never sent
 * to a connection ioredis reports down, and never waited for longer than `redisTimeoutMs` (so no call waits forever on
 * ioredis's offline queue or its reconnects); either is a {@link RedisUnavailableError}, which names Redis and the
 * option `whenRedisDown` that chooses between failing closed (the default) and the process's own bound.
 */
import { RedisUnavailableError } from "../core/errors.js";
import { after } from "../core/time.js";

export { RedisUnavailableError } from "../core/errors.js";

/** Default `redisTimeoutMs` of `redisLimiter` and `redisBudget`: how long one Redis command may take before Redis counts as unreachable, ms. */
export const DEFAULT_REDIS_TIMEOUT_MS = 2_000;

/** The connection states of an ioredis client in which a command would wait in its offline queue: Redis is away. */
const DOWN = new Set(["reconnecting", "close", "end"]);

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
