/**
 * The ONE function every call goes through: URL joining, auth, JSON, the
 * per-attempt timeout combined with the caller's signal, retries, error
 * mapping, request-id capture and logging with the key redacted.
 */
import { isPublicDeployment, type ResolvedConfig } from "./config.js";
import { AbortError, APIError, DeprecatedEndpointError, explainKeyless, HookError, isRecord, statusText, TimeoutError, ValidationError, WebDataError, type HookName } from "./errors.js";
import { after, linkSignal } from "./time.js";
import type { HookEventBase, Hooks } from "./hooks.js";
import { ClientState } from "./client-state.js";
import { attemptTimeoutMs, type Checked, encodeJson, isHeaderName, isHeaderValue, levelEnabled, type LogLevel, NO_OPTIONS } from "./options.js";
import { hidesSecrets, parseRedacted, redactAll, redactError, redactHeaders, redactParsed, redactRequestHeaders, secretsOf } from "./redact.js";
import { checkAnswer, decodeAnswer, deprecationOf, reportedCredits, firstDeprecationNotice, type AnswerInfo, type DeprecationInfo, type ResponseSchema } from "./response.js";
import { explainKeyedFailure, idempotencyPlan, parseRetryAfter, uuid, withRetries, type RetryEvent, type RetryPlan, type RetryPolicy } from "./retry.js";
import type { Transport, TransportResponse } from "./transport.js";
import { VERSION } from "./version.js";

/** Per-call options, accepted last by every method. */
export interface RequestOptions {
  /** Aborts the call (including retry sleeps); rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Limit of one HTTP attempt, ms (overrides the client's; each retry gets a fresh one). Not a waiter's whole-job deadline (`WaitOptions.timeoutMs`). */
  timeoutMs?: number | undefined;
  /** Retries for this call (overrides the client's). */
  maxRetries?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** `x-idempotency-key` to send: a UUID (anything else is a `ValidationError`). Always sent when given; otherwise generated for job starts the server de-duplicates when the client's `idempotencyKeys` option is on. */
  idempotencyKey?: string | undefined;
  /** Lifecycle hooks of this call (see `Hooks`), run after the client's own `hooks`. */
  hooks?: Hooks | undefined;
  /**
   * The `x-request-id` to send with this call (printable ASCII without spaces, 1 to 200 characters).
   * The rule: this option, else an `x-request-id` given in this call's `headers` or the client's
   * `headers`, else a random UUID made per call. The id is the same on every retry of the call, and is
   * kept on the result (`withResponse().response.requestId`, the `_requestId` of a result object) and on
   * any error (`requestId`), whether or not the server echoes it.
   */
  requestId?: string | undefined;
}

