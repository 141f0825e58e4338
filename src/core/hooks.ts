/**
 * The lifecycle hooks' types (`ClientOptions.hooks`, `RequestOptions.hooks`). Types only: the
 * request path (`./request.ts`) runs them, and builds no event at all when a call has none.
 * Every event is a copy: its `headers` hold the request headers as sent, with `authorization`
 * and every other credential header redacted, and no event ever holds the key.
 */
import type { HookName } from "./errors.js";

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
  /** A failed attempt that will be retried, before the wait (the client option `onRetry` is still called too). */
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
