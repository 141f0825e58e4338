/**
 * `webdata/firecrawl`: the drop-in entry for code written for the service's
 * official client. Migrating is one change, the import:
 * `@mendable/firecrawl-js` becomes `webdata/firecrawl`. Portable entry.
 */
import { Firecrawl } from "./client.js";

export { Firecrawl, FirecrawlClient, SdkError, type SdkErrorConstructor, type FirecrawlClientOptions, type FirecrawlClientInput, type IdempotencyKeyOption, type FirecrawlSameMethod, type FirecrawlBatchScrapeOptions, type FirecrawlWaitOptions, type OfficialTimeoutFields, type PaginationConfig, type GetMonitorCheckOptions } from "./client.js";
export { FirecrawlAppV1, type FirecrawlError } from "./v1.js";
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