/** What an endpoint module asks of the request function. */
export interface RequestSpec {
  /** HTTP method. */
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** A path under the API URL (`/v2/scrape`, or a `next` page's path and query re-based by `jobs/status.ts`): no request goes to another origin. */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined> | undefined;
  /** JSON body. */
  body?: unknown;
  /**
   * Files to upload: the body goes as `multipart/form-data` instead of JSON, each field of `body` a part
   * holding its JSON text, each file a part of its own (`[blob, filename]`); the runtime sets the boundary.
   */
  files?: Record<string, [Blob, string]> | undefined;
  /** Send `Authorization` (default true; agent signup sends none). */
  auth?: boolean;
  /** Retry policy (default `safe`). */
  retry?: RetryPolicy;
  /** The server honours `x-idempotency-key` here: with a key (generated when the client's `idempotencyKeys` is on, reused across attempts) the call is retried as `safe`. */
  idempotent?: boolean;
  /** Return a 2xx body with `success: false` instead of throwing (job status reads). */
  allowUnsuccessful?: boolean;
  /** The route with its `{placeholders}` (`/v2/crawl/{id}`), when the endpoint has one (`HookEventBase.route`). */
  route?: string | undefined;
  /**
   * The operation's stable name in the catalogue (`api/operations.ts`: `scrape`, `crawl.status`, `batchScrape.start`):
   * names the call for hooks and spans (`HookEventBase.operation`, `v1.` before it for a v1 route). Never an id or any caller input.
   */
  op: string;
  /** The server-side time limit of this call (its `timeout` field), in ms, from `serverTimeoutMs` (`./options.ts`, the one home of the rule and its table). */
  serverTimeoutMs?: number | undefined;
  /** Sees each mapped error with the attempt that got it (a crawl start recognises its own lost answer); returns the error to throw. */
  mapError?: (err: APIError, attempt: AttemptInfo) => APIError;
  /** Loose zod schema of what the method reads from a 2xx body; a mismatch is `InvalidResponseError` (never retried). */
  response?: ResponseSchema | undefined;
}

/** Which attempt of a call an answer belongs to (given to `RequestSpec.mapError`). */
export interface AttemptInfo {
  /** 1 for the first attempt. */
  attempt: number;
  /** The `x-idempotency-key` sent, if any. */
  idempotencyKey: string | undefined;
  /** True when that key was generated by the client (not given by the caller). */
  keyGenerated: boolean;
}

/** A request spec, or a thunk building it (its throws become rejections). */
export type SpecInput = RequestSpec | (() => RequestSpec);

/**
 * Builds the spec at the call: its throws reject the call and nothing is sent. The body is
 * serialised at the call too (`#withRetries` encodes it before its first `await`), so changing
 * the caller's options afterwards changes nothing.
 */
function buildSpec(input: SpecInput): RequestSpec {
  return typeof input === "function" ? input() : input;
}

/** Status, headers and request id of the HTTP answer. */
export interface ResponseInfo {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The `x-request-id` the SDK sent with the call (see `RequestOptions.requestId`), whether or not the server echoed it. */
  requestId: string | undefined;
  /** A request id the server sent in its response headers (`x-request-id`, `request-id`, `x-correlation-id`, `cf-ray`), when it differs from {@link requestId}. */
  serverRequestId?: string | undefined;
  /** The URL that answered. */
  url: string;
  /** The server's deprecation signal (a `Deprecation` header or `warnings[]`), when the answer had one. */
  deprecation?: DeprecationInfo | undefined;
}

/** A parsed body together with its {@link ResponseInfo}. */
export interface WithResponse<T> {
  /** The parsed result. */
  data: T;
  /** The raw answer's status and headers. */
  response: ResponseInfo;
}

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

const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-correlation-id", "cf-ray"];

/** What the SDK calls itself (`user-agent`, `x-client`). */
const USER_AGENT = `webdata/${VERSION}`;

/** True when a query has a value to send. */
function hasQuery(query: RequestSpec["query"]): boolean {
  if (query) for (const k in query) if (query[k] !== undefined) return true;
  return false;
}

/** The shared fetch layer. One instance per client; `api/endpoint.ts` (`send`, `open`) calls {@link HttpClient.request} and {@link HttpClient.raw}. */
export class HttpClient {
  readonly #config: ResolvedConfig;
  readonly #transport: Transport;
  readonly #secrets: readonly string[];
  /** This client's memory between calls (started and cancelled jobs, its watchers' WebSocket): see `./client-state.ts`. */
  readonly state = new ClientState();
  /** The URL and its path of each route sent that has no placeholder and no query (a fixed set): a call to one parses no URL. */
  readonly #routes = new Map<string, readonly [url: string, pathname: string]>();

