/**
 * Watcher options for our own tests against the in-process fake: polls every
 * 50 ms through the internal test-only floor (`POLL_FLOOR_OPTION`, see
 * `src/jobs/pages.ts`); the public floor is 500 ms.
 */
import type { WatcherOptions } from "../../src/index.js";
import { POLL_FLOOR_OPTION } from "../../src/jobs/pages.js";

/** `pollIntervalMs: 50`, with the floor lowered to allow it. Spread it into watcher options. */
export const FAST_WATCH = { pollIntervalMs: 50, [POLL_FLOOR_OPTION]: 50 } as WatcherOptions;
