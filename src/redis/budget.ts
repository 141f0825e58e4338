/**
 * `redisBudget`: one credit budget for every worker of a team, kept in Redis (atomic Lua scripts through your `ioredis`
 * client; no lock of ours). The `team` plugin's budget stage decides what each call reserves and what settles it
 * (`team/budget.ts` `SharedCredits`); this module only keeps the figures: a reservation per call in flight, each with
 * a lease, the credits spent, each job's running total, per window (a UTC day, a UTC month, or none).
 */
import type { CreditReservation, SharedBudget } from "../core/client-state.js";
import { ValidationError, type ValidationIssue } from "../core/errors.js";
import { retryEvery } from "../core/retry.js";
import { after, type CancelTimer } from "../core/time.js";
import { RELEASE, REFRESH, REPORT, RESERVE, SETTLE } from "./scripts.js";
import { DEFAULT_REDIS_TIMEOUT_MS, guarded, redisDown, RedisUnavailableError, type RedisState } from "./unavailable.js";

/** The part of an `ioredis` client `redisBudget` uses: `defineCommand` (its scripts), `get`, and its connection `status`. */
export interface RedisBudgetClient extends RedisState {
  /** ioredis's `defineCommand`: the budget's scripts become commands of the client (`webdataBudgetReserve`, ...). */
  defineCommand(name: string, definition: { numberOfKeys?: number; lua: string }): void;
  /** `GET key`. */
  get(key: string): Promise<string | null>;
}

/** Options of {@link redisBudget}. */
export interface RedisBudgetOptions {
  /** The Redis client (`ioredis`). The budget neither connects nor closes it: it is yours. */
  redis: RedisBudgetClient;
  /** The budget's name: every client with the same Redis and key shares it (Redis keys `webdata-budget:{<key>}:<window>:*`). Use one per team. */
  key: string;
  /** The cap: the most credits all the clients sharing it may spend (in each window), a number >= 0. */
  credits: number;
  /** `"day"` (a UTC day) or `"month"` (a UTC month): the cap holds per window and a new window starts from 0. Default: none, one total. */
  window?: "day" | "month" | undefined;
  /** How long a reservation lasts without a refresh, ms (default 30000): the longest a dead worker's reservation (or a job start's, without status reads) stays held. */
  leaseMs?: number | undefined;
  /** Once a running job a waiter watches passes the cap: `"cancel"` it, then throw (default), or `"throw"` only. */
  onExceeded?: "cancel" | "throw" | undefined;
  /**
   * While Redis cannot be reached: `"fail"` (the default) refuses spending calls with `RedisUnavailableError` (nothing
   * sent); `{ credits: n }` goes on under this process's own budget of `n` credits (counted from 0 in the process, for
   * as long as it runs) until Redis is back.
   */
  whenRedisDown?: "fail" | { credits: number } | undefined;
  /** How long one Redis command may take before Redis counts as unreachable, ms (default 2000). */
  redisTimeoutMs?: number | undefined;
}

/** Default {@link RedisBudgetOptions.leaseMs}. */
export const DEFAULT_BUDGET_LEASE_MS = 30_000;
/** How long a settle (or a release) that Redis could not take is tried again, ms: what a call spent is counted once Redis is back within it. */
export const SETTLE_RETRY_MS = 60_000;
/** The pause between two tries of a settle, ms. */
const SETTLE_RETRY_STEP_MS = 250;

/** The scripts, by the command name they get on the client. */
const COMMANDS = { webdataBudgetReserve: RESERVE, webdataBudgetSettle: SETTLE, webdataBudgetReport: REPORT, webdataBudgetRelease: RELEASE, webdataBudgetRefresh: REFRESH } as const;
type Command = keyof typeof COMMANDS;

/** How long a window's keys outlive it, ms: a day's two days, a month's 62. */
const WINDOW_TTL_MS = { day: 2 * 86_400_000, month: 62 * 86_400_000 } as const;

/** The window of `at` (ms): `all`, `2026-11-28` or `2026-11`. */
function windowOf(window: RedisBudgetOptions["window"], at: number): string {
  if (!window) return "all";
  const iso = new Date(at).toISOString();
  return window === "day" ? iso.slice(0, 10) : iso.slice(0, 7);
}

