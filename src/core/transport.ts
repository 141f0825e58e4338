/**
 * The byte mover under the one request function. Two implementations: the
 * portable `fetch` one here, and the Node one in `src/node.ts` (undici's
 * `dispatch` over a keep-alive pool, with a handler of its own). Both obey the same contract, so the
 * behaviour tests run over both.
 */
import { ConnectionError, ResponseTooLargeError } from "./errors.js";

/** One HTTP exchange to perform. */
export interface TransportRequest {
  /** Absolute URL. */
  url: string;
  /** HTTP method. */
  method: string;
  /** Request headers (lower-case names). */
  headers: Record<string, string>;
  /** Encoded body, if any: JSON text, or a multipart `FormData` (the transport sets its content-type). */
  body?: string | FormData | undefined;
  /** Fires on caller abort or per-attempt timeout; the transport must stop then. */
  signal: AbortSignal;
  /** Largest body `text()` may read, in bytes (after content decoding); more is `ResponseTooLargeError`. Default: no limit. */
  maxBytes?: number | undefined;
}

/** The answer: status, headers and the body text. */
export interface TransportResponse {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The whole body as text (at most `maxBytes` of it, else `ResponseTooLargeError`). */
  text(): Promise<string>;
  /**
   * The whole body as text, as {@link text} reads it, given to `use` in the step that ends the body (no promise
   * between them): resolves to what `use` returns, rejects with what it throws. Optional: without it the request
   * path calls `use` with what {@link text} resolves to.
   */
  read?<T>(use: (text: string) => T): Promise<Awaited<T>>;
  /** The body as a stream of bytes (server-sent events). */
  stream(): ReadableStream<Uint8Array> | null;
}

/** What aborts one attempt: an `AbortController`, or what a transport makes in its place ({@link Transport}'s `AbortController`). */
export interface AttemptController {
  /** Given to the transport as `TransportRequest.signal`; `aborted` and `reason` are read by the request path. */
  readonly signal: AbortSignal;
  /** Aborts the attempt with `reason`. */
  abort(reason?: unknown): void;
}

/**
 * Sends one request. Network failures reject with {@link ConnectionError}; aborts reject with the signal's reason.
 * `AbortController` (optional): the class of each attempt's {@link AttemptController}, in place of the global
 * one, for a transport that can stop on something cheaper (the Node entry's undici one); its `signal` is then
 * what the transport gets, whatever it is.
 */
export type Transport = ((req: TransportRequest) => Promise<TransportResponse>) & { AbortController?: (new () => AttemptController) | undefined };

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "ConnectionRefused"]);