  /** Binds a resolved configuration to a transport. */
  constructor(config: ResolvedConfig, transport: Transport) {
    this.#config = config;
    this.#transport = transport;
    this.#secrets = secretsOf(config.apiKey, config.headers);
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
      if (!isSuccess(res.status)) throw await this.#errorFrom(spec, res, url, requestId);
      return res;
    });
  }

  #run<T>(input: SpecInput, opts: RequestOptions): Promise<WithResponse<T>> {
    let spec: RequestSpec;
    try {
      spec = buildSpec(input); // no await before #withRetries: the body is serialised at the call
    } catch (err) {
      return Promise.reject(err as Error);
    }
    // Read and decoded in one step where the transport can (`read`: the Node entry decodes the text in the step that
    // ends the body, so the text is garbage at once): under load, a text handed on through a promise to be parsed a
    // step later cost about 60 us of CPU a call more (measured: bench/README.md). A read cut by the attempt's abort
    // rejects with the abort's reason (the attempt's `catch`).
    return this.#withRetries(spec, opts, (res, url, requestId) => {
      const use = (text: string): WithResponse<T> | Promise<WithResponse<T>> => this.#decode<T>(spec, res, url, requestId, text);
      return res.read ? res.read(use) : res.text().then(use);
    }, bodyOf);
  }

  /**
   * The answer edge (core/response.ts) for a read body: a non-2xx is its error; else JSON, then the method's loose
   * schema, else `InvalidResponseError`; the key redacted from the text, the parsed value (a \u escape) and the
   * headers (core/redact.ts), which only an error reads (redacted then). Synchronous but for an error answer and a
   * parsed value to redact.
   */
  #decode<T>(spec: RequestSpec, res: TransportResponse, url: string, requestId: string, text: string): WithResponse<T> | Promise<WithResponse<T>> {
    // A 3xx is never a result (the transports follow no redirect): a status read's redirect with a
    // `success:false` body once resolved as a failed job.
    if (!isSuccess(res.status)) return this.#errorFrom(spec, res, url, requestId, text).then(rethrow);
    const info: ResponseInfo = { status: res.status, headers: res.headers, requestId, serverRequestId: serverIdOf(res.headers, requestId), url };
    const secrets = this.#secrets;
    // (No closure over `res` here: one kept each status page's text alive while its documents were iterated.)
    const answer: AnswerInfo = { status: info.status, requestId, serverRequestId: info.serverRequestId, url, method: spec.method, headers: res.headers, secrets };
    const safeText = redactAll(text, secrets);
    const parsed = decodeAnswer(safeText, spec.response, answer);
    if (hidesSecrets(safeText, secrets)) return redactParsed(parsed, safeText, secrets).then((body) => this.#accept<T>(spec, res, text, safeText, answer, info, body));
    return this.#accept<T>(spec, res, text, safeText, answer, info, parsed);
  }

  /** A decoded 2xx body: `success: false` is its error (unless the call allows it), then the method's schema, then the server's deprecation signal. */
  #accept<T>(spec: RequestSpec, res: TransportResponse, text: string, safeText: string, answer: AnswerInfo, info: ResponseInfo, body: unknown): WithResponse<T> {
    if (!spec.allowUnsuccessful && (body as { success?: unknown } | null | undefined)?.success === false) {
      throw this.#mapError(spec, res, info.url, answer.requestId ?? "", body, text);
    }
    checkAnswer(spec.response, body, safeText, answer);
    const deprecation = deprecationOf(res.headers, body);
    if (deprecation) this.#deprecated((info.deprecation = deprecation), `${spec.method} ${new URL(info.url).pathname}`, body);
    return { data: body as T, response: info }; // the result is tagged with the request id on the way out (`APIPromise`)
  }

  async #withRetries<R>(
    spec: RequestSpec,
    opts: RequestOptions,
    handle: (res: TransportResponse, url: string, requestId: string) => Promise<R>,
    answerBody?: (out: R) => unknown,
  ): Promise<R> {
    // `opts` were checked once, by the public method (`Checked`): never again here, on each call of a walk or a poll.
    const link = linkSignal(opts.signal); // one listener on the caller's signal, however many calls share it
    if (link) return this.#withRetries(spec, { ...opts, signal: link.signal }, handle, answerBody).finally(link.dispose);
    const cfg = this.#config;
    const fixed = spec.route === spec.path && !hasQuery(spec.query);
    let at = fixed ? this.#routes.get(spec.path) : undefined;
    if (!at) {
      const joined = this.url(spec.path, spec.query);
      at = [joined, new URL(joined).pathname];
      if (fixed) this.#routes.set(spec.path, at);
    }
    const url = at[0];
    const endpoint = `${spec.method} ${at[1]}`;
    const idem = idempotencyPlan(opts.idempotencyKey, spec.idempotent === true, cfg.idempotencyKeys, spec.retry);
    const headers = this.#headers(spec, opts, url, idem.key);
    const requestId = headers["x-request-id"] as string; // always set by #headers: the same on every attempt
    const body = spec.files ? multipart(spec.body, spec.files) : spec.body === undefined ? undefined : encodeJson(spec.body);
    const timeoutMs = attemptTimeoutMs(opts.timeoutMs ?? cfg.timeoutMs, spec.serverTimeoutMs);
    const caller = opts.signal;
    // The hooks of this call, client's first; none: no event is ever built (zero cost).
    const own = opts.hooks && (opts.hooks.onRequest || opts.hooks.onResponse || opts.hooks.onRetry || opts.hooks.onError) ? opts.hooks : undefined;
    const run = cfg.hooks || own ? new HookRun(cfg.hooks ? (own ? [cfg.hooks, own] : [cfg.hooks]) : [own as Hooks], spec, url, requestId, headers, this.#secrets) : undefined;

    const attempt = async (n: number): Promise<R> => {
      // `onRequest` runs before the attempt's timer: its headers (with what it set) are what is sent.
      const sent = run ? await run.before(n) : headers;
      if (caller?.aborted) throw new AbortError(undefined, { cause: caller.reason });
      // The transport's own controller when it has one (undici's, without an AbortSignal: about 20 µs of CPU a call less).
      const ctl = new (this.#transport.AbortController ?? AbortController)();
      const onAbort = caller ? () => ctl.abort(new AbortError(undefined, { cause: caller.reason })) : undefined;
      if (onAbort) caller!.addEventListener("abort", onAbort, { once: true });
      // The error is made only when the timer fires: building one per attempt (a stack capture) cost ~7% of CPU under load.
      const cancelTimer = after(timeoutMs, () => ctl.abort(new TimeoutError(timeoutMs, endpoint)));
      const debug = levelEnabled(cfg.logLevel, "debug"); // the lines are made only when they are written
      if (debug) this.log("debug", `-> ${endpoint}${n > 1 ? ` (attempt ${n})` : ""}`);
      try {
        const res = await this.#transport({ url, method: spec.method, headers: sent, body, signal: ctl.signal, maxBytes: cfg.maxResponseBytes });
        const out = await handle(res, url, requestId);
        if (run) await run.response(res, answerBody?.(out));
        if (debug) this.log("debug", `<- ${endpoint} ${res.status}`);
        return out;
      } catch (err) {
        if (ctl.signal.aborted) throw tagError(ctl.signal.reason, requestId);
        // The boundary: whatever the attempt threw (an answer's error, mapped by the endpoint or not, the transport's
        // own, a `fetch` wrapper's, a runtime's), no secret passes.
        throw tagError(this.redactError(err instanceof APIError && spec.mapError ? spec.mapError(err, { attempt: n, idempotencyKey: idem.key, keyGenerated: idem.generated }) : err), requestId);
      } finally {
        cancelTimer();
        if (onAbort) caller!.removeEventListener("abort", onAbort);
        run?.ended();
      }
    };

    try {
      // The retry plan, made once the first attempt failed.
      const planOf = (): RetryPlan => {
        const onRetry = (e: RetryEvent): Promise<void> | undefined => {
          const told = run?.retry(e);
          this.log("info", `Retrying ${endpoint} ${e.serverWaitMs === undefined ? "after backoff" : `in ${e.serverWaitMs} ms (server-directed)`} after ${e.error.name}: ${e.error.message}`, { attempt: e.attempt });
          cfg.onRetry?.(e);
          return told;
        };
        return { endpoint, policy: idem.policy, maxRetries: opts.maxRetries ?? cfg.maxRetries, maxRetryAfterMs: cfg.maxRetryAfterMs, signal: caller, onRetry, backoffBaseMs: cfg.backoffBaseMs };
      };
      return await withRetries(attempt, caller, planOf);
    } catch (err) {
      const failed = tagError(explainKeyless(explainKeyedFailure(err, idem.key !== undefined, isPublicDeployment(cfg.apiUrl)), cfg.keyless), requestId);
      if (run) await run.error(failed);
      throw failed;
    }
  }

  #headers(spec: RequestSpec, opts: RequestOptions, url: string, idemKey: string | undefined): Record<string, string> {
    const h: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT, "x-client": USER_AGENT };
    if (spec.body !== undefined && !spec.files) h["content-type"] = "application/json";
    const key = this.#config.apiKey;
    if (spec.auth !== false && key) h.authorization = `Bearer ${key}`; // `url` is always under apiUrl (see `url()`)
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

  /**
   * The server flagged an answer as deprecated: with `strictDeprecations`, a `DeprecatedEndpointError` carrying
   * the answer; else a warning, once per process and endpoint, unless `silenceDeprecationWarnings`.
   */
  #deprecated(d: DeprecationInfo, endpoint: string, body: unknown): void {
    const cfg = this.#config;
    if (cfg.strictDeprecations) throw new DeprecatedEndpointError({ endpoint, replacement: d.replacement, sunset: d.sunset, warnings: d.warnings, body });
    if (cfg.silenceDeprecationWarnings || !firstDeprecationNotice(endpoint, d)) return;
    const why = d.warnings[0] ?? `${endpoint} is deprecated`;
    this.log("warn", `webdata: the server says: ${why}${d.replacement ? ` Replacement: ${d.replacement}.` : ""}${d.sunset ? ` Sunset: ${d.sunset}.` : ""}${d.docs ? ` See ${d.docs}.` : ""}`);
  }

  async #errorFrom(spec: RequestSpec, res: TransportResponse, url: string, requestId: string, text?: string): Promise<APIError> {
    const raw = text ?? (await res.text().catch(() => ""));
    const body = await parseRedacted(raw, this.#secrets);
    return this.#mapError(spec, res, url, requestId, body, raw);
  }

  #mapError(spec: RequestSpec, res: TransportResponse, url: string, requestId: string, body: unknown, text: string): APIError {
    const rec = isRecord(body) ? body : {};
    const serverText =
      typeof rec.error === "string" ? rec.error
      : typeof rec.message === "string" ? rec.message
      : typeof body === "string" && body.trim() && !body.trim().startsWith("<") ? body.trim().slice(0, 300)
      : statusText(res.status) || "Request failed";
    const message = typeof rec.message === "string" && typeof rec.error === "string" && rec.message !== rec.error ? `${rec.error}: ${rec.message}` : serverText;
    return APIError.from({
      status: res.status,
      message, // redacted with every other secret at the boundary (`redactError`), as all of this error's strings
      code: typeof rec.code === "string" ? rec.code : undefined,
      details: rec.details,
      requestId,
      serverRequestId: serverIdOf(res.headers, requestId),
      body,
      headers: redactHeaders(res.headers, this.#secrets),
      endpoint: `${spec.method} ${new URL(url).pathname}`,
      retryAfterMs: parseRetryAfter(res.headers, text), // kept by a RateLimitError
      location: redirectTarget(res.headers.get("location"), url),
      apiUrl: this.#config.apiUrl,
    });
  }
}

