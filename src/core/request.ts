/**
 * The ONE function every call goes through: URL joining, auth, JSON, the
 * per-attempt timeout combined with the caller's signal, retries, error
 * mapping, request-id capture and logging with the key redacted.
 */
import { levelEnabled, type LogLevel, type ResolvedConfig } from "./config.js";
import { AbortError, APIError, isRecord, RateLimitError, redact, TimeoutError, WebDataError } from "./errors.js";
import { linkSignal } from "./abort.js";
import { attemptTimeoutMs, checkRequestOptions, encodeJson } from "./options.js";
import { parseRedacted, redactHeaders } from "./redact.js";
import { isRetryable, parseRetryAfter, retryDelayMs, sleep, type RetryPolicy } from "./retry.js";
import type { Transport, TransportResponse } from "./transport.js";
import { VERSION } from "./version.js";

/** Per-call options, accepted last by every method. */
export interface RequestOptions {
  /** Aborts the call (including retry sleeps); rejects with `AbortError`. */
  signal?: AbortSignal | undefined;
  /** Per-attempt timeout in milliseconds (overrides the client's). */
  timeoutMs?: number | undefined;
  /** Retries for this call (overrides the client's). */
  maxRetries?: number | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /** `x-idempotency-key` to send (a UUID); generated for job starts that the server de-duplicates. */
  idempotencyKey?: string | undefined;
}

/** What an endpoint module asks of the request function. */
export interface RequestSpec {
  /** HTTP method. */
  method: "GET" | "POST" | "DELETE";
  /** A path under the API URL (`/v2/scrape`), or an absolute URL (a `next` link). */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined> | undefined;
  /** JSON body. */
  body?: unknown;
  /** Send `Authorization` (default true; agent signup sends none). */
  auth?: boolean;
  /** Retry policy (default `safe`). */
  retry?: RetryPolicy;
  /** The server honours `x-idempotency-key` here: generate one (reused across attempts) and retry as `safe`. */
  idempotent?: boolean;
  /** Return a 2xx body with `success: false` instead of throwing (job status reads). */
  allowUnsuccessful?: boolean;
  /** Lower bound for the per-attempt timeout (e.g. the server-side `timeout` plus a margin). */
  minTimeoutMs?: number | undefined;
  /** Refines a mapped error into a more specific class (agent signup). */
  mapError?: (err: APIError) => APIError;
}

/** A request spec, or a thunk building it (its throws become rejections). */
export type SpecInput = RequestSpec | (() => RequestSpec);

/**
 * Thrown by a spec thunk that needs a module loaded first (the zod 3 / zod mini
 * schema converter): the request layer waits for `ready` and builds the spec
 * again. Otherwise specs are built, and bodies serialized, during the call, so
 * changing the options object afterwards cannot change the request.
 */
export class LoadFirst {
  /** @param ready settles when the module is loaded (rejects when it cannot be). */
  constructor(readonly ready: Promise<unknown>) {}
}

/**
 * A shallow copy of a plain-object argument (other values as they are), taken at the call
 * by methods whose spec may be built again after {@link LoadFirst}.
 */
export function snapshot<T>(value: T): T {
  const proto = value !== null && typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  return proto === Object.prototype || proto === null ? { ...value } : value;
}

function buildSpec(input: SpecInput): RequestSpec | Promise<RequestSpec> {
  if (typeof input !== "function") return input;
  try {
    return input();
  } catch (err) {
    if (err instanceof LoadFirst) return err.ready.then(() => buildSpec(input));
    throw err;
  }
}

/** Status, headers and request id of the HTTP answer. */
export interface ResponseInfo {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Request id from the response headers, when the server sent one. */
  requestId: string | undefined;
  /** The URL that answered. */
  url: string;
}

/** A parsed body together with its {@link ResponseInfo}. */
export interface WithResponse<T> {
  /** The parsed result. */
  data: T;
  /** The raw answer's status and headers. */
  response: ResponseInfo;
}

/** Like `Promise<T>`, plus `.withResponse()` to reach the raw status and headers. */
export class APIPromise<T> extends Promise<T> {
  readonly #inner: Promise<WithResponse<T>>;

  /** Wraps a promise of a parsed body with its response info. */
  constructor(inner: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#inner = inner;
    inner.catch(() => undefined);
  }

  /** Promises derived with `then`/`catch`/`finally` are plain `Promise`s. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** Maps the parsed body, keeping the response info. */
  static map<A, B>(p: Promise<WithResponse<A>>, fn: (a: A, r: ResponseInfo) => B): APIPromise<B> {
    return new APIPromise(p.then((r) => ({ data: tagRequestId(fn(r.data, r.response), r.response.requestId), response: r.response })));
  }

