/**
 * Retries, in one home: which failures retry (the decision), how long to wait
 * (the server's wait, else p-retry's backoff; a watcher's reconnect backoff) and
 * the `x-idempotency-key`.
 * Every number of the retry policy lives here; `request.ts` only calls
 * {@link withRetries} around one attempt.
 */
import pRetry from "p-retry";
import { delay } from "./time.js";
import { AbortError, APIError, ConnectionError, InternalServerError, isClientError, PaginationError, RateLimitError, TimeoutError, ValidationError, WebDataError } from "./errors.js";

/** Statuses that are retried (never 409: a real conflict): the one list; every other module asks {@link isRetryable}. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** First backoff step, in ms (p-retry `minTimeout`; with `randomize` the wait is 1..2 times the step). */
export const BACKOFF_BASE_MS = 500;
/** Largest backoff wait, in ms (p-retry `maxTimeout`). */
export const BACKOFF_MAX_MS = 8_000;

/**
 * @internal Key of a test-only client option that replaces {@link BACKOFF_BASE_MS}
 * (for example 10 ms, so a suite whose every connection is refused does not sleep
 * seconds of backoff over real sockets, where fake timers cannot be used). Not a
 * public option (as `POLL_FLOOR_OPTION` in `jobs/pages.ts`); a registry
 * symbol, so tests of the built package can pass it too.
 */
export const BACKOFF_BASE_OPTION: unique symbol = Symbol.for("webdata.internal.backoffBaseMs");

/**
 * 5xx `code`s that a retry cannot fix (reference §1.2, recorded exchanges): the
 * server already tried every engine, the target failed for good, or the request
 * itself is what fails. `UNKNOWN_ERROR`, the timeouts and codes not listed here
 * stay retryable.
 */
export const FINAL_SERVER_CODES: ReadonlySet<string> = new Set([
  "SCRAPE_ALL_ENGINES_FAILED",
  "SCRAPE_DNS_RESOLUTION_ERROR",
  "SCRAPE_SSL_ERROR",
  "SCRAPE_SITE_ERROR",
  "SCRAPE_RETRY_LIMIT",
  "SCRAPE_UNSUPPORTED_FILE_ERROR",
  "SCRAPE_ACTION_ERROR",
  "SCRAPE_ACTIONS_NOT_SUPPORTED",
  "SCRAPE_BRANDING_NOT_SUPPORTED",
  "SCRAPE_ZDR_VIOLATION_ERROR",
  "SCRAPE_PDF_ANTIBOT_ERROR",
  "SCRAPE_DOCUMENT_ANTIBOT_ERROR",
  "SCRAPE_PDF_OCR_REQUIRED",
  "SCRAPE_PDF_INSUFFICIENT_TIME_ERROR",
  "SCRAPE_NO_CACHED_DATA",
  "SCRAPE_JOB_CANCELLED",
  "AGENT_INDEX_ONLY",
  "CRAWL_DENIAL",
  "BAD_REQUEST",
  "BAD_REQUEST_INVALID_JSON",
]);

/** Server texts of 5xx answers caused by the server's own configuration (a missing AI key, a disabled feature). */
const SERVER_CONFIG_FAILURE = /\bAPI key is missing\b|\bis not enabled\b|\bnot configured\b/i;

/** True for a 5xx a retry cannot fix: a code in {@link FINAL_SERVER_CODES}, or a server-configuration failure. */
export function isPermanentServerError(err: APIError): boolean {
  if (!(err instanceof InternalServerError)) return false;
  return (err.code !== undefined && FINAL_SERVER_CODES.has(err.code)) || SERVER_CONFIG_FAILURE.test(err.serverMessage);
}

/**
 * How a request may be retried:
 * - `safe`: reads, idempotent writes, and job starts that carry an idempotency key: every retryable failure.
 * - `not-idempotent`: a POST that creates something the server cannot de-duplicate: only failures that
 *   prove nothing was created (429, connection refused or unresolvable host).
 * - `not-sent-only`: only failures that prove the request never reached the server (connection refused,
 *   unresolvable host); used where even a 429 is final (agent signup's daily limit).
 * - `never`: no retries at all.
 */
export type RetryPolicy = "safe" | "not-idempotent" | "not-sent-only" | "never";

/** True when `err` may be retried under `policy`. */
export function isRetryable(err: unknown, policy: RetryPolicy): boolean {
  if (policy === "never") return false;
  if (err instanceof ConnectionError) return policy === "safe" || err.notSent;
  if (err instanceof TimeoutError) return policy === "safe";
  if (policy === "not-sent-only") return false;
  if (err instanceof APIError) {
    if (policy === "not-idempotent") return err instanceof RateLimitError;
    return RETRYABLE_STATUSES.has(err.status) && !isPermanentServerError(err);
  }
  return false;
}

