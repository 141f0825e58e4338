/**
 * Where a webhook receiver remembers what it handled (a {@link WebhookStore}); the one in memory is portable: no
 * timer, only `Date.now()` read when a key is touched.
 */

/**
 * What a {@link webhookReceiver} keeps, shared by every receiver given the same
 * store. Each operation is atomic across all its users, and every key lapses
 * `ttlMs` after its last write.
 */
export interface WebhookStore {
  /** Claims `key` for `ttlMs`: `true` for the first caller within the TTL, `false` for every later one (Redis: `SET key 1 NX PX ttlMs`). */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Adds `by` to the counter `key` (0 when absent) and resolves the new value; `by` 0 reads it. */
  increment(key: string, by: number, ttlMs: number): Promise<number>;
  /** Adds `member` to the set `key`. */
  remember(key: string, member: string, ttlMs: number): Promise<void>;
  /** The members of the set `key` (none once it lapsed). */
  members(key: string): Promise<string[]>;
  /** Forgets `member` of the set `key`, or, without `member`, the key itself (a claim given back: the next `claim` of it is `true`). */
  forget(key: string, member?: string): Promise<void>;
}

/** Options of {@link memoryWebhookStore}. */
export interface MemoryWebhookStoreOptions {
  /** Most keys kept (default 100 000): past it, the oldest written key is forgotten first. */
  maxKeys?: number | undefined;
}

/** Default {@link MemoryWebhookStoreOptions.maxKeys}. */
export const DEFAULT_MAX_KEYS = 100_000;

interface Entry {
  expires: number;
  count: number;
  set: Set<string> | undefined;
}

/**
 * A {@link WebhookStore} in this process's memory: right for one receiver
 * process; replicas need a shared one (`redisWebhookStore` of
 * `webdata/redis`). Bounded: at most `maxKeys` keys (a page's claim, a job's
 * seen set and its cancellation counter are one key each), the oldest written
 * forgotten first; a lapsed key is dropped when it is next read or when it is
 * the oldest.
 *
 * @example const receiver = webhookReceiver({ secret, store: memoryWebhookStore({ maxKeys: 10_000 }) });
 */
export function memoryWebhookStore(options: MemoryWebhookStoreOptions = {}): WebhookStore {
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError(`memoryWebhookStore: maxKeys must be an integer >= 1, got ${String(maxKeys)}`);
  const entries = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const e = entries.get(key);
    if (e && e.expires <= Date.now()) entries.delete(key);
    return e && e.expires > Date.now() ? e : undefined;
  };
  /** Writes `key` (moved to the newest end), then drops lapsed and surplus keys from the oldest end. */
  const write = (key: string, ttlMs: number, change: (e: Entry) => void): Entry => {
    const e = live(key) ?? { expires: 0, count: 0, set: undefined };
    change(e);
    e.expires = Date.now() + ttlMs;
    entries.delete(key);
    entries.set(key, e);
    for (const [oldest, o] of entries) {
      if (entries.size <= maxKeys && o.expires > Date.now()) break;
      entries.delete(oldest);
    }
    return e;
  };
  return {
    claim: async (key, ttlMs) => {
      if (live(key)) return false;
      write(key, ttlMs, () => undefined);
      return true;
    },
    increment: async (key, by, ttlMs) => write(key, ttlMs, (e) => void (e.count += by)).count,
    remember: async (key, member, ttlMs) => void write(key, ttlMs, (e) => void (e.set = (e.set ?? new Set()).add(member))),
    members: async (key) => [...(live(key)?.set ?? [])],
    forget: async (key, member) => void (member === undefined ? entries.delete(key) : live(key)?.set?.delete(member)),
  };
}
