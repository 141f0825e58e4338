/**
 * The official client's v1 class (`FirecrawlAppV1`, the `v1` of `Firecrawl`),
 * over webdata's v1 layer: the same methods, plus the official shapes that
 * differ there (the usage answers, `statusCode` on an HTTP error: their JSDoc).
 */
import { WebData } from "../client.js";
import type { ClientOptions } from "../core/config.js";
import { APIError, ValidationError } from "../core/errors.js";
import { APIPromise, type RequestOptions } from "../core/request.js";
import { V1Client } from "../v1/client.js";
import { websocket } from "../jobs/watch-ws.js";
import { V1_API_METHODS, V1_PROMISE_METHODS } from "../v1/methods.js";
import type { V1CreditUsage, V1QueueStatus, V1TokenUsage } from "../v1/usage.js";
import type { V1ErrorResponse } from "../v1/shapes.js";
import { takeZod3Schemas } from "./zod3.js";
import { set } from "./official-errors.js";

/**
 * The portable `WebData` both drop-in classes send through (`makeClient`; the Node entry's classes make the Node
 * client, which has it built in): the official watchers use the WebSocket, so its plugin is installed.
 */
export function dropInClient(options: ClientOptions): WebData {
  const client = new WebData(options);
  websocket.install(client.http);
  return client;
}

/** An `APIError` with the official `FirecrawlError`'s `statusCode` (the HTTP status). */
export type FirecrawlError = APIError & { readonly statusCode: number };

/** Gives an `APIError` the official `statusCode` (not enumerable), and rethrows. */
function withStatusCode(err: unknown): never {
  if (err instanceof APIError && !("statusCode" in err)) Object.defineProperty(err, "statusCode", { value: err.status, configurable: true });
  throw err;
}

/** Calls `run`, giving an HTTP error its `statusCode`; an `APIPromise` stays one (`.withResponse()` works). */
function annotated<T>(result: T): T {
  if (result instanceof APIPromise) return new APIPromise((result as APIPromise<unknown>).withResponse().catch(withStatusCode)) as T;
  return result instanceof Promise ? (result.catch(withStatusCode) as T) : result;
}

/** Where `FirecrawlAppV1.over` hands an existing v1 layer to the constructor (not an option anyone can pass by name). */
const OVER = Symbol("v1 layer");

/** The v1 methods whose official shape differs from webdata's v1 layer: written out below, not forwarded. */
const OWN: readonly string[] = ["getCreditUsage", "getTokenUsage", "getQueueStatus"];
const FORWARDED = [...V1_API_METHODS, ...V1_PROMISE_METHODS].filter((m) => !OWN.includes(m));

/** The official v1 client: `new FirecrawlAppV1({ apiKey, apiUrl })`. Legacy method names, positional arguments and shapes. */
export class FirecrawlAppV1 {
  readonly #v1: V1Client;

  /** @param options Same options as `WebData`; a string is the key. */
  constructor(options: ClientOptions | string = {}) {
    takeZod3Schemas(); // official code's schemas are zod 3 ones (./zod3.ts)
    const over = typeof options === "object" && options !== null ? (options as { [OVER]?: V1Client })[OVER] : undefined;
    // The official v1 class prints nothing: no deprecation line unless asked for.
    const given = typeof options === "string" ? { apiKey: options } : options;
    this.#v1 = over ?? new V1Client((new.target as typeof FirecrawlAppV1).makeClient(given !== null && typeof given === "object" && !Array.isArray(given) ? { silenceDeprecationWarnings: true, ...given, apiKey: (given as ClientOptions).apiKey ?? undefined } : given).http);
  }

  /** @internal The `WebData` whose v1 layer a client uses (the Node entry makes one with its transport). */
  static makeClient(options: ClientOptions): WebData {
    return dropInClient(options);
  }

  /** @internal The v1 client of an existing connection (`Firecrawl`'s `v1`). */
  static over(v1: V1Client): FirecrawlAppV1 {
    return new FirecrawlAppV1({ [OVER]: v1 } as ClientOptions);
  }

