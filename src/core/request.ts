/**
 * The ONE path every call goes through (the client's `#withRetries`), as its steps, each in the module
 * that holds its rule: 1. the call built (`#prepare`: the idempotency plan of `./retry.ts`, the body and
 * the attempt's timeout of `./options.ts`); 2. its hooks (`#hookRun`: `./hooks.ts`); 3. each attempt
 * (`#attempt`: the transport of `./transport.ts` under the timers of `./time.ts`, the answer read by
 * `./response.ts`, an error redacted by `./redact.ts`); 4. the retries (`./retry.ts` `withRetries`,
 * planned by `#retryPlan`); 5. a failure explained (`#explained`) and told to `onError`.
 */
import { isPublicDeployment, type ResolvedConfig } from "./config.js";
import { AbortError, APIError, explainKeyless, TimeoutError, ValidationError } from "./errors.js";
import { after, linkSignal } from "./time.js";
import { HookRun } from "./hooks.js";
import { ClientState } from "./client-state.js";
import { attemptTimeoutMs, type Checked, encodeBody, levelEnabled, type LogLevel, NO_OPTIONS } from "./options.js";
import { redactAll, redactError, secretsOf } from "./redact.js";
import { answerError, readAnswer, tagError, tagRequestId, type AnswerPolicy, type ResponseInfo, type WithResponse } from "./response.js";
import { explainKeyedFailure, idempotencyPlan, uuid, withRetries, type IdempotencyPlan, type RetryEvent, type RetryPlan } from "./retry.js";
import type { RequestOptions, RequestSpec, SpecInput } from "./spec.js";
import type { Transport, TransportResponse } from "./transport.js";
import { VERSION } from "./version.js";

export type { AttemptInfo, RequestOptions, RequestSpec, SpecInput } from "./spec.js";
/** Builds the spec at the call (see {@link HttpClient.request}): its throws reject the call and nothing is sent. */
function buildSpec(input: SpecInput): RequestSpec {
  return typeof input === "function" ? input() : input;
}

export type { ResponseInfo, WithResponse } from "./response.js";

/** The executor of an {@link APIPromise}'s own (unused) promise: one function for all. */
function settleNow(resolve: (value: never) => void): void {
  resolve(undefined as never);
}

/** Does nothing (marks a promise's rejection handled). */
function ignore(): void {}

/** Like `Promise<T>`, plus `.withResponse()` to reach the raw status and headers. */
export class APIPromise<T> extends Promise<T> {
  readonly #inner: Promise<WithResponse<T>>;

  /** Wraps a promise of a parsed body with its response info. */
  constructor(inner: Promise<WithResponse<T>>) {
    super(settleNow);
    this.#inner = inner;
    inner.then(undefined, ignore); // handled: a rejection reaches whoever awaits this promise, never the process
  }

  /** Promises derived with `then`/`catch`/`finally` are plain `Promise`s. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Maps the parsed body, keeping the response info. */
  static map<A, B>(p: Promise<WithResponse<A>>, fn: (a: A, r: ResponseInfo) => B): APIPromise<B> {
    return new APIPromise(p.then((r) => ({ data: fn(r.data, r.response), response: r.response }))); // tagged on the way out (`then`, `withResponse`)
  }

  /** Maps the parsed body, keeping `.withResponse()`. */
  map<B>(fn: (data: T, response: ResponseInfo) => B): APIPromise<B> {
    return APIPromise.map(this.#inner, fn);
  }

  /** The parsed result and the raw response's status, headers and request id (the result tagged with `_requestId`, as `await` gives it). */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner.then(tagged);
  }

  /* eslint-disable @typescript-eslint/no-explicit-any -- typed exactly as `Promise`'s (lib.es5.d.ts): the rejection is `any` there, so `.catch((e: Error) => ...)` compiles as it does on any promise */
  /** As `Promise.prototype.then` (the same type). */
  override then<TResult1 = T, TResult2 = never>(
    onfulfilled?: ((value: T) => TResult1 | PromiseLike<TResult1>) | undefined | null,
    onrejected?: ((reason: any) => TResult2 | PromiseLike<TResult2>) | undefined | null,
  ): Promise<TResult1 | TResult2> {
    // The result carries the call's request id (`_requestId`), whichever module built this promise. One
    // `then` on the answer (as `.then(tag).then(onfulfilled, onrejected)` would do, with one promise less).
    return this.#inner.then(
      (r) => {
        const data = tagRequestId(r.data, r.response.requestId);
        return (typeof onfulfilled === "function" ? onfulfilled(data) : data) as TResult1;
      },
      typeof onrejected === "function" ? onrejected : undefined,
    );
  }

  /** As `Promise.prototype.catch` (the same type). */
  override catch<TResult = never>(onrejected?: ((reason: any) => TResult | PromiseLike<TResult>) | undefined | null): Promise<T | TResult> {
    return this.then(undefined, onrejected);
  }
  /* eslint-enable @typescript-eslint/no-explicit-any */

  /** As `Promise.prototype.finally` (the same type). */
  override finally(onfinally?: (() => void) | undefined | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}

