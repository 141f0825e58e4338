/**
 * Every polling number of the SDK, stated once: the waiters (`crawl`,
 * `batchScrape`, `extract`, `agent`), the document iterators, the watcher's
 * REST polling and the v1 waiters all read them from here.
 *
 * The public rule: `pollIntervalMs` defaults to 2000 ms and is raised to at
 * least 500 ms, everywhere. Only our own tests, against the in-process fake,
 * may poll faster, through an internal option ({@link POLL_FLOOR_OPTION}).
 */

/** Default time between status polls, ms (waiters, `crawlDocuments`, the watcher). */
export const DEFAULT_POLL_INTERVAL_MS = 2000;

/** The public floor: a shorter `pollIntervalMs` is raised to this, ms. */
export const MIN_POLL_INTERVAL_MS = 500;

/** Poll interval of the v1 `extract` waiter (the v1 library polled every second), ms. */
export const V1_EXTRACT_POLL_MS = 1000;

/** Poll interval of the v1 `generateLLMsText` and `deepResearch` waiters (the v1 library polled every 2 s), ms. */
export const V1_TASK_POLL_MS = 2000;

/** Default `pollInterval` of v1 `crawlUrl` / `batchScrapeUrls`, in SECONDS (the v1 library's unit). */
export const V1_DEFAULT_POLL_SECONDS = 2;

/**
 * @internal Key of a test-only option that lowers the floor (for example to
 * 50 ms, so a watcher test against the in-process fake does not wait 500 ms a
 * poll). Not part of the public options; a registry symbol, so tests of the
 * built package can pass it too.
 */
export const POLL_FLOOR_OPTION: unique symbol = Symbol.for("webdata.internal.minPollIntervalMs");

/** Options that may carry the internal floor. */
export interface PollFloorOption {
  /** @internal See {@link POLL_FLOOR_OPTION}. */
  [POLL_FLOOR_OPTION]?: number | undefined;
}

/**
 * The poll interval in force: the caller's `pollIntervalMs`, raised to the
 * floor ({@link MIN_POLL_INTERVAL_MS}, or the internal test floor when given),
 * else {@link DEFAULT_POLL_INTERVAL_MS}.
 */
export function pollInterval(ms: number | undefined, options?: PollFloorOption): number {
  if (ms === undefined || !Number.isFinite(ms)) return DEFAULT_POLL_INTERVAL_MS;
  const floor = options?.[POLL_FLOOR_OPTION];
  return Math.max(typeof floor === "number" && floor >= 0 ? floor : MIN_POLL_INTERVAL_MS, ms);
}
