/**
 * The server-timeout rule, in one place. Some endpoints take a server-side `timeout` (how long the
 * server may work on the request); one HTTP attempt must then last at least that long plus
 * {@link SERVER_TIMEOUT_MARGIN_MS} for the answer to arrive, whatever the client's shorter `timeoutMs`.
 * {@link SERVER_TIMEOUTS} says, per endpoint, the unit its wire uses and the server's default when the
 * call gives none; endpoint modules name their row and never convert by hand.
 */
import { MAX_TIMER_MS } from "./options.js";

/** Added to a call's server-side timeout for its per-attempt timeout: the server's answer needs time to arrive. */
export const SERVER_TIMEOUT_MARGIN_MS = 10_000;

/**
 * Every endpoint whose body carries a server-side `timeout`, by route (all are POST): the milliseconds per
 * unit of its wire value (1000 where the wire counts seconds), and after it the server's default (in wire
 * units) when the call gives none.
 */
export const SERVER_TIMEOUTS = {
  "/v2/scrape": [1],
  "/v2/map": [1],
  "/v2/search": [1],
  "/v2/parse": [1],
  "/v2/browser/{id}/execute": [1000, 30],
  "/v2/scrape/{id}/interact": [1000],
  "/v1/scrape": [1],
  "/v1/map": [1],
  "/v1/search": [1, 60_000],
  "/v1/extract": [1, 60_000],
} as const satisfies Record<string, readonly [unit: 1 | 1000, serverDefault?: number]>;

/** A route of {@link SERVER_TIMEOUTS}. */
export type ServerTimeoutRoute = keyof typeof SERVER_TIMEOUTS;

/** The server-side time limit of a call to `route` whose `timeout` field is `timeout` (0 or absent: the server's default), in ms. */
export function serverTimeoutMs(route: ServerTimeoutRoute, timeout: number | undefined): number | undefined {
  const [unit, serverDefault]: readonly [number, number?] = SERVER_TIMEOUTS[route];
  const value = timeout || serverDefault;
  return value ? value * unit : undefined;
}

/** The per-attempt timeout in force: the call's, or the server's limit plus the margin when longer, never past what a timer can hold. */
export function attemptTimeoutMs(callMs: number, serverMs: number | undefined): number {
  return Math.min(MAX_TIMER_MS, Math.max(callMs, serverMs === undefined ? 0 : serverMs + SERVER_TIMEOUT_MARGIN_MS));
}