/**
 * The watcher's fatal rule: true for a failure that retrying cannot fix, so a watcher stops at once
 * (its REST polls and its event stream alike): an API answer 4xx that is not retried
 * ({@link RETRYABLE_STATUSES}: 400, 401, 402, 403, 404, 409, ...; never 408 or 429), or a status page
 * whose `next` link was refused (`PaginationError`: the same link would be refused on every read; the
 * document iterators stop on it too). Anything else is a non-fatal error event and the watcher goes on.
 */
export function isWatchFatal(err: unknown): boolean {
  return err instanceof PaginationError || (isClientError(err) && !RETRYABLE_STATUSES.has(err.status));
}

/**
 * The server's wait hint in ms: `retry-after-ms`, then `Retry-After` (seconds or
 * an HTTP date), then the "retry after Ns" text this service puts in 429 bodies.
 */
export function parseRetryAfter(headers: Headers | undefined, bodyText?: string, now: number = Date.now()): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms) {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const ra = headers?.get("retry-after");
  if (ra) {
    const trimmed = ra.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  if (bodyText) {
    const m = /retry after (\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?)?\b/i.exec(bodyText);
    if (m) return m[2] === "ms" ? Number(m[1]) : Number(m[1]) * 1000;
  }
  return undefined;
}

/** The wait the server asked for before retrying after `err`, in ms (none: backoff applies). */
export function serverWaitMs(err: unknown): number | undefined {
  return err instanceof RateLimitError ? err.retryAfterMs : err instanceof APIError ? parseRetryAfter(err.headers) : undefined;
}

/** First wait before a watcher reconnects a dropped stream, ms (doubling per reconnect without progress, up to {@link RECONNECT_MAX_MS}). */
export const RECONNECT_BASE_MS = 100;
/** Longest wait before a watcher reconnects a dropped stream, ms. */
export const RECONNECT_MAX_MS = 5_000;

/** The jittered wait before reconnect number `tries` (1 for the first): half to all of the doubling step. */
export function reconnectDelayMs(tries: number): number {
  const step = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, tries - 1));
  return Math.round(step * (0.5 + Math.random() * 0.5));
}

/** One retry about to happen, as reported to `ClientOptions.onRetry`. */
export interface RetryEvent {
  /** `METHOD /path` of the call. */
  endpoint: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** Retries left after this one. */
  retriesLeft: number;
  /** Why the attempt failed. */
  error: WebDataError;
  /** The wait the server asked for (`Retry-After`, `retry-after-ms` or the 429 body text), in ms; `undefined` when the exponential backoff with jitter applies. */
  serverWaitMs: number | undefined;
}

/** What {@link withRetries} needs to know about one call. */
export interface RetryPlan {
  /** `METHOD /path`, for events and messages. */
  endpoint: string;
  /** Which failures may be retried. */
  policy: RetryPolicy;
  /** Retries after the first attempt, whatever mix of failures comes. */
  maxRetries: number;
  /** Longest server-directed wait honoured; a longer one throws the error at once. */
  maxRetryAfterMs: number;
  /** The caller's signal: aborts the waits, rejecting with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Told of each retry before its wait (a promise returned is awaited before the wait; its rejection fails the call). */
  onRetry?: ((event: RetryEvent) => void | Promise<void> | undefined) | undefined;
  /** @internal The client options' {@link BACKOFF_BASE_OPTION}: the first backoff step, ms, when a number from 0 to {@link BACKOFF_BASE_MS} (only tests lower it); else {@link BACKOFF_BASE_MS}. */
  backoffBaseMs?: unknown;
}

/**
 * Runs `attempt` (1-based attempt number) with retries driven by p-retry (`signal`: the caller's, checked
 * before the first attempt; `planOf` gives the {@link RetryPlan} once an attempt failed): its
 * exponential backoff with jitter (0.5 s doubling to 8 s) between attempts,
 * except after a failure where the server said how long to wait: that wait is
 * slept in `onFailedAttempt`, and `shouldConsumeRetry` returns false for it so
 * p-retry adds no backoff on top. Every failed attempt counts against
 * `maxRetries` here, so the budget is one number for every mix of failures.
 */
export async function withRetries<R>(attempt: (n: number) => Promise<R>, signal: AbortSignal | undefined, planOf: () => RetryPlan): Promise<R> {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
  try {
    // Fast path: most calls succeed at once, and entering p-retry costs ~10 us per call under load; the plan is
    // made only after a failure (`planOf`: no plan object and no retry callback for a call that succeeds).
    return await attempt(1);
  } catch (first) {
    const plan = planOf();
    return retryAfter(first, attempt, plan, () => new AbortError(undefined, { cause: plan.signal?.reason }));
  }
}

