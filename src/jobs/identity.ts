/**
 * What makes two documents of a job the same, in one home: the watcher, the
 * pagination walk (`crawlDocuments`, `crawl()`, the watcher's REST reads) and
 * the walk's loop rule all use it, so a document the server repeats (on two pages, or
 * on a socket and a page) is delivered once wherever it comes from. The document
 * iterators remember identities through {@link DocumentMemory} (bounded for a finished
 * job); the watcher and the drop-in's snapshot read keep theirs in a set ({@link firstSeen}).
 */
import { isRecord } from "../core/errors.js";

/** The identity of a document: `metadata.scrapeId`, else `metadata.sourceURL`/`url`, else its JSON. */
export function documentKey(doc: unknown): string {
  const d = isRecord(doc) ? doc : {};
  const m = isRecord(d.metadata) ? d.metadata : {};
  for (const [name, v] of [["id", m.scrapeId], ["src", m.sourceURL], ["url", m.url], ["url", d.url]] as const) {
    if (typeof v === "string" && v) return `${name}:${v}`;
  }
  return `json:${JSON.stringify(doc)}`;
}

/**
 * Records `doc` in `seen` (the keys of one job's documents so far): true when it was not seen before
 * (deliver it), false for a repeat (drop it). Memory: one key per distinct document.
 */
export function firstSeen(seen: Set<string>, doc: unknown): boolean {
  const key = documentKey(doc);
  return !seen.has(key) && !!seen.add(key);
}

/**
 * The identities a document iterator remembers, bounded by what the server can repeat (issue 36): a
 * finished job's pages do not change, so a document it repeats is one of the page just before (the
 * server's `next` steps back over documents it dropped from a page), or one at a server offset already
 * read (a `next` that leads back); a page read while the job was still scraping can shift as results land,
 * so its documents are remembered until the walk ends. Memory: the keys of two pages, plus one key per
 * document read while the job ran (none for a finished job).
 */
export class DocumentMemory {
  /** Keys of the documents of pages read while the job ran. */
  #running = new Set<string>();
  /** Keys of the finished job's page before the current one, and of the current one. */
  #previous = new Set<string>();
  #current = new Set<string>();
  #live = false;
  /** The furthest server offset a finished job's page reached (its `skip` + its documents). */
  #furthest = 0;
  /** Documents at the start of the current page that lie below {@link #furthest}: read already. */
  #behind = 0;

  /**
   * Starts a page that has documents: `finished` when the job was terminal as it was read, `skip` its
   * server offset, `length` its documents.
   */
  page(finished: boolean, skip: number, length: number): void {
    this.#previous = this.#current;
    this.#current = new Set<string>();
    this.#live = !finished;
    this.#behind = finished ? Math.max(0, this.#furthest - skip) : 0;
    if (finished) this.#furthest = Math.max(this.#furthest, skip + length);
  }

  /** True when the page's document `i`, `doc`, was not seen before (deliver it), false for a repeat (drop it); records it. */
  first(doc: unknown, i: number): boolean {
    const key = documentKey(doc);
    const repeat = i < this.#behind || this.#current.has(key) || this.#previous.has(key) || this.#running.has(key);
    (this.#live ? this.#running : this.#current).add(key);
    return !repeat;
  }
}
