/**
 * An endpoint as data. What differs between two calls, or between the v1 and the v2 form
 * of one (method, route, query, body and its checks, answer schema, retry policy,
 * idempotency, how the answer becomes the result), is an {@link Endpoint}; {@link send}
 * sends any of them, so a resource method is one line. The server-timeout rule is applied
 * here, by route, from its table (`core/options.ts`), never by an endpoint module.
 * This is the one module that calls `HttpClient.request`, `HttpClient.answer` and `HttpClient.raw`
 * (`test/architecture.test.ts` checks it).
 */
import { attemptTimeoutMs, CALL_BUDGET, type Checked, checkRequestOptions, isChecked, SERVER_TIMEOUTS, serverTimeoutMs, type ServerTimeoutRoute } from "../core/options.js";
import { APIPromise, type HttpClient, type RequestOptions, type RequestSpec, type WithResponse } from "../core/request.js";
import type { ResponseSchema } from "../core/response.js";
import type { Governance, GovernedCall, ReleaseSlot } from "../core/client-state.js";
import type { TransportResponse } from "../core/transport.js";
import type { OperationName } from "./operations.js";
import { isRecord, ValidationError, type ValidationIssue } from "../core/errors.js";

/**
 * An endpoint called with the arguments `A`: its route and what the arguments become
 * (each builder checks them: a throw, a `ValidationError`, rejects the call and nothing is
 * sent), what the answer `T` must hold, and the result `R` made of it.
 */
export interface Endpoint<A extends unknown[], T = unknown, R = T> {
  /**
   * The operation in the catalogue (`api/operations.ts`), or a function of the arguments for an endpoint that serves
   * several (a job's kind): its name for hooks and spans, and its credit rule for the budget and the meter.
   */
  op: OperationName | ((...args: A) => OperationName);
  /** HTTP method (default: `POST` with a body or files, else `GET`). */
  method?: "PATCH" | "DELETE";
  /**
   * The route, its `{name}` placeholders filled by the leading arguments in order, each checked
   * and encoded as one segment (`/v2/monitor/{id}/checks/{checkId}`); or a function of the
   * arguments for a route chosen by them (a job's kind and API version, a `next` link).
   * A row of `SERVER_TIMEOUTS` names the route: the body's `timeout` is read by that row.
   */
  path: string | ((...args: A) => string);
  /** Query parameters (`undefined` values are left out). */
  query?: (...args: A) => RequestSpec["query"];
  /** The JSON body (or, with {@link form}, a multipart part's). */
  body?: (...args: A) => object;
  /** Files to upload: the call goes as `multipart/form-data`. */
  files?: (...args: A) => Record<string, [Blob, string]>;
  /** With {@link files}: the part that carries the body as JSON text (the body is `{ [form]: body }` on the wire). */
  form?: string;
  /** Loose schema of what the answer must hold (`InvalidResponseError` otherwise; none: any JSON). */
  response?: ResponseSchema;
  /** Retry policy (default `safe`). */
  retry?: RequestSpec["retry"];
  /** The server honours `x-idempotency-key` on this route. */
  idempotent?: boolean;
  /** A 2xx answer with `success: false` is a result, not an error (status reads). */
  allowUnsuccessful?: boolean;
  /** `false`: no `Authorization` header (agent signup). */
  auth?: false;
  /** Sees each mapped error with its attempt (`RequestSpec.mapError`). */
  mapError?: RequestSpec["mapError"];
  /** The result made of the answer (default: the answer as sent); `http` is the calling client's (its memory, its log). */
  map?: (raw: T, args: A, http: HttpClient) => R;
  /** The call occupies the team's browsers (always, or when the function says so of its arguments): it holds a slot of the client's limiter while it runs. */
  occupies?: true | ((...args: A) => boolean);
}

