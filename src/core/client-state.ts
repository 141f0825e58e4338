/**
 * The client's memory, on the client: what one client remembers between its calls lives in one
 * {@link ClientState}, made with its `HttpClient` (so one per `WebData`; its `v1` layer and the
 * `webdata/firecrawl` drop-in over it share it) and reached as `http.state` by every `api/` and
 * `jobs/` function, which all receive the `HttpClient`. Nothing of it is in module scope, so two
 * clients in one process never change each other's results, and what ran before in the process
 * changes nothing (`test/architecture-time-state.test.ts` fails on module-level state keyed by a
 * client). The credit meter and the concurrency limiter belong here too when they come.
 */

/** One client's memory between its calls (see the module's note). Only the modules named on each field write it. */
export class ClientState {
  /**
   * Crawl and batch-scrape starts of this client, v1 and v2: job id to the `Date.now()` of the start,
   * for the 404 grace after a start and for expiry (`api/job-starts.ts` notes them, keeps them a week and
   * at most 10,000, and reads them).
   */
  readonly starts = new Map<string, number>();

  /**
   * Expired jobs (issue 35): job id to the `expiresAt` its status reads reported (`api/job-starts.ts`
   * `noteExpiry`, from `jobs/status.ts`; at most 10,000), so a later 404 is named `JobExpiredError`.
   */
  readonly expiries = new Map<string, string>();

  /**
   * Jobs this client cancelled (`jobs/status.ts` `cancelJob` notes them): a self-hosted server later reports
   * such a job `completed`, and the waiters and the watcher report it cancelled.
   */
  readonly cancelled = new Set<string>();

  /** The notices this client has given, each said once per client (`api/scrape.ts`: "json-missing", a json format answered without json). */
  readonly said = new Set<string>();

  /**
   * The WebSocket class the client's entry gives its watchers where the runtime has none (the Node
   * entry: undici's, loaded when a watcher first needs it, whatever ran before). Set once by the
   * entry's constructor; read by `jobs/watcher.ts` after a `webSocket` option and the global one.
   */
  webSocket: (() => Promise<unknown>) | undefined = undefined;
}
