/**
 * `client.v1` without the v1 layer in the initial bundle: an object with every
 * `V1Client` method that loads `./client.js` on the first call (a separate
 * chunk for bundlers that split on `import()`; Node, Deno and Bun read one
 * more file) and forwards to it; once loaded, calls go straight through. Plain-object
 * arguments of calls made before the load are copied at the call. Results are the same objects: methods that
 * return an `APIPromise` still do (`.withResponse()` works), the others return
 * a plain `Promise`. A test keeps these lists equal to `V1Client`'s methods.
 */
import { WebDataError } from "../core/errors.js";
import { APIPromise, type HttpClient } from "../core/request.js";
import type { V1Client } from "./client.js";

/** Methods of `V1Client` that return an `APIPromise`. */
export const V1_API_METHODS = [
  "scrapeUrl", "search", "mapUrl", "asyncCrawlUrl", "checkCrawlStatus", "checkCrawlErrors", "cancelCrawl",
  "asyncBatchScrapeUrls", "checkBatchScrapeStatus", "checkBatchScrapeErrors", "asyncExtract", "getExtractStatus",
  "asyncGenerateLLMsText", "checkGenerateLLMsTextStatus", "asyncDeepResearch", "checkDeepResearchStatus",
  "getTokenUsage", "getCreditUsage", "getQueueStatus", "getCreditUsageHistorical", "getTokenUsageHistorical",
] as const;
/** Methods of `V1Client` that return a plain `Promise` (they wait, or return a watcher). */
export const V1_PROMISE_METHODS = [
  "crawlUrl", "crawlUrlAndWatch", "batchScrapeUrls", "batchScrapeUrlsAndWatch", "extract", "generateLLMsText", "deepResearch",
] as const;

type Method = (...args: unknown[]) => Promise<unknown>;

/** A shallow copy of a plain-object argument (other values as they are): a call made while the v1 layer loads sends the options as they were at the call. */
function atCall<T>(value: T): T {
  const proto = value !== null && typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  return proto === Object.prototype || proto === null ? { ...value } : value;
}

/** The v1 layer when an entry loaded it up front (the Node entry does). */
let preloaded: typeof import("./client.js") | undefined;

/**
 * Makes the v1 layer available without a load: `client.v1` calls then go straight through from the
 * first. The Node entry does this, so nothing is loaded between a call and its retry timer (a test
 * under fake timers that advances the clock would otherwise run before the timer exists).
 */
export function provideV1(module: typeof import("./client.js")): void {
  preloaded = module;
}

/** The `client.v1` object of a `WebData` client. */
export function lazyV1(http: HttpClient): V1Client {
  let loaded: Record<string, Method> | undefined;
  let loading: Promise<Record<string, Method>> | undefined;
  const ready = () => (loaded ??= preloaded ? (new preloaded.V1Client(http) as unknown as Record<string, Method>) : undefined);
  const load = () =>
    (loading ??= import("./client.js").then(
      (m) => (loaded = new m.V1Client(http) as unknown as Record<string, Method>),
      (err: unknown) => {
        loading = undefined; // a chunk that failed to load is tried again on the next call
        throw new WebDataError(`Could not load the v1 layer: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      },
    ));
  // Once loaded, calls go straight through (as synchronous as the method itself); before that they wait for the load.
  const v1: Record<string, Method> = {};
  for (const name of V1_API_METHODS) {
    v1[name] = (...args) => {
      const now = ready();
      if (now) return now[name]!(...args);
      const copies = args.map(atCall);
      return new APIPromise(load().then((c) => (c[name]!(...copies) as APIPromise<unknown>).withResponse()));
    };
  }
  for (const name of V1_PROMISE_METHODS) {
    v1[name] = (...args) => {
      const now = ready();
      if (now) return now[name]!(...args);
      const copies = args.map(atCall);
      return load().then((c) => c[name]!(...copies));
    };
  }
  return v1 as unknown as V1Client;
}