  /** Maps the parsed body, keeping `.withResponse()`. */
  map<B>(fn: (data: T, response: ResponseInfo) => B): APIPromise<B> {
    return APIPromise.map(this.#inner, fn);
  }

  /** The parsed result and the raw response's status, headers and request id. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner;
  }

  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#inner.then((r) => r.data).then(onfulfilled, onrejected);
  }

  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}

const REQUEST_ID_HEADERS = ["x-request-id", "request-id", "x-correlation-id", "cf-ray"];

/** A random UUID v4, also where `crypto.randomUUID` is missing (non-secure browser contexts). */
export function uuid(): string {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === "function") return c.randomUUID();
  const b = new Uint8Array(16);
  c.getRandomValues(b);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The shared fetch layer. One instance per client; `api/*` modules call {@link HttpClient.request}. */
export class HttpClient {
  readonly #config: ResolvedConfig;
  readonly #transport: Transport;
  #origin: string | undefined;

  /** Binds a resolved configuration to a transport. */
  constructor(config: ResolvedConfig, transport: Transport) {
    this.#config = config;
    this.#transport = transport;
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
    const key = this.#config.apiKey;
    try {
      const safe = data ? (JSON.parse(redact(JSON.stringify(data), key)) as Record<string, unknown>) : undefined;
      this.#config.logger[level](redact(message, key), safe);
    } catch {
      // A logger that throws must not fail the call (nor skip the clean-up of its timers).
    }
  }

  /** Builds the absolute URL of a path, or checks an absolute one. */
  url(path: string, query?: RequestSpec["query"]): string {
    const u = /^https?:\/\//i.test(path) ? new URL(path) : new URL(this.#config.apiUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** True when `url` has the configured API origin (only then is the key sent). */
  sameOrigin(url: string): boolean {
    this.#origin ??= new URL(this.#config.apiUrl).origin;
    return new URL(url).origin === this.#origin;
  }

  /**
   * Performs one logical call (with retries) and parses the JSON answer.
   * Pass the spec as a thunk when building it can throw (input validation,
   * `path` checks): the throw then rejects the returned promise, and nothing is sent.
   */
  request<T>(spec: SpecInput, opts: RequestOptions = {}): APIPromise<T> {
    return new APIPromise<T>(this.#run<T>(spec, opts));
  }

  /** Opens a call and returns the raw answer (for streams). Errors are mapped like {@link request}. */
  async raw(input: SpecInput, opts: RequestOptions = {}): Promise<TransportResponse> {
    const built = buildSpec(input);
    const spec = built instanceof Promise ? await built : built;
    return this.#withRetries(spec, opts, async (res, url) => {
      if (res.status >= 400) throw await this.#errorFrom(spec, res, url);
      return res;
    });
  }

  async #run<T>(input: SpecInput, opts: RequestOptions): Promise<WithResponse<T>> {
    const built = buildSpec(input);
    const spec = built instanceof Promise ? await built : built; // no await (the body is serialized now) unless a module must load first
    return this.#withRetries(spec, opts, async (res, url, signal) => {
      let text: string;
      try {
        text = await res.text();
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        throw err;
      }
      const info: ResponseInfo = { status: res.status, headers: res.headers, requestId: requestIdOf(res.headers), url };
      if (res.status >= 400) throw await this.#errorFrom(spec, res, url, text);
      const body = await parseRedacted(text, this.#config.apiKey);
      if (typeof body === "string" && (res.headers.get("content-type") ?? "").includes("json")) {
        throw new APIError({ status: res.status, message: "The server sent a malformed JSON body", code: "INVALID_RESPONSE_JSON", body, headers: redactHeaders(res.headers, this.#config.apiKey), requestId: info.requestId, endpoint: `${spec.method} ${new URL(url).pathname}` });
      }
      if (!spec.allowUnsuccessful && isRecord(body) && body.success === false) {
        throw this.#mapError(spec, res, url, body, text);
      }
      return { data: tagRequestId(body as T, info.requestId), response: info };
    });
  }

  async #withRetries<R>(
    spec: RequestSpec,
    opts: RequestOptions,
    handle: (res: TransportResponse, url: string, signal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    opts = checkRequestOptions(opts);
    const link = linkSignal(opts.signal); // one listener on the caller's signal, however many calls share it
    if (link) return this.#withRetries(spec, { ...opts, signal: link.signal }, handle).finally(link.dispose);
    const cfg = this.#config;
    const url = this.url(spec.path, spec.query);
    const endpoint = `${spec.method} ${new URL(url).pathname}`;
    const idemKey = opts.idempotencyKey ?? (spec.idempotent ? uuid() : undefined);
    const headers = this.#headers(spec, opts, url, idemKey);
    const body = spec.body === undefined ? undefined : encodeJson(spec.body);
    const timeoutMs = attemptTimeoutMs(opts.timeoutMs ?? cfg.timeoutMs, spec.minTimeoutMs);
    const maxRetries = opts.maxRetries ?? cfg.maxRetries;
    const policy: RetryPolicy = spec.idempotent ? "safe" : (spec.retry ?? "safe");
    const caller = opts.signal;
    if (caller?.aborted) throw new AbortError(undefined, { cause: caller.reason });

    const attempt = async (n: number): Promise<R> => {
      const ctl = new AbortController();
      const onAbort = () => ctl.abort(new AbortError(undefined, { cause: caller?.reason }));
      caller?.addEventListener("abort", onAbort, { once: true });
      // The error is made only when the timer fires: building one per attempt (a stack capture) cost ~7% of CPU under load.
      const timer = setTimeout(() => ctl.abort(new TimeoutError(timeoutMs, endpoint)), timeoutMs);
      this.log("debug", `-> ${endpoint}${n > 1 ? ` (attempt ${n})` : ""}`);
      try {
        const res = await this.#transport({ url, method: spec.method, headers, body, signal: ctl.signal, maxBytes: cfg.maxResponseBytes });
        const out = await handle(res, url, ctl.signal);
        this.log("debug", `<- ${endpoint} ${res.status}`);
        return out;
      } catch (err) {
        if (ctl.signal.aborted) throw ctl.signal.reason;
        throw err;
      } finally {
        clearTimeout(timer);
        caller?.removeEventListener("abort", onAbort);
      }
    };

    // The retry loop. (p-retry drove it once, with every option overridden: it only looped, and cost
    // 3.7 KB of a 10 KB browser budget plus ~5% of CPU under load.)
    for (let n = 1; ; n++) {
      try {
        return await attempt(n);
      } catch (error) {
        const delay = n <= maxRetries && isRetryable(error, policy) ? retryDelayMs(error, n, cfg.maxRetryAfterMs) : undefined;
        if (delay === undefined) {
          if (error instanceof WebDataError) throw error;
          throw new WebDataError(`Unexpected failure in ${endpoint}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        const e = error as Error;
        this.log("info", `Retrying ${endpoint} in ${delay} ms after ${e.name}: ${e.message}`, { attempt: n });
        try {
          await sleep(delay, caller);
        } catch {
          throw new AbortError(undefined, { cause: caller?.reason });
        }
      }
    }
  }

  #headers(spec: RequestSpec, opts: RequestOptions, url: string, idemKey: string | undefined): Record<string, string> {
    const h: Record<string, string> = {
      accept: "application/json",
      "user-agent": `webdata/${VERSION}`,
      "x-client": `webdata/${VERSION}`,
    };
    if (spec.body !== undefined) h["content-type"] = "application/json";
    const key = this.#config.apiKey;
    if (spec.auth !== false && key && this.sameOrigin(url)) h.authorization = `Bearer ${key}`;
    if (idemKey) h["x-idempotency-key"] = idemKey;
    for (const [k, v] of Object.entries({ ...this.#config.headers, ...opts.headers })) h[k.toLowerCase()] = v;
    if (spec.auth === false) delete h.authorization;
    return h;
  }

  async #errorFrom(spec: RequestSpec, res: TransportResponse, url: string, text?: string): Promise<APIError> {
    const raw = text ?? (await res.text().catch(() => ""));
    const body = await parseRedacted(raw, this.#config.apiKey);
    return this.#mapError(spec, res, url, body, raw);
  }

  #mapError(spec: RequestSpec, res: TransportResponse, url: string, body: unknown, text: string): APIError {
    const key = this.#config.apiKey;
    const rec = isRecord(body) ? body : {};
    const serverText =
      typeof rec.error === "string" ? rec.error
      : typeof rec.message === "string" ? rec.message
      : typeof body === "string" && body.trim() && !body.trim().startsWith("<") ? body.trim().slice(0, 300)
      : statusText(res.status) || "Request failed";
    const message = typeof rec.message === "string" && typeof rec.error === "string" && rec.message !== rec.error ? `${rec.error}: ${rec.message}` : serverText;
    const init = {
      status: res.status,
      message: redact(message, key),
      code: typeof rec.code === "string" ? rec.code : undefined,
      details: rec.details,
      requestId: requestIdOf(res.headers),
      body,
      headers: redactHeaders(res.headers, key),
      endpoint: `${spec.method} ${new URL(url).pathname}`,
    };
    const err =
      res.status === 429 ? new RateLimitError({ ...init, retryAfterMs: parseRetryAfter(res.headers, redact(text, key)) }) : APIError.from(init);
    return spec.mapError ? spec.mapError(err) : err;
  }
}

/** Puts the request id on a result object as the non-enumerable `_requestId` (not in JSON, not compared by deep equality). */
function tagRequestId<T>(value: T, requestId: string | undefined): T {
  if (requestId && typeof value === "object" && value !== null && Object.isExtensible(value) && !Object.prototype.hasOwnProperty.call(value, "_requestId")) {
    Object.defineProperty(value, "_requestId", { value: requestId, enumerable: false });
  }
  return value;
}

function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = headers.get(name);
    if (v) return v;
  }
  return undefined;
}

function statusText(status: number): string {
  const texts: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };
  return texts[status] ?? "";
}
