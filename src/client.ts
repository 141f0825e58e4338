/**
 * `WebData`: configuration plus one thin method per operation. Each method
 * validates its input in `api/*` and sends through the one request function.
 */
import { agentSignup, type AgentSignupParams, type AgentSignupRecord } from "./api/agent-signup.js";
import { crawlParamsPreview, type CrawlParamsPreview } from "./api/crawl-preview.js";
import type { Document } from "./api/document.js";
import { map, type MapOptions, type MapResult } from "./api/map.js";
import { interact, stopInteraction, type InteractOptions, type InteractResult, type StopInteractionResult } from "./api/interact.js";
import { feedback, searchFeedback, type FeedbackOptions, type FeedbackResult, type SearchFeedbackOptions } from "./api/feedback.js";
import { parse, type ParseFile, type ParseOptions } from "./api/parse.js";
import * as monitors from "./api/monitor.js";
import type { CreateMonitorRequest, ListMonitorChecksOptions, ListMonitorsOptions, Monitor, MonitorCheck, MonitorCheckDetail, MonitorCheckPageOptions, UpdateMonitorRequest } from "./api/monitor.js";
import { getAgentSnapshot, getAgentTrace, listAgents, type AgentListOptions, type AgentRunList, type AgentSnapshot, type AgentTrace } from "./api/agent-runs.js";
import { cancelAgent, getAgentStatus, startAgent, type AgentOptions, type AgentStartResult, type AgentStatus } from "./api/agent.js";
import { startBatchScrape, type BatchScrapeOptions, type BatchScrapeStartResult } from "./api/batch.js";
import { getActiveCrawls, startCrawl, type ActiveCrawls, type CrawlDocument, type CrawlOptions, type CrawlStartResult } from "./api/crawl.js";
import { getExtractStatus, startExtract, type ExtractOptions, type ExtractStartResult, type ExtractStatus } from "./api/extract.js";
import { cancelJob, getJobErrors, getJobStatus } from "./jobs/status.js";
import type { JobDocumentsOptions, JobErrors, JobPageOptions, JobStatus, JobWaitOptions, WaitOptions } from "./jobs/types.js";
import { createWatcher, type Watcher } from "./jobs/watcher.js";
import type { WatcherOptions } from "./jobs/watch-types.js";
import { scrape, type ScrapeParams, type ScrapeResult } from "./api/scrape.js";
import type { SchemaResult } from "./api/schema.js";
import { browser, browserExecute, deleteBrowser, listBrowsers, type BrowserExecuteOptions, type BrowserExecuteResult, type BrowserOptions, type BrowserSession, type BrowserSessionInfo } from "./api/browser.js";
import { search, type SearchOptions, type SearchResult } from "./api/search.js";
import {
  getConcurrency,
  getCreditUsage,
  getCreditUsageHistorical,
  getQueueStatus,
  getTokenUsage,
  getTokenUsageHistorical,
  type Concurrency,
  type CreditUsage,
  type CreditUsagePeriod,
  type HistoricalUsageOptions,
  type QueueStatus,
  type TokenUsage,
  type TokenUsagePeriod,
} from "./api/usage.js";
import { resolveConfig, type ClientOptions } from "./core/config.js";
import { HttpClient, type APIPromise, type RequestOptions } from "./core/request.js";
import { PLUGIN_OPTIONS, pluginMissing, type ClientPlugin, type CreditMeter } from "./core/client-state.js";
import { ValidationError } from "./core/errors.js";
import { selectTransport } from "./core/transport.js";
import { isPlainObject } from "./core/options.js";
import { jobDocuments, type DocumentStream } from "./jobs/pages.js";
import { outcomeReader, withoutOutcomes, type BatchDocuments, type BatchDocumentsOptions, type BatchOutcomes } from "./jobs/batch-outcomes.js";
import { agentAndWait, batchScrapeAndWait, crawlAndWait, extractAndWait, type ValidateOption } from "./jobs/waiters.js";
import type { V1Client } from "./v1/client.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** A provisioned agent key, plus a helper that builds a client using it. */
export interface AgentSignupResult extends AgentSignupRecord {
  /** A new client with the same options but the provisioned key. Not enumerable (not in JSON). */
  createClient(options?: ClientOptions): WebData;
}

