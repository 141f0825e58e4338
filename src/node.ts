/**
 * The Node entry: everything of the portable entry, with requests sent by
 * `undici.request` over a keep-alive pool (about 2.5x the speed of global
 * `fetch` on Node, see DESIGN.md), `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`
 * support, and a `dispatcher` option (the transport, below, is no public name:
 * this entry is the only module that may import `node:*` or undici). undici is loaded when a client that sends through it is
 * made (the first request waits for it if need be), not at import:
 * it is most of what `import "webdata"` used to cost a short-lived process.
 */
import type { EventEmitter } from "node:events";
import { pipeline, Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Dispatcher } from "undici";
import { WebData as PortableWebData } from "./client.js";
import type { ClientOptions } from "./core/config.js";
import { checkDeclared, readLimited } from "./core/body.js";
import { ConnectionError } from "./core/errors.js";
import { check, int } from "./core/validate.js";
import * as z from "zod/v4/mini";
import { bodyReadFailure, describe, fitsDeclared, provesNotSent, type Transport, type TransportResponse } from "./core/transport.js";

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

// The transport: undici.request over a keep-alive pool or a caller's dispatcher, proxies from the environment,
// the attempt's abort without an AbortController.
type Undici = typeof import("undici");

/** undici once loaded (a later request uses it without waiting): a cache of the module, the same for every client. */
let undici: Undici | undefined;
let loading: Promise<Undici> | undefined;

/** undici, loaded once per process: started by the constructor, awaited by the first request if still loading. */
async function loadUndici(): Promise<Undici> {
  loading ??= import("undici").then((m) => (undici = m));
  return loading;
}

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

/** The process-wide keep-alive pool (or a proxy agent when `HTTP(S)_PROXY` is set, honouring `NO_PROXY`), made on the first request. */
function defaultDispatcher(u: Undici): Dispatcher {
  shared ??= makeDispatcher(u, 256);
  return shared;
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
 * A transport over `undici.request`, through `dispatcher`; without one, through a pool of its own
 * with `maxConnections` sockets per origin, else the process-wide pool (made on the first request).
 */
function undiciTransport(dispatcher?: Dispatcher, maxConnections?: number): Transport {
  let chosen = dispatcher;
  const send: Transport = async (req) => {
    const u = undici ?? (await loadUndici());
    chosen ??= maxConnections ? makeDispatcher(u, maxConnections) : defaultDispatcher(u);
    let res: Dispatcher.ResponseData;
    let sent = req.headers;
    let payload: string | Uint8Array | undefined;
    if (typeof req.body === "object") {
      // A multipart FormData, encoded as the runtime's own fetch encodes it (this undici's encoder wants its own FormData class).
      const encoded = new Response(req.body);
      sent = { ...sent, "content-type": encoded.headers.get("content-type") ?? "multipart/form-data" };
      payload = new Uint8Array(await encoded.arrayBuffer());
    } else payload = req.body;
    try {
      res = await u.request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: sent,
        body: payload,
        // Through our own pool the signal is an AttemptSignal (see `AbortController` below; undici takes an EventEmitter);
        // a caller's dispatcher, which may read `signal` itself, gets a real AbortSignal.
        signal: req.signal as AbortSignal | EventEmitter,
        dispatcher: chosen,
      });
    } catch (err) {
      if (req.signal.aborted) throw req.signal.reason;
      throw new ConnectionError(`Connection failed: ${describe(err)}`, { cause: err, notSent: provesNotSent(err) });
    }
    const headers = answerHeaders(res.headers);
    let consumed = false;
    const body = decoded(res.body, headers.get("content-encoding"));
    // Read whole as it came: not decoded, and within the limit by its declared length (else read counting the bytes).
    const whole = body === res.body && (req.maxBytes === undefined || fitsDeclared(headers, req.maxBytes));
    const answer: TransportResponse = {
      status: res.statusCode,
      headers,
      async text() {
        consumed = true;
        const limit = req.maxBytes;
        try {
          if (whole) return await res.body.text();
          if (limit === undefined) return await readLimited(body, Number.POSITIVE_INFINITY, req.method, req.url, () => undefined);
          checkDeclared(headers, limit, req.method, req.url);
          return await readLimited(body, limit, req.method, req.url, () => discard(body));
        } catch (err) {
          throw bodyReadFailure(err, req.signal, () => discard(body));
        }
      },
      read<T>(use: (text: string) => T): Promise<Awaited<T>> {
        // A decoded body or one that may pass the limit is read as `text()` reads it.
        if (!whole) return answer.text().then(use) as Promise<Awaited<T>>;
        consumed = true;
        return new Promise<Awaited<T>>((resolve, reject) => {
          const chunks: Buffer[] = [];
          let length = 0;
          let ended = false;
          body.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            length += chunk.length;
          });
          body.once("error", (err) => reject(bodyReadFailure(err, req.signal, () => discard(body))));
          body.once("close", () => {
            if (!ended) reject(bodyReadFailure(new Error("the response body closed before its end"), req.signal, () => undefined));
          });
          body.once("end", () => {
            ended = true;
            try {
              resolve(use(utf8(chunks, length)) as Awaited<T>); // in this step: the text is garbage once `use` returns
            } catch (err) {
              reject(err);
            }
          });
        });
      },
      stream() {
        if (consumed) return null;
        consumed = true;
        return Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>;
      },
    };
    return answer;
  };
  // Our own pool takes the attempt's AttemptSignal as its `signal`; a caller's dispatcher gets an AbortController's.
  if (!dispatcher) send.AbortController = AttemptSignal;
  return send;
}

