/**
 * The byte mover under the one request function. Two implementations: the
 * portable `fetch` one here, and the Node one in `src/node.ts` (undici
 * `request` over a keep-alive pool). Both obey the same contract, so the
 * behaviour tests run over both.
 */
import { ConnectionError } from "./errors.js";

/** One HTTP exchange to perform. */
export interface TransportRequest {
  /** Absolute URL. */
  url: string;
  /** HTTP method. */
  method: string;
  /** Request headers (lower-case names). */
  headers: Record<string, string>;
  /** Encoded body, if any. */
  body?: string | undefined;
  /** Fires on caller abort or per-attempt timeout; the transport must stop then. */
  signal: AbortSignal;
}

/** The answer: status, headers and the body text. */
export interface TransportResponse {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** The whole body as text. */
  text(): Promise<string>;
  /** The body as a stream of bytes (server-sent events). */
  stream(): ReadableStream<Uint8Array> | null;
}

/** Sends one request. Network failures reject with {@link ConnectionError}; aborts reject with the signal's reason. */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "ConnectionRefused"]);

/** True when an error's cause chain proves the request never left (refused or unresolvable). */
export function provesNotSent(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string" && NOT_SENT_CODES.has(code)) return true;
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.some((e) => provesNotSent(e))) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

/** A transport over any `fetch` implementation. */
export function fetchTransport(fetchImpl: typeof globalThis.fetch): Transport {
  return async (req) => {
    let res: Response;
    try {
      res = await fetchImpl(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
      });
    } catch (err) {
      if (req.signal.aborted) throw req.signal.reason;
      throw new ConnectionError(`Connection failed: ${describe(err)}`, { cause: err, notSent: provesNotSent(err) });
    }
    let consumed = false;
    return {
      status: res.status,
      headers: res.headers,
      async text() {
        consumed = true;
        try {
          return await res.text();
        } catch (err) {
          if (req.signal.aborted) throw req.signal.reason;
          throw new ConnectionError(`Connection dropped while reading the response: ${describe(err)}`, { cause: err });
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

/**
 * The transport a client or a standalone call sends through, chosen in this one
 * place: a caller's `fetch` always wins, then the transport the runtime entry
 * passed (undici on Node), else the global `fetch` (looked up at each call, so
 * a `fetch` patched later by a test or a polyfill is used).
 */
export function selectTransport(options: { fetch?: typeof globalThis.fetch | undefined; transport?: Transport | undefined }): Transport {
  if (options.fetch) return fetchTransport(options.fetch);
  if (options.transport) return options.transport;
  return fetchTransport((input, init) => globalThis.fetch(input, init));
}

/** A short description of a network error and its cause. */
export function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
    return `${err.message}${cause}`;
  }
  return String(err);
}
