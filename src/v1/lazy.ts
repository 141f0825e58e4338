/**
 * `client.v1` without the v1 layer in the initial bundle: an object with every
 * `V1Client` method that loads `./client.js` on the first call (a separate
 * chunk for bundlers that split on `import()`; the Node and server entries
 * hand it over up front, `hand-over.ts`) and forwards to it; once loaded, calls go straight through. Plain-object
 * arguments of calls made before the load are copied at the call. Results are the same objects: methods that
 * return an `APIPromise` still do (`.withResponse()` works), the others return
 * a plain `Promise`. A test keeps these lists equal to `V1Client`'s methods.
 */
import { OnDemand, runWith } from "../core/on-demand.js";
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

/**
 * The v1 layer, loaded on the first `client.v1` call; the Node and server entries hand it over
 * up front (`hand-over.ts`), so nothing is loaded between a call and its retry timer.
 */
export const v1Layer = new OnDemand<typeof import("./client.js")>("the v1 layer", () => import("./client.js"));

/** The `client.v1` object of a `WebData` client. */
export function lazyV1(http: HttpClient): V1Client {
  let client: Record<string, Method> | undefined;
  const made = (m: typeof import("./client.js")) => (client ??= new m.V1Client(http) as unknown as Record<string, Method>);
  const ready = () => client ?? (v1Layer.now ? made(v1Layer.now) : undefined);
  // Once loaded, calls go straight through (as synchronous as the method itself); before that they wait for the load.
  const v1: Record<string, Method> = {};
  for (const name of V1_API_METHODS) {
    v1[name] = (...args) => {
      const now = ready();
      if (now) return now[name]!(...args);
      return new APIPromise(runWith(v1Layer, (m, ...a) => (made(m)[name]!(...a) as APIPromise<unknown>).withResponse(), ...args));
    };
  }
  for (const name of V1_PROMISE_METHODS) {
    v1[name] = (...args) => runWith(v1Layer, (m, ...a) => made(m)[name]!(...a), ...args);
  }
  return v1 as unknown as V1Client;
}