/** A header name (an HTTP token); `Headers` throws a `TypeError` for anything else. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The headers of one undici answer, as a `Headers` (`instanceof Headers`, every method), read from undici's
 * own object: `get` and `has` look the name up there, and the first other use (iteration, `set`, `append`,
 * `delete`, `getSetCookie`) copies them into the `Headers` itself, which answers from then on. Copying every
 * answer's headers into a `Headers` at once cost about 8 us of CPU a call, most of it undici's own checks of
 * names and values the server's parser had already checked, while the request path reads a few names
 * (issue 36, a CPU profile of the Node entry at 256 requests in flight: bench/README.md).
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

    override set(name: string, value: string): void {
      this.#copied();
      super.set(name, value);
    }

    override append(name: string, value: string): void {
      this.#copied();
      super.append(name, value);
    }

    override delete(name: string): void {
      this.#copied();
      super.delete(name);
    }

    override getSetCookie(): string[] {
      this.#copied();
      return super.getSetCookie();
    }

    override forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
      this.#copied();
      super.forEach(fn, thisArg);
    }

    override entries(): HeadersIterator<[string, string]> {
      this.#copied();
      return super.entries();
    }

    override keys(): HeadersIterator<string> {
      this.#copied();
      return super.keys();
    }

    override values(): HeadersIterator<string> {
      this.#copied();
      return super.values();
    }

    override [Symbol.iterator](): HeadersIterator<[string, string]> {
      return this.entries();
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
 * reads `signal.aborted` / `signal.reason`, and it is itself the `signal` undici's `request()` takes (an
 * EventEmitter: it checks for `on`, calls `once` and `removeListener`, reads `aborted` and `reason`).
 * Only the transport that made it sees it as a signal: it is no `AbortSignal`.
 */
class AttemptSignal {
  /** True once aborted. */
  aborted = false;
  /** Why: an `AbortError` (the caller's signal) or a `TimeoutError` (the attempt's limit). */
  reason: unknown = undefined;
  /** The listeners (undici adds one a request, and removes it when the answer is read). */
  #fns: (() => void)[] | undefined;

  /** Itself: the controller's signal. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  /** Aborts once, with `reason`; later calls do nothing. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const fns = this.#fns; // each listener called once, even one that removes itself or another while called
    this.#fns = undefined;
    for (const fn of fns ?? []) fn();
  }

  /** Calls `fn` on abort (there is one abort). */
  on(_event: "abort", fn: () => void): this {
    (this.#fns ??= []).push(fn);
    return this;
  }

  /** Same as {@link on}. */
  once(event: "abort", fn: () => void): this {
    return this.on(event, fn);
  }

  /** Removes a listener. */
  removeListener(_event: "abort", fn: () => void): this {
    const i = this.#fns ? this.#fns.indexOf(fn) : -1;
    if (i >= 0) this.#fns!.splice(i, 1);
    return this;
  }
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

export { type AgentSignupResult } from "./client.js";
export * from "./exports.js";
