/**
 * Which failures retry and how long to wait. Every number of the retry policy
 * lives here.
 */
import { APIError, ConnectionError, RateLimitError, TimeoutError } from "./errors.js";

/** Statuses that are retried (never 409: a real conflict). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
/** First backoff step, in ms. */
export const BACKOFF_BASE_MS = 500;
/** Largest backoff step, in ms. */
export const BACKOFF_MAX_MS = 8_000;

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
    if (policy === "not-idempotent") return err.status === 429;
    return RETRYABLE_STATUSES.has(err.status);
  }
  return false;
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

/** Exponential backoff with full jitter over [50%, 100%] of the step: 0.5 s doubling to 8 s. */
export function backoffMs(retryNumber: number, random: () => number = Math.random): number {
  const step = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retryNumber - 1));
  return Math.round(step * (0.5 + random() * 0.5));
}

/**
 * The wait before retry number `retryNumber` (1-based), or `undefined` when the
 * server asked for longer than `maxRetryAfterMs` (then the error is thrown as is).
 */
export function retryDelayMs(err: unknown, retryNumber: number, maxRetryAfterMs: number): number | undefined {
  const hint = err instanceof RateLimitError ? err.retryAfterMs : err instanceof APIError ? parseRetryAfter(err.headers) : undefined;
  if (hint !== undefined) return hint > maxRetryAfterMs ? undefined : hint;
  return backoffMs(retryNumber);
}

/** Waits `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
