/**
 * `webdata/firecrawl` on Node: the drop-in classes sending through undici (as
 * `WebData` from the Node entry does).
 */
import { WebData } from "../node.js";
import type { ClientOptions } from "../core/config.js";
import { Firecrawl as PortableFirecrawl } from "./client.js";
import { FirecrawlAppV1 as PortableFirecrawlAppV1 } from "./v1.js";

/** The official client's v2 class, over webdata's Node client: `new Firecrawl({ apiKey })`. */
export class Firecrawl extends PortableFirecrawl {
  /** @internal The Node client (undici, proxies, `dispatcher`). */
  static override makeClient(options: ClientOptions): WebData {
    return new WebData(options);
  }
}

/** The official client's v1 class, over webdata's Node client: `new FirecrawlAppV1({ apiKey })`. */
export class FirecrawlAppV1 extends PortableFirecrawlAppV1 {
  /** @internal The Node client (undici, proxies, `dispatcher`). */
  static override makeClient(options: ClientOptions): WebData {
    return new WebData(options);
  }
}

/** The official client's other name for the class. */
export const FirecrawlClient = Firecrawl;
/** The official client's other name for the class. */
export type FirecrawlClient = Firecrawl;

export { SdkError, type SdkErrorConstructor, type FirecrawlClientOptions, type FirecrawlClientInput, type IdempotencyKeyOption, type FirecrawlSameMethod, type FirecrawlBatchScrapeOptions, type FirecrawlWaitOptions, type OfficialTimeoutFields, type PaginationConfig, type GetMonitorCheckOptions } from "./client.js";
export type { FirecrawlError } from "./v1.js";
export { FirecrawlWatcher, type FirecrawlWatcherEvents, type FirecrawlWatcherOptions, type WatcherDone, type WatcherError, type WatcherSnapshot } from "./watcher.js";
export type * from "./types.js";
// The official shapes of these two names (webdata's options, as the official types take them), not the root entry's.
export type { BatchScrapeOptions, CrawlOptions } from "./types.js";
// The official client's one value outside the classes (the drop-in entry only, not the root one).
export { parseRequiresAction, type RequiresAction } from "./requires-action.js";
export * from "../exports.js";
// Every type of `webdata/types` too: the drop-in entry keeps the names it had when the root had them all.
export type * from "../types.js";
// The official watcher's names: the drop-in's watcher, not WebData's.
export type { OfficialWatcher as Watcher, FirecrawlWatcherOptions as WatcherOptions } from "./watcher.js";
// Shadows the SDK's `JobTimeoutError` (the same class) with the official fields typed.
export { OfficialJobTimeoutError as JobTimeoutError, type OfficialJobTimeoutErrorConstructor } from "./client.js";
export default Firecrawl;
