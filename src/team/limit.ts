/**
 * The concurrency slot, a stage of the request path (`webdata/team`): the calls that occupy the team's browsers
 * (`Endpoint.occupies`: scrape, search with formats, interact and browser execute, crawl and batch-scrape starts) hold
 * a slot of the client's limiter from before they are sent until they settle. The limiter is the `limiter` option
 * (`redisLimiter` of `webdata/redis`: shared by processes and machines), or the in-process one of `maxConcurrency`
 * ({@link LocalSlots}, over p-queue), sized by the team's own figure with `"auto"`.
 */
import PQueue from "p-queue";
import { after, onAbort } from "../core/time.js";
import type { ConcurrencyLimiter, ReleaseSlot } from "../core/client-state.js";
import { AbortError, TimeoutError } from "../core/errors.js";
import type { HttpClient } from "../core/request.js";
import { getQueueStatus } from "../api/usage.js";

/** A queue task that is a slot: it runs (holds a place of p-queue's `concurrency`) until the release it hands `grant` is called (once; again does nothing). */
function slot(grant: (release: ReleaseSlot) => void): () => Promise<void> {
  return () =>
    new Promise<void>((done) => {
      let given = false;
      grant(() => {
        if (given) return;
        given = true;
        done();
      });
    });
}

/**
 * The in-process limiter: at most `limit` slots held at once, waiters served first in first out (p-queue's queue: a
 * slot is a task of the queue that runs until the slot is given back). Its size can change while it is used
 * (`maxConcurrency: "auto"` follows the team's figure): a smaller size takes effect as slots are given back, a larger
 * one lets waiters in at once.
 */
export class LocalSlots implements ConcurrencyLimiter {
  readonly #queue: PQueue;

  /** A limiter of `limit` slots (an integer >= 1, checked by the caller). */
  constructor(limit: number) {
    this.#queue = new PQueue({ concurrency: limit });
  }

  /** How many slots there are. */
  get limit(): number {
    return this.#queue.concurrency;
  }

  /** How many slots are held now. */
  get held(): number {
    return this.#queue.pending;
  }

  /** How many calls wait for a slot now. */
  get waiting(): number {
    return this.#queue.size;
  }

  /** Sets the number of slots (an integer >= 1); waiters that now fit get theirs. */
  resize(limit: number): void {
    this.#queue.concurrency = limit;
  }

  /**
   * A free slot taken at once, or undefined when all are held or calls wait already: the uncontended path, with no timer
   * and no promise of ours (p-queue starts a task at once when a place is free, so the slot's release is known here).
   */
  tryTake(): ReleaseSlot | undefined {
    if (this.#queue.pending >= this.#queue.concurrency || this.#queue.size > 0) return undefined;
    let release: ReleaseSlot | undefined;
    void this.#queue.add(slot((r) => (release = r)));
    return release;
  }

  /** Takes a slot, in the order of the calls; rejects with an `AbortError` when `signal` aborts first (and then holds nothing). */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
    return new Promise<ReleaseSlot>((resolve, reject) => {
      this.#queue
        .add(slot(resolve), { signal })
        .catch(() => reject(new AbortError(undefined, { cause: signal?.reason }))); // p-queue dropped the waiter: its signal aborted
    });
  }
}

/**
 * Takes a slot of `limiter` for one call, waiting at most `waitMs` (the call's own limit: the wait counts against it) and
 * no longer than `signal` lets it. Rejects with the client's `AbortError` (the caller's signal fired) or a `TimeoutError`
 * naming the wait (nothing was sent).
 */
export async function takeSlot(limiter: ConcurrencyLimiter, signal: AbortSignal | undefined, waitMs: number, endpoint: string): Promise<ReleaseSlot> {
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
  const ctl = new AbortController();
  const off = signal ? onAbort(signal, () => ctl.abort(new AbortError(undefined, { cause: signal.reason }))) : undefined;
  const cancel = after(waitMs, () => ctl.abort(new TimeoutError(waitMs, `${endpoint}, waiting for a concurrency slot`)));
  try {
    const release = await limiter.acquire(ctl.signal);
    if (ctl.signal.aborted) {
      // Granted as the wait ended: give it back, the call is over.
      void Promise.resolve().then(release).catch(() => undefined);
      throw ctl.signal.reason;
    }
    return release;
  } catch (err) {
    throw ctl.signal.aborted ? ctl.signal.reason : err;
  } finally {
    cancel();
    off?.();
  }
}

/** `maxConcurrency: "auto"` until the server says: the smallest plan's figure (2 browsers at once), safe on every plan. */
export const AUTO_CONCURRENCY_DEFAULT = 2;
/** How long `maxConcurrency: "auto"` keeps the team's figure before it reads `GET /v2/team/queue-status` again, ms. */
export const AUTO_CONCURRENCY_REFRESH_MS = 60_000;

/** The limiter the client options ask for (`limiter`, or `maxConcurrency` a number or `"auto"`), or undefined: no bound. */
export function concurrencyLimiter(http: HttpClient, limiter: ConcurrencyLimiter | undefined, maxConcurrency: number | "auto" | undefined): ConcurrencyLimiter | undefined {
  if (limiter) return limiter;
  if (maxConcurrency === undefined) return undefined;
  return maxConcurrency === "auto" ? autoLimiter(http) : new LocalSlots(maxConcurrency);
}

/**
 * `maxConcurrency: "auto"`: in-process slots sized by the team's `maxConcurrency` (`GET /v2/team/queue-status`),
 * read before the first held call (which waits for the answer) and again, without holding anyone up, once
 * {@link AUTO_CONCURRENCY_REFRESH_MS} have passed. A failed read or an answer without a positive integer keeps
 * the size in force ({@link AUTO_CONCURRENCY_DEFAULT} at first) until the next read.
 */
function autoLimiter(http: HttpClient): ConcurrencyLimiter {
  const slots = new LocalSlots(AUTO_CONCURRENCY_DEFAULT);
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  let sized: Promise<void> | undefined;
  const read = (): Promise<void> => {
    readAt = Date.now();
    reading = getQueueStatus(http)
      .then(
        ({ maxConcurrency: n }) => {
          if (Number.isInteger(n) && n >= 1) slots.resize(n);
          else http.log("warn", `maxConcurrency "auto": the server's queue status gave no maxConcurrency; keeping ${slots.limit}`);
        },
        (err: unknown) => http.log("warn", `maxConcurrency "auto": could not read the team's queue status; keeping ${slots.limit} (${err instanceof Error ? err.message : String(err)})`),
      )
      .finally(() => (reading = undefined));
    return reading;
  };
  return {
    acquire(signal) {
      if (!reading && Date.now() - readAt >= AUTO_CONCURRENCY_REFRESH_MS) void read();
      sized ??= reading ?? Promise.resolve();
      return untilAborted(sized, signal).then(() => slots.acquire(signal));
    },
  };
}

/** `p`, or an `AbortError` as soon as `signal` aborts. */
function untilAborted(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
  return new Promise<void>((resolve, reject) => {
    const off = onAbort(signal, () => reject(new AbortError(undefined, { cause: signal.reason })));
    p.then(() => {
      off();
      resolve();
    }, reject);
  });
}
