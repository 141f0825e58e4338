/**
 * Stops pagination that goes in a circle. A server whose `next` points back to
 * a page already read (or to itself) once made `crawl()` send thousands of
 * requests a second while piling up duplicates. Two rules, each a
 * `PaginationLoopError` (nothing repeated is yielded):
 *
 * - a `next` URL already followed, after a page that had documents or once the
 *   job is finished (re-reading the same empty page while the job runs is how
 *   new results are waited for, and is allowed);
 * - a page of a finished job that repeats the documents of the page before
 *   (also read after the finish).
 *
 * Memory: the URLs followed (one per page) and the identity of one page.
 */
import { PaginationLoopError } from "../core/errors.js";
import { isTerminal } from "./status.js";
import { documentKey } from "./identity.js";

/** A status page as far as the guard needs it. */
interface PageLike {
  status: string;
  data: readonly unknown[];
}

/** One guard per pagination (per iterator or watcher poll loop). */
export class PageGuard {
  readonly #jobId: string;
  readonly #followed = new Set<string>();
  #previous: string | undefined;

  /** @param jobId The job whose pages are read (for the error). */
  constructor(jobId: string) {
    this.#jobId = jobId;
  }

  /** Checks a page before its documents are used: throws when a finished job's page repeats the one before. */
  page(page: PageLike): void {
    // Only pages of the finished job are compared: its results no longer change, so a repeat is a loop.
    const identity = page.data.length > 0 && isTerminal(page.status) ? page.data.map(documentKey).join("\n") : undefined;
    if (identity !== undefined && identity === this.#previous) {
      throw new PaginationLoopError(this.#jobId, "the job has finished and the server sent the same page again");
    }
    this.#previous = identity;
  }

  /** Checks a `next` URL before it is followed (after `from`, the page that gave it). */
  follow(next: string, from: PageLike): void {
    if (this.#followed.has(next) && (from.data.length > 0 || isTerminal(from.status))) {
      throw new PaginationLoopError(this.#jobId, "the server's next link points to a page already read", next);
    }
    this.#followed.add(next);
  }
}
