/**
 * Faults the fake service can inject: the spec a test writes (`fake.inject`
 * takes one; the fault controls of `FakeService` build one), and how each
 * fault answers. Portable: only web-standard globals.
 */

/** Which requests a fault hits: a path prefix (`"/v2/crawl"`), a regex over `METHOD /path?query`, or every request when omitted. */
export type FaultMatch = string | RegExp;

/** Where and how often a fault applies; the common options of every fault control. */
export interface FaultScope {
  /** Which requests: a path prefix (`"/v2/scrape"`), a regex over `METHOD /path?query` (`/^POST \/v2\/crawl$/`), or all when omitted. */
  match?: FaultMatch | undefined;
  /** How many matching requests it hits (default 1; `Infinity` for all). */
  times?: number | undefined;
}

/** A fault to inject into matching requests (the low-level form behind the fault controls). */
export interface FaultSpec extends FaultScope {
  /** Answer with this status. */
  status?: number | undefined;
  /** Answer body (JSON-encoded unless a string). */
  body?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string> | undefined;
  /** Drop the connection instead of answering (fetch rejects; a served socket is destroyed). */
  drop?: boolean | undefined;
  /** Handle the request as usual (the server acts: a job is created), then drop the connection so the answer is lost. */
  loseAnswer?: boolean | undefined;
  /** Refuse the connection (as ECONNREFUSED: provably never sent). */
  refuse?: boolean | undefined;
  /** Answer with a body that is not valid JSON (`{"success": tru`), as `application/json`. */
  badJson?: boolean | undefined;
  /** Answer the status line and headers, send the first `afterBytes` bytes of the real answer, then nothing more until the client gives up. */
  stall?: { afterBytes?: number | undefined } | boolean | undefined;
  /** Wait this long before answering (aborts with the request's signal). */
  delayMs?: number | undefined;
}

/** How a rate-limit answer tells the client to wait. */
export interface RateLimitSpec extends FaultScope {
  /** Seconds to wait (default 1); sent in the body text as the real service does ("retry after Ns"). */
  retryAfterSeconds?: number | undefined;
  /** Also send a header: `seconds` (`Retry-After: N`), `date` (HTTP date), `ms` (`retry-after-ms`), or none (the real service). */
  header?: "seconds" | "date" | "ms" | "none" | undefined;
  /**
   * State the wait in the body text ("please retry after Ns, resets at ...") as the real service does
   * (default true). `false` leaves the header as the only place that says it, so a test of that header
   * fails when the client ignores the header.
   */
  waitInBody?: boolean | undefined;
}

/** Options of {@link FakeService.failNext}: the answer's body and headers besides the status. */
export interface FailOptions extends FaultScope {
  /** Answer body (JSON-encoded unless a string; default `{ success: false, error: "Injected <status>" }`). */
  body?: unknown;
  /** Extra response headers. */
  headers?: Record<string, string> | undefined;
}

/** Options of {@link FakeService.dropConnection}. */
export interface DropOptions extends FaultScope {
  /** The server acts first (a crawl is created, credits are spent), then the answer is lost: a lost answer, not a lost request (default false). */
  afterServerActs?: boolean | undefined;
}

/** Options of {@link FakeService.corruptBody}. */
export interface CorruptOptions extends FaultScope {
  /** Status of the corrupt answer (default 200). */
  status?: number | undefined;
  /** The body sent instead of the real one (default: truncated JSON, `{"success": tru`). An HTML page here stands in for a proxy's error page. */
  body?: string | undefined;
  /** Its content type (default `application/json`, or `text/html` when `body` starts with `<`). */
  contentType?: string | undefined;
}

/** Options of {@link FakeService.stallStream}. */
export interface StallOptions extends FaultScope {
  /** Bytes of the real answer sent before the stall (default 0: headers only). */
  afterBytes?: number | undefined;
}

/** The 429 fault the real service would send, worded as it words it. */
export function rateLimitFault(spec: RateLimitSpec, now: number): FaultSpec {
  const seconds = spec.retryAfterSeconds ?? 1;
  const headers: Record<string, string> = {};
  if (spec.header === "seconds") headers["retry-after"] = String(seconds);
  if (spec.header === "date") headers["retry-after"] = new Date(now + seconds * 1000).toUTCString();
  if (spec.header === "ms") headers["retry-after-ms"] = String(seconds * 1000);
  const resets = new Date(now + seconds * 1000).toString();
  const limit = "Rate limit exceeded. Consumed (req/min): 101, Remaining (req/min): 0. Upgrade your plan at https://firecrawl.dev/pricing for increased rate limits";
  return {
    match: spec.match,
    times: spec.times ?? 1,
    status: 429,
    headers,
    body: {
      success: false,
      error: spec.waitInBody === false ? `${limit}.` : `${limit} or please retry after ${seconds}s, resets at ${resets}`,
    },
  };
}

/** The corrupt-body fault. */
export function corruptFault(options: CorruptOptions): FaultSpec {
  const body = options.body ?? '{"success": tru';
  const type = options.contentType ?? (body.trimStart().startsWith("<") ? "text/html; charset=utf-8" : "application/json");
  return { match: options.match, times: options.times, status: options.status ?? 200, body, headers: { "content-type": type } };
}

/**
 * A copy of `response` that sends its first `afterBytes` bytes and then stalls
 * until the request's signal aborts (the client gave up), when the body errors.
 * The stream holds `request` itself, not only its signal: undici links a
 * `Request`'s signal to the caller's weakly, and the link dies when the
 * `Request` is garbage-collected, so a stall kept only by the signal could
 * outlive the client's abort.
 */
export async function stalled(response: Response, afterBytes: number, request: Request): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer()).slice(0, Math.max(0, afterBytes));
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent && bytes.length) {
        sent = true;
        controller.enqueue(bytes);
        return;
      }
      const signal = request.signal;
      return new Promise<void>((resolve) => {
        const stop = () => {
          controller.error(signal.reason ?? new TypeError("terminated"));
          resolve();
        };
        if (signal.aborted) stop();
        else signal.addEventListener("abort", stop, { once: true });
      });
    },
  }, { highWaterMark: 0 });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, headers });
}

/** A network-level failure as `fetch` reports it (`TypeError` with a coded cause). */
export function connectionError(code: string, message: string): TypeError {
  const cause = Object.assign(new Error(message), { code });
  return new TypeError("fetch failed", { cause });
}

/** Waits `ms`, rejecting with the signal's reason when it aborts; its abort listener is removed either way (a long stream sleeps many times). */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