/** The retries after a failed first attempt, driven by p-retry (the failure replayed as its attempt 1). */
async function retryAfter<R>(first: unknown, attempt: (n: number) => Promise<R>, plan: RetryPlan, aborted: () => AbortError): Promise<R> {
  const { signal } = plan;
  const serverWaited = new WeakSet<Error>();
  const base = plan.backoffBaseMs;
  try {
    return await pRetry((n) => (n === 1 ? Promise.reject(first) : attempt(n)), {
      retries: plan.maxRetries,
      factor: 2,
      minTimeout: typeof base == "number" && base >= 0 && base <= BACKOFF_BASE_MS ? base : BACKOFF_BASE_MS,
      maxTimeout: BACKOFF_MAX_MS,
      randomize: true,
      maxRetryTime: Number.POSITIVE_INFINITY,
      unref: false,
      signal,
      onFailedAttempt: async ({ error, attemptNumber }) => {
        // The decision: anything not retried is thrown from here, so p-retry stops with it.
        if (!(error instanceof WebDataError) || attemptNumber > plan.maxRetries || !isRetryable(error, plan.policy)) throw error;
        const wait = serverWaitMs(error);
        if (wait !== undefined && wait > plan.maxRetryAfterMs) throw error;
        const told = plan.onRetry?.({ endpoint: plan.endpoint, attempt: attemptNumber, retriesLeft: plan.maxRetries - attemptNumber, error, serverWaitMs: wait });
        if (told) await told; // a hook's promise (`HookRun.retry`): its rejection stops the retries
        if (wait === undefined) return;
        serverWaited.add(error);
        await delay(wait, signal);
      },
      shouldConsumeRetry: ({ error }) => !serverWaited.has(error),
      shouldRetry: () => true,
    });
  } catch (error) {
    if (signal?.aborted) throw error instanceof AbortError ? error : aborted();
    if (error instanceof WebDataError) throw error;
    throw new WebDataError(`Unexpected failure in ${plan.endpoint}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** A random UUID v4, also where `crypto.randomUUID` is missing (non-secure browser contexts). */
export function uuid(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === "function") return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A UUID as the server checks it (the `uuid` package's `validate`): versions 1-8, or the nil and max UUIDs. */
const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/i;

/** The idempotency key of one call and the retry policy it allows. */
export interface IdempotencyPlan {
  /** The `x-idempotency-key` to send on every attempt, if any. */
  key: string | undefined;
  /** True when the key was generated here (not given by the caller). */
  generated: boolean;
  /** The retry policy of the call. */
  policy: RetryPolicy;
}

/**
 * Decides the call's key and policy. A caller's `given` key is always sent and
 * must be a UUID ({@link ValidationError} otherwise, before anything is sent).
 * Where the server honours keys (`honoured`: v2 crawl, v1 crawl and batch
 * starts) a key is generated when `generate` is on (the client's
 * `idempotencyKeys` option), and a keyed start is retried as `safe`; without a
 * key such a start keeps its own policy (`not-idempotent`).
 */
export function idempotencyPlan(given: string | undefined, honoured: boolean, generate: boolean, policy: RetryPolicy | undefined): IdempotencyPlan {
  if (given !== undefined && (typeof given !== "string" || !UUID.test(given))) {
    throw new ValidationError([{ path: "idempotencyKey", message: `must be a UUID (the server answers 409 to any other key), got ${JSON.stringify(given)}` }], "request options");
  }
  const key = given ?? (honoured && generate ? uuid() : undefined);
  if (!honoured) return { key, generated: false, policy: policy ?? "safe" };
  return { key, generated: given === undefined && key !== undefined, policy: key ? "safe" : (policy ?? "not-idempotent") };
}

/**
 * Adds the likely cause to a 500 `UNKNOWN_ERROR` answered to a keyed start by a
 * server other than the public deployment: self-hosted servers without their
 * database fail every request that carries `x-idempotency-key`. The server's
 * own text stays in `serverMessage`.
 */
export function explainKeyedFailure(err: unknown, keySent: boolean, publicDeployment: boolean): unknown {
  if (keySent && !publicDeployment && err instanceof APIError && err.status === 500 && err.code === "UNKNOWN_ERROR") {
    err.message += ". This request carried an x-idempotency-key: a self-hosted server without its database answers 500 to any; leave `idempotencyKey` unset and the `idempotencyKeys` option off (its default off the public deployment).";
  }
  return err;
}

/**
 * Runs `fn`, tried again every `stepMs` (no backoff) for up to `forMs` while `again(error)` says so; p-retry drives the
 * loop. For retries outside the request path: `webdata/redis`'s budget settling a reservation while Redis is away.
 */
export function retryEvery<T>(fn: () => Promise<T>, stepMs: number, forMs: number, again: (error: unknown) => boolean): Promise<T> {
  return pRetry(fn, { retries: Math.ceil(forMs / stepMs), minTimeout: stepMs, factor: 1, randomize: false, maxRetryTime: forMs, shouldRetry: ({ error }) => again(error) });
}
