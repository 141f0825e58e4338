/**
 * What makes two documents of a job the same, in one home: the watcher, the
 * pagination walk (`crawlDocuments`, `crawl()`, the watcher's REST reads) and
 * the walk's loop rule all use it, so a document the server repeats (on two pages, or
 * on a socket and a page) is delivered once wherever it comes from.
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
