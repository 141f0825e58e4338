/**
 * Every polling number of the SDK, stated once: the waiters (`crawl`,
 * `batchScrape`, `extract`, `agent`), the document iterators, the watcher's
 * REST polling and the v1 waiters all read them from here.
 *
 * The public rule: `pollIntervalMs` defaults to 2000 ms and is raised to at
 * least 500 ms, everywhere. Only our own tests, against the in-process fake,
 * may poll faster, through an internal option ({@link POLL_FLOOR_OPTION}).
 *
 * The ramp ({@link pollPauses}): without a `pollIntervalMs`, the first pauses
 * are 500, 750, 1125 and 1687.5 ms, then 2000 ms, so a job's first document (or
 * a short job's end) is seen within about a quarter of a second of 1 s instead
 * of at 2 s, for at most 1.5x the status reads of a fixed 2 s schedule (a 5 s
 * job: 6 reads instead of 4; a 60 s job: 34 instead of 31; `test/poll-ramp.test.ts`).
 * An explicit `pollIntervalMs` is the caller's: kept from the first pause.
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

/**
 * The pauses between one poll loop's status reads, in order: call the returned function before each
 * pause. With `pollIntervalMs` given, every pause is {@link pollInterval} of it (the caller's interval,
 * raised to the floor). Without one, the pauses ramp from the floor ({@link MIN_POLL_INTERVAL_MS}) by
 * 1.5x up to {@link DEFAULT_POLL_INTERVAL_MS}: 500, 750, 1125, 1687.5, then 2000 ms (the internal test
 * floor lowers neither). Used by the waiters' poll loop, the document iterators and the watcher's REST polling.
 */
export function pollPauses(ms: number | undefined, options?: PollFloorOption): () => number {
  const interval = pollInterval(ms, options);
  let next = ms !== undefined && Number.isFinite(ms) ? interval : MIN_POLL_INTERVAL_MS;
  return () => {
    const pause = Math.min(next, interval);
    next = pause * 1.5;
    return pause;
  };
}
