/**
 * The waiters: start a job, wait for it with the one poll loop, return the
 * finished job. Crawl and batch scrape share `waitForJob`; extract and agent
 * share `pollUntil` with {@link waitForExtractLike}.
 */
import { getAgentStatus, startAgent, type AgentOptions, type AgentStatus } from "../api/agent.js";
import { startBatchScrape, type BatchScrapeOptions } from "../api/batch.js";
import { startCrawl, type CrawlOptions } from "../api/crawl.js";
import type { Document } from "../api/document.js";
import { getExtractStatus, startExtract, type ExtractOptions, type ExtractStatus } from "../api/extract.js";
import { JobFailedError } from "../core/errors.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import type { JobStatus, WaitOptions } from "./types.js";
import { pollUntil, waitForJob } from "./wait.js";

/** Splits waiter options from the options sent to the server. */
function split<O extends WaitOptions>(opts: O): { wait: WaitOptions; rest: Omit<O, keyof WaitOptions> } {
  const { pollIntervalMs, timeoutMs, signal, ...rest } = opts;
  return { wait: { pollIntervalMs, timeoutMs, signal }, rest };
}

/** Starts a crawl and waits for it; returns the job with every document. */
export async function crawlAndWait(http: HttpClient, url: string, options: CrawlOptions & WaitOptions = {}, req?: RequestOptions): Promise<JobStatus<Document>> {
  const { wait, rest } = split(options);
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const { id } = await startCrawl(http, url, rest, { ...req, signal });
  return waitForJob(http, "crawl", id, { ...wait, signal, startedAt }, req);
}

/** Starts a batch scrape and waits for it; returns the job with every document. */
export async function batchScrapeAndWait(http: HttpClient, urls: string[], options: BatchScrapeOptions & WaitOptions = {}, req?: RequestOptions): Promise<JobStatus<Document> & { invalidURLs?: string[] }> {
  const { wait, rest } = split(options);
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const started = await startBatchScrape(http, urls, rest, { ...req, signal });
  const job = await waitForJob(http, "batch", started.id, { ...wait, signal, startedAt }, req);
  return started.invalidURLs ? { ...job, invalidURLs: started.invalidURLs } : job;
}

type ExtractLike = { id: string; status: string; error?: string | undefined };

/** Waits for an extract or agent job: `processing` until `completed`; `failed`/`cancelled` throw `JobFailedError`. */
export function waitForExtractLike<S extends ExtractLike>(id: string, read: (signal: AbortSignal) => Promise<S>, wait: WaitOptions, startedAt?: number): Promise<S> {
  return pollUntil<S>(
    {
      jobId: id,
      startedAt,
      poll: read,
      isDone: (s) => s.status === "completed" || s.status === "failed" || s.status === "cancelled",
      failure: (s) => (s.status === "completed" ? undefined : new JobFailedError(id, s.status, s.error)),
    },
    wait,
  );
}

/** Starts an extraction and waits for its result. */
export async function extractAndWait<T = unknown>(http: HttpClient, options: ExtractOptions & WaitOptions, req?: RequestOptions): Promise<ExtractStatus<T>> {
  const { wait, rest } = split(options);
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const { id } = await startExtract(http, rest, { ...req, signal });
  return waitForExtractLike(id, (s) => getExtractStatus<T>(http, id, { ...req, signal: s }), { ...wait, signal }, startedAt);
}

/** Starts an agent and waits for its result. */
export async function agentAndWait<T = unknown>(http: HttpClient, prompt: string, options: AgentOptions & WaitOptions = {}, req?: RequestOptions): Promise<AgentStatus<T>> {
  const { wait, rest } = split(options);
  const signal = wait.signal ?? req?.signal;
  const startedAt = Date.now();
  const { id } = await startAgent(http, prompt, rest, { ...req, signal });
  return waitForExtractLike(id, (s) => getAgentStatus<T>(http, id, { ...req, signal: s }), { ...wait, signal }, startedAt);
}
