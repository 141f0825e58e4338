/**
 * The numbers a caller meets at the service's edges (bounds and the server's defaults), each stated once:
 * the request schemas beside each capability check with them, and the faces that tell a user or a model
 * about them (the operations catalogue, `api/operations.ts`; the agent tools; the CLI's help) read them
 * here. Plain numbers only: nothing here runs.
 */

/** A bound a parameter has, and the server's default when none is given. */
export interface Limit {
  /** The least value accepted. */
  readonly min?: number;
  /** The largest value accepted. */
  readonly max?: number;
  /** What the server uses when none is given. */
  readonly default?: number;
}

/** A prompt of the agent (and of a crawl's, extract's, scrape's json format): 1 to 10000 characters. */
export const PROMPT = { min: 1, max: 10_000 } as const satisfies Limit;
/** Search results per source. */
export const SEARCH_LIMIT = { min: 1, max: 100, default: 10 } as const satisfies Limit;
/** Links of a map. */
export const MAP_LIMIT = { min: 1, max: 100_000, default: 5000 } as const satisfies Limit;
/** A browser session's lifetime, seconds. */
export const BROWSER_TTL = { min: 30, max: 3600, default: 600 } as const satisfies Limit;
/** A browser session's idle timeout, seconds. */
export const BROWSER_ACTIVITY_TTL = { min: 10, max: 3600, default: 300 } as const satisfies Limit;
/** The code run in a browser session, characters. */
export const BROWSER_CODE = { min: 1, max: 100_000 } as const satisfies Limit;
/** A browser script's timeout, seconds. */
export const BROWSER_TIMEOUT = { min: 1, max: 300, default: 30 } as const satisfies Limit;
/** A monitor's name, characters. */
export const MONITOR_NAME = { min: 1, max: 256 } as const satisfies Limit;
/** A monitor's search queries. */
export const MONITOR_QUERIES = { min: 1, max: 12 } as const satisfies Limit;
/** Monitors or checks per page of a list. */
export const MONITOR_PAGE = { min: 1, max: 100, default: 25 } as const satisfies Limit;
/** A feedback's note, characters. */
export const FEEDBACK_NOTE = { max: 4000 } as const satisfies Limit;
/** An uploaded file to parse, bytes: 50 MB (checked before sending). */
export const PARSE_FILE = { max: 50 * 1024 * 1024 } as const satisfies Limit;