  /** `GET /v1/team/credit-usage`, as the official client answers it: `{ success: true, data }`. */
  getCreditUsage(options?: RequestOptions): APIPromise<{ success: true; data: V1CreditUsage }> {
    return annotated(this.#v1.getCreditUsage(options).map((data) => ({ success: true as const, data })));
  }

  /** `GET /v1/team/token-usage`, as the official client answers it: `{ success: true, data }`. */
  getTokenUsage(options?: RequestOptions): APIPromise<{ success: true; data: V1TokenUsage }> {
    return annotated(this.#v1.getTokenUsage(options).map((data) => ({ success: true as const, data })));
  }

  /**
   * `GET /v1/team/queue-status`, typed as the official v1 class types it (`QueueStatusResponse | ErrorResponse`,
   * so `if (!q.success) q.error` compiles); an HTTP failure throws, so the result is the status.
   */
  getQueueStatus(options?: RequestOptions): APIPromise<V1QueueStatus | V1ErrorResponse> {
    return annotated(this.#v1.getQueueStatus(options));
  }

  /** Deprecated in the official client: {@link FirecrawlAppV1.deepResearch}. */
  __deepResearch(...args: Parameters<V1Client["deepResearch"]>): ReturnType<V1Client["deepResearch"]> {
    return this.deepResearch(...args);
  }

  /** Deprecated in the official client: {@link FirecrawlAppV1.asyncDeepResearch}. */
  __asyncDeepResearch(...args: Parameters<V1Client["asyncDeepResearch"]>): ReturnType<V1Client["asyncDeepResearch"]> {
    return this.asyncDeepResearch(...args);
  }

  /** Deprecated in the official client: {@link FirecrawlAppV1.checkDeepResearchStatus}. */
  __checkDeepResearchStatus(...args: Parameters<V1Client["checkDeepResearchStatus"]>): ReturnType<V1Client["checkDeepResearchStatus"]> {
    return this.checkDeepResearchStatus(...args);
  }

  /** The official class's axios plumbing: a `ValidationError` naming the API methods to call instead (it returns headers there). */
  prepareHeaders(_idempotencyKey?: string): never {
    throw plumbing("prepareHeaders");
  }

  /** The official class's axios plumbing: rejects with a `ValidationError` before anything is sent. */
  postRequest(_url: string, _data: unknown, _headers?: unknown): Promise<never> {
    return Promise.reject(plumbing("postRequest"));
  }

  /** The official class's axios plumbing: rejects with a `ValidationError` before anything is sent. */
  getRequest(_url: string, _headers?: unknown): Promise<never> {
    return Promise.reject(plumbing("getRequest"));
  }

  /** The official class's axios plumbing: rejects with a `ValidationError` before anything is sent. */
  deleteRequest(_url: string, _headers?: unknown): Promise<never> {
    return Promise.reject(plumbing("deleteRequest"));
  }

  /** The official class's polling helper: rejects with a `ValidationError` naming `checkCrawlStatus` / `crawlUrl`. */
  monitorJobStatus(_id: string, _headers?: unknown, _checkInterval?: number): Promise<never> {
    return Promise.reject(plumbing("monitorJobStatus", "checkCrawlStatus(id) or crawlUrl(url, params, pollInterval), which wait for the job"));
  }

  /** The official class's axios error helper: a `ValidationError`; webdata's errors are typed classes (`APIError` and its subclasses). */
  handleError(_response: unknown, _action: string): never {
    throw plumbing("handleError", "catch the typed error the method threw (APIError and its subclasses, with status, code and details)");
  }

  static {
    for (const name of FORWARDED) {
      set(this.prototype, name, function (this: FirecrawlAppV1, ...args: unknown[]): unknown {
        return annotated((this.#v1[name] as (...a: unknown[]) => unknown).apply(this.#v1, args));
      });
    }
  }
}

// The v1 methods `FirecrawlAppV1` has as webdata's v1 layer has them (forwarded in its static block).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface FirecrawlAppV1 extends Omit<V1Client, "getCreditUsage" | "getTokenUsage" | "getQueueStatus"> {}

/** An official method webdata does not have: a `ValidationError` naming why and what to use instead (nothing is sent). */
export function notSupported(method: string, why: string): ValidationError {
  return new ValidationError([{ path: method, message: `not supported by webdata (nothing was sent): ${why}` }], "call");
}

/** An official request helper webdata has no counterpart for: the error names what to call. */
function plumbing(method: string, instead = "the API methods (scrapeUrl, crawlUrl, checkCrawlStatus, ...), which send through webdata's request layer"): ValidationError {
  return notSupported(method, `the official client's axios plumbing; use ${instead}`);
}
