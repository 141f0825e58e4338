/**
 * The client's memory, on the client: what one client remembers between its calls lives in one
 * {@link ClientState}, made with its `HttpClient` (so one per `WebData`; its `v1` layer and the
 * `webdata/firecrawl` drop-in over it share it) and reached as `http.state` by every `api/` and
 * `jobs/` function, which all receive the `HttpClient`. Nothing of it is in module scope, so two
 * clients in one process never change each other's results, and what ran before in the process
 * changes nothing (`test/architecture-time-state.test.ts` fails on module-level state keyed by a
 * client). The credit meter belongs here too when it comes; the concurrency limiter is here
 * ({@link ClientState.limiter}, with the in-process one, {@link LocalSlots}, and {@link takeSlot}).
 */
import { onAbort } from "./abort.js";
import { AbortError, TimeoutError } from "./errors.js";
import { after } from "./time.js";

/** One client's memory between its calls (see the module's note). Only the modules named on each field write it. */
export class ClientState {
  /**
   * Crawl and batch-scrape starts of this client, v1 and v2: job id to the `Date.now()` of the start,
   * for the 404 grace after a start (`api/job-starts.ts` notes them, drops those past the grace and reads them).
   */
  readonly starts = new Map<string, number>();

  /**
   * Jobs this client cancelled (`jobs/status.ts` `cancelJob` notes them): a self-hosted server later reports
   * such a job `completed`, and the waiters and the watcher report it cancelled.
   */
  readonly cancelled = new Set<string>();

  /** The notices this client has given, each said once per client (`api/scrape.ts`: "json-missing", a json format answered without json). */
  readonly said = new Set<string>();

  /**
   * The WebSocket class the client's entry gives its watchers where the runtime has none (the Node
   * entry: undici's, loaded when a watcher first needs it, whatever ran before). Set once by the
   * entry's constructor; read by `jobs/watcher.ts` after a `webSocket` option and the global one.
   */
  webSocket: (() => Promise<unknown>) | undefined = undefined;

  /**
   * What bounds this client's calls that occupy the team's browsers (`maxConcurrency` or `limiter` of the
   * client options), or undefined: no bound. Set once by `client.ts` (the `WebData` constructor, which
   * every face of the client goes through); read by `api/endpoint.ts` `sendChecked`.
   */
  limiter: ConcurrencyLimiter | undefined = undefined;
}

/** Gives back a slot that {@link ConcurrencyLimiter.acquire} gave. The client calls it once, when the call settles. */
export type ReleaseSlot = () => void | Promise<void>;

/**
 * A bound on how many calls that occupy the team's browsers run at once (the client option `limiter`).
 * `acquire` resolves when a slot is held, with the function that gives it back; it must reject soon after
 * `signal` aborts (with any error: the client reports its own `AbortError` or `TimeoutError`), and hold
 * nothing then. `webdata/redis` `redisLimiter` is one shared by processes and machines; the client's own
 * `maxConcurrency` is an in-process one.
 *
 * @example
 * const limiter: ConcurrencyLimiter = { acquire: async () => () => undefined }; // no bound at all
 */
export interface ConcurrencyLimiter {
  /** Takes a slot, waiting for one while all are held; rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
}

/**
 * The in-process limiter: a counting semaphore over a first-in first-out queue of waiters. Its size can
 * change while it is used (`maxConcurrency: "auto"` follows the team's figure): a smaller size takes
 * effect as slots are given back, a larger one lets waiters in at once.
 */
export class LocalSlots implements ConcurrencyLimiter {
  #limit: number;
  #held = 0;
  readonly #waiting: ((release: ReleaseSlot) => void)[] = [];

  /** A limiter of `limit` slots (an integer >= 1, checked by the caller). */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** How many slots there are. */
  get limit(): number {
    return this.#limit;
  }

  /** How many slots are held now. */
  get held(): number {
    return this.#held;
  }

  /** How many calls wait for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Sets the number of slots (an integer >= 1); waiters that now fit get theirs. */
  resize(limit: number): void {
    this.#limit = limit;
    this.#drain();
  }

  /** A free slot taken at once, or undefined when all are held or calls wait already (no timer, no promise: the uncontended path). */
  tryTake(): ReleaseSlot | undefined {
    return this.#held < this.#limit && this.#waiting.length === 0 ? this.#take() : undefined;
  }

  /** Takes a slot, in the order of the calls; rejects with an `AbortError` when `signal` aborts first (and then holds nothing). */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot> {
    const now = this.tryTake();
    if (now) return Promise.resolve(now);
    if (signal?.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }));
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const grant = (release: ReleaseSlot): void => {
        off?.();
        resolve(release);
      };
      const off = signal
        ? onAbort(signal, () => {
            const at = this.#waiting.indexOf(grant);
            if (at >= 0) this.#waiting.splice(at, 1);
            reject(new AbortError(undefined, { cause: signal.reason }));
          })
        : undefined;
      this.#waiting.push(grant);
    });
  }

  #take(): ReleaseSlot {
    this.#held += 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#held -= 1;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#held < this.#limit && this.#waiting.length > 0) this.#waiting.shift()!(this.#take());
  }
}

/**
 * Takes a slot of `limiter` for one call: at once when a local one is free, else waiting at most `waitMs`
 * (the call's own limit: the wait counts against it) and no longer than `signal` lets it. Rejects with the
 * client's `AbortError` (the caller's signal fired) or a `TimeoutError` naming the wait (nothing was sent).
 */
export async function takeSlot(limiter: ConcurrencyLimiter, signal: AbortSignal | undefined, waitMs: number, endpoint: string): Promise<ReleaseSlot> {
  const free = limiter instanceof LocalSlots ? limiter.tryTake() : undefined;
  if (free) return free;
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
