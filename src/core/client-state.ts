/**
 * The client's memory, on the client: what one client remembers between its calls lives in one
 * {@link ClientState}, made with its request layer (so one per `WebData`; its `v1` layer and the
 * `webdata/firecrawl` drop-in over it share it) and reached as `http.state` by every `api/` and
 * `jobs/` function, which all receive the request layer. Nothing of it is in module scope, so two
 * clients in one process never change each other's results, and what ran before in the process
 * changes nothing (`test/architecture-time-state.test.ts` fails on module-level state keyed by a
 * client). The seam of the governance stages ({@link Governance}: the budget, the concurrency slot, the
 * meter) is here too; what fills it (`webdata/team`, a plugin) is not, so a client configured without
 * them bundles none of their code.
 */
import { ValidationError } from "./errors.js";
import type { Budget } from "./options.js";

/** One client's memory between its calls (see the module's note). Only the modules named on each field write it. */
export class ClientState {
  /**
   * Crawl and batch-scrape starts of this client, v1 and v2: job id to the `Date.now()` of the start,
   * for the 404 grace after a start and for expiry (`api/job-starts.ts` notes them, keeps them a week and
   * at most 10,000, and reads them).
   */
  readonly starts = new Map<string, number>();

  /**
   * Expired jobs: job id to the `expiresAt` its status reads reported (`api/job-starts.ts`
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
   * The governance stages of this client's request path ({@link Governance}), set once by a plugin's `install`
   * (`webdata/team`) in the `WebData` constructor, which every face of the client goes through. Undefined: none.
   */
  governance: Governance | undefined = undefined;

  /** Batch outcomes (`byUrl`): a `BatchOutcomeReader` (`jobs/batch-outcomes.ts`), set by the `team` plugin of `webdata/team`; undefined without it. */
  outcomes: unknown = undefined;

  /** The stall detection of long jobs (`stallTimeoutMs`), set by the `team` plugin of `webdata/team`; undefined without it. */
  stall: StallDetection | undefined = undefined;

  /** What makes the client's legacy v1 face (`client.v1`), set by the `v1` plugin of `webdata/v1`; undefined without it. */
  v1Face: (() => unknown) | undefined = undefined;

  /**
   * The watcher's server-sent-events transport (`jobs/watch-sse.ts` `runSse`), set by the `sse` plugin of `webdata/sse`;
   * undefined without it: the watcher goes from the WebSocket to polling (the service offers no event stream).
   */
  sse: unknown = undefined;

  /**
   * The watcher's WebSocket transport (`jobs/watch-ws.ts`, a `WebSocketTransport`), set by the `websocket` plugin of
   * `webdata/websocket` (the Node entry and the drop-in install it themselves); undefined without it: the watcher polls.
   */
  ws: unknown = undefined;
}

/**
 * A plugin of the client (`plugins` of the client options): `webdata/team`'s `team` brings the governance stages
 * (the credit budget and meter, the concurrency limit) and the long-job features (stall detection, batch outcomes).
 * A client given one of a plugin's options without the plugin is refused at construction with a `ValidationError` naming it.
 */
export interface ClientPlugin {
  /** Its name: `team` (`webdata/team`), `v1` (`webdata/v1`), `sse` (`webdata/sse`) or `websocket` (`webdata/websocket`). */
  readonly name: string;
  /** @internal Installs it on a client (its request layer): checks its options, sets its stages on the client's state. */
  install(http: unknown): void;
}

/** The client options that need a plugin, by the plugin's name (`webdata/<name>`); a call's own (`budget` of a waiter, `stallTimeoutMs`) and `client.credits`, `byUrl` and `client.v1` are checked where they are used. */
export const PLUGIN_OPTIONS: Readonly<Record<string, PluginName>> = { budget: "team", maxConcurrency: "team", limiter: "team", creditFloor: "team" };

/** The plugins of the client, by the entry that gives each (`webdata/<name>`). */
export type PluginName = "team" | "v1" | "sse" | "websocket";

/** What each plugin is, for the message. */
const PLUGIN_KINDS: Readonly<Record<PluginName, string>> = { team: "a team feature", v1: "the legacy v1 face", sse: "the watcher's server-sent-events transport", websocket: "the watcher's WebSocket transport" };

/**
 * The `ValidationError` of a feature used on a client without the plugin that brings it: `path` names the option or the
 * member (`what`, when it is not an option: `client.credits`), and the message the import and the option that add it.
 */
