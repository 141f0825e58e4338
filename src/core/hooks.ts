/**
 * The lifecycle hooks (`ClientOptions.hooks`, `RequestOptions.hooks`): their types, and {@link HookRun},
 * which runs them for one call of the request path (`./request.ts`; a call without hooks makes none,
 * so builds no event at all). The legacy `onRetry` client option is one of these hooks too
 * ({@link clientHookSets}). No event ever holds the key (see {@link HookEventBase}).
 */
import { HookError, isRecord, WebDataError, type HookName } from "./errors.js";
import { isHeaderName, isHeaderValue } from "./options.js";
import { redactRequestHeaders } from "./redact.js";
import { reportedCredits, serverIdOf } from "./response.js";
import type { RetryEvent } from "./retry.js";
import type { TransportResponse } from "./transport.js";

export type { HookName };

/** Fields every hook event carries. Never the key: `headers` are copies with `authorization` and every client secret redacted. */
export interface HookEventBase {
  /** HTTP method. */
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path under `apiUrl`, without the query string (a query can hold user data): `/v2/scrape`, `/v2/crawl/<id>`. */
  path: string;
  /** The URL requested, without its query string: `apiUrl` and the path (`https://api.firecrawl.dev/v2/scrape`). */
  url: string;
  /** The route with its `{placeholders}` (`/v2/crawl/{id}`), when the endpoint has one (not for a `next` page's path). */
  route: string | undefined;
  /**
   * A stable short name of the call: the route under its API version with its ids left out, dots
   * between segments, and `.start` (a job start: POST), `.status` (GET of one job or resource) or
   * `.cancel` (DELETE of one) when the route ends in an id or starts a job: `scrape`, `search`,
   * `crawl.start`, `crawl.status`, `crawl.cancel`, `crawl.errors`, `batch.scrape.start`; a v1 call's
   * name starts with `v1.` (`v1.crawl.status`).
   */
  operation: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The `x-request-id` sent: one per call, the same on its retries. */
  requestId: string;
  /** The request headers as sent (lower-case names), `authorization` and the client's other secrets redacted. */
  headers: Readonly<Record<string, string>>;
}

/** Before an attempt is sent. */
export interface RequestHookEvent extends HookEventBase {
  /**
   * Adds or replaces a request header of THIS attempt (call it on each attempt you want it on). The
   * name and value are checked as `headers` are; `authorization`, `x-request-id` (the call's id: use
   * the `requestId` option) and the headers a transport owns (`host`, `content-length`,
   * `transfer-encoding`, `connection`) are refused: the call then fails with `HookError`, nothing sent.
   */
  setHeader(name: string, value: string): void;
}

/** An attempt got a 2xx answer, parsed (a streamed answer: its headers arrived). */
export interface ResponseHookEvent extends HookEventBase {
  /** HTTP status. */
  status: number;
  /** Of this attempt: from just before it was sent until its answer was read, in ms. */
  durationMs: number;
  /** A request id the server sent in its headers, when it differs from `requestId`. */
  serverRequestId?: string | undefined;
  /** The answer's `creditsUsed` (a scrape's `data.metadata.creditsUsed`), when a number. */
  creditsUsed?: number | undefined;
  /**
   * Of a job start (an `operation` ending in `.start`: `crawl.start`, `batch.scrape.start`, `v1.crawl.start`, ...):
   * the id of the job the answer names (its `id`), the id the job's status reads and its `onJob` events carry.
   */
  jobId?: string | undefined;
}

/** A failed attempt that will be retried, before the wait. */
export interface RetryHookEvent extends HookEventBase {
  /** Why the attempt failed. */
  error: Error;
  /** The wait the server asked for, in ms; `undefined` when the exponential backoff with jitter applies. */
  delayMs: number | undefined;
  /** The HTTP status of the failed attempt, when an answer came. */
  status?: number | undefined;
  /** How long the failed attempt ran, in ms. */
  durationMs: number;
  /** Retries left after this one. */
  retriesLeft: number;
}

/** The call failed for good (once per call). */
export interface ErrorHookEvent extends HookEventBase {
  /** The error the call rejects with. `attempt` is the last attempt made (0 when none was sent). */
  error: Error;
  /** The HTTP status of the last answer, when one came. */
  status?: number | undefined;
  /** How long the last attempt ran, in ms (0 when none was sent). */
  durationMs: number;
}

/**
 * Lifecycle hooks of every request: on the client (`ClientOptions.hooks`) and per call
 * (`RequestOptions.hooks`); both run, the client's first. A hook may return anything: a promise (any
 * thenable) is awaited, any other value is ignored, so `(e) => events.push(e)` and
 * `(e) => e.phase === "end" && log(e)` are hooks. A hook that throws or returns a promise that
 * rejects fails the call with `HookError` naming it (the thrown value its `cause`), and nothing is
 * sent after it. Hooks never see the key.
 */
