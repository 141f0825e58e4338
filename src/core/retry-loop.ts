/**
 * The retries after a failed first attempt, driven by p-retry. A module of its
 * own, loaded by `retry.ts` on the first failure: a call that succeeds at once
 * (most calls) never loads p-retry, so it is not in the initial browser download.
 * The decision and the server-directed wait stay in `retry.ts`, passed in as
 * `onFailedAttempt`; this module only runs the loop.
 */
import pRetry from "p-retry";
import { AbortError, WebDataError } from "./errors.js";

/** How to run the loop (every p-retry option is set from these). */
export interface RetryLoopOptions {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff step, ms. */
  minTimeout: number;
  /** Largest backoff wait, ms. */
  maxTimeout: number;
  /** Aborts the loop and its waits. */
  signal?: AbortSignal | undefined;
  /** `METHOD /path`, for the message of an unexpected failure. */
  endpoint: string;
  /**
   * Decides on a failed attempt: throws to stop with that error; otherwise sleeps the
   * server-directed wait, if any, and resolves `true` when it did (p-retry then adds no backoff).
   */
  onFailedAttempt(error: unknown, attemptNumber: number): Promise<boolean>;
}

/** Replays `first` as p-retry's attempt 1, then runs `attempt(n)` for n >= 2 until it succeeds or a decision stops it. */
export async function retryLoop<R>(first: unknown, attempt: (n: number) => Promise<R>, options: RetryLoopOptions, aborted: () => AbortError): Promise<R> {
  const { signal } = options;
  const serverWaited = new WeakSet<object>();
  try {
    return await pRetry((n) => (n === 1 ? Promise.reject(first) : attempt(n)), {
      retries: options.retries,
      factor: 2,
      minTimeout: options.minTimeout,
      maxTimeout: options.maxTimeout,
      randomize: true,
      maxRetryTime: Number.POSITIVE_INFINITY,
      unref: false,
      signal,
      onFailedAttempt: async ({ error, attemptNumber }) => {
        if (await options.onFailedAttempt(error, attemptNumber)) serverWaited.add(error);
      },
      shouldConsumeRetry: ({ error }) => !serverWaited.has(error),
      shouldRetry: () => true,
    });
  } catch (error) {
    if (signal?.aborted) throw error instanceof AbortError ? error : aborted();
    if (error instanceof WebDataError) throw error;
    throw new WebDataError(`Unexpected failure in ${options.endpoint}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
