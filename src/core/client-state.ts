/**
 * The client's memory, on the client: what one client remembers between its calls lives in one
 * {@link ClientState}, made with its `HttpClient` (so one per `WebData`; its `v1` layer and the
 * `webdata/firecrawl` drop-in over it share it) and reached as `http.state` by every `api/` and
 * `jobs/` function, which all receive the `HttpClient`. Nothing of it is in module scope, so two
 * clients in one process never change each other's results, and what ran before in the process
 * changes nothing (`test/architecture-time-state.test.ts` fails on module-level state keyed by a
 * client). The credit meter ({@link ClientState.credits}, {@link ClientCreditMeter}) and the concurrency
 * limiter ({@link ClientState.limiter}, with the in-process one, {@link LocalSlots}, and {@link takeSlot}) are here.
 */
import { onAbort } from "./abort.js";
import { AbortError, TimeoutError } from "./errors.js";
import { after } from "./time.js";

/** One client's memory between its calls (see the module's note). Only the modules named on each field write it. */
export class ClientState {
  /**
   * Crawl and batch-scrape starts of this client, v1 and v2: job id to the `Date.now()` of the start,
   * for the 404 grace after a start and for expiry (`api/job-starts.ts` notes them, keeps them a week and
   * at most 10,000, and reads them).
   */
  readonly starts = new Map<string, number>();

  /**
   * Expired jobs (issue 35): job id to the `expiresAt` its status reads reported (`api/job-starts.ts`
   * `noteExpiry`, from `jobs/status.ts`; at most 10,000), so a later 404 is named `JobExpiredError`.
   */
  readonly expiries = new Map<string, string>();

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
  /**
   * The credits this client spent (`client.credits`): `api/endpoint.ts` `sendChecked` hands it every answer
   * ({@link ClientCreditMeter.read}). Set once by `client.ts` (the `WebData` constructor, which every face of the
   * client goes through), so the meter is in no bundle without `WebData` (the standalone `scrape`, which no
   * one could ask); undefined there: nothing is counted.
   */
  credits: ClientCreditMeter | undefined = undefined;
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

/**
 * The names `client.credits.byOperation` counts under, one per kind of call that costs credits, whichever
 * face made it (`WebData`, `client.v1`, `webdata/firecrawl`): `scrape` (v1 and v2 `/scrape`), `parse`,
 * `search`, `map`, `crawl`, `batchScrape`, `extract`, `agent`, and v1's `llmsTxt` and `deepResearch`.
 */
export type CreditOperation = "scrape" | "parse" | "search" | "map" | "crawl" | "batchScrape" | "extract" | "agent" | "llmsTxt" | "deepResearch";

/** What {@link CreditMeter.snapshot} returns: plain data, a copy (later calls do not change it). */
export interface CreditSnapshot {
  /** Every credit counted, all operations and jobs. */
  total: number;
  /** Credits by {@link CreditOperation} (an operation not called yet is absent). */
  byOperation: Partial<Record<CreditOperation, number>>;
  /** Each job's credits (crawl, batch scrape, extract, agent and v1's generation jobs), by job id: its latest `creditsUsed`. */
  byJob: Record<string, number>;
}

/**
 * The answers the meter reads, by `METHOD path` (v1 and v2 alike): `POST /v{1,2}/<call>` (a call's own
 * cost) and `GET /v{1,2}/<job>/<id>` (a job's status: it reports a running total, so the meter keeps the
 * job's latest figure, once, not once per poll). Other answers (starts, cancels, `/crawl/active`, errors
 * pages, a job's trace) carry no `creditsUsed` of their own. One pattern splits the path, the tables name
 * the operation: a route no table names (a `GET` of a call, a `POST` with an id, `/v2/batch/scrape` itself)
 * counts nothing.
 */
const METERED_ROUTE = /^(POST|GET) \/v[12]\/([a-z-]+(?:\/scrape)?)(?:\/([^/?]+))?(?:\?|$)/;
/** The calls, by the path's resource. */
const METERED_CALLS = new Map<string, CreditOperation>([["scrape", "scrape"], ["parse", "parse"], ["search", "search"], ["map", "map"]]);
/** The jobs whose status the meter reads, by the path's resource. */
const METERED_JOBS = new Map<string, CreditOperation>([["crawl", "crawl"], ["batch/scrape", "batchScrape"], ["extract", "extract"], ["agent", "agent"], ["llmstxt", "llmsTxt"], ["deep-research", "deepResearch"]]);

/**
 * A call's documented flat price where its answer reports none (API reference §6: "Cost: 1 credit" for
 * map, whose answer carries no `creditsUsed`).
 */
const FLAT: Partial<Record<CreditOperation, number>> = { map: 1 };

/**
 * The credits an answer reports, as it reports them (`-1`: a self-hosted server that does not know):
 * `creditsUsed` at the top (search, job and task statuses), else in `data` or the document's
 * `data.metadata` (scrape and parse: `metadata.creditsUsed`, the page's cost). The one reading of it: the
 * meter counts what is >= 0, the hooks' `onResponse` passes it on (`core/request.ts`).
 */
export function reportedCredits(raw: unknown): number | undefined {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const rec = raw as { creditsUsed?: unknown; data?: { creditsUsed?: unknown; metadata?: { creditsUsed?: unknown } } } | null;
  if (typeof rec !== "object" || rec === null) return undefined;
  const data = typeof rec.data === "object" && rec.data !== null && !Array.isArray(rec.data) ? rec.data : undefined;
  return num(rec.creditsUsed) ?? num(data?.creditsUsed) ?? num(typeof data?.metadata === "object" && data.metadata !== null ? data.metadata.creditsUsed : undefined);
}

/** What the meter counts of an answer: its reported credits when >= 0. */
function creditsOf(raw: unknown): number | undefined {
  const n = reportedCredits(raw);
  return n !== undefined && n >= 0 ? n : undefined;
}

/** A job id from its route segment (`core/path.ts` encoded it). */
function idOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The credits one client spent, as the server reported them (`client.credits`; one per client, shared by
 * its `v1` face and the `webdata/firecrawl` drop-in over it, never by two clients). Read-only but for
 * {@link reset}. Each answer's `creditsUsed` is added under its operation (a scrape's or parse's is its
 * document's `metadata.creditsUsed`; a map, whose answer reports none, counts its documented 1 credit). A
 * job's status (crawl, batch scrape, extract, agent) reports the job's running total: the meter keeps each
 * job's latest, highest figure, so a job polled ten times counts once. A figure the server does not know
 * (`-1`, self-hosted) counts nothing. v1 search answers carry no `creditsUsed` and count nothing.
 */
export interface CreditMeter {
  /** Every credit counted: calls and jobs. */
  readonly total: number;
  /** Credits by operation (a copy; an operation not called yet is absent). */
  readonly byOperation: Readonly<Partial<Record<CreditOperation, number>>>;
  /** Each job's credits by job id (a copy): the latest figure its status reported. */
  readonly byJob: Readonly<Record<string, number>>;
  /** The meter as plain data, a copy: `{ total, byOperation, byJob }`. */
  snapshot(): CreditSnapshot;
  /** Forgets every count (a client's `budget` then counts from zero again). */
  reset(): void;
  /** The credits counted for the job `id` (`undefined` before its status reported any). */
  job(id: string): number | undefined;
}

/** The {@link CreditMeter} of one client, on its state: `read` is fed every answer by `api/endpoint.ts` `sendChecked`. */
export class ClientCreditMeter implements CreditMeter {
  readonly #calls = new Map<CreditOperation, number>();
  readonly #jobs = new Map<string, { op: CreditOperation; credits: number }>();