/** The request `ep` makes with `args`. */
function specOf<A extends unknown[]>(ep: Endpoint<A, unknown, unknown>, args: A): RequestSpec {
  const route = ep.path;
  const path = typeof route === "string" ? fill(route, args) : route(...args);
  const query = ep.query?.(...args);
  // A body's `timeout` was checked by its builder: a number or absent.
  const body = ep.body?.(...args) as { timeout?: number } | undefined;
  // The data's other fields (`retry`, `idempotent`, `allowUnsuccessful`, `auth`, `mapError`, `response`) are the spec's own.
  return {
    method: ep.method ?? (ep.body || ep.files ? "POST" : "GET"),
    path,
    op: typeof ep.op === "string" ? ep.op : ep.op(...args),
    route: typeof route === "string" ? route : undefined,
    query,
    body: ep.form ? { [ep.form]: body } : body,
    files: ep.files?.(...args),
    auth: ep.auth,
    retry: ep.retry,
    idempotent: ep.idempotent,
    allowUnsuccessful: ep.allowUnsuccessful,
    mapError: ep.mapError,
    response: ep.response,
    serverTimeoutMs: (route as string) in SERVER_TIMEOUTS ? serverTimeoutMs(route as ServerTimeoutRoute, body?.timeout) : undefined,
  };
}

/**
 * Runs a public call with its request options checked once ({@link checkRequestOptions}): a bad one, or a
 * throw of `run` while it builds the call (another input check), rejects the returned promise (never a
 * synchronous throw) and nothing is sent.
 */
export function withChecked<R>(req: RequestOptions | null | undefined, run: (checked: Checked<RequestOptions>) => APIPromise<R>): APIPromise<R> {
  try {
    return run(isChecked(req) ? req : checkRequestOptions(req));
  } catch (err) {
    return new APIPromise<R>(Promise.reject(err));
  }
}

/**
 * Sends `ep` with `args`: its result, with `.withResponse()`. A caller's `req` is checked here, once
 * ({@link withChecked}); request options checked already (`Checked`, from a waiter's poll) are not.
 */
export function send<A extends unknown[], T, R>(http: HttpClient, ep: Endpoint<A, T, R>, req: RequestOptions | null | undefined, ...args: A): APIPromise<R> {
  if (isChecked(req)) return sendChecked(http, ep, req, ...args);
  return withChecked(req, (checked) => sendChecked(http, ep, checked, ...args));
}

/**
 * Sends `ep` with `args` and request options checked already (a poll, a page of a walk, a start inside a waiter): not
 * checked again. The one sender, so the pipeline every call of every face passes, in order: its input checks (the
 * request is built: a bad argument rejects, nothing sent), the governance stages a plugin gave the client
 * (`http.state.governance`: the budget, then the concurrency slot), the request path (`core/request.ts`: request id
 * and hooks, the attempts and their retries), then the meter, then the result made of the answer.
 */
export function sendChecked<A extends unknown[], T, R>(http: HttpClient, ep: Endpoint<A, T, R>, req: Checked<RequestOptions>, ...args: A): APIPromise<R> {
  const build = (): RequestSpec => specOf(ep as Endpoint<A, unknown, unknown>, args);
  const governance = http.state.governance;
  const sent = governance ? governed<T>(http, governance, ep as unknown as Endpoint<unknown[], unknown, unknown>, build, req, args) : http.answer<T>(build, req);
  const map = ep.map;
  // One `APIPromise` a call, made here of the answer mapped.
  return APIPromise.map(sent, map ? (raw) => map(raw, args, http) : (raw) => raw as unknown as R);
}

/**
 * A call through the governance stages: built (checked) first, then admitted (the budget refuses, the slot waits: at most
 * one attempt's limit, `timeoutMs` raised by a server-side `timeout`, and no longer than the call's `signal`), sent, and
 * counted by the meter when it answers; its slot given back when it settles, retries and their waits included.
 */
function governed<T>(http: HttpClient, governance: Governance, ep: Endpoint<unknown[], unknown, unknown>, build: () => RequestSpec, req: Checked<RequestOptions>, args: readonly unknown[]): Promise<WithResponse<T>> {
  let spec: RequestSpec;
  let admitted: ReturnType<Governance["admit"]>;
  let call: GovernedCall;
  try {
    spec = build();
    const occupies = ep.occupies === true || (ep.occupies !== undefined && ep.occupies(...args));
    call = { op: spec.op, args, occupies, endpoint: `${spec.method} ${spec.path}`, budget: (req as { [CALL_BUDGET]?: GovernedCall["budget"] })[CALL_BUDGET] };
    admitted = governance.admit(call, req.signal, attemptTimeoutMs(req.timeoutMs ?? http.config.timeoutMs, spec.serverTimeoutMs));
  } catch (err) {
    return Promise.reject(err);
  }
  const run = (release: ReleaseSlot | undefined): Promise<WithResponse<T>> => {
    const answered = http.answer<T>(spec, req).then((out) => (governance.count(call, out.data), out));
    return release ? answered.finally(() => giveBack(http, release)) : answered;
  };
  return admitted === undefined || typeof admitted === "function" ? run(admitted) : admitted.then(run);
}