/** What the SDK calls itself (`user-agent`, `x-client`). */
const USER_AGENT = `webdata/${VERSION}`;

/** True when a query has a value to send. */
function hasQuery(query: RequestSpec["query"]): boolean {
  if (query) for (const k in query) if (query[k] !== undefined) return true;
  return false;
}

/** How a call reads an attempt's answer into its result (or throws its error). */
type Handle<R> = (res: TransportResponse, url: string, requestId: string) => Promise<R>;

/** One call as its attempts make it (`#prepare`): what each sends, and its hooks. */
interface Call {
  spec: RequestSpec;
  opts: RequestOptions;
  url: string;
  /** `METHOD /path`, for messages and retry events. */
  endpoint: string;
  idem: IdempotencyPlan;
  /** Every attempt's headers, `x-request-id` included (`requestId`). */
  headers: Record<string, string>;
  requestId: string;
  body: string | FormData | undefined;
  timeoutMs: number;
  run: HookRun | undefined;
}

/** The shared fetch layer. One instance per client; `api/endpoint.ts` (`send`, `open`) calls {@link HttpClient.request} and {@link HttpClient.raw}. */
export class HttpClient {
  readonly #config: ResolvedConfig;
  readonly #transport: Transport;
  readonly #secrets: readonly string[];
  /** What reading an answer needs of this client (`./response.ts`). */
  readonly #answers: AnswerPolicy;
  /** This client's memory between calls (started and cancelled jobs, its watchers' WebSocket): see `./client-state.ts`. */
  readonly state = new ClientState();
  /** The URL and its path of each route sent that has no placeholder and no query (a fixed set): a call to one parses no URL. */
  readonly #routes = new Map<string, readonly [url: string, pathname: string]>();

  /** Binds a resolved configuration to a transport. */
  constructor(config: ResolvedConfig, transport: Transport) {
    this.#config = config;
    this.#transport = transport;
    this.#secrets = secretsOf(config.apiKey, config.headers);
    this.#answers = { secrets: this.#secrets, config, warn: (message) => this.log("warn", message) };
  }