  /** Every credit counted: calls and jobs. */
  get total(): number {
    let sum = 0;
    for (const n of this.#calls.values()) sum += n;
    for (const j of this.#jobs.values()) sum += j.credits;
    return sum;
  }

  /** Credits by operation (a copy; an operation not called yet is absent). */
  get byOperation(): Readonly<Partial<Record<CreditOperation, number>>> {
    const out: Partial<Record<CreditOperation, number>> = Object.fromEntries(this.#calls);
    for (const j of this.#jobs.values()) out[j.op] = (out[j.op] ?? 0) + j.credits;
    return out;
  }

  /** Each job's credits by job id (a copy): the latest figure its status reported. */
  get byJob(): Readonly<Record<string, number>> {
    return Object.fromEntries([...this.#jobs].map(([id, j]) => [id, j.credits]));
  }

  /** The meter as plain data, a copy: `{ total, byOperation, byJob }`. */
  snapshot(): CreditSnapshot {
    return { total: this.total, byOperation: { ...this.byOperation }, byJob: { ...this.byJob } };
  }

  /** Forgets every count (a client's `budget` then counts from zero again). */
  reset(): void {
    this.#calls.clear();
    this.#jobs.clear();
  }

  /** The credits counted for the job `id` (`undefined` before its status reported any). */
  job(id: string): number | undefined {
    return this.#jobs.get(id)?.credits;
  }

  /** @internal Counts the answer `raw` to `method path` (`api/endpoint.ts` `sendChecked`, every answer of every face). */
  read(method: string | undefined, path: string | undefined, raw: unknown): void {
    const m = METERED_ROUTE.exec(`${method ?? ""} ${path ?? ""}`);
    if (!m) return;
    const [, verb, resource = "", id] = m;
    if (verb === "POST") {
      const op = id === undefined ? METERED_CALLS.get(resource) : undefined;
      const credits = op && (creditsOf(raw) ?? FLAT[op]);
      if (op && credits !== undefined) this.#calls.set(op, (this.#calls.get(op) ?? 0) + credits);
      return;
    }
    const op = id === undefined ? undefined : METERED_JOBS.get(resource);
    const credits = op && creditsOf(raw);
    if (!op || credits === undefined) return;
    const job = idOf(id!);
    const before = this.#jobs.get(job)?.credits ?? 0;
    this.#jobs.set(job, { op, credits: Math.max(before, credits) }); // a running total: set, never added
  }
}
