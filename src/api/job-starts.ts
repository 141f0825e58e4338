/**
 * The 404 grace after a start, in one place: right after a crawl or batch scrape
 * starts, the service may answer its status with 404 for a few seconds (the job
 * is not visible yet). Within {@link NOT_VISIBLE_GRACE_MS} of a start this
 * client made, or that a waiter timed, a 404 means "not yet", not "unknown":
 * the waiters and the watcher alike poll on.
 */
import { NotFoundError } from "../core/errors.js";

/** How long after a job's start a 404 on its status means "not visible yet" rather than "unknown", ms. */
export const NOT_VISIBLE_GRACE_MS = 10_000;

const starts = new WeakMap<object, Map<string, number>>();

/** Notes that `client` started the job `started.id` now (older notes are dropped); returns `started`. */
export function noteStart<T extends { id: string }>(client: object, started: T): T {
  const now = Date.now();
  const notes = starts.get(client) ?? new Map<string, number>();
  for (const [id, at] of notes) if (now - at >= NOT_VISIBLE_GRACE_MS) notes.delete(id);
  starts.set(client, notes.set(started.id, now));
  return started;
}

/** When `client` started the job `id`, if it did so within the grace. */
export function startedAt(client: object, id: string): number | undefined {
  return starts.get(client)?.get(id);
}

/** True when `err` is a 404 within the grace after the job's start at `at` (ms since the epoch). */
export function notYetVisible(err: unknown, at: number | undefined): boolean {
  return err instanceof NotFoundError && at !== undefined && Date.now() - at < NOT_VISIBLE_GRACE_MS;
}
