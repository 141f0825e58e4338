/** {@link reconcileJob}: REST as the record, webhooks as a hint. */
import { requestedUrl, type Document } from "../api/document.js";
import type { JobError, JobErrors, JobKind, JobState, JobStatus } from "../jobs/types.js";
import { ValidationError } from "../core/errors.js";

export type { JobKind } from "../jobs/types.js";

/** The reads {@link reconcileJob} makes: a `WebData` client (any entry) has them all. */
export interface ReconcileClient {
  /** The crawl's status (`WebData.getCrawlStatus`). */
  getCrawlStatus(id: string): PromiseLike<JobStatus<Document>>;
  /** Every document of the crawl, through its pages (`WebData.crawlDocuments`). */
  crawlDocuments(id: string): AsyncIterable<Document>;
  /** The crawl's failed URLs (`WebData.getCrawlErrors`). */
  getCrawlErrors(id: string): PromiseLike<JobErrors>;
  /** The batch scrape's status (`WebData.getBatchScrapeStatus`). */
  getBatchScrapeStatus(id: string): PromiseLike<JobStatus<Document>>;
  /** Every document of the batch scrape (`WebData.batchScrapeDocuments`). */
  batchScrapeDocuments(id: string): AsyncIterable<Document>;
  /** The batch scrape's failed URLs (`WebData.getBatchScrapeErrors`). */
  getBatchScrapeErrors(id: string): PromiseLike<JobErrors>;
}

/** What the deliveries reported, as {@link reconcileJob} takes it (a receiver's `seen(jobId)` is one). */
export interface SeenPages {
  /** The URL (`metadata.sourceURL`) of every page delivered, scraped or failed. */
  pages: Iterable<string>;
  /** The other events delivered (`crawl.started`, `crawl.completed`, ...), if you kept them. */
  events?: Iterable<string> | undefined;
}

/** Options of {@link reconcileJob}. */
export interface ReconcileOptions {
  /** `crawl` or `batch` (a batch scrape). */
  kind: JobKind | undefined;
  /** What the deliveries reported. */
  seen: SeenPages;
}

/** What the deliveries of a job missed, read over REST. */
export interface Reconciliation {
  /** The job. */
  jobId: string;
  /** `crawl` or `batch`. */
  kind: JobKind;
  /** Its status on the service when read: while `scraping`, more pages may come (and their deliveries too). */
  status: JobState;
  /** Documents the job holds whose page no delivery reported: handle them as you would a `page` delivery. */
  missedDocuments: Document[];
  /** Failed pages (`/errors` entries) no delivery reported: the ones to retry, say. */
  missedFailures: JobError[];
  /** Events the job must have sent by now that no delivery reported: `<kind>.started`, and `<kind>.completed` once it completed. */
  missedEvents: string[];
  /** Pages the deliveries reported. */
  delivered: number;
}

/**
 * Reads a job over REST (its status, every document through the status pages, its `/errors`) with the client's
 * own reads, and returns what the deliveries missed: the documents and the failed pages whose URL no delivery
 * reported, and the events it must have sent that none reported (`started`; `completed` once it completed).
 * Compare by page URL: a scraped page's delivery carries the document (`metadata.sourceURL`), a failed one only
 * that URL, and `/errors` lists the same URL. A webhook receiver's `reconcile(client, jobId)` passes what its
 * store saw; call this one with a seen set of your own.
 *
 * @example
 * const missed = await reconcileJob(client, jobId, { kind: "crawl", seen: { pages: handledUrls } });
 * for (const doc of missed.missedDocuments) await save(doc);
 * await client.batchScrape(missed.missedFailures.map((f) => f.url)); // retry only the failed pages
 */
export async function reconcileJob(client: ReconcileClient, jobId: string, options: ReconcileOptions): Promise<Reconciliation> {
  const kind = options?.kind;
  if (kind !== "crawl" && kind !== "batch") {
    throw new ValidationError([{ path: "kind", message: `must be "crawl" or "batch" (no delivery of job ${jobId} named it), got ${JSON.stringify(kind) ?? typeof kind}` }], "reconcile options");
  }
  const crawl = kind === "crawl";
  const pages = new Set(options.seen.pages);
  const events = new Set(options.seen.events ?? []);
  const { status } = await (crawl ? client.getCrawlStatus(jobId) : client.getBatchScrapeStatus(jobId));
  const missedDocuments: Document[] = [];
  for await (const doc of crawl ? client.crawlDocuments(jobId) : client.batchScrapeDocuments(jobId)) {
    const url = requestedUrl(doc);
    if (url === undefined || !pages.has(url)) missedDocuments.push(doc);
  }
  const { errors } = await (crawl ? client.getCrawlErrors(jobId) : client.getBatchScrapeErrors(jobId));
  const missedFailures = errors.filter((e) => !pages.has(e.url));
  const prefix = crawl ? "crawl" : "batch_scrape";
  const expected = [`${prefix}.started`, ...(status === "completed" ? [`${prefix}.completed`] : [])];
  return { jobId, kind, status, missedDocuments, missedFailures, missedEvents: expected.filter((e) => !events.has(e)), delivered: pages.size };
}