/** The issues of `o`, the options as given. */
function issuesOf(o: Partial<RedisBudgetOptions>): ValidationIssue[] {
  const r = o.redis as Partial<RedisBudgetClient> | undefined;
  const count = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  const ms = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) >= 1);
  const down = o.whenRedisDown;
  return [
    ...(typeof r?.defineCommand === "function" && typeof r.get === "function" ? [] : [{ path: "redis", message: "must be an ioredis client (new Redis(url))" }]),
    ...(typeof o.key === "string" && o.key !== "" ? [] : [{ path: "key", message: "must be a non-empty string" }]),
    ...(count(o.credits) ? [] : [{ path: "credits", message: `must be a finite number >= 0, got ${JSON.stringify(o.credits) ?? typeof o.credits}` }]),
    ...(o.window === undefined || o.window === "day" || o.window === "month" ? [] : [{ path: "window", message: 'must be "day", "month" or left out (no window)' }]),
    ...(ms(o.leaseMs) ? [] : [{ path: "leaseMs", message: "must be an integer >= 1 (ms)" }]),
    ...(ms(o.redisTimeoutMs) ? [] : [{ path: "redisTimeoutMs", message: "must be an integer >= 1 (ms)" }]),
    ...(o.onExceeded === undefined || o.onExceeded === "cancel" || o.onExceeded === "throw" ? [] : [{ path: "onExceeded", message: 'must be "cancel" or "throw"' }]),
    ...(down === undefined || down === "fail" || count((down as { credits?: unknown } | null)?.credits) ? [] : [{ path: "whenRedisDown", message: 'must be "fail" or { credits: n } (n >= 0, this process\'s own budget while Redis is away)' }]),
  ];
}

/**
 * A credit budget shared by every client (in any process, on any machine) given the same Redis and `key`: together they
 * spend at most `credits` (per `window`), within the bound the README states ("Running a fleet"). Give it to
 * `new WebData({ plugins: [team], budget: redisBudget(...) })`. Each spending call reserves its stated maximum before it
 * is sent (refused with `BudgetExceededError` when it does not fit; nothing sent) and settles it with what its answer
 * reports; a failed call gives its reservation back; a dead worker's lapses after `leaseMs`.
 *
 * @example const budget = redisBudget({ redis, key: "webdata:team-1", credits: 1000, window: "month" });
 */
export function redisBudget(options: RedisBudgetOptions): SharedBudget {
  const o = (options ?? {}) as Partial<RedisBudgetOptions>;
  const issues = issuesOf(o);
  if (issues.length) throw new ValidationError(issues, "redisBudget options");
  return new RedisCredits(o as RedisBudgetOptions);
}

/** A command of the budget's scripts on the client (after `defineCommand`). */
type Run = (...args: (string | number)[]) => Promise<unknown>;

/** {@link redisBudget}'s budget. */
class RedisCredits implements SharedBudget {
  readonly name: string;
  readonly credits: number;
  readonly onExceeded: "cancel" | "throw" | undefined;
  readonly #o: RedisBudgetOptions;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #local: LocalCredits | undefined;

  constructor(o: RedisBudgetOptions) {
    this.#o = o;
    this.credits = o.credits;
    this.onExceeded = o.onExceeded;
    this.#leaseMs = o.leaseMs ?? DEFAULT_BUDGET_LEASE_MS;
    this.#timeoutMs = o.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    this.#local = typeof o.whenRedisDown === "object" ? new LocalCredits(o.whenRedisDown.credits) : undefined;
    this.name = `Redis budget "${o.key}"${o.window ? ` (per UTC ${o.window})` : ""}`;
    for (const [name, lua] of Object.entries(COMMANDS)) o.redis.defineCommand(name, { numberOfKeys: 5, lua });
  }

  /** The five keys of the window of now, and how long they live. */
  #keys(): { keys: string[]; ttl: number } {
    const base = `webdata-budget:{${this.#o.key}}:${windowOf(this.#o.window, Date.now())}`;
    return { keys: [`${base}:spent`, `${base}:holds`, `${base}:leases`, `${base}:jobs`, `${base}:settled`], ttl: this.#o.window ? WINDOW_TTL_MS[this.#o.window] : 0 };
  }