/** A multipart body: each field of `body` as its JSON text, then each file. */
function multipart(body: unknown, files: Record<string, [Blob, string]>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(isRecord(body) ? body : {})) form.append(k, encodeJson(v));
  for (const [k, [blob, name]] of Object.entries(files)) form.append(k, blob, name);
  return form;
}

/** True for a 2xx status: anything else (a 3xx included) is an error, never a result. */
function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** A redirect's `Location`, absolute against the request URL and without user name or password; `undefined` when absent or unreadable. */
function redirectTarget(location: string | null, requestUrl: string): string | undefined {
  if (!location) return undefined;
  try {
    const u = new URL(location, requestUrl);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return undefined;
  }
}

/** `r` with its result tagged with the request id ({@link tagRequestId}). */
function tagged<T>(r: WithResponse<T>): WithResponse<T> {
  tagRequestId(r.data, r.response.requestId);
  return r;
}

/** Puts the request id on a result object as the non-enumerable `_requestId` (not in JSON, not compared by deep equality). */
function tagRequestId<T>(value: T, requestId: string | undefined): T {
  if (requestId && typeof value === "object" && value !== null && Object.isExtensible(value) && !Object.prototype.hasOwnProperty.call(value, "_requestId")) {
    Object.defineProperty(value, "_requestId", { value: requestId, enumerable: false });
  }
  return value;
}

