/**
 * Every batch input has an outcome (`webdata/team`): `byUrl`, a `Map` from each input URL as given to its document or
 * its {@link BatchFailure}, for the `batchScrape` waiter's result and the end of `batchScrapeDocuments`.
 *
 * Matching uses the server's record of the requested URL, a document's `metadata.sourceURL` (the final URL after
 * redirects is `metadata.url`, used only when `sourceURL` is absent), so a redirect never moves a document to another
 * input. A URL matches an input exactly, else after normalising both ({@link urlKey}; the scheme is added when missing
 * as the service does). Each document and each failure is given to at most one input; a URL listed twice is two
 * inputs, each with its own outcome ({@link BatchOutcomes}). A document of a page that answered an HTTP error
 * (`metadata.statusCode` 400 or more: a 404 page) is a failure (`reason: "http"`) that carries it. Failures come
 * from the job's `/errors` (`errors[]`, then `robotsBlocked`; read only when an input is left without a document)
 * and from the start's `invalidURLs`; an input with none of these gets a failure saying that nothing was reported.
 */
import { requestedUrl, type Document } from "../api/document.js";
import { AbortError, ValidationError, WebDataError } from "../core/errors.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { getJobErrors } from "../jobs/status.js";
import type { DocumentStream } from "../jobs/pages.js";
import { checkUrlsOption, type BatchDocuments, type BatchFailure, type BatchOutcomeReader, type BatchOutcomes } from "../jobs/batch-outcomes.js";
import type { JobErrors } from "../jobs/types.js";