/** Gives a slot back; a release that throws, or whose promise rejects, is logged either way (one message). */
function giveBack(http: HttpClient, release: ReleaseSlot): void {
  const warn = (err: unknown) => http.log("warn", `Could not give back a concurrency slot: ${err instanceof Error ? err.message : String(err)}`);
  try {
    void Promise.resolve(release()).catch(warn);
  } catch (err) {
    warn(err);
  }
}

/** Opens `ep` with `args` and returns the raw answer, unread (a stream); a non-2xx answer throws as {@link send}'s. `req` checked here, once. */
export async function open<A extends unknown[]>(http: HttpClient, ep: Endpoint<A>, req: RequestOptions | null | undefined, ...args: A): Promise<TransportResponse> {
  return openChecked(http, ep, isChecked(req) ? req : checkRequestOptions(req), ...args);
}

/** {@link open} with request options checked already (the watcher's stream, opened again on each reconnect). */
export function openChecked<A extends unknown[]>(http: HttpClient, ep: Endpoint<A>, req: Checked<RequestOptions>, ...args: A): Promise<TransportResponse> {
  return http.raw(() => specOf(ep as Endpoint<A, unknown, unknown>, args), req);
}

/** One path segment: a string that is not empty, `.` or `..`, percent-encoded; anything else is a `ValidationError` (nothing is sent). */
function segment(v: unknown): string {
  try {
    // `encodeURIComponent` throws a URIError on a lone surrogate ("\uD800"): it has no UTF-8 form.
    if (typeof v === "string" && v.trim() !== "" && v !== "." && v !== "..") return encodeURIComponent(v);
  } catch {}
  // A string is shown as JSON, so a lone surrogate reads "\ud800".
  throw new ValidationError([{ path: "id", message: `must be a non-empty string id, not "." or "..", got ${typeof v == "string" ? JSON.stringify(v) : v === null || typeof v != "object" && typeof v != "function" ? String(v) : Array.isArray(v) ? "an array" : typeof v == "object" ? "an object" : "a function"}` }]);
}

/**
 * `route` with each `{name}` placeholder replaced, in order, by the next of `values` as one checked, encoded segment, so an
 * id can never change the route: `fill("/v2/crawl/{id}", [id])` builds an endpoint's path from its route template (`specOf`).
 */
export function fill(route: string, values: readonly unknown[]): string {
  if (!route.includes("{")) return route; // no placeholder (`/v2/scrape`): the route as it is
  let i = 0;
  return route.replace(/\{\w+\}/g, () => segment(values[i++]));
}

/*
 * Keys of the service's official client (`@mendable/firecrawl-js` 4.x) whose
 * meaning differs here: seconds where webdata takes milliseconds, status
 * pagination, batch scrape's `idempotencyKey` and nested `options`, the official
 * argument forms. Code written for that client either works unchanged or stops
 * here, before anything is sent, with a `ValidationError` that names the webdata
 * option and its unit (each message below states the fix). Never a silent change
 * of meaning, never a server 400 ("Unrecognized key") the SDK could have foreseen.
 *
 * These are hints only: `WebData` reads none of these shapes. The drop-in
 * (`src/firecrawl/`) adapts them before calling `WebData`.
 */
/** Which call the options belong to. */
export type OfficialCall =
  | "crawl"
  | "batchScrape"
  | "extract"
  | "agent"
  | "startCrawl"
  | "startBatchScrape"
  | "startExtract"
  | "startAgent"
  | "getCrawlStatus"
  | "getBatchScrapeStatus"
  | "watcher";

const WAITERS: readonly OfficialCall[] = ["crawl", "batchScrape", "extract", "agent", "watcher"];
/** Calls where `timeout` is also a server field (per-page milliseconds, >= 1000). */
const SERVER_TIMEOUT: readonly OfficialCall[] = ["batchScrape", "extract", "startBatchScrape", "startExtract"];