/** True when an error's cause chain proves the request never left (refused or unresolvable). */
export function provesNotSent(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some(provesNotSent)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when the declared `content-length` proves the body fits within `limit` (no content coding can
 * change it once decoded): then it may be read whole, without counting its bytes (the runtime's own reader, or the
 * Node transport's collector).
 */
export function fitsDeclared(headers: Headers, limit: number): boolean {
  return declaredLength(headers) <= limit; // NaN (none declared, or coded) never fits
}

/** A transport over any `fetch` implementation. */
export function fetchTransport(fetchImpl: typeof globalThis.fetch): Transport {
  return async (req) => {
    let res: Response;
    try {
      const sent = fetchImpl(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        // The API never redirects: a 3xx comes back as it is (a browser shows it as an opaque
        // redirect, status 0), and the request path makes it a `RedirectError`. Following it would
        // turn a POST into a GET at another origin, or re-send the body there.
        redirect: "manual",
      });
      // An answer that arrives after the abort is dropped unread.
      res = await untilAborted(sent, req.signal, cancelBody);
    } catch (err) {
      if (req.signal.aborted) throw req.signal.reason;
      throw new ConnectionError(`Connection failed: ${describe(err)}`, { cause: err, notSent: provesNotSent(err) });
    }
    let consumed = false;
    return {
      // A `fetch` that follows redirects whatever it is told (a wrapper that drops `redirect`): the answer
      // came from wherever it was sent, so it is reported as a redirect (0, as an opaque one), never as a result.
      status: res.redirected ? 0 : res.status,
      headers: res.headers,
      async text() {
        consumed = true;
        const limit = req.maxBytes;
        try {
          if (limit === undefined || fitsDeclared(res.headers, limit) || !res.body) return await untilAborted(res.text(), req.signal);
          checkDeclared(res.headers, limit, req.method, req.url);
          return await untilAborted(readLimited(chunksOf(res.body), limit, req.method, req.url, () => undefined), req.signal);
        } catch (err) {
          throw bodyReadFailure(err, req.signal, () => cancelBody(res));
        }
      },
      stream() {
        if (consumed) return null;
        consumed = true;
        return res.body;
      },
    };
  };
}

/** Drops a `fetch` answer's body unread (unless a reader holds it). */
function cancelBody(res: Response): void {
  if (!res.body?.locked) void res.body?.cancel().catch(() => undefined);
}

/**
 * `work`, or the signal's reason as soon as `signal` aborts, whichever comes first. A `fetch` that
 * ignores its signal (a wrapper that drops `init.signal`, a polyfill without abort support, or a
 * `Request` whose link to the caller's signal was collected) would otherwise hold a call past its
 * timeout forever. `late` gets a value that arrives after the abort, to release it.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, late?: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", stop);
        if (signal.aborted) late?.(value);
        else resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", stop);
        reject(err);
      },
    );
  });
}

/**
 * The transport a client or a standalone call sends through, chosen in this one
 * place: a caller's `fetch` always wins, then the transport the runtime entry
 * passed (undici on Node), else the global `fetch` (looked up at each call, so
 * a `fetch` patched later by a test or a polyfill is used).
 */
export function selectTransport(options: { fetch?: typeof globalThis.fetch | undefined; transport?: Transport | undefined }): Transport {
  return options.fetch ? fetchTransport(options.fetch) : (options.transport ?? fetchTransport((input, init) => globalThis.fetch(input, init)));
}

/**
 * What a failed body read throws, on either transport: the size error (after dropping the rest of
 * the body), the abort or timeout reason, else a `ConnectionError` for a connection that dropped.
 */
export function bodyReadFailure(err: unknown, signal: Pick<AbortSignal, "aborted" | "reason">, drop: () => void): unknown {
  if (err instanceof ResponseTooLargeError) {
    drop();
    return err;
  }
  if (signal.aborted) return signal.reason;
  return new ConnectionError(`Connection dropped while reading the response: ${describe(err)}`, { cause: err });
}

/** A short description of a network error and its cause. */
export function describe(err: unknown): string {
  return err instanceof Error ? err.message + (err.cause instanceof Error ? `: ${err.cause.message}` : "") : String(err);
}

/*
 * Reading a response body with a size limit, for both transports ({@link readLimited}): a huge or endless
 * answer never sits whole in memory. The fetch transport reads through it unless {@link fitsDeclared}.
 */
/** `METHOD /path` of a request, for the error (the URL was parsed before sending). */
const endpointOf = (method: string, url: string) => `${method} ${new URL(url).pathname}`;

/** The declared `content-length` of a body as it is read: `NaN` when none is declared or a content coding changes it once decoded. */
export function declaredLength(headers: Headers): number {
  const coding = headers.get("content-encoding")?.trim().toLowerCase();
  return coding && coding !== "identity" ? Number.NaN : Number(headers.get("content-length") ?? Number.NaN);
}

/** Throws {@link ResponseTooLargeError} at once when the declared length is over the limit. */
export function checkDeclared(headers: Headers, limit: number, method: string, url: string): void {
  if (declaredLength(headers) > limit) throw new ResponseTooLargeError(limit, endpointOf(method, url));
}

/**
 * Decodes chunks of bytes as UTF-8 text, stopping with {@link ResponseTooLargeError} once more than
 * `limit` bytes arrived. `stop` releases the source (cancels the stream, destroys the socket) when it does.
 */
export async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number, method: string, url: string, stop: () => void): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.byteLength;
    if (bytes > limit) {
      stop();
      throw new ResponseTooLargeError(limit, endpointOf(method, url));
    }
    parts.push(decoder.decode(chunk, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/** The chunks of a web `ReadableStream` (which not every runtime makes async-iterable); leaving early cancels the stream. */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
