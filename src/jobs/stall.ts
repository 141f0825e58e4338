/**
 * The seam of stalled jobs in the root: the detection itself (`webdata/team`, `team/stall.ts`) is a plugin's, given to
 * the client as `http.state.stall`. `stallTimeoutMs` on a client without it is a `ValidationError` naming the import,
 * before anything is sent; the waiters, the documents iterators and the watcher ask {@link stallOf} for it.
 */
import type { StallDetection, StalledJob } from "../core/client-state.js";
import { ValidationError } from "../core/errors.js";
import { withSignal, type Checked } from "../core/options.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { cancelJob } from "./status.js";
import type { ApiVersion, JobKind, StallOptions } from "./types.js";

/** The client's stall detection when `opts` ask for it (`stallTimeoutMs`), else undefined; a `ValidationError` when they ask and the client has no `team` plugin. */
export function stallOf(http: HttpClient, opts: StallOptions, context: string): StallDetection | undefined {
  if (opts.stallTimeoutMs === undefined) return undefined;
  const stall = http.state.stall;
  if (!stall) {
    throw new ValidationError([{ path: "stallTimeoutMs", message: 'is a team feature: add import { team } from "webdata/team" and the client option plugins: [team] (new WebData({ ..., plugins: [team] }))' }], context);
  }
  return stall;
}

/** The job a stall is about: its cancel through `jobs/status.ts` with the caller's request options (not its signal: the wait was stopped by the stall). */
export function stalledJob(http: HttpClient, kind: JobKind, id: string, apiVersion: ApiVersion, request: Checked<RequestOptions>): StalledJob {
  return { id, cancel: () => cancelJob(http, kind, id, withSignal(request, undefined), apiVersion), log: (m) => http.log("warn", m) };
}