export interface Hooks {
  /** Before each attempt is sent (awaited); may add headers with `setHeader`. */
  onRequest?: ((event: RequestHookEvent) => unknown) | undefined;
  /** After each attempt that got a 2xx answer, parsed (awaited). Non-2xx answers go to `onRetry` or `onError`. */
  onResponse?: ((event: ResponseHookEvent) => unknown) | undefined;
  /** A failed attempt that will be retried, before the wait (the client option `onRetry` is this hook too, run after the client's `hooks`). */
  onRetry?: ((event: RetryHookEvent) => unknown) | undefined;
  /** The call failed for good: once per call, with the error it rejects with. */
  onError?: ((event: ErrorHookEvent) => unknown) | undefined;
  /**
   * A job a waiter waits on (`crawl`, `batchScrape`, `extract`, `agent`): once at the wait's start (the job
   * started, its id known) and once at its end, however it ends (awaited). Not an HTTP event: the status
   * reads of the wait go to the hooks above as calls of their own.
   */
  onJob?: ((event: JobHookEvent) => unknown) | undefined;
}

/** Which kind of job a {@link JobHookEvent} is about: `batch` is a batch scrape; `llmsText` and `deepResearch` are `webdata/v1`'s generation jobs. */
export type JobHookKind = "crawl" | "batch" | "extract" | "agent" | "llmsText" | "deepResearch";

/** A waited job's start or end (`Hooks.onJob`): one `start` and one `end` per waited job. Never a document, a prompt or the key. */
export interface JobHookEvent {
  /** `start` once the job was started (its id known); `end` when the wait ended, done, failed, timed out or aborted. */
  phase: "start" | "end";
  /** The kind of job. */
  kind: JobHookKind;
  /** The job's id. */
  jobId: string;
  /** At `end`: the last status read (`completed`, `failed`, `cancelled`; a running status when the wait timed out), when one was. */
  status?: string | undefined;
  /** At `end`: pages finished (a crawl or batch scrape). */
  completed?: number | undefined;
  /** At `end`: pages in all (a crawl or batch scrape). */
  total?: number | undefined;
  /** At `end`: the credits the job used, when the server tells. */
  creditsUsed?: number | undefined;
  /** At `end`: ms since `start`. */
  durationMs?: number | undefined;
  /** At `end`: why the wait failed (`JobFailedError`, `JobTimeoutError`, `AbortError`, ...), when it did. */
  error?: Error | undefined;
}

/** What a {@link HookRun} reads of its call (a `RequestSpec` is one): `op`, the operation's name in the catalogue (`v1.` put before it for a v1 route). */
export type HookedCall = Pick<HookEventBase, "method" | "path"> & { route?: string | undefined; op: string };

/** Header names a hook's `setHeader` may not set: the key, the call's id, and what the transports own. */
const HOOK_REFUSED = new Set(["authorization", "proxy-authorization", "x-request-id", "host", "content-length", "transfer-encoding", "connection"]);

/**
 * @internal The hooks of one call (made only when it has some): builds each event (a copy, every secret
 * redacted), times each attempt, runs each hook in order (client's first) and turns a throw into `HookError`.
 */
export class HookRun {
  readonly #sets: readonly Hooks[];
  readonly #base: Omit<HookEventBase, "attempt" | "headers">;
  readonly #headers: Record<string, string>;
  readonly #secrets: readonly string[];
  #attempt = 0;
  #view: Readonly<Record<string, string>> | undefined;
  #baseView: Readonly<Record<string, string>> | undefined;
  #started = 0;
  #durationMs = 0;
  #status: number | undefined;

  /** The hook sets of a call (client's first), the call, its URL, request id, headers and the client's secrets. */
  constructor(sets: readonly Hooks[], call: HookedCall, url: string, requestId: string, headers: Record<string, string>, secrets: readonly string[]) {
    this.#sets = sets;
    const path = call.path.split("?")[0] ?? call.path;
    // The catalogue's name, never the path: an id or a caller's input in it would be a span name and a metric label.
    const operation = path.startsWith("/v1/") ? `v1.${call.op}` : call.op;
    this.#base = { method: call.method, path, url: url.split("?")[0] ?? url, route: call.route, operation, requestId };
    this.#headers = headers;
    this.#secrets = secrets;
  }