/** The {@link BatchOutcomes} that {@link outcomesOf} builds. */
class Outcomes<TDoc> extends Map<string, TDoc | BatchFailure> implements BatchOutcomes<TDoc> {
  readonly #all = new Map<string, (TDoc | BatchFailure)[]>();
  /** Every occurrence's outcome of `url` in input order. */
  all(url: string): (TDoc | BatchFailure)[] {
    return [...(this.#all.get(url) ?? [])];
  }
  /** Adds an occurrence's outcome (the map's value stays the first occurrence's). */
  add(url: string, outcome: TDoc | BatchFailure): void {
    const list = this.#all.get(url);
    if (list) list.push(outcome);
    else (this.#all.set(url, [outcome]), this.set(url, outcome));
  }
}

/** True when a `byUrl` value is a {@link BatchFailure} rather than a document. */
export function isBatchFailure(outcome: unknown): outcome is BatchFailure {
  return typeof outcome === "object" && outcome !== null && (outcome as { failed?: unknown }).failed === true;
}

/** The key a URL is matched by when it does not match exactly: scheme added, host case, default port, fragment and a path's trailing `/` dropped. */
export function urlKey(raw: string): string {
  try {
    const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
    u.hash = "";
    const s = u.href;
    return u.pathname !== "/" && u.pathname.endsWith("/") && !u.search ? s.slice(0, -1) : s;
  } catch {
    return raw.trim();
  }
}

/** What an input (one occurrence of a URL) has been given so far. */
type Slot<TDoc> = { input: string; doc?: TDoc; failure?: BatchFailure };

/** A document's HTTP status when it is an error page (400 or more), else undefined. */
function errorStatus(doc: Document): number | undefined {
  const code = (doc as { metadata?: { statusCode?: unknown } }).metadata?.statusCode;
  return typeof code === "number" && code >= 400 ? code : undefined;
}

/**
 * Each input URL (as given; a URL given twice, each occurrence) to its document or its failure: see the
 * module's note. `errors` is the job's `/errors` (undefined when it was not needed: every input has a document).
 */
export function outcomesOf<TDoc extends Document>(inputs: readonly string[], docs: Iterable<TDoc>, errors: JobErrors | undefined, invalidURLs: readonly string[] = [], unread?: string): BatchOutcomes<TDoc> {
  const slots: Slot<TDoc>[] = inputs.map((input) => ({ input }));
  const exact = new Map<string, Slot<TDoc>[]>();
  const byKey = new Map<string, Slot<TDoc>[]>();
  for (const slot of slots) {
    exact.set(slot.input, [...(exact.get(slot.input) ?? []), slot]);
    const key = urlKey(slot.input);
    byKey.set(key, [...(byKey.get(key) ?? []), slot]);
  }
  /** The first input `url` names that is still `open` (exact first, then by {@link urlKey}). */
  const find = (url: string, open: (s: Slot<TDoc>) => boolean): Slot<TDoc> | undefined => {
    const same = exact.get(url);
    return same ? same.find(open) : byKey.get(urlKey(url))?.find(open);
  };
  for (const doc of docs) {
    const url = requestedUrl(doc);
    const slot = url === undefined ? undefined : find(url, (s) => s.doc === undefined);
    if (slot) slot.doc = doc;
  }
  const fail = (url: string, failure: Omit<BatchFailure, "failed" | "url">) => {
    const slot = find(url, (s) => s.doc === undefined && s.failure === undefined);
    if (slot) slot.failure = { failed: true, url, ...failure };
  };
  for (const e of errors?.errors ?? []) fail(e.url, { reason: "error", error: e.error, code: e.code, entry: e });
  for (const url of errors?.robotsBlocked ?? []) fail(url, { reason: "robots", error: "blocked by the site's robots.txt (the service did not scrape it)" });
  for (const url of invalidURLs) fail(url, { reason: "invalid", error: "not a valid URL: the service skipped it (invalidURLs)" });
  const out = new Outcomes<TDoc>();
  for (const { input, doc, failure } of slots) {
    const status = doc && errorStatus(doc);
    out.add(
      input,
      status !== undefined ? { failed: true, url: input, reason: "http", error: `the page answered HTTP ${status}`, statusCode: status, document: doc }
      : (doc ??
        (failure ? { ...failure, url: input } : { failed: true, url: input, reason: "missing", error: unread ? `no document, and the job's /errors could not be read (${unread})` : "no document and no error reported: the service returned neither for this URL (scrape it again)" })),
    );
  }
  return out;
}

/** True when some input has no document among `docs` (then `/errors` is read). */
function someMissing(inputs: readonly string[], docs: Iterable<Document>): boolean {
  const outcomes = outcomesOf(inputs, docs, undefined);
  return inputs.some((url) => outcomes.all(url).some((o) => isBatchFailure(o) && o.reason === "missing"));
}

/**
 * The outcomes of a finished batch: {@link outcomesOf}, reading the job's `/errors` only when an input
 * is left without a document. A failed `/errors` read (after the request layer's retries) does not fail
 * the batch, whose documents are in hand: those inputs are `missing`, their failure says why. An abort still throws.
 */
export async function readOutcomes<TDoc extends Document>(http: HttpClient, id: string, inputs: readonly string[], docs: readonly TDoc[], invalidURLs: readonly string[] | undefined, req: RequestOptions | undefined): Promise<BatchOutcomes<TDoc>> {
  if (!someMissing(inputs, docs)) return outcomesOf(inputs, docs, undefined, invalidURLs);
  try {
    return outcomesOf(inputs, docs, await getJobErrors(http, "batch", id, req), invalidURLs);
  } catch (err) {
    if (err instanceof AbortError || req?.signal?.aborted) throw err;
    http.log("warn", `webdata: batch ${id}: its /errors could not be read, so failed inputs are reported as missing: ${err instanceof Error ? err.message : String(err)}`);
    return outcomesOf(inputs, docs, undefined, invalidURLs, err instanceof Error ? err.message : String(err));
  }
}

/**
 * Wraps a batch's document iterator: with `urls`, it keeps each document yielded and, at its end, makes
 * `byUrl()` (reading `/errors` when an input has no document). Without `urls`, `byUrl()` is a `ValidationError`.
 */
export function recordOutcomes<TDoc extends Document>(http: HttpClient, id: string, urls: unknown, req: RequestOptions | undefined, inner: DocumentStream<TDoc>, resumed = false): BatchDocuments<TDoc> {
  let settle: { resolve: (m: BatchOutcomes<TDoc>) => void; reject: (e: unknown) => void } | undefined;
  const result = new Promise<BatchOutcomes<TDoc>>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined); // read only when `byUrl()` is called
  let inputs: readonly string[] | undefined;
  try {
    inputs = checkUrlsOption(urls);
    if (!inputs) throw new ValidationError([{ path: "urls", message: "byUrl() needs the batch's input URLs: pass them as the `urls` option of batchScrapeDocuments" }], "documents options");
    if (resumed) throw new ValidationError([{ path: "resumeFrom", message: "byUrl() needs every document of the batch: a stream resumed from a position has not seen those before it (iterate from the start, or read batchScrape()'s byUrl)" }], "documents options");
  } catch (err) {
    inputs = undefined; // no outcome map: keep no document and read no /errors
    settle?.reject(err);
  }
  const docs: TDoc[] = [];
  async function* recording(): AsyncGenerator<TDoc, void, undefined> {
    let ended = false;
    let failed = false;
    try {
      for await (const doc of inner) {
        if (inputs) docs.push(doc);
        yield doc;
      }
      ended = true;
    } catch (err) {
      failed = ended = true; // byUrl() rejects with the iteration's own error
      settle?.reject(err);
      throw err;
    } finally {
      // Stopped early (`break`): no outcome map. The id is not printed: it may be any value a caller passed.
      if (!ended) settle?.reject(new WebDataError("byUrl(): the iteration of the batch's documents stopped before the end, so not every input's outcome is known"));
      else if (inputs && !failed) readOutcomes(http, id, inputs, docs, undefined, req).then(settle?.resolve, settle?.reject);
    }
  }
  const gen = recording();
  // The stream's `position` is the inner stream's: it moves as each document is yielded through here.
  Object.defineProperty(gen, "position", { get: () => inner.position, enumerable: true });
  return Object.assign(gen as AsyncGenerator<TDoc, void, undefined> & { readonly position: string }, { byUrl: () => result });
}

/** The batch outcomes the `team` plugin gives a client (`http.state.outcomes`). */
export const OUTCOMES: BatchOutcomeReader = { read: readOutcomes, record: recordOutcomes };