export function pluginMissing(plugin: PluginName, path: string, context: string, what?: string): ValidationError {
  const message = `${what ? `${what} is` : "is"} ${PLUGIN_KINDS[plugin]}: add import { ${plugin} } from "webdata/${plugin}" and the option plugins: [${plugin}] (new WebData({ ..., plugins: [${plugin}] }))`;
  return new ValidationError([{ path, message }], context);
}

/** Gives back a slot that {@link ConcurrencyLimiter.acquire} gave. The client calls it once, when the call settles. */
export type ReleaseSlot = () => void | Promise<void>;

/**
 * A bound on how many calls that occupy the team's browsers run at once (the client option `limiter`, with
 * the `team` plugin of `webdata/team`). `acquire` resolves when a slot is held, with the function that gives
 * it back; it must reject soon after `signal` aborts (with any error: the client reports its own `AbortError`
 * or `TimeoutError`), and hold nothing then. `webdata/redis` `redisLimiter` is one shared by processes and
 * machines; the client's own `maxConcurrency` is an in-process one.
 *
 * @example
 * const limiter: ConcurrencyLimiter = { acquire: async () => () => undefined }; // no bound at all
 */
export interface ConcurrencyLimiter {
  /** Takes a slot, waiting for one while all are held; rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
}

/**
 * A credit budget kept outside the process and shared by every client that names it (`webdata/redis` `redisBudget`:
 * one team's workers on several machines), given as the client option `budget` (with the `team` plugin) in place of
 * `{ credits }`. It only keeps the figures, atomically; the `team` plugin's budget stage decides what a call reserves
 * (its operation's stated maximum, else the documented minimum) and what settles it (what the answer reports).
 */
export interface SharedBudget {
  /** What it is, for messages: `Redis budget "webdata:team-1" (window 2026-11-28)`. */
  readonly name: string;
  /** The cap, credits: all the clients sharing it together. */
  readonly credits: number;
  /** Once a running job a waiter watches passes the cap: `"cancel"` it, then throw (default), or `"throw"` only. */
  readonly onExceeded?: "cancel" | "throw" | undefined;
  /** Reserves `credits` for one call, unless the settled and reserved credits leave too little (then nothing is reserved). Rejects when the store cannot be reached. */
  reserve(credits: number): Promise<CreditReservation>;
  /** Notes a job's running total (`creditsUsed` of its status); `done`: the job ended, what it still held is given back. Resolves with the credits spent in all. */
  report(jobId: string, credits: number, done: boolean): Promise<number>;
  /** The credits spent in all (settled; reservations not counted). */
  spent(): Promise<number>;
}

/** What {@link SharedBudget.reserve} answers: the reservation, or why there was none. */
export type CreditReservation =
  | {
      readonly held: true;
      /** The call answered: `credits` are spent and the reservation ends; with `jobId` (a job start), the rest stays held for that job until its status reports. Resolves with the credits spent in all. */
      settle(credits: number, jobId?: string): Promise<number>;
      /** The call failed: the reservation is given back. */
      release(): Promise<void>;
    }
  | { readonly held: false; /** Credits settled. */ readonly spent: number; /** Credits reserved by calls in flight. */ readonly reserved: number };

/** One call as the governance stages see it (`api/endpoint.ts` `sendChecked` makes it). */
export interface GovernedCall {
  /** The operation's name in the catalogue (`api/operations.ts`): its credit rule is read by it. */
  readonly op: string;
  /** The endpoint's arguments, as the caller gave them (what the credit rule reads: a crawl's `limit`, a batch's URLs). */
  readonly args: readonly unknown[];
  /** The call occupies one of the team's browsers while it runs (`Endpoint.occupies`): it holds a concurrency slot. */
  readonly occupies: boolean;
  /** `METHOD path`, for messages. */
  readonly endpoint: string;
  /** The call's own credit budget (a waiter's `budget` option), in place of the client's. */
  readonly budget: Budget | undefined;
}

/** A job a waiter waits on, as the budget stage sees it (see {@link Governance.watchJob}). */
export interface WatchedJob {
  /** The catalogue's name of the operation that started it (`crawl.start`, `agent.start`, ...). */
  readonly op: string;
  /** The start's endpoint arguments (the stated maximum is read from them). */
  readonly args: readonly unknown[];
  /** The job's id. */
  readonly id: string;
  /** The call's own budget, in place of the client's. */
  readonly budget: Budget | undefined;
  /** Cancels the job (absent: the job has no cancel, an extract). Its failure (a job that just ended: 409) is not the caller's error. */
  readonly cancel?: ((signal: AbortSignal) => Promise<unknown>) | undefined;
  /** The documents the job has fetched so far (crawl, batch scrape), read after the cancel. */
  readonly documents?: ((signal: AbortSignal) => Promise<unknown[]>) | undefined;
}

/**
 * The governance stages of the request path, as a plugin gives them (`webdata/team`'s `team`): every call of every
 * face passes them in this order, in `api/endpoint.ts` `sendChecked`: {@link admit} (the budget, then the
 * concurrency slot), the request path's own stages (request id and hooks, the attempt and its retries), then
 * {@link count} (the meter). A waiter also asks {@link watchJob} for the check it runs after each status read.
 */
export interface Governance {
  /**
   * Before anything is sent: refuses the call (throws or rejects with `BudgetExceededError`) when the budget is
   * spent or the call's stated maximum cannot fit in what is left, then takes a slot when the call occupies a
   * browser, waiting at most `waitMs` and no longer than `signal` lets it. Returns the slot to give back when the
   * call settles, a promise of it, or undefined when nothing is held and nothing was waited for.
   */
  admit(call: GovernedCall, signal: AbortSignal | undefined, waitMs: number): ReleaseSlot | Promise<ReleaseSlot | undefined> | undefined;
  /** After a 2xx answer: counts what it reports under the operation's meter name. */
  count(call: GovernedCall, answer: unknown): void;
  /** The credit meter (`client.credits`). */
  readonly credits: CreditMeter;
  /** The check a waiter runs after each status read of `job` (undefined: no budget in force): once the credits spent pass the budget, the job is cancelled and the check throws `BudgetExceededError`. */
  watchJob(job: WatchedJob): ((status: { status?: unknown }, signal: AbortSignal) => Promise<void>) | undefined;
}

/**
 * The names the credit meter counts under (`client.credits.byOperation`), one per kind of call that costs credits,
 * whichever face made it (`WebData`, `client.v1`, `webdata/firecrawl`, the agent tools, the CLI); each operation of the
 * catalogue (`api/operations.ts`) names its own in its credit rule.
 */
export type CreditOperation = "scrape" | "parse" | "search" | "map" | "crawl" | "batchScrape" | "extract" | "agent" | "interact" | "browser" | "monitor" | "llmsTxt" | "deepResearch";

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
 * The credits one client spent, as the server reported them (`client.credits`, with the `team` plugin of `webdata/team`; one per client, shared by
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

/** The counters of a crawl or batch scrape whose change is progress: its status read's `status`, `completed` and `total`. */
export interface Counters {
  status: string;
  completed: number;
  total: number;
}

/** One job's progress, as the stall detection tracks it. */
export interface StallProgress {
  /** The last counters seen. */
  readonly last: Counters;
  /** Notes the counters of a status read; true when they changed (progress). */
  see(c: Counters): boolean;
  /** Progress seen another way (a new document on a stream). */
  moved(): void;
  /** Milliseconds since the last progress (or since the watch began). */
  readonly sinceMs: number;
}

/** A job that may stall: its id, how to cancel it (`cancelOnStall`), where a failed cancel is logged. */
export interface StalledJob {
  /** The job's id. */
  readonly id: string;
  /** Cancels it on the server: true when it was cancelled. */
  cancel(): Promise<boolean>;
  /** Logs a warning. */
  log(message: string): void;
}

/** Stalled jobs (`stallTimeoutMs`, `cancelOnStall`), as the `team` plugin gives them to the waiters, the documents iterators and the watcher. */
export interface StallDetection {
  /** A new progress tracker. */
  progress(): StallProgress;
  /** The `JobStalledError` of `job` at `progress`, after cancelling it with `cancelOnStall`. */
  stalled(job: StalledJob, progress: StallProgress, cancelOnStall: boolean | undefined): Promise<Error>;
  /** The documents iterators' check at each page read (undefined without `stallTimeoutMs`): throws at the first empty page of a running job without progress for that long. */
  check(job: StalledJob, opts: { stallTimeoutMs?: number | undefined; cancelOnStall?: boolean | undefined }): ((page: Counters & { data: readonly unknown[] }) => Promise<void>) | undefined;
}