/** A request id the server sent in its headers, when it differs from the one sent (`sent`). */
function serverIdOf(headers: Headers, sent: string): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers.get(name);
    if (v) return v === sent ? undefined : v;
  }
  return undefined;
}

/** `err` with the call's request id, when it is one of the SDK's errors without one (an answer's error has it already). */
function tagError<E>(err: E, requestId: string): E {
  if (err instanceof WebDataError && err.requestId === undefined) err.requestId = requestId;
  return err;
}

/** Throws `err` (a promise's `then` that turns an error value into its rejection). */
function rethrow(err: unknown): never {
  throw err;
}

/** The parsed body of a call's result (what `onResponse` reads `creditsUsed` from). */
function bodyOf<T>(out: WithResponse<T>): unknown {
  return out.data;
}

/** Header names a hook's `setHeader` may not set: the key, the call's id, and what the transports own. */
const HOOK_REFUSED = new Set(["authorization", "proxy-authorization", "x-request-id", "host", "content-length", "transfer-encoding", "connection"]);
/**
 * The hooks of one call (made only when it has some): builds each event, times each attempt, runs
 * each hook in order (client's first) and turns a throw into `HookError`. Events are copies: the
 * headers with every secret redacted.
 */
class HookRun {
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

  constructor(sets: readonly Hooks[], spec: RequestSpec, url: string, requestId: string, headers: Record<string, string>, secrets: readonly string[]) {
    this.#sets = sets;
    const path = spec.path.split("?")[0] ?? spec.path;
    // The catalogue's name, never the path: an id or a caller's input in it would be a span name and a metric label.
    const operation = path.startsWith("/v1/") ? `v1.${spec.op}` : spec.op;
    this.#base = { method: spec.method, path, url: url.split("?")[0] ?? url, route: spec.route, operation, requestId };
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
    return this.#call("onRetry", { ...this.#event(), error: e.error, delayMs: e.serverWaitMs, status: statusOf(e.error), durationMs: this.#durationMs });
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
