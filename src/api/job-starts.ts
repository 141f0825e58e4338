/**
 * Job starts of crawls and batch scrapes (v1 and v2: {@link startJob}) and the 404
 * grace after a start, in one place: right after a crawl or batch scrape
 * starts, the service may answer its status with 404 for a few seconds (the job
 * is not visible yet). Within {@link NOT_VISIBLE_GRACE_MS} of a start this
 * client made, or that a waiter timed, a 404 means "not yet", not "unknown":
 * the waiters and the watcher alike poll on.
 *
 * Expired jobs are the other end of the same 404: the service drops a job's results
 * {@link JOB_TTL_MS} after its start, then answers 404, which {@link expiredOr} names.
 */
import { JobExpiredError, NotFoundError } from "../core/errors.js";
import { APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { send, type Endpoint } from "./endpoint.js";

/** How long after a job's start a 404 on its status means "not visible yet" rather than "unknown", ms. */
export const NOT_VISIBLE_GRACE_MS = 10_000;

/** How long the service keeps a crawl's or batch scrape's results after its start, ms (24 h; reference §4.4 `expiresAt`). */
export const JOB_TTL_MS = 24 * 60 * 60 * 1000;

/** How long a start or an `expiresAt` stays noted (a week: a 404 that long after is still named expired), ms. */
const NOTE_KEPT_MS = 7 * JOB_TTL_MS;

/** The most jobs noted per client (starts and `expiresAt` each; the oldest note goes first). */
export const MAX_NOTED_JOBS = 10_000;

/** Keeps `notes` bounded: at most {@link MAX_NOTED_JOBS}, the oldest (first inserted) dropped first. */
function bound<V>(notes: Map<string, V>): void {
  while (notes.size > MAX_NOTED_JOBS) notes.delete(notes.keys().next().value as string);
}

/**
 * Notes in the client's state (`http.state.starts`) that it started the job `started.id` now, for the
 * 404 grace and for expiry; notes older than a week and past {@link MAX_NOTED_JOBS} are dropped. Returns `started`.
 */
export function noteStart<T extends { id: string }>(http: HttpClient, started: T): T {
  const now = Date.now();
  const notes = http.state.starts;
  for (const [id, at] of notes) {
    if (now - at < NOTE_KEPT_MS) break; // in start order: the rest are newer
    notes.delete(id);
  }
  notes.delete(started.id);
  notes.set(started.id, now);
  bound(notes);
  return started;
}

/** Notes a job's `expiresAt` from a status read (`http.state.expiries`; an empty one is not noted). */
export function noteExpiry(http: HttpClient, id: string, expiresAt: string): void {
  if (!expiresAt || http.state.expiries.get(id) === expiresAt) return;
  const notes = http.state.expiries;
  notes.delete(id);
  notes.set(id, expiresAt);
  bound(notes);
}

/**
 * `err` as the error to throw for job `id`: a `NotFoundError` of a job whose results have expired (its
 * noted `expiresAt` has passed, this client started it more than {@link JOB_TTL_MS} ago, or the server
 * says "Job expired") becomes `JobExpiredError` (a `NotFoundError` too); anything else is returned as it is.
 */
export function expiredOr<E>(http: HttpClient, id: string, err: E): E | JobExpiredError {
  if (!(err instanceof NotFoundError) || err instanceof JobExpiredError) return err;
  const now = Date.now();
  const expiresAt = http.state.expiries.get(id);
  const started = http.state.starts.get(id);
  const past = expiresAt !== undefined && Date.parse(expiresAt) <= now;
  const old = started !== undefined && now - started > JOB_TTL_MS;
  return past || old || /\bexpired\b/i.test(err.serverMessage) ? new JobExpiredError(id, expiresAt, err, old ? started : undefined) : err;
}

/** When the client started the job `id` (noted for a week, see {@link noteStart}). */
export function startedAt(http: HttpClient, id: string): number | undefined {
  return http.state.starts.get(id);
}

/** True when `err` is a 404 within the grace after the job's start at `at` (ms since the epoch). */
export function notYetVisible(err: unknown, at: number | undefined): boolean {
  return err instanceof NotFoundError && at !== undefined && Date.now() - at < NOT_VISIBLE_GRACE_MS;
}

/** What a job start (crawl, batch scrape; v1 too) reads: the job `id` and its status `url` (batch starts add fields to this shape). */
export const jobStartShape = { id: z.string(), url: z.string() };

/** The answer of a crawl or batch-scrape start, v1 and v2: {@link jobStartShape}, and `invalidURLs` when sent. */
export const jobStartedAnswer = z.looseObject({ ...jobStartShape, invalidURLs: z.optional(z.array(z.string())) });

/** Drops the `success` flag of a 2xx answer, keeping every other field. */
export function withoutSuccess<T>(raw: T & { success?: unknown }): T {
  const { success: _drop, ...rest } = raw;
  return rest as T;
}

/** Starts a job at `ep` (a crawl or batch-scrape route of either version) and notes the start for the 404 grace: `{ id, url, ... }` without `success`. */
export function startJob<T extends { id: string }, A extends unknown[]>(http: HttpClient, ep: Endpoint<A>, req: RequestOptions | undefined, ...args: A): APIPromise<T> {
  return send(http, ep, req, ...args).map((r) => noteStart(http, withoutSuccess(r as T)));
}
