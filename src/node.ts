/**
 * The Node entry: everything of the portable entry, with requests sent through
 * undici (`Dispatcher.dispatch`, with a handler of our own) over a keep-alive pool (about 2.5x the speed of global
 * `fetch` on Node, see DESIGN.md), `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`
 * support, and a `dispatcher` option (the transport, below, is no public name:
 * this entry is the only module that may import `node:*` or undici). undici is loaded when a client that sends through it is
 * made (the first request waits for it if need be), not at import:
 * it is most of what `import "webdata"` used to cost a short-lived process.
 */
import { pipeline, Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Dispatcher } from "undici";
import { WebData as PortableWebData } from "./client.js";
import type { ClientOptions } from "./core/config.js";
import { bodyReadFailure, checkDeclared, describe, fitsDeclared, provesNotSent, readLimited, type Transport, type TransportRequest, type TransportResponse } from "./core/transport.js";
import { ConnectionError } from "./core/errors.js";
import { check, int } from "./core/validate.js";
import { websocket } from "./websocket.js";
import * as z from "zod/v4/mini";

/** Options of the Node client: the portable ones plus connection control. */
export interface NodeClientOptions extends ClientOptions {
  /** An undici `Dispatcher` (Agent, Pool, ProxyAgent, MockAgent) to send through. */
  dispatcher?: Dispatcher | undefined;
  /** Most open sockets per origin for this client's own pool (default: the shared pool's 256). */
  maxConnections?: number | undefined;
}

/** The Node entry's own client options. */
const nodeOptions = z.object({
  maxConnections: z.optional(int(1)),
  dispatcher: z.optional(z.custom((d) => typeof (d as { dispatch?: unknown } | null)?.dispatch === "function", { message: "must be an undici Dispatcher (Agent, Pool, ProxyAgent, MockAgent)" })),
});

type Undici = typeof import("undici");

/** undici once loaded (a later request uses it without waiting): a cache of the module, the same for every client. */
let undici: Undici | undefined;
let loading: Promise<Undici> | undefined;

/** undici, loaded once per process: started by the constructor, awaited by the first request if still loading. */
async function loadUndici(): Promise<Undici> {
  loading ??= import("undici").then((m) => (undici = m));
  return loading;
}

/** The process-wide keep-alive pool (or a proxy agent when `HTTP(S)_PROXY` is set, honouring `NO_PROXY`), made on the first request. */
let shared: Dispatcher | undefined;

/** True when a proxy is configured. Never throws (Deno without `--allow-env` throws on any `process.env` read). */
function hasProxyEnv(): boolean {
  try {
    const env = process.env;
    return Boolean(env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy);
  } catch {
    return false;
  }
}

function makeDispatcher(u: Undici, connections: number): Dispatcher {
  // headersTimeout and bodyTimeout off (undici's default is 300 s each): the attempt's own timer ends it (the client's
  // timeoutMs, or a server-side timeout plus 10 s, which may pass 300 s); undici cut such an attempt at 300 s as a
  // retryable connection failure.
  const opts = { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections, headersTimeout: 0, bodyTimeout: 0 };
  // proxyTunnel false: plain http goes to an http proxy as an absolute-form request (as curl does), not a CONNECT
  // tunnel, which many proxies allow only to port 443; https is always tunnelled.
  return hasProxyEnv() ? new u.EnvHttpProxyAgent({ ...opts, proxyTunnel: false }) : new u.Agent(opts);
}

/**
 * A transport over undici's `Dispatcher.dispatch` (the API its own `request()` is built on), through
 * `dispatcher`; without one, through a pool of its own with `maxConnections` sockets per origin, else the
 * process-wide pool (made on the first request). Each request is one {@link Exchange}: the dispatch handler
 * and the answer in one object, which reads a whole answer without the `Readable` that `request()` makes of
 * every body (measured: at 256 requests in flight, `request()` and `body.json()` cost about 50 us of CPU a
 * request more than a handler of its own, bench/README.md).
 */