  /** Runs `command` on `keys` with `args`, bounded by `redisTimeoutMs` (a `RedisUnavailableError` when Redis is away). */
  #run(command: Command, keys: string[], ...args: (string | number)[]): Promise<unknown> {
    const run = (this.#o.redis as unknown as Record<Command, Run>)[command].bind(this.#o.redis);
    return guarded(this.#o.redis, this.#timeoutMs, () => run(...keys, ...args), (reason, cause) => new RedisUnavailableError("budget", this.#o.key, reason, cause));
  }

  /** `fn` on Redis; while Redis is away, with `whenRedisDown: { credits }`, `local` on this process's own budget instead. */
  async #either<T>(fn: () => Promise<T>, local: (l: LocalCredits) => T): Promise<T> {
    if (this.#local && redisDown(this.#o.redis)) return local(this.#local);
    try {
      return await fn();
    } catch (err) {
      if (this.#local && err instanceof RedisUnavailableError) return local(this.#local);
      throw err;
    }
  }

  reserve(credits: number): Promise<CreditReservation> {
    return this.#either(() => this.#reserve(credits), (l) => l.reserve(credits));
  }

  async #reserve(credits: number): Promise<CreditReservation> {
    const { keys, ttl } = this.#keys();
    const id = crypto.randomUUID();
    const [ok, spent, reserved] = (await this.#run("webdataBudgetReserve", keys, id, credits, this.credits, this.#leaseMs, ttl)) as [number, string, string];
    if (Number(ok) !== 1) return { held: false, spent: Number(spent), reserved: Number(reserved) };
    // The lease is refreshed while the call runs (a scrape may outlast it), and until its settle is taken; a refresh that fails is tried again at the next tick.
    let stop: CancelTimer = () => undefined;
    const tick = () => (stop = after(Math.max(1, Math.floor(this.#leaseMs / 3)), () => void this.#run("webdataBudgetRefresh", keys, id, this.#leaseMs).then(tick, tick)));
    tick();
    let open = true;
    const end = async <T>(fn: () => Promise<T>): Promise<T> => {
      open = false;
      try {
        return await this.#again(fn);
      } finally {
        stop();
      }
    };
    return {
      held: true,
      settle: (spentNow, jobId) => (open ? end(async () => Number(await this.#run("webdataBudgetSettle", keys, id, spentNow, jobId ?? "", this.#leaseMs, ttl))) : Promise.resolve(NaN)),
      release: () => (open ? end(async () => void (await this.#run("webdataBudgetRelease", keys, id))) : Promise.resolve()),
    };
  }

  /**
   * `fn`, tried again while Redis is away, every {@link SETTLE_RETRY_STEP_MS} for up to {@link SETTLE_RETRY_MS} (`core/retry.ts`
   * `retryEvery`): a settle is counted once Redis is back; not once the client has ended (closed: it never reconnects).
   */
  #again<T>(fn: () => Promise<T>): Promise<T> {
    return retryEvery(fn, SETTLE_RETRY_STEP_MS, SETTLE_RETRY_MS, (err) => err instanceof RedisUnavailableError && this.#o.redis.status !== "end");
  }

  report(jobId: string, credits: number, done: boolean): Promise<number> {
    const { keys, ttl } = this.#keys();
    return this.#either(async () => Number(await this.#run("webdataBudgetReport", keys, jobId, credits, done ? "1" : "0", this.#leaseMs, ttl)), (l) => l.report(jobId, credits));
  }

  spent(): Promise<number> {
    const [spentKey] = this.#keys().keys;
    return this.#either(async () => Number((await guarded(this.#o.redis, this.#timeoutMs, () => this.#o.redis.get(spentKey!), (reason, cause) => new RedisUnavailableError("budget", this.#o.key, reason, cause))) ?? 0), (l) => l.spent);
  }
}

/** This process's own budget while Redis is away (`whenRedisDown: { credits }`): the same rules, in memory. */
class LocalCredits {
  spent = 0;
  #held = 0;
  readonly #jobs = new Map<string, number>();
  readonly #cap: number;

  constructor(cap: number) {
    this.#cap = cap;
  }

  reserve(credits: number): CreditReservation {
    if (this.spent + this.#held >= this.#cap || this.spent + this.#held + credits > this.#cap) return { held: false, spent: this.spent, reserved: this.#held };
    this.#held += credits;
    let open = true;
    const end = () => ((open = false), (this.#held -= credits));
    return {
      held: true,
      settle: (used) => Promise.resolve(open ? (end(), (this.spent += used)) : this.spent),
      release: () => Promise.resolve(void (open && end())),
    };
  }

  report(jobId: string, credits: number): number {
    const before = this.#jobs.get(jobId) ?? 0;
    if (credits > before) (this.#jobs.set(jobId, credits), (this.spent += credits - before));
    return this.spent;
  }
}
