/**
 * The seam of batch outcomes in the root: their types (`byUrl` of `batchScrape()`, `byUrl()` of
 * `batchScrapeDocuments(id, { urls })`) and where the client finds them. Matching documents and failures to the inputs
 * is `webdata/team`'s (`team/outcomes.ts`), given to the client by its `team` plugin; without it `byUrl` is a
 * `ValidationError` that names the import.
 */
import { pluginMissing } from "../core/client-state.js";
import type { Document } from "../api/document.js";
import { ValidationError } from "../core/errors.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import type { DocumentStream } from "./pages.js";
import type { JobDocumentsOptions, JobError } from "./types.js";

/** Why a batch input has no document: the server's error, robots.txt, an invalid URL, nothing reported, or a page that answered an HTTP error. */
export type BatchFailureReason = "error" | "robots" | "invalid" | "missing" | "http";

/** A batch-scrape input that has no document (a value of `byUrl`; a `Document` never has `failed`). */
export interface BatchFailure {
  /** Always `true`: tells a failure from a document (`"failed" in outcome`). */
  failed: true;
  /** The input URL, as given. */
  url: string;
  /** Where the failure comes from: the job's `/errors` (`error`), its `robotsBlocked` (`robots`), the start's `invalidURLs` (`invalid`), nowhere (`missing`), or the page's own HTTP status (`http`: a 404 page). */
  reason: BatchFailureReason;
  /** The server's error text, or what the reason means ("no document and no error reported", ...). */
  error: string;
  /** The server's error code (e.g. `SCRAPE_ALL_ENGINES_FAILED`), when it sent one. */
  code?: string | undefined;
  /** The server's `/errors` entry (scrape id, timestamp), for `reason: "error"`. */
  entry?: JobError | undefined;
  /** The page's HTTP status, for `reason: "http"`. */
  statusCode?: number | undefined;
  /** The document the service returned for the error page (its content: a 404 page's text), for `reason: "http"`. */
  document?: Document | undefined;
}

/**
 * `byUrl`: each input URL, as given, to its outcome (a `Map`: `get(url)`, the first occurrence's), and
 * {@link BatchOutcomes.all} for a URL given more than once.
 */
export interface BatchOutcomes<TDoc> extends Map<string, TDoc | BatchFailure> {
  /** Every occurrence's outcome of `url` in input order (one for a URL given once; none for a URL not given). */
  all(url: string): (TDoc | BatchFailure)[];
}

/** Options of `batchScrapeDocuments`: those of every documents iterator, and the batch's inputs for `byUrl()`. */
export interface BatchDocumentsOptions<T = unknown> extends JobDocumentsOptions<T> {
  /** The batch's input URLs, as given to the start: the iterator keeps each document, and `byUrl()` maps every input to its outcome (not sent). */
  urls?: readonly string[] | undefined;
}

/** `batchScrapeDocuments`' iterator: every document, then `byUrl()`, each input's outcome. */
export interface BatchDocuments<TDoc> extends DocumentStream<TDoc> {
  /**
   * Each input URL (the `urls` option, as given) to its document or its {@link BatchFailure}, once the
   * iteration has ended (it resolves then; it rejects when the iteration failed or was stopped early).
   * Holds the documents yielded, so it needs `urls` (without it, a `ValidationError`).
   */
  byUrl(): Promise<BatchOutcomes<TDoc>>;
}

/** Checks the `urls` option of `batchScrapeDocuments` (an array of strings, or absent). */
export function checkUrlsOption(urls: unknown): readonly string[] | undefined {
  if (urls === undefined) return undefined;
  if (!Array.isArray(urls) || urls.some((u) => typeof u !== "string")) {
    throw new ValidationError([{ path: "urls", message: "must be the batch's input URLs (an array of strings)" }], "documents options");
  }
  return urls as string[];
}

/** What the `team` plugin gives the client for batch outcomes (`http.state.outcomes`). */
export interface BatchOutcomeReader {
  /** The outcomes of a finished batch, reading its `/errors` only when an input is left without a document. */
  read<TDoc extends Document>(http: HttpClient, id: string, inputs: readonly string[], docs: readonly TDoc[], invalidURLs: readonly string[] | undefined, req: RequestOptions | undefined): Promise<BatchOutcomes<TDoc>>;
  /** A batch's document iterator that keeps what it yields and makes `byUrl()` at its end. */
  record<TDoc extends Document>(http: HttpClient, id: string, urls: unknown, req: RequestOptions | undefined, inner: DocumentStream<TDoc>, resumed: boolean): BatchDocuments<TDoc>;
}

/** The client's batch outcomes (its `team` plugin's), or undefined. */
export function outcomeReader(http: HttpClient): BatchOutcomeReader | undefined {
  return http.state.outcomes as BatchOutcomeReader | undefined;
}

/** The `ValidationError` of `byUrl` on a client without the `team` plugin. */
export function outcomesNeedTeam(): ValidationError {
  return pluginMissing("team", "byUrl", "batch outcomes");
}

/** A batch's result with `byUrl` added, not enumerable: the outcomes, or (without the `team` plugin) a getter that throws {@link outcomesNeedTeam}. */
export function withByUrl<R extends object, TDoc>(result: R, byUrl: BatchOutcomes<TDoc> | undefined): R & { readonly byUrl: BatchOutcomes<TDoc> } {
  const field = byUrl ? { value: byUrl } : { get: () => { throw outcomesNeedTeam(); } };
  return Object.defineProperty(result, "byUrl", { ...field, enumerable: false }) as R & { readonly byUrl: BatchOutcomes<TDoc> };
}

/** `batchScrapeDocuments`' iterator on a client without the `team` plugin: every document; `byUrl()` rejects with {@link outcomesNeedTeam}. */
export function withoutOutcomes<TDoc>(inner: DocumentStream<TDoc>): BatchDocuments<TDoc> {
  return Object.assign(inner, { byUrl: () => Promise.reject(outcomesNeedTeam()) }) as BatchDocuments<TDoc>;
}