function undiciTransport(dispatcher?: Dispatcher, maxConnections?: number): Transport {
  let chosen = dispatcher;
  /** The origin of the last URL sent (`http://host:port`): a URL under it is split without a `URL` parse. */
  let origin = "";
  const send: Transport = (req) => {
    const u = undici;
    // Waits only for undici's first load, or to encode a multipart body.
    if (!u || typeof req.body === "object") return prepared(req).then(([v, body]) => exchange(v, req, body));
    return exchange(u, req, req.body);
  };
  const exchange = (u: Undici, req: TransportRequest, body: string | Uint8Array | undefined): Promise<TransportResponse> => {
    chosen ??= maxConnections ? makeDispatcher(u, maxConnections) : (shared ??= makeDispatcher(u, 256));
    const url = req.url;
    let path: string;
    if (origin && url.startsWith(origin) && url.charCodeAt(origin.length) === 47 /* "/" */ && !url.includes("#")) path = url.slice(origin.length);
    else {
      const parsed = new URL(url);
      origin = parsed.origin;
      path = parsed.pathname + parsed.search;
    }
    return new Promise<TransportResponse>((resolve, reject) => new Exchange(chosen!, req, origin, path, body, !dispatcher, resolve, reject));
  };
  // Our own pool takes the attempt's AttemptSignal; a caller's dispatcher, which may read `signal` itself (as it does
  // under `request()`), gets an AbortController's AbortSignal, handed to it as `signal` too.
  if (!dispatcher) send.AbortController = AttemptSignal;
  return send;
}

/** undici, loaded, and the body to send: a multipart `FormData` encoded as the runtime's own fetch encodes it (undici wants its own FormData class). */
async function prepared(req: TransportRequest): Promise<[Undici, string | Uint8Array | undefined]> {
  const u = undici ?? (await loadUndici());
  if (typeof req.body !== "object") return [u, req.body];
  const encoded = new Response(req.body);
  req.headers = { ...req.headers, "content-type": encoded.headers.get("content-type") ?? "multipart/form-data" };
  return [u, new Uint8Array(await encoded.arrayBuffer())];
}

/**
 * One request through undici: its dispatch handler and, once the status and headers came, its
 * {@link TransportResponse}. The handler has the methods undici's own `request()` handler has (`onConnect`
 * ... `onError`): undici's core calls them as they are and wraps them for an interceptor written for its
 * newer handler API, and a caller's dispatcher that calls a handler itself calls these. The body is collected
 * chunk by chunk for {@link Exchange.read} / {@link Exchange.text} when it is read whole (not compressed, its
 * declared length within `maxBytes`); else, or for {@link Exchange.stream}, it is fed to a `Readable` with
 * undici's backpressure.
 */
class Exchange implements TransportResponse {
  status = 0;
  headers!: Headers;
  readonly #req: TransportRequest;
  #resolve: ((res: TransportResponse) => void) | undefined;
  #reject: ((err: unknown) => void) | undefined;
  /** undici's abort of this request (from `onConnect`), and whether it was called. */
  #abort: ((err: Error) => void) | undefined;
  #abortCalled = false;
  /** undici's resume of a paused body (from `onHeaders`). */
  #resume: (() => void) | undefined;
  /** Read whole as it comes: not compressed, and its declared length within the limit. */
  #whole = false;
  #chunks: Buffer[] | undefined = [];
  #length = 0;
  #ended = false;
  #failure: Error | undefined;
  #consumed = false;
  /** The body as a stream, once one is made (not read whole, or asked for by `stream()`). */
  #stream: Readable | undefined;
  /** {@link Exchange.#stream} decoded as its `content-encoding` says. */
  #decoded: Readable | undefined;
  /** `read`'s consumer, waiting for the end. */
  #use: ((text: string) => unknown) | undefined;
  #done: ((value: unknown) => void) | undefined;
  #fail: ((err: unknown) => void) | undefined;

  constructor(d: Dispatcher, req: TransportRequest, origin: string, path: string, body: string | Uint8Array | undefined, ownPool: boolean, resolve: (res: TransportResponse) => void, reject: (err: unknown) => void) {
    this.#req = req;
    this.#resolve = resolve;
    this.#reject = reject;
    const signal = req.signal;
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    signal.addEventListener("abort", this, { once: true });
    const opts: Dispatcher.DispatchOptions & { signal?: AbortSignal } = { origin, path, method: req.method as Dispatcher.HttpMethod, headers: req.headers, body };
    if (!ownPool) opts.signal = signal;
    try {
      d.dispatch(opts, this as Dispatcher.DispatchHandler);
    } catch (err) {
      this.onError(err as Error);
    }
  }