  /** The event fields of the current attempt. */
  #event(): HookEventBase {
    this.#view ??= this.#baseView ??= redactRequestHeaders(this.#headers, this.#secrets);
    const b = this.#base; // written out, not spread: one shape for every event, and no spread per hook call
    return { method: b.method, path: b.path, url: b.url, route: b.route, operation: b.operation, requestId: b.requestId, attempt: this.#attempt, headers: this.#view };
  }

  async #call(name: HookName, event: object): Promise<void> {
    for (const set of this.#sets) {
      const hook = set[name] as ((e: object) => unknown) | undefined;
      if (typeof hook !== "function") continue;
      try {
        const out = hook.call(set, event);
        if (out && typeof (out as Promise<unknown>).then === "function") await out;
      } catch (cause) {
        throw new HookError(name, cause);
      }
    }
  }

  /** Before attempt `n`: runs `onRequest`; returns the headers to send (with what it set). */
  async before(n: number): Promise<Record<string, string>> {
    this.#attempt = n;
    this.#view = undefined;
    this.#status = undefined;
    this.#durationMs = 0;
    let sent = this.#headers;
    if (this.#sets.some((s) => s.onRequest)) {
      const setHeader = (name: string, value: string): void => {
        const lower = typeof name === "string" ? name.toLowerCase() : "";
        if (!isHeaderName(name)) throw new TypeError(`setHeader: ${JSON.stringify(String(name))} is not a header name`);
        if (HOOK_REFUSED.has(lower)) throw new TypeError(`setHeader: ${lower} cannot be set by a hook${lower === "x-request-id" ? " (pass the requestId option)" : ""}`);
        if (!isHeaderValue(value)) throw new TypeError(`setHeader: the value of ${lower} must be a printable string, no line break (the value is not shown)`);
        if (sent === this.#headers) sent = { ...this.#headers }; // this attempt's own copy, made on the first header set
        sent[lower] = value;
        this.#view = undefined;
      };
      await this.#call("onRequest", { ...this.#event(), setHeader });
      if (sent !== this.#headers) this.#view = redactRequestHeaders(sent, this.#secrets); // later events show what was sent
    }
    this.#started = performance.now();
    return sent;
  }

  /** The attempt ended (answered, failed or aborted): its duration. */
  ended(): void {
    if (this.#started) this.#durationMs = performance.now() - this.#started;
    this.#started = 0;
  }

  /** A 2xx answer, read: runs `onResponse`. */
  async response(res: TransportResponse, body: unknown): Promise<void> {
    this.ended();
    this.#status = res.status;
    if (!this.#sets.some((s) => s.onResponse)) return;
    const serverRequestId = serverIdOf(res.headers, this.#base.requestId);
    const jobId = this.#base.operation.endsWith(".start") && isRecord(body) && typeof body.id === "string" ? body.id : undefined;
    await this.#call("onResponse", { ...this.#event(), status: res.status, durationMs: this.#durationMs, serverRequestId, creditsUsed: reportedCredits(body), jobId });
  }

  /** A failed attempt about to be retried: runs `onRetry`. */
  retry(e: RetryEvent): Promise<void> | undefined {
    if (!this.#sets.some((s) => s.onRetry)) return undefined;
    return this.#call("onRetry", { ...this.#event(), error: e.error, delayMs: e.serverWaitMs, status: statusOf(e.error), durationMs: this.#durationMs, retriesLeft: e.retriesLeft });
  }

  /** The call failed for good: runs `onError`. */
  async error(err: unknown): Promise<void> {
    if (!this.#sets.some((s) => s.onError)) return;
    const error = err instanceof Error ? err : new WebDataError(String(err), { cause: err });
    await this.#call("onError", { ...this.#event(), error, status: statusOf(err) ?? this.#status, durationMs: this.#durationMs });
  }
}

/** The HTTP status an error carries, when an answer came. */
function statusOf(err: unknown): number | undefined {
  const status = isRecord(err) ? err.status : undefined;
  return typeof status === "number" ? status : undefined;
}

/**
 * The client's hook sets as the request path runs them: `hooks`, then the legacy `onRetry` option as a hook set of
 * its own (run as a hook: see `ClientOptions.onRetry`), its event in the legacy shape ({@link RetryEvent}); `undefined` when none.
 */
export function clientHookSets(hooks: Hooks | undefined, onRetry: ((event: RetryEvent) => void) | undefined): readonly Hooks[] | undefined {
  const sets = hooks ? [hooks] : [];
  if (onRetry) {
    const legacy = (e: RetryHookEvent): unknown =>
      onRetry({ endpoint: `${e.method} ${new URL(e.url).pathname}`, attempt: e.attempt, retriesLeft: e.retriesLeft, error: e.error as WebDataError, serverWaitMs: e.delayMs });
    sets.push({ onRetry: legacy });
  }
  return sets.length ? sets : undefined;
}