/** `v` seconds in milliseconds, for the fix a message names. */
const ms = (v: unknown): string => (typeof v === "number" && Number.isFinite(v) ? String(Math.round(v * 1000)) : "N * 1000");

/**
 * Throws a `ValidationError` when `options` (of `call`) carries a key of the
 * official client that means something else here. Call it where the call's
 * other checks run (inside the request thunk, or at the start of a waiter), so
 * the error rejects the returned promise. Every message names the fix, and the
 * drop-in entry that reads the key as the official client does.
 */
export function rejectOfficialKeys(call: OfficialCall, options: unknown, context = `${call} options`): void {
  if (!isRecord(options)) return;
  const issues: ValidationIssue[] = [];
  const push = (path: string, message: string) => issues.push({ path, message: `${message}; or import Firecrawl from "webdata/firecrawl", which reads it as the official client does` });
  const waits = WAITERS.includes(call);
  const t = options.timeout;
  if (call === "getCrawlStatus" || call === "getBatchScrapeStatus") {
    for (const key of ["autoPaginate", "maxPages", "maxResults", "maxWaitTime"]) {
      if (options[key] !== undefined) push(key, `${call}() returns one page; ${call === "getCrawlStatus" ? "crawlDocuments" : "batchScrapeDocuments"}(id) reads every page`);
    }
  } else {
    if (options.pollInterval !== undefined) push("pollInterval", waits ? `is the official client's, in seconds: write pollIntervalMs: ${ms(options.pollInterval)} (milliseconds)` : `is the official client's, and ${call}() does not wait: remove it`);
    if (t !== undefined && !SERVER_TIMEOUT.includes(call)) {
      push("timeout", call === "watcher" ? `is the official client's, in seconds: pass signal: AbortSignal.timeout(${ms(t)})` : waits ? `is the official client's deadline in seconds: write timeoutMs: ${ms(t)} (milliseconds)` : `is not a field of ${call}() (the server rejects it)`);
    } else if (t !== undefined && (isRecord(options.options) || (typeof t === "number" && t < 1000))) {
      // Here `timeout` is also the server's per-page milliseconds: only a value that cannot be that reads as seconds.
      push("timeout", `${String(t)} is ${isRecord(options.options) ? "next to the official nested `options`" : "below 1000"}, so it reads as the official client's deadline in seconds; here it is the server's per-page timeout in milliseconds (>= 1000). For a deadline write timeoutMs: ${ms(t)}`);
    }
    if ((call === "batchScrape" || call === "startBatchScrape") && options.options !== undefined) {
      push("options", "is the official client's nesting of the scrape options: write them at the top level ({ formats, ... })");
    }
    if ((call === "batchScrape" || call === "startBatchScrape") && options.idempotencyKey !== undefined) {
      push("idempotencyKey", "the v2 batch scrape route does not honour idempotency keys: remove it (a batch start is retried only when nothing can have been created)");
    }
  }
  if (issues.length > 0) throw new ValidationError(issues, context);
}

/** The official argument forms `WebData` does not take: `agent({ prompt, ...options })` and the historical-usage boolean. */
export type OfficialForm = "agent" | "startAgent" | "getCreditUsageHistorical" | "getTokenUsageHistorical";

/**
 * Throws a `ValidationError` naming `WebData`'s form and the drop-in when `value` (the first argument of
 * `call`) has the official client's form: an object for `agent` / `startAgent` (whose prompt is a string
 * here), a boolean for the historical usage reads (whose options are `{ byApiKey }` here).
 */
export function rejectOfficialForm(call: OfficialForm, value: unknown, context: string): void {
  const agent = call === "agent" || call === "startAgent";
  if (agent ? !isRecord(value) : typeof value !== "boolean") return;
  const message = agent
    ? `${call}() takes the prompt as a string: write ${call}(prompt, { ...options }) (the object form is the official client's)`
    : `is the official client's form: write ${call}({ byApiKey: ${String(value)} })`;
  throw new ValidationError([{ path: agent ? "prompt" : "", message: `${message}; or import Firecrawl from "webdata/firecrawl", which reads it as the official client does` }], context);
}