/** The client's plugins, checked: a list of plugins, and every plugin option given has its plugin (else a `ValidationError`, before anything is made). */
function checkPlugins(opts: ClientOptions): readonly ClientPlugin[] {
  const given = opts.plugins ?? [];
  if (!Array.isArray(given) || given.some((p) => typeof (p as Partial<ClientPlugin> | null)?.install !== "function")) {
    throw new ValidationError([{ path: "plugins", message: 'must be a list of plugins, such as [team] of "webdata/team"' }], "client options");
  }
  const names = new Set(given.map((p: ClientPlugin) => p.name));
  for (const [option, plugin] of Object.entries(PLUGIN_OPTIONS)) {
    if ((opts as Record<string, unknown>)[option] !== undefined && !names.has(plugin)) throw pluginMissing(plugin, option, "client options");
  }
  return given;
}

/** The client for the web data API. */
export class WebData {
  readonly #http: HttpClient;
  readonly #options: ClientOptions;
  #v1: V1Client | undefined;

  /**
   * @param options Key, URL, timeouts, retries, logging; each falls back to the
   * environment (`WEBDATA_API_KEY`, `WEBDATA_API_URL`, `WEBDATA_LOG`) and then defaults.
   * Throws when the public deployment is used without a key. A string is the key.
   */
  constructor(options: ClientOptions | string = {}) {
    const opts = typeof options === "string" ? { apiKey: options } : options;
    const config = resolveConfig(opts);
    this.#options = opts;
    const plugins = checkPlugins(opts);
    this.#http = new HttpClient(config, selectTransport(opts));
    for (const plugin of plugins) plugin.install(this.#http);
  }

  /** @internal The shared request layer (for `jobs/` and `v1/`). */
  get http(): HttpClient {
    return this.#http;
  }

  /**
   * The credits this client spent, as the server reported them: `total`, `byOperation`, `byJob`,
   * `snapshot()`, `reset()` (`CreditMeter`). Its `v1` face and a `webdata/firecrawl` drop-in over it count
   * on the same meter; another client has its own. A client `budget` is counted against it.
   */
  get credits(): CreditMeter {
    const governance = this.#http.state.governance;
    if (!governance) throw pluginMissing("team", "credits", "client options", "client.credits");
    return governance.credits;
  }

  /** The base URL in use. */
  get apiUrl(): string {
    return this.#http.apiUrl;
  }

  /** The legacy v1 methods (`mapUrl`, `scrapeUrl`, ...), over the same transport. Needs the `v1` plugin: `import { v1 } from "webdata/v1"`, `new WebData({ plugins: [v1] })`. */
  get v1(): V1Client {
    const make = this.#http.state.v1Face;
    if (!make) throw pluginMissing("v1", "v1", "client options", "client.v1");
    return (this.#v1 ??= make() as V1Client);
  }

  /**
   * Scrapes one page: `POST /v2/scrape`. With `formats: [{ type: "json", schema }]`
   * the result's `json` is typed from the schema (zod 3/4, Standard Schema, or `unknown` for plain JSON Schema).
   */
  scrape<O extends ScrapeParams = ScrapeParams>(url: string, options?: O, requestOptions?: RequestOptions): APIPromise<ScrapeResult<O>> {
    return scrape(this.#http, url, options, requestOptions);
  }

  /** Lists a site's URLs: `POST /v2/map`. */
  map(url: string, options?: MapOptions, requestOptions?: RequestOptions): APIPromise<MapResult> {
    return map(this.#http, url, options, requestOptions);
  }

  /** Shows the crawl options the service derives from a prompt: `POST /v2/crawl/params-preview`. */
  crawlParamsPreview(url: string, prompt: string, requestOptions?: RequestOptions): APIPromise<CrawlParamsPreview> {
    return crawlParamsPreview(this.#http, url, prompt, requestOptions);
  }

  /** Starts a crawl: `POST /v2/crawl` (with an `x-idempotency-key`, reused across retries, when given or when the `idempotencyKeys` option is on). */
  startCrawl(url: string, options?: CrawlOptions, requestOptions?: RequestOptions): APIPromise<CrawlStartResult> {
    return startCrawl(this.#http, url, options, requestOptions);
  }

  /**
   * One page of a crawl's status and documents: `GET /v2/crawl/<id>?skip=&limit=`. Never paginates.
   * It gets only an id, so it cannot see the start's schema: `json` is `T` as named by the caller
   * (default `unknown`), unchecked, and `validate: true` does not apply here.
   */
  getCrawlStatus<T = unknown>(id: string, page?: JobPageOptions, requestOptions?: RequestOptions): APIPromise<JobStatus<Document<T>>> {
    return getJobStatus<Document<T>>(this.#http, "crawl", id, page, requestOptions);
  }

  /**
   * Every document of a crawl, following `next` until the crawl has ended and no page remains.
   * `json` is typed from `options.schema` (each document parsed with it as it is yielded), or named: `crawlDocuments<MyType>(id)` (unchecked).
   * The stream's `position`, persisted after each document, resumes it: `crawlDocuments(id, { resumeFrom: position })`.
   */
  crawlDocuments<T = unknown>(id: string, options?: JobDocumentsOptions<T>, requestOptions?: RequestOptions): DocumentStream<Document<T>> {
    return jobDocuments<Document<T>>(this.#http, "crawl", id, options, requestOptions);
  }

  /** Failed and robots-blocked pages of a crawl: `GET /v2/crawl/<id>/errors`. */
  getCrawlErrors(id: string, requestOptions?: RequestOptions): APIPromise<JobErrors> {
    return getJobErrors(this.#http, "crawl", id, requestOptions);
  }

  /** Cancels a crawl: `DELETE /v2/crawl/<id>` (409 `ConflictError` once it has finished). */
  cancelCrawl(id: string, requestOptions?: RequestOptions): APIPromise<boolean> {
    return cancelJob(this.#http, "crawl", id, requestOptions);
  }

  /** The team's running crawls: `GET /v2/crawl/active`. */
  getActiveCrawls(requestOptions?: RequestOptions): APIPromise<ActiveCrawls> {
    return getActiveCrawls(this.#http, requestOptions);
  }

  /**
   * Crawls a site and waits for the end: every document, or `JobFailedError` / `JobTimeoutError`.
   * `json` is typed from the json format's schema in `scrapeOptions.formats`; with `validate: true`
   * every document is parsed with it (`ResultValidationError`).
   */
  crawl<O extends CrawlOptions & JobWaitOptions = CrawlOptions & JobWaitOptions>(url: string, options?: O, requestOptions?: RequestOptions): Promise<JobStatus<CrawlDocument<O>>> {
    return crawlAndWait<O>(this.#http, url, options, requestOptions);
  }

  /** Starts a batch scrape: `POST /v2/batch/scrape` (retried only when nothing can have been created). */
  startBatchScrape(urls: string[], options?: BatchScrapeOptions, requestOptions?: RequestOptions): APIPromise<BatchScrapeStartResult> {
    return startBatchScrape(this.#http, urls, options, requestOptions);
  }

  /**
   * One page of a batch scrape's status: `GET /v2/batch/scrape/<id>?skip=&limit=`. Never paginates.
   * As with `getCrawlStatus`, `json` is the caller's `T` (default `unknown`), unchecked.
   */
  getBatchScrapeStatus<T = unknown>(id: string, page?: JobPageOptions, requestOptions?: RequestOptions): APIPromise<JobStatus<Document<T>>> {
    return getJobStatus<Document<T>>(this.#http, "batch", id, page, requestOptions);
  }

  /**
   * Every document of a batch scrape, following `next`; `json` typed (and parsed), `position` and `resumeFrom` as in
   * `crawlDocuments`. With `urls` (the batch's inputs), `byUrl()` on the iterator resolves, after the last document,
   * to each input's document or `BatchFailure` (a stream resumed with `resumeFrom` has not seen every document: its
   * `byUrl()` rejects with a `ValidationError`).
   */
  batchScrapeDocuments<T = unknown>(id: string, options?: BatchDocumentsOptions<T>, requestOptions?: RequestOptions): BatchDocuments<Document<T>> {
    const given = options !== null && typeof options === "object" ? (options as { urls?: unknown; resumeFrom?: unknown }) : undefined;
    const stream = jobDocuments<Document<T>>(this.#http, "batch", id, options, requestOptions);
    const outcomes = outcomeReader(this.#http);
    return outcomes ? outcomes.record(this.#http, id, given?.urls, requestOptions, stream, given?.resumeFrom !== undefined) : withoutOutcomes(stream);
  }

  /** Failed pages of a batch scrape: `GET /v2/batch/scrape/<id>/errors`. */
  getBatchScrapeErrors(id: string, requestOptions?: RequestOptions): APIPromise<JobErrors> {
    return getJobErrors(this.#http, "batch", id, requestOptions);
  }

  /** Cancels a batch scrape: `DELETE /v2/batch/scrape/<id>`. */
  cancelBatchScrape(id: string, requestOptions?: RequestOptions): APIPromise<boolean> {
    return cancelJob(this.#http, "batch", id, requestOptions);
  }

  /**
   * Scrapes many URLs and waits for the end: every document (plus `invalidURLs`). `json` is typed
   * from the json format's schema in `formats`; with `validate: true` every document is parsed with it.
   */
  batchScrape<O extends BatchScrapeOptions & JobWaitOptions = BatchScrapeOptions & JobWaitOptions>(urls: string[], options?: O, requestOptions?: RequestOptions): Promise<JobStatus<ScrapeResult<O>> & { invalidURLs?: string[]; readonly byUrl: BatchOutcomes<ScrapeResult<O>> }> {
    return batchScrapeAndWait<O>(this.#http, urls, options, requestOptions);
  }

  /**
   * Live events of a crawl or batch scrape (`kind: "batch"`): `document`, `status`,
   * `error` and a REST-confirmed `done`, over the WebSocket, server-sent events (with
   * `webdata/sse`'s plugin, for a server that offers them) or polling. Iterate it with `for await`, or use `on(type, listener)`; `break` or
   * `close()` stops it. Never delivers a document twice. With a custom `fetch`
   * (a mock, the in-process fake) the runtime's WebSocket is not used unless
   * `webSocket` or `transports` says so: a socket cannot go through that `fetch`.
   * `requestOptions` (headers, `timeoutMs`, `maxRetries`) apply to its REST reads
   * and the event-stream request; stop it with `options.signal` or `close()`.
   */
  watcher(jobId: string, options?: WatcherOptions, requestOptions?: RequestOptions): Watcher {
    const plain = options === undefined || isPlainObject(options);
    const viaFetch = plain && this.#options.fetch !== undefined && !options?.webSocket && !options?.transports;
    const opts = viaFetch ? { ...options, transports: (this.#http.state.sse ? ["sse", "poll"] : ["poll"]) as ("sse" | "poll")[] } : options;
    return createWatcher(this.#http, jobId, opts, { requestOptions });
  }

  /** Starts an extraction: `POST /v2/extract`. */
  startExtract(options: ExtractOptions, requestOptions?: RequestOptions): APIPromise<ExtractStartResult> {
    return startExtract(this.#http, options, requestOptions);
  }

  /** An extraction's status: `GET /v2/extract/<id>` (a failed job is returned, not thrown). */
  getExtractStatus<T = unknown>(id: string, requestOptions?: RequestOptions): APIPromise<ExtractStatus<T>> {
    return getExtractStatus<T>(this.#http, id, requestOptions);
  }

  /**
   * Extracts and waits for the result (`JobFailedError` / `JobTimeoutError`). `data` is typed from
   * `schema` (zod 3/4, Standard Schema) unless a type is named: `extract<MyType>(...)`; `validate: true` parses it with `schema`.
   */
  extract<T = never, O extends ExtractOptions & WaitOptions & ValidateOption = ExtractOptions & WaitOptions & ValidateOption>(options: O, requestOptions?: RequestOptions): Promise<ExtractStatus<SchemaResult<T, O["schema"]>>> {
    return extractAndWait<SchemaResult<T, O["schema"]>>(this.#http, options, requestOptions);
  }

  /** Starts an agent: `POST /v2/agent`. */
  startAgent(prompt: string, options?: AgentOptions, requestOptions?: RequestOptions): APIPromise<AgentStartResult> {
    return startAgent(this.#http, prompt, options, requestOptions);
  }

  /** An agent's status: `GET /v2/agent/<id>`. */
  getAgentStatus<T = unknown>(id: string, requestOptions?: RequestOptions): APIPromise<AgentStatus<T>> {
    return getAgentStatus<T>(this.#http, id, requestOptions);
  }

  /** Cancels an agent: `DELETE /v2/agent/<id>` (409 `ConflictError` once finished). */
  cancelAgent(id: string, requestOptions?: RequestOptions): APIPromise<boolean> {
    return cancelAgent(this.#http, id, requestOptions);
  }

  /**
   * Runs an agent and waits for its result (`JobFailedError` / `JobTimeoutError`). `data` is typed from
   * `schema` (zod 3/4, Standard Schema) unless a type is named: `agent<MyType>(...)`; `validate: true` parses it with `schema`.
   */
  agent<T = never, O extends AgentOptions & WaitOptions & ValidateOption = AgentOptions & WaitOptions & ValidateOption>(prompt: string, options?: O, requestOptions?: RequestOptions): Promise<AgentStatus<SchemaResult<T, O["schema"]>>> {
    return agentAndWait<SchemaResult<T, O["schema"]>>(this.#http, prompt, options, requestOptions);
  }

  /** Remaining tokens of the team (camelCase): `GET /v2/team/token-usage`. */
  getTokenUsage(requestOptions?: RequestOptions): APIPromise<TokenUsage> {
    return getTokenUsage(this.#http, requestOptions);
  }

  /** Remaining credits of the team (camelCase): `GET /v2/team/credit-usage`. */
  getCreditUsage(requestOptions?: RequestOptions): APIPromise<CreditUsage> {
    return getCreditUsage(this.#http, requestOptions);
  }

  /** Credits spent per billing period (per key with `byApiKey`): `GET /v2/team/credit-usage/historical`. */
  getCreditUsageHistorical(options?: HistoricalUsageOptions, requestOptions?: RequestOptions): APIPromise<CreditUsagePeriod[]> {
    return getCreditUsageHistorical(this.#http, options, requestOptions);
  }

  /** Tokens spent per billing period (per key with `byApiKey`): `GET /v2/team/token-usage/historical`. */
  getTokenUsageHistorical(options?: HistoricalUsageOptions, requestOptions?: RequestOptions): APIPromise<TokenUsagePeriod[]> {
    return getTokenUsageHistorical(this.#http, options, requestOptions);
  }

  /** Queue metrics of the team: `GET /v2/team/queue-status`. */
  getQueueStatus(requestOptions?: RequestOptions): APIPromise<QueueStatus> {
    return getQueueStatus(this.#http, requestOptions);
  }

  /** Current and maximum concurrency: `GET /v2/concurrency-check`. */
  getConcurrency(requestOptions?: RequestOptions): APIPromise<Concurrency> {
    return getConcurrency(this.#http, requestOptions);
  }

  /**
   * Searches the web, news and images, optionally scraping each result: `POST /v2/search`.
   * With `scrapeOptions.formats`, items carry the document fields (`json` typed from a json format's schema).
   */
  search<O extends SearchOptions = SearchOptions>(query: string, options?: O, requestOptions?: RequestOptions): APIPromise<SearchResult<O>> {
    return search(this.#http, query, options, requestOptions);
  }

  /** Creates a browser session: `POST /v2/browser` (TTLs in seconds, as the wire has them). */
  browser(options?: BrowserOptions, requestOptions?: RequestOptions): APIPromise<BrowserSession> {
    return browser(this.#http, options, requestOptions);
  }

  /** Lists browser sessions: `GET /v2/browser?status=`. */
  listBrowsers(options?: { status?: "active" | "destroyed" }, requestOptions?: RequestOptions): APIPromise<BrowserSessionInfo[]> {
    return listBrowsers(this.#http, options, requestOptions);
  }

  /**
   * Runs code in a browser session: `POST /v2/browser/<id>/execute`. A non-zero exit code is a
   * result (`exitCode`, `error`); a destroyed session throws `GoneError` (410).
   */
  browserExecute(id: string, options: BrowserExecuteOptions, requestOptions?: RequestOptions): APIPromise<BrowserExecuteResult> {
    return browserExecute(this.#http, id, options, requestOptions);
  }

  /** Destroys a browser session: `DELETE /v2/browser/<id>`. */
  deleteBrowser(id: string, requestOptions?: RequestOptions): APIPromise<{ sessionDurationMs?: number; creditsBilled?: number }> {
    return deleteBrowser(this.#http, id, requestOptions);
  }

  /**
   * Runs code or a prompt in the browser that scraped a page (`jobId`: the scrape's `metadata.scrapeId`):
   * `POST /v2/scrape/<id>/interact` (added by the service after the reference's baseline). Not retried once it may have run.
   */
  interact(jobId: string, options: InteractOptions, requestOptions?: RequestOptions): APIPromise<InteractResult> {
    return interact(this.#http, jobId, options, requestOptions);
  }

  /** Ends a scraped page's browser session: `DELETE /v2/scrape/<id>/interact`. */
  stopInteraction(jobId: string, requestOptions?: RequestOptions): APIPromise<StopInteractionResult> {
    return stopInteraction(this.#http, jobId, requestOptions);
  }

  /** The team's agent runs, newest first, 20 per page (`before`: ms since the epoch, from `next`): `GET /v2/agent` (added after the baseline). */
  listAgents(options?: AgentListOptions, requestOptions?: RequestOptions): APIPromise<AgentRunList> {
    return listAgents(this.#http, options, requestOptions);
  }

  /** An agent run's trace of events (`liveView: true` adds the running browser sessions): `GET /v2/agent/<id>/trace`. */
  getAgentTrace(id: string, options?: { liveView?: boolean }, requestOptions?: RequestOptions): APIPromise<AgentTrace> {
    return getAgentTrace(this.#http, id, options, requestOptions);
  }

  /** The full content of an artifact named by a trace's `artifact.updated` event: `GET /v2/agent/<id>/snapshots/<snapshotId>`. */
  getAgentSnapshot(id: string, snapshotId: string, requestOptions?: RequestOptions): APIPromise<AgentSnapshot> {
    return getAgentSnapshot(this.#http, id, snapshotId, requestOptions);
  }

  /** Rates a search's results (`searchId`: the search's `id`): `POST /v2/search/<id>/feedback` (added after the baseline). */
  searchFeedback(searchId: string, options: SearchFeedbackOptions, requestOptions?: RequestOptions): APIPromise<FeedbackResult> {
    return searchFeedback(this.#http, searchId, options, requestOptions);
  }

  /** Rates a job of `search`, `scrape`, `parse` or `map` (`endpoint`, `jobId`, `rating` and a signal: `issues`, `note`, ...): `POST /v2/feedback` (added after the baseline). */
  feedback(options: FeedbackOptions, requestOptions?: RequestOptions): APIPromise<FeedbackResult> {
    return feedback(this.#http, options, requestOptions);
  }

  /**
   * Parses an uploaded file (HTML, PDF, Word, Excel, PowerPoint, EPUB, CSV; at most 50 MB, checked before sending) into a
   * document: `POST /v2/parse`, sent as `multipart/form-data` (added after the baseline). `options` are scrape options, less
   * those a file cannot have (`actions`, `waitFor`, `mobile`, `location`, the screenshot, branding and changeTracking formats).
   */
  parse<O extends ParseOptions = ParseOptions>(file: ParseFile, options?: O, requestOptions?: RequestOptions): APIPromise<ScrapeResult<O>> {
    return parse(this.#http, file, options, requestOptions);
  }

  /** Creates a page monitor (`name`, `schedule` as `cron` or `text`, `targets`): `POST /v2/monitor` (added after the baseline). Not retried once it may have acted. */
  createMonitor(request: CreateMonitorRequest, requestOptions?: RequestOptions): APIPromise<Monitor> {
    return monitors.createMonitor(this.#http, request, requestOptions);
  }

  /** The team's monitors (`limit` 1-100, default 25; `offset`): `GET /v2/monitor`. */
  listMonitors(options?: ListMonitorsOptions, requestOptions?: RequestOptions): APIPromise<Monitor[]> {
    return monitors.listMonitors(this.#http, options, requestOptions);
  }

  /** A monitor: `GET /v2/monitor/<id>` (`NotFoundError` when there is none). */
  getMonitor(id: string, requestOptions?: RequestOptions): APIPromise<Monitor> {
    return monitors.getMonitor(this.#http, id, requestOptions);
  }

  /** Changes a monitor (the fields given; `status: "paused"` pauses it): `PATCH /v2/monitor/<id>`. */
  updateMonitor(id: string, request: UpdateMonitorRequest, requestOptions?: RequestOptions): APIPromise<Monitor> {
    return monitors.updateMonitor(this.#http, id, request, requestOptions);
  }

  /** Deletes a monitor: `DELETE /v2/monitor/<id>`. */
  deleteMonitor(id: string, requestOptions?: RequestOptions): APIPromise<boolean> {
    return monitors.deleteMonitor(this.#http, id, requestOptions);
  }

  /** Runs a monitor now; the check it started: `POST /v2/monitor/<id>/run` (409 `ConflictError` when paused or already running). */
  runMonitor(id: string, requestOptions?: RequestOptions): APIPromise<MonitorCheck> {
    return monitors.runMonitor(this.#http, id, requestOptions);
  }

  /** A monitor's checks, newest first (`limit`, `offset`, `status`): `GET /v2/monitor/<id>/checks`. */
  listMonitorChecks(id: string, options?: ListMonitorChecksOptions, requestOptions?: RequestOptions): APIPromise<MonitorCheck[]> {
    return monitors.listMonitorChecks(this.#http, id, options, requestOptions);
  }

  /** A check with one page of its pages and their diffs (`limit`, `skip`, `status`; `next` names the following page): `GET /v2/monitor/<id>/checks/<checkId>`. Never paginates. */
  getMonitorCheck(id: string, checkId: string, options?: MonitorCheckPageOptions, requestOptions?: RequestOptions): APIPromise<MonitorCheckDetail> {
    return monitors.getMonitorCheck(this.#http, id, checkId, options, requestOptions);
  }

  /**
   * Provisions a sandboxed key for an agent: `POST /v2/agent-signup`, sent
   * without `Authorization`. Fails with a `SignupError` whose `reason` is `invalid`,
   * `blocked`, `expired` or `pending`.
   */
  agentSignup(params: AgentSignupParams, requestOptions?: RequestOptions): APIPromise<AgentSignupResult> {
    return agentSignup(this.#http, params, requestOptions).map((record) => {
      const ctor = this.constructor as new (o: ClientOptions) => WebData;
      const base = this.#options;
      return Object.defineProperty({ ...record }, "createClient", {
        value: (options: ClientOptions = {}) => new ctor({ ...base, ...options, apiKey: record.api_key }),
        enumerable: false,
      }) as AgentSignupResult;
    });
  }

  /** The key never appears in `util.inspect` output. */
  [INSPECT](): string {
    return `WebData { apiUrl: '${this.apiUrl}' }`;
  }

  /** The key never appears in JSON. */
  toJSON(): Record<string, unknown> {
    return { apiUrl: this.apiUrl };
  }
}