  /** The attempt's signal aborted (an `EventTarget` listener, or called by an {@link AttemptSignal}): the request stops, its socket closed when it was in flight. */
  handleEvent(): void {
    const reason = this.#req.signal.reason as Error;
    if (this.#abort) this.#stop(reason);
    else this.onError(reason); // not started yet: `onConnect` aborts it when it does
  }

  /** Aborts the request once (undici then calls `onError`). */
  #stop(err: Error): void {
    if (this.#abortCalled || !this.#abort) return;
    this.#abortCalled = true;
    this.#abort(err);
  }

  onConnect(abort: (err: Error) => void): void {
    this.#abort = abort;
    this.#abortCalled = false;
    if (this.#req.signal.aborted) this.#stop(this.#req.signal.reason as Error);
  }

  onUpgrade(): void {
    this.#stop(new Error("the server switched protocols"));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true; // an informational answer: the final one follows
    this.status = statusCode;
    this.#resume = resume;
    const h = (this.headers = answerHeaders(undici!.util.parseHeaders(rawHeaders) as Record<string, string | string[] | undefined>));
    // Whole: its declared length bounds what is collected before it is read (a body without one is streamed, paused while unread).
    this.#whole = fitsDeclared(h, this.#req.maxBytes ?? Number.POSITIVE_INFINITY);
    if (!this.#whole) this.#decoded = this.#streamed();
    const answered = this.#resolve!;
    this.#resolve = this.#reject = undefined;
    answered(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    const stream = this.#stream;
    if (stream) return stream.push(chunk); // false: undici pauses until the stream is read (`resume`)
    this.#chunks!.push(chunk);
    this.#length += chunk.length;
    return true;
  }

  onComplete(): void {
    this.#ended = true;
    this.#req.signal.removeEventListener("abort", this);
    if (this.#stream) this.#stream.push(null);
    else if (this.#use) this.#settle();
  }

  onError(err: Error): void {
    this.#req.signal.removeEventListener("abort", this);
    const reject = this.#reject;
    if (reject) {
      // No answer yet: the connection failed, or the attempt was aborted.
      this.#resolve = this.#reject = undefined;
      const signal = this.#req.signal;
      reject(signal.aborted ? signal.reason : new ConnectionError(`Connection failed: ${describe(err)}`, { cause: err, notSent: provesNotSent(err) }));
      return;
    }
    if (this.#failure || this.#ended) return;
    this.#failure = err;
    if (this.#stream) this.#stream.destroy(err);
    else if (this.#fail) this.#settle();
  }

  /**
   * The body from now on as a `Readable`, decoded as its `content-encoding` says (the chunks so far first), fed as
   * undici's `request()` feeds its own: a full buffer pauses undici, a read resumes it, and destroying the stream
   * before its end stops the request and closes its connection.
   */
  #streamed(): Readable {
    const destroy = (err: Error | null, callback: (err?: Error | null) => void): void => {
      if (!this.#ended && !this.#failure) this.#stop(err ?? new Error("the response body was discarded"));
      callback(err);
    };
    const stream = (this.#stream = new Readable({ read: () => this.#resume?.(), destroy }));
    for (const chunk of this.#chunks ?? []) stream.push(chunk);
    this.#chunks = undefined;
    if (this.#failure) stream.destroy(this.#failure);
    else if (this.#ended) stream.push(null);
    return decoded(stream, this.headers.get("content-encoding"));
  }

  /**
   * Runs `read`'s consumer on the whole text, in the step that ended the body; or, when the body failed, gives it the
   * failure (the attempt's abort reason, else a dropped connection).
   */
  #settle(): void {
    const use = this.#use!;
    const done = this.#done!;
    const fail = this.#fail!;
    this.#use = this.#done = this.#fail = undefined;
    const chunks = this.#chunks!;
    this.#chunks = undefined;
    if (this.#failure) return fail(bodyReadFailure(this.#failure, this.#req.signal, () => undefined));
    try {
      done(use(utf8(chunks, this.#length))); // the text is garbage once `use` returns
    } catch (err) {
      fail(err);
    }
  }

  read<T>(use: (text: string) => T): Promise<Awaited<T>> {
    // A compressed body or one that may pass the limit is read as `text()` reads it.
    if (!this.#whole) return this.text().then(use) as Promise<Awaited<T>>;
    if (this.#consumed) return Promise.reject(new TypeError("the response body was read already"));
    this.#consumed = true;
    return new Promise<Awaited<T>>((resolve, reject) => {
      this.#use = use;
      this.#done = resolve as (value: unknown) => void;
      this.#fail = reject;
      if (this.#failure || this.#ended) this.#settle();
    });
  }

  async text(): Promise<string> {
    if (this.#whole) return this.read(same);
    if (this.#consumed) throw new TypeError("the response body was read already");
    this.#consumed = true;
    const req = this.#req;
    const limit = req.maxBytes;
    const body = this.#decoded!;
    try {
      if (limit === undefined) return await readLimited(body, Number.POSITIVE_INFINITY, req.method, req.url, () => undefined);
      checkDeclared(this.headers, limit, req.method, req.url);
      return await readLimited(body, limit, req.method, req.url, () => discard(body));
    } catch (err) {
      throw bodyReadFailure(err, req.signal, () => discard(body));
    }
  }

  stream(): ReadableStream<Uint8Array> | null {
    if (this.#consumed) return null;
    this.#consumed = true;
    return Readable.toWeb((this.#decoded ??= this.#streamed())) as unknown as ReadableStream<Uint8Array>;
  }
}

/** The methods of `Headers` that copy an answer's headers in before they run (`get` and `has` read undici's object): one wrapper each, made with the class. */
const COPYING = ["set", "append", "delete", "getSetCookie", "forEach", "entries", "keys", "values", Symbol.iterator] as const;

/** A header name (an HTTP token); `Headers` throws a `TypeError` for anything else. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The headers of one undici answer, as a `Headers` (`instanceof Headers`, every method), read from undici's
 * own object: `get` and `has` look the name up there, and the first other use (iteration, `set`, `append`,
 * `delete`, `getSetCookie`) copies them into the `Headers` itself, which answers from then on. Copying every
 * answer's headers into a `Headers` at once cost about 8 us of CPU a call, most of it undici's own checks of
 * names and values the server's parser had already checked, while the request path reads a few names
 * (measured: a CPU profile of the Node entry at 256 requests in flight: bench/README.md).
 */
function answerHeadersClass() {
  return class AnswerHeaders extends Headers {
    /** undici's headers (lower-case names; a repeated header is an array), until the first copy. */
    #raw: Record<string, string | string[] | undefined> | undefined;

    constructor(raw: Record<string, string | string[] | undefined>) {
      super();
      this.#raw = raw;
    }

    /** The headers copied in (once): from then on the `Headers` itself answers. */
    #copied(): void {
      const raw = this.#raw;
      if (!raw) return;
      this.#raw = undefined;
      for (const k in raw) {
        const v = raw[k];
        if (typeof v === "string") super.append(k, v);
        else if (Array.isArray(v)) for (const item of v) super.append(k, item);
      }
    }

    /** As `Headers.get`: the values of `name` joined by ", ", else `null`. */
    override get(name: string): string | null {
      const raw = this.#raw;
      if (!raw || typeof name !== "string" || !TOKEN.test(name)) return raw ? (this.#copied(), super.get(name)) : super.get(name);
      const key = name.toLowerCase();
      const v = Object.prototype.hasOwnProperty.call(raw, key) ? raw[key] : undefined;
      if (v === undefined) return null;
      return trimmed(typeof v === "string" ? v : v.map(trimmed).join(", "));
    }

    /** As `Headers.has`. */
    override has(name: string): boolean {
      return this.get(name) !== null;
    }

    static {
      for (const name of COPYING) {
        const own = Headers.prototype[name] as (this: Headers, ...args: unknown[]) => unknown;
        const copying = function (this: AnswerHeaders, ...args: unknown[]) {
          this.#copied();
          return own.apply(this, args);
        };
        Object.defineProperty(this.prototype, name, { value: copying, writable: true, configurable: true });
      }
    }
  };
}

/** The class of answer headers, made on the first answer: `import` does not touch the runtime's `Headers` (on Node 20, reading it loads the runtime's own undici, which changes the global dispatcher its `fetch` uses). */
let AnswerHeaders: ReturnType<typeof answerHeadersClass> | undefined;

/** An answer's headers ({@link answerHeadersClass}). */
function answerHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  return new (AnswerHeaders ??= answerHeadersClass())(raw);
}

/** A header value as `Headers` keeps it: without leading and trailing HTTP whitespace (tab, line feed, carriage return, space). */
function trimmed(v: string): string {
  return v.length && (v.charCodeAt(0) <= 32 || v.charCodeAt(v.length - 1) <= 32) ? v.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "") : v;
}

/**
 * An attempt's abort without an `AbortController` (about 20 µs of CPU a call: a CPU profile of the Node
 * entry's loop, `bench/README.md`): the request path aborts it as it would an `AbortController`, and
 * reads `signal.aborted` / `signal.reason`; the attempt's {@link Exchange} is told of the abort directly.
 * Only the transport that made it sees it as a signal: it is no `AbortSignal`.
 */
class AttemptSignal {
  /** True once aborted. */
  aborted = false;
  /** Why: an `AbortError` (the caller's signal) or a `TimeoutError` (the attempt's limit). */
  reason: unknown = undefined;
  /** The exchange to stop on abort (one an attempt). */
  #exchange: Exchange | undefined;

  /** Itself: the controller's signal. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  /** Aborts once, with `reason`; later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const exchange = this.#exchange;
    this.#exchange = undefined;
    exchange?.handleEvent();
  }

  /** Tells `exchange` of the abort (as an `AbortSignal` tells its listener; an attempt has one). */
  addEventListener(_type: "abort", exchange: Exchange): void {
    this.#exchange = exchange;
  }

  /** No longer tells `exchange`. */
  removeEventListener(_type: "abort", exchange: Exchange): void {
    if (this.#exchange === exchange) this.#exchange = undefined;
  }
}

/** The text as it is (`text()` is `read` of it). */
function same(text: string): string {
  return text;
}

/**
 * The body decoded as its `content-encoding` says (gzip, deflate, br): undici's `request` does not
 * decompress, and a server may compress without being asked. Other codings are left as they are.
 */
function decoded(body: Readable, encoding: string | null): Readable {
  const coding = encoding?.trim().toLowerCase();
  const decoder =
    coding === "gzip" || coding === "x-gzip" ? createGunzip()
    : coding === "deflate" ? createInflate()
    : coding === "br" ? createBrotliDecompress()
    : undefined;
  return decoder ? pipeline(body, decoder, () => undefined) : body;
}

/**
 * Bytes as UTF-8 text, a leading byte order mark left out (as undici's `body.text()` and `Response.text()` read it).
 * Not a `TextDecoder`, which leaves out the mark too: on Node 20 it took 9.2 us for a 20 KB answer against 3.4 us.
 */
function utf8(chunks: Buffer[], length: number): string {
  const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  const start = buf.length > 2 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString("utf8", start);
}

/** Stops reading a body and closes its connection (the destroy's own abort error is expected, not reported). */
function discard(body: Readable): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** The client, sending through undici on Node. A `fetch` option still selects the fetch path. */
export class WebData extends PortableWebData {
  /** @param options See {@link NodeClientOptions}; a string is the key (the official client's `new Firecrawl("fc-...")`). */
  constructor(options: NodeClientOptions | string = {}) {
    const { dispatcher, maxConnections, ...rest } = typeof options === "string" ? { apiKey: options } : options;
    // Checked here (a `ValidationError`, as every client option), as the pool they shape is made only on the first request.
    check(nodeOptions, { dispatcher, maxConnections }, "client options");
    super({ ...rest, transport: rest.transport ?? undiciTransport(dispatcher, maxConnections) });
    websocket.install(this.http); // the watcher's WebSocket transport is built in on Node (bundle size is no concern here)
    if (!rest.transport && !rest.fetch) {
      // Start loading undici now, so the first request rarely waits for it (a failure shows at that request).
      loadUndici().catch(() => undefined);
      // Where the runtime has no global `WebSocket` (Node 20), this client's watchers get undici's, so the job's
      // events arrive live instead of by polling. A watcher awaits the load: the same server gives the same
      // events whether or not an earlier call (of any client) loaded undici first.
      this.http.state.webSocket = undiciWebSocket;
    }
  }
}

/** undici's `WebSocket`, loading undici if no request has yet (the class the Node entry gives its watchers). */
async function undiciWebSocket(): Promise<unknown> {
  return (undici ?? (await loadUndici())).WebSocket;
}

// For the transport's own tests (test/attempt-signal.test.ts): not an export, so no public name.
Object.defineProperty(WebData, Symbol.for("webdata.internal.undiciTransport"), { value: undiciTransport });

export * from "./exports.js";
