/**
 * Job starts of crawls and batch scrapes (v1 and v2: {@link startJob}) and the 404
 * grace after a start, in one place: right after a crawl or batch scrape
 * starts, the service may answer its status with 404 for a few seconds (the job
 * is not visible yet). Within {@link NOT_VISIBLE_GRACE_MS} of a start this
 * client made, or that a waiter timed, a 404 means "not yet", not "unknown":
 * the waiters and the watcher alike poll on.
 */
import { NotFoundError } from "../core/errors.js";
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { send, type Endpoint } from "./endpoint.js";

/** How long after a job's start a 404 on its status means "not visible yet" rather than "unknown", ms. */
export const NOT_VISIBLE_GRACE_MS = 10_000;

/** Notes in the client's state (`http.state.starts`) that it started the job `started.id` now (notes past the grace are dropped); returns `started`. */
export function noteStart<T extends { id: string }>(http: HttpClient, started: T): T {
  const now = Date.now();
  const notes = http.state.starts;
  for (const [id, at] of notes) if (now - at >= NOT_VISIBLE_GRACE_MS) notes.delete(id);
  notes.set(started.id, now);
  return started;
}

/** When the client started the job `id`, if it did so within the grace. */
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