  /**
   * `err` with every secret of the client (the key, its credential headers) redacted, cause chain
   * included: the one boundary for errors that leave the request path or reach a watcher event (see `redact.ts`).
   */
  redactError<E>(err: E): E {
    return redactError(err, this.#secrets);
  }

  /** The resolved base URL (no key). */
  get apiUrl(): string {
    return this.#config.apiUrl;
  }

  /** The resolved configuration (holds the key: never log it). */
  get config(): ResolvedConfig {
    return this.#config;
  }

  /** Writes a log line at `level`, with the key redacted. */
  log(level: Exclude<LogLevel, "off">, message: string, data?: Record<string, unknown>): void {
    if (!levelEnabled(this.#config.logLevel, level)) return;
    const secrets = this.#secrets;
    try {
      const safe = data ? (JSON.parse(redactAll(JSON.stringify(data), secrets)) as Record<string, unknown>) : undefined;
      this.#config.logger[level](redactAll(message, secrets), safe);
    } catch {
      // A logger that throws must not fail the call (nor skip the clean-up of its timers).
    }
  }

  /** Builds the absolute URL of a path under the API URL (a path may carry a query). */
  url(path: string, query?: RequestSpec["query"]): string {
    const u = new URL(this.#config.apiUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /**
   * Performs one logical call (with retries) and parses the JSON answer.
   * Pass the spec as a thunk when building it can throw (input validation,
   * `path` checks): the throw then rejects the returned promise, and nothing is sent.
   */
  request<T>(spec: SpecInput, opts: Checked<RequestOptions> = NO_OPTIONS): APIPromise<T> {
    return new APIPromise<T>(this.#run<T>(spec, opts));
  }

  /** {@link request}'s answer as a plain promise, for `api/endpoint.ts` to map before it makes the call's one {@link APIPromise}. */
  answer<T>(spec: SpecInput, opts: Checked<RequestOptions> = NO_OPTIONS): Promise<WithResponse<T>> {
    return this.#run<T>(spec, opts);
  }

  /** Opens a call and returns the raw answer (for streams). Errors are mapped like {@link request}. */
  async raw(input: SpecInput, opts: Checked<RequestOptions> = NO_OPTIONS): Promise<TransportResponse> {
    const spec = buildSpec(input);
    return this.#withRetries(spec, opts, async (res, url, requestId) => {
      if (!isSuccess(res.status)) throw await answerError(spec, res, url, requestId, this.#answers);
      return res;
    });
  }

  #run<T>(input: SpecInput, opts: RequestOptions): Promise<WithResponse<T>> {
    let spec: RequestSpec;
    try {
      // No await before #withRetries: the body is serialised at the call, so changing the caller's options afterwards changes nothing.
      spec = buildSpec(input);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    // Read and decoded in one step where the transport can (`read`: the Node entry decodes the text in the step that
    // ends the body, so the text is garbage at once): under load, a text handed on through a promise to be parsed a
    // step later cost about 60 us of CPU a call more (measured: bench/README.md). A read cut by the attempt's abort
    // rejects with the abort's reason (the attempt's `catch`). A 3xx is never a result (the transports follow no
    // redirect): a status read's redirect with a `success:false` body once resolved as a failed job.
    return this.#withRetries(spec, opts, (res, url, requestId) => {
      const use = (text: string): WithResponse<T> | Promise<WithResponse<T>> =>
        isSuccess(res.status) ? readAnswer<T>(spec, res, url, requestId, text, this.#answers) : answerError(spec, res, url, requestId, this.#answers, text).then(rethrow);
      return res.read ? res.read(use) : res.text().then(use);
    }, bodyOf);
  }

  async #withRetries<R>(
    spec: RequestSpec,
    opts: RequestOptions,
    handle: Handle<R>,
    answerBody?: (out: R) => unknown,
  ): Promise<R> {
    const link = linkSignal(opts.signal); // one listener on the caller's signal, however many calls share it
    if (link) return this.#withRetries(spec, { ...opts, signal: link.signal }, handle, answerBody).finally(link.dispose);
    const call = this.#prepare(spec, opts);
    call.run = this.#hookRun(call);
    try {
      return await withRetries((n) => this.#attempt(call, n, handle, answerBody), opts.signal, () => this.#retryPlan(call));
    } catch (err) {
      const failed = this.#explained(call, err);
      if (call.run) await call.run.error(failed);
      throw failed;
    }
  }

  /** The call built, before anything is sent: its URL (a fixed route's, no placeholder and no query, joined once per client), idempotency plan, headers with the request id, body and attempt timeout. */
  #prepare(spec: RequestSpec, opts: RequestOptions): Call {
    const cfg = this.#config;
    const fixed = spec.route === spec.path && !hasQuery(spec.query);
    let at = fixed ? this.#routes.get(spec.path) : undefined;
    if (!at) {
      const joined = this.url(spec.path, spec.query);
      at = [joined, new URL(joined).pathname];
      if (fixed) this.#routes.set(spec.path, at);
    }
    const idem = idempotencyPlan(opts.idempotencyKey, spec.idempotent === true, cfg.idempotencyKeys, spec.retry);
    const headers = this.#headers(spec, opts, idem.key);
    const requestId = headers["x-request-id"] as string; // always set by #headers: the same on every attempt
    const body = encodeBody(spec.body, spec.files);
    const timeoutMs = attemptTimeoutMs(opts.timeoutMs ?? cfg.timeoutMs, spec.serverTimeoutMs);
    return { spec, opts, url: at[0], endpoint: `${spec.method} ${at[1]}`, idem, headers, requestId, body, timeoutMs, run: undefined };
  }

  #headers(spec: RequestSpec, opts: RequestOptions, idemKey: string | undefined): Record<string, string> {
    const h: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT, "x-client": USER_AGENT };
    if (spec.body !== undefined && !spec.files) h["content-type"] = "application/json";
    const key = this.#config.apiKey;
    if (spec.auth !== false && key) h.authorization = `Bearer ${key}`; // the URL is always under apiUrl (see `url()`)
    if (idemKey !== undefined) h["x-idempotency-key"] = idemKey;
    // The client's headers, then the call's (a name in any case: the call's wins).
    for (const from of [this.#config.headers, opts.headers]) if (from) for (const k of Object.keys(from)) h[k.toLowerCase()] = from[k]!;
    if (spec.auth === false) delete h.authorization;
    else if (this.#config.keyless && h.authorization !== undefined) {
      throw new ValidationError([{ path: "headers.authorization", message: "is sent by no keyless client (apiKey: null or WEBDATA_API_KEY set empty): pass the key as { apiKey } instead" }], "request options");
    }
    // The call's request id (see `RequestOptions.requestId`): the option, else a caller's header, else a new UUID.
    h["x-request-id"] = opts.requestId ?? h["x-request-id"] ?? uuid();
    return h;
  }

  /** The hooks of the call, client's first (`ResolvedConfig.hookSets`, then the call's own); none: `undefined`, no event is ever built. */
  #hookRun(call: Call): HookRun | undefined {
    const own = call.opts.hooks;
    const mine = own && (own.onRequest || own.onResponse || own.onRetry || own.onError) ? own : undefined;
    const client = this.#config.hookSets;
    if (!client && !mine) return undefined;
    const sets = !mine ? client! : client ? [...client, mine] : [mine];
    return new HookRun(sets, call.spec, call.url, call.requestId, call.headers, this.#secrets);
  }

  /** Attempt `n`: `onRequest`, the send under the attempt's timer and the caller's signal, the answer read by `handle`, `onResponse` (with `answerBody`); an error mapped, redacted and tagged. */
  async #attempt<R>(call: Call, n: number, handle: Handle<R>, answerBody: ((out: R) => unknown) | undefined): Promise<R> {
    const { run, timeoutMs } = call;
    const caller = call.opts.signal;
    // `onRequest` runs before the attempt's timer: its headers (with what it set) are what is sent.
    const sent = run ? await run.before(n) : call.headers;
    if (caller?.aborted) throw new AbortError(undefined, { cause: caller.reason });
    // The transport's own controller when it has one (undici's, without an AbortSignal: about 20 µs of CPU a call less).
    const ctl = new (this.#transport.AbortController ?? AbortController)();
    const onAbort = caller ? () => ctl.abort(new AbortError(undefined, { cause: caller.reason })) : undefined;
    if (onAbort) caller!.addEventListener("abort", onAbort, { once: true });
    // The error is made only when the timer fires: building one per attempt (a stack capture) cost ~7% of CPU under load.
    const cancelTimer = after(timeoutMs, () => ctl.abort(new TimeoutError(timeoutMs, call.endpoint)));
    const debug = levelEnabled(this.#config.logLevel, "debug"); // the lines are made only when they are written
    if (debug) this.log("debug", `-> ${call.endpoint}${n > 1 ? ` (attempt ${n})` : ""}`);
    try {
      const res = await this.#transport({ url: call.url, method: call.spec.method, headers: sent, body: call.body, signal: ctl.signal, maxBytes: this.#config.maxResponseBytes });
      const out = await handle(res, call.url, call.requestId);
      if (run) await run.response(res, answerBody?.(out));
      if (debug) this.log("debug", `<- ${call.endpoint} ${res.status}`);
      return out;
    } catch (err) {
      if (ctl.signal.aborted) throw tagError(ctl.signal.reason, call.requestId);
      // The boundary: whatever the attempt threw (an answer's error, mapped by the endpoint or not, the transport's
      // own, a `fetch` wrapper's, a runtime's), no secret passes.
      const { spec, idem } = call;
      throw tagError(this.redactError(err instanceof APIError && spec.mapError ? spec.mapError(err, { attempt: n, idempotencyKey: idem.key, keyGenerated: idem.generated }) : err), call.requestId);
    } finally {
      cancelTimer();
      if (onAbort) caller!.removeEventListener("abort", onAbort);
      run?.ended();
    }
  }

  /** The retry plan of the call (`./retry.ts` decides and waits): each retry logged and told to the `onRetry` hooks. */
  #retryPlan(call: Call): RetryPlan {
    const cfg = this.#config;
    const onRetry = (e: RetryEvent): Promise<void> | undefined => {
      const told = call.run?.retry(e);
      this.log("info", `Retrying ${call.endpoint} ${e.serverWaitMs === undefined ? "after backoff" : `in ${e.serverWaitMs} ms (server-directed)`} after ${e.error.name}: ${e.error.message}`, { attempt: e.attempt });
      return told;
    };
    return { endpoint: call.endpoint, policy: call.idem.policy, maxRetries: call.opts.maxRetries ?? cfg.maxRetries, maxRetryAfterMs: cfg.maxRetryAfterMs, signal: call.opts.signal, onRetry, backoffBaseMs: cfg.backoffBaseMs };
  }

  /** The call's failure as the caller gets it: the likely cause of a keyed start's 500 and of a keyless refusal added, the request id on it. */
  #explained(call: Call, err: unknown): unknown {
    const cfg = this.#config;
    return tagError(explainKeyless(explainKeyedFailure(err, call.idem.key !== undefined, isPublicDeployment(cfg.apiUrl)), cfg.keyless), call.requestId);
  }
}

/** True for a 2xx status: anything else (a 3xx included) is an error, never a result. */
function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** `r` with its result tagged with the request id ({@link tagRequestId}). */
function tagged<T>(r: WithResponse<T>): WithResponse<T> {
  tagRequestId(r.data, r.response.requestId);
  return r;
}

/** Throws `err` (a promise's `then` that turns an error value into its rejection). */
function rethrow(err: unknown): never {
  throw err;
}

/** The parsed body of a call's result (what `onResponse` reads `creditsUsed` from). */
function bodyOf<T>(out: WithResponse<T>): unknown {
  return out.data;
}
