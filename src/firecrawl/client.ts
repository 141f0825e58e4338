/**
 * The drop-in class for code written for the service's official client
 * (`@mendable/firecrawl-js` 4.x): `Firecrawl`, with the official method names,
 * argument shapes and semantics where they differ from `WebData`'s (each
 * method's JSDoc says how: pagination, waiters in seconds, the watcher, aliases).
 *
 * Everything goes through one `WebData` client (the same pipeline, retries,
 * timeouts and typed errors); nothing is a copy. Where the official behaviour is
 * a defect, this class does not repeat it (see MIGRATION.md): pagination is
 * abortable and stops at a `next` that loops, every call takes `RequestOptions`
 * (an `AbortSignal`, per-call timeouts), retries follow `Retry-After`.
 */
import type { CreditMeter } from "../core/client-state.js";
import type { Document } from "../api/document.js";
import type { ClientOptions } from "../core/config.js";
import { JobFailedError, JobTimeoutError, PaginationError, ValidationError, WebDataError } from "../core/errors.js";
import type { MonitorCheckDetail, MonitorCheckPage, MonitorCheckPageOptions } from "../api/monitor.js";
import type { AgentThreadResponse, AlexandriaScrapeData, AlexandriaScrapeRequest, DeveloperSearchOptions, DeveloperSearchResponse, FindToolsData, FindToolsOptions, ResearchClient } from "./later-types.js";
import { agentThread, alexandriaScrape, developerSearch, findTools, researchClient } from "./passthrough.js";
import { checkRequestOptions, isPlainObject, type Checked } from "../core/options.js";
import { APIPromise, type RequestOptions } from "../core/request.js";
import { check } from "../core/validate.js";
import { WebData } from "../client.js";
import { firstSeen, walkPages } from "../jobs/pages.js";
import type { JobKind, JobStatus, JobWaitOptions } from "../jobs/types.js";
import * as z from "zod/v4/mini";
import { dropInClient, FirecrawlAppV1 } from "./v1.js";
import { V1Client } from "../v1/client.js";
import { takeZod3Schemas } from "./zod3.js";
import { FirecrawlWatcher, type FirecrawlWatcherOptions } from "./watcher.js";
import { officialCrawlOptions } from "./crawl-options.js";
import { emptyUrl, officialRefusal, runOfficially, set } from "./official-errors.js";
import { agentArgs, flattenBatchOptions, historicalOptions, listWithAlias, withSuccess } from "./official-shapes.js";
import { dropInMethods, OPERATION_LIST } from "../api/operations.js";
import type { AgentRequest, AgentOptions } from "../api/agent.js";
import type { HistoricalUsageOptions } from "../api/usage.js";
import type {
  ActiveCrawlsResponse, AgentListResponse, BatchScrapeOptions, CrawlOptions, AgentResponse, AgentSnapshotResponse, AgentStatusResponse, AgentTraceResponse, BrowserCreateResponse,
  BrowserDeleteResponse, BrowserExecuteResponse, BrowserListResponse, CreditUsageHistoricalResponse, ExtractResponse, FeedbackResponse,
  QueueStatusResponse, ScrapeBrowserDeleteResponse, ScrapeExecuteResponse, TokenUsageHistoricalResponse,
} from "./types.js";

/** Options of `new Firecrawl(options)`: webdata's client options, plus the official client's `backoffFactor`. */
export interface FirecrawlClientOptions extends ClientOptions {
  /**
   * The official client's retry backoff factor: accepted (a positive number) and not used. webdata's own
   * backoff applies: exponential from 500 ms with jitter, up to 8 s, and the server's `Retry-After` (MIGRATION.md).
   */
  backoffFactor?: number | undefined;
}

/** Official name of what `new Firecrawl(...)` takes: the options, or the key. */
export type FirecrawlClientInput = FirecrawlClientOptions | string;

/** The official status-read pagination (`getCrawlStatus(id, pagination)`). */
export interface PaginationConfig {
  /** Follow `next` and return every document (default true); `false` returns the first page. */
  autoPaginate?: boolean | undefined;
  /** At most this many pages after the first. */
  maxPages?: number | undefined;
  /** At most this many documents in all. */
  maxResults?: number | undefined;
  /** Stop following pages after this many seconds. */
  maxWaitTime?: number | undefined;
}

/** The official `getMonitorCheck` options: one page's `limit`, `skip`, `status`, plus the official pagination (default: every page). */
export type GetMonitorCheckOptions = PaginationConfig & MonitorCheckPageOptions;

/** The official waiter controls, in seconds. */
export interface FirecrawlWaitOptions {
  /** Seconds between status reads (default 2). */
  pollInterval?: number | undefined;
  /** Seconds before giving up (default: none). Crawl and batch scrape throw `JobTimeoutError`; extract and agent return the last status. */
  timeout?: number | undefined;
}

/** The official `JobTimeoutError`'s extra fields, on the SDK's `JobTimeoutError` thrown by this entry's waiters. */
export interface OfficialTimeoutFields {
  /** The deadline, in seconds (the official field). */
  readonly timeoutSeconds: number;
  /** `crawl` or `batch`. */
  readonly jobType: string;
}

type Client = WebData;
type Params<K extends keyof Client> = Client[K] extends (...args: infer A) => unknown ? A : never;
type Result<K extends keyof Client> = Client[K] extends (...args: never[]) => infer R ? R : never;

/** A method of `WebData` that `Firecrawl` has as it is (same name, arguments and result). */
export type FirecrawlSameMethod =
  | "scrape" | "search" | "map" | "crawlParamsPreview" | "cancelCrawl" | "getCrawlErrors"
  | "crawlDocuments" | "getBatchScrapeErrors" | "cancelBatchScrape" | "batchScrapeDocuments" | "cancelAgent"
  | "getConcurrency" | "getCreditUsage" | "getTokenUsage" | "parse" | "createMonitor"
  | "listMonitors" | "getMonitor" | "updateMonitor" | "deleteMonitor" | "runMonitor" | "listMonitorChecks";

/** The methods `Firecrawl` forwards to `WebData` unchanged: the catalogue's `same` drop-in form (`api/operations.ts`; `test/operations.test.ts` holds it equal to {@link FirecrawlSameMethod}). */
const SAME = dropInMethods("same") as readonly FirecrawlSameMethod[];

/**
 * The one-line adapters, by the catalogue's drop-in form: `WebData`'s method, its result given the official
 * `success` (or, a list, also readable as the official wrapper's field). Their types and JSDoc are in the
 * `Firecrawl` interface below.
 */
const ADAPTERS = {
  success: (r: object) => withSuccess(r),
  sessions: (r: unknown[]) => listWithAlias(r, "sessions"),
} as const;

/** The official batch options: webdata's, or the scrape options nested in `options` (sent at the top level); `idempotencyKey` is {@link IdempotencyKeyOption}. */
export type FirecrawlBatchScrapeOptions = Omit<BatchScrapeOptions, "idempotencyKey">;

/** `success` of a task status as the official client reads it: `false` for a failed job (webdata reads the wire's `success: false` as `status: "failed"`). */
function taskSuccess<S extends { status: string }>(status: S): S & { readonly success: boolean } {
  return withSuccess(status, status.status !== "failed");
}

const seconds = z.optional(z.number().check(z.gte(0), z.lte(2_147_483)));
const waitSchema = z.object({ pollInterval: seconds, timeout: seconds });
const paginationSchema = z.optional(
  z.object({
    autoPaginate: z.optional(z.boolean()),
    maxPages: z.optional(z.int().check(z.gte(0))),
    maxResults: z.optional(z.int().check(z.gte(0))),
    maxWaitTime: seconds,
  }),
);

/** Whether the official pagination stops after `pages` pages (past the first) holding `results` results, walking since `started`. */
function limitReached(p: PaginationConfig | undefined, pages: number, results: number, started: number): boolean {
  const late = p?.maxWaitTime !== undefined && Date.now() - started > p.maxWaitTime * 1000;
  return (p?.maxPages !== undefined && pages >= p.maxPages) || (p?.maxResults !== undefined && results >= p.maxResults) || late;
}

/** Splits the official waiter controls (seconds) off `options` and gives them as webdata's (ms). */
function officialWait<O extends object>(options: O | undefined, context: string): { rest: Omit<O, "pollInterval" | "timeout">; pollIntervalMs?: number; timeoutMs?: number; timeout?: number } {
  if (options !== undefined && options !== null && !isPlainObject(options)) return { rest: options as Omit<O, "pollInterval" | "timeout"> };
  const { pollInterval, timeout, ...rest } = (options ?? {}) as O & FirecrawlWaitOptions;
  check(waitSchema, { pollInterval, timeout }, context);
  const both = [
    ...(pollInterval !== undefined && "pollIntervalMs" in rest ? [{ path: "pollIntervalMs", message: "give pollInterval (seconds) or pollIntervalMs (milliseconds), not both" }] : []),
    ...(timeout !== undefined && "timeoutMs" in rest ? [{ path: "timeoutMs", message: "give timeout (seconds) or timeoutMs (milliseconds), not both" }] : []),
  ];
  if (both.length) throw new ValidationError(both, context);
  return {
    rest: rest as Omit<O, "pollInterval" | "timeout">,
    ...(pollInterval !== undefined ? { pollIntervalMs: Math.max(1, pollInterval) * 1000 } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000, timeout } : {}),
  };
}

/** Adds the official fields to a `JobTimeoutError` (not enumerable), and returns it. */
function officialTimeout(err: unknown, kind: string, timeout: number | undefined): unknown {
  if (err instanceof JobTimeoutError) {
    Object.defineProperties(err, {
      timeoutSeconds: { value: timeout ?? err.timeoutMs / 1000, configurable: true },
      jobType: { value: kind, configurable: true },
    });
  }
  return err;
}

/** Methods whose first argument is a URL: an empty or blank one is refused as the official client refuses it. */
const URL_FIRST: ReadonlySet<string> = new Set(["scrape", "map", "startCrawl", "crawl", "crawlParamsPreview", "scrapeUrl", "mapUrl", "crawlUrl", "asyncCrawlUrl"]);

/** The keys of an official `scrape({ alexandria })` request. */
const ALEXANDRIA_KEYS: ReadonlySet<string> = new Set(["alexandria", "requestId", "timeout", "integration", "origin"]);
/** What the official error fields are not added to: the document iterators, the watcher (its errors are events), the plain helpers. */
const UNWRAPPED: ReadonlySet<string> = new Set(["constructor", "crawlDocuments", "batchScrapeDocuments", "watcher", "toJSON"]);

/**
 * A v1-style alias's argument after its options: the official aliases take `(url, options)` and drop what
 * v1-era code passes after them (`crawlUrl(url, params, 30)`, `asyncCrawlUrl(url, {}, idempotencyKey)`);
 * here a plain object there is still `RequestOptions`, anything else is dropped as the official client drops it.
 */
function extra(requestOptions: unknown): RequestOptions | undefined {
  return isPlainObject(requestOptions) ? (requestOptions as RequestOptions) : undefined;
}

/** The official client's v2 class, over webdata's pipeline: `new Firecrawl({ apiKey })` or `new Firecrawl("fc-...")`. */
export class Firecrawl {
  readonly #client: WebData;
  #v1: FirecrawlAppV1 | undefined;
  #research: ResearchClient | undefined;

  /** @param options Client options (webdata's, plus the official `backoffFactor`); a string is the key. */
  constructor(options: FirecrawlClientOptions | string = {}) {
    takeZod3Schemas(); // official code's schemas are zod 3 ones (./zod3.ts)
    const given = typeof options === "string" ? { apiKey: options } : options;
    const { backoffFactor, ...rest } = isPlainObject(given) ? given : ({} as FirecrawlClientOptions);
    check(z.object({ backoffFactor: z.optional(z.number().check(z.gt(0))) }), { backoffFactor }, "client options");
    // The official client prints nothing for its v1 methods: no deprecation line unless asked for.
    // `apiKey: null` is the official client's "the default" (its environment variable); WebData reads it as keyless.
    this.#client = (new.target as typeof Firecrawl).makeClient(isPlainObject(given) ? { silenceDeprecationWarnings: true, ...rest, apiKey: (rest.apiKey ?? undefined) as ClientOptions["apiKey"] } : given);
  }

  /** @internal The `WebData` a client sends through (the Node entry makes one with its transport). */
  static makeClient(options: ClientOptions): WebData {
    return dropInClient(options);
  }

  /** The base URL in use. */
  get apiUrl(): string {
    return this.#client.apiUrl;
  }

  /**
   * webdata's credit meter of this client (not in the official client): the credits its calls spent, v1
   * ones included (`WebData.credits`: `total`, `byOperation`, `byJob`, `snapshot()`, `reset()`).
   */
  get credits(): CreditMeter {
    return this.#client.credits;
  }

  /** The v1 client over the same connection (official shapes: `{ success, data }` usage, `error.statusCode`). */
  get v1(): FirecrawlAppV1 {
    return (this.#v1 ??= FirecrawlAppV1.over(new V1Client(this.#client.http)));
  }

  /**
   * A crawl's status with every document that exists now: follows `next` unless
   * `pagination.autoPaginate` is false, within `maxPages`, `maxResults` and `maxWaitTime`.
   * When a limit stops it, `next` is the page to read on (the official client gives `null`).
   */
  getCrawlStatus(id: string, pagination?: PaginationConfig, requestOptions?: RequestOptions): APIPromise<JobStatus<Document>> {
    return this.#status("crawl", id, pagination, requestOptions);
  }

  /** A batch scrape's status with every document that exists now (as {@link getCrawlStatus}). */
  getBatchScrapeStatus(id: string, pagination?: PaginationConfig, requestOptions?: RequestOptions): APIPromise<JobStatus<Document>> {
    return this.#status("batch", id, pagination, requestOptions);
  }

  /**
   * Crawls and waits (`pollInterval`, `timeout` in seconds): the finished job with every document. A failed or
   * cancelled crawl is returned with its status; past `timeout`, `JobTimeoutError` (with `timeoutSeconds`).
   */
  async crawl(url: string, options?: CrawlOptions & JobWaitOptions & FirecrawlWaitOptions, requestOptions?: RequestOptions): Promise<JobStatus<Document>> {
    const { rest, timeout, ...wait } = officialWait(options, "crawl options");
    const sent = officialCrawlOptions(this.#client.http, "crawl", rest);
    const run = () => this.#client.crawl(trimmed(url), { ...sent, ...wait }, requestOptions);
    return this.#ended(run, (id) => this.#status("crawl", id, undefined, requestOptions), { kind: "crawl", timeout });
  }

  /**
   * Starts a crawl, sending what the official client sends: its crawl fields, each kept by its rule; a key it drops
   * (a v1 name such as `maxDepth`, an unknown key, `ignoreRobotsTxt`) is not sent, and said once per key per client
   * through the logger, naming the v2 field when there is one (`crawl-options.ts`).
   */
  startCrawl(url: string, options?: CrawlOptions, requestOptions?: RequestOptions): Result<"startCrawl"> {
    return this.#client.startCrawl(trimmed(url), officialCrawlOptions(this.#client.http, "startCrawl", options), requestOptions);
  }

  /**
   * Starts a batch scrape (scrape options nested in `options` or at the top level). `idempotencyKey` is sent as
   * the `x-idempotency-key` header, as the official client sends it.
   */
  startBatchScrape(urls: string[], options?: FirecrawlBatchScrapeOptions & IdempotencyKeyOption, requestOptions?: RequestOptions): Result<"startBatchScrape"> {
    const [rest, req] = keyToHeader(options, requestOptions);
    return this.#client.startBatchScrape(urls, rest === undefined ? rest : flattenBatchOptions(rest), req);
  }

  /**
   * Batch-scrapes and waits (`pollInterval`, `timeout` in seconds; scrape options nested in `options` or at the
   * top level). A failed or cancelled job is returned with its status; past `timeout`, `JobTimeoutError`.
   */
  async batchScrape(urls: string[], options?: Params<"batchScrape">[1] & FirecrawlBatchScrapeOptions & FirecrawlWaitOptions & IdempotencyKeyOption, requestOptions?: RequestOptions): Promise<JobStatus<Document> & { invalidURLs?: string[] }> {
    const [keyless, req] = keyToHeader(options, requestOptions);
    const { rest, timeout, ...wait } = officialWait(keyless, "batch scrape options");
    const run = () => this.#client.batchScrape(urls, { ...flattenBatchOptions(rest), ...wait }, req);
    return this.#ended(run, (id) => this.#status("batch", id, undefined, req), { kind: "batch", timeout });
  }

  /**
   * Extracts and waits (`pollInterval`, `timeout` in seconds). A failed job is returned with `status: "failed"`;
   * at `timeout` the last status is returned (as the official client does), never an error.
   */
  async extract<T = unknown>(options: Params<"extract">[0] & FirecrawlWaitOptions, requestOptions?: RequestOptions): Promise<Awaited<ReturnType<Client["getExtractStatus"]>> & { data?: T } & { readonly success: boolean }> {
    const { rest, timeout: _timeout, ...wait } = officialWait(options, "extract options");
    return taskSuccess(await this.#ended(() => this.#client.extract({ ...rest, ...wait } as Params<"extract">[0], requestOptions), (id) => this.#client.getExtractStatus(id, requestOptions))) as never;
  }

  /** Runs an agent and waits (`{ prompt, ...options, pollInterval, timeout }`, seconds), with extract's endings. */
  async agent<T = unknown>(request: AgentRequest & FirecrawlWaitOptions, requestOptions?: RequestOptions): Promise<AgentStatusResponse<T>> {
    const { rest, timeout: _timeout, ...wait } = officialWait(request, "agent options");
    const [prompt, options, req] = agentArgs<AgentOptions, RequestOptions>(rest, requestOptions, undefined);
    const run = () => this.#client.agent(prompt, { ...options, ...wait }, req);
    return taskSuccess(await this.#ended(run, (id) => this.#client.getAgentStatus(id, req))) as AgentStatusResponse<T>;
  }

  /** Starts an agent: `startAgent({ prompt, ...options })` as the official client takes it (or webdata's `startAgent(prompt, options)`). */
  startAgent(request: AgentRequest, requestOptions?: RequestOptions): APIPromise<AgentResponse>;
  /** webdata's form: the prompt, then the options. */
  startAgent(prompt: string, options?: AgentOptions, requestOptions?: RequestOptions): APIPromise<AgentResponse>;
  startAgent(first: string | AgentRequest, second?: AgentOptions | RequestOptions, third?: RequestOptions): APIPromise<AgentResponse> {
    return this.#client.startAgent(...agentArgs<AgentOptions, RequestOptions>(first, second, third)).map((r) => withSuccess(r));
  }

  /** An agent's status, with the official `success` (`false` for a failed job). */
  getAgentStatus<T = unknown>(id: string, requestOptions?: RequestOptions): APIPromise<AgentStatusResponse<T>> {
    return this.#client.getAgentStatus<T>(id, requestOptions).map(taskSuccess);
  }

  /** An extraction's status, with the official `success` (`false` for a failed job). */
  getExtractStatus<T = unknown>(id: string, requestOptions?: RequestOptions): APIPromise<ExtractResponse<T>> {
    return this.#client.getExtractStatus<T>(id, requestOptions).map(taskSuccess);
  }

  /** Credits per billing period: the list itself, also readable as `.periods`; takes the official `byApiKey` boolean. */
  getCreditUsageHistorical(byApiKey?: boolean | HistoricalUsageOptions, requestOptions?: RequestOptions): APIPromise<CreditUsageHistoricalResponse> {
    return this.#client.getCreditUsageHistorical(historicalOptions(byApiKey), requestOptions).map((r) => listWithAlias(r, "periods"));
  }

  /** Tokens per billing period: the list itself, also readable as `.periods`; takes the official `byApiKey` boolean. */
  getTokenUsageHistorical(byApiKey?: boolean | HistoricalUsageOptions, requestOptions?: RequestOptions): APIPromise<TokenUsageHistoricalResponse> {
    return this.#client.getTokenUsageHistorical(historicalOptions(byApiKey), requestOptions).map((r) => listWithAlias(r, "periods"));
  }

  /**
   * The official watcher: `on("document" | "snapshot" | "done" | "error", listener)`, then `await start()`
   * (resolves after `done` or `error`). `pollInterval` and `timeout` are seconds.
   */
  watcher(jobId: string, options?: FirecrawlWatcherOptions, requestOptions?: RequestOptions): FirecrawlWatcher {
    const { rest, pollIntervalMs, timeoutMs } = officialWait(options, "watcher options");
    check(z.object({ kind: z.optional(z.enum(["crawl", "batch"])) }), { kind: rest.kind }, "watcher options");
    return new FirecrawlWatcher(jobId, timeoutMs, (signal) => this.#client.watcher(jobId, { kind: rest.kind, pollIntervalMs, signal }, requestOptions));
  }

  /**
   * A monitor check with every page of its pages (the official default): follows `next` unless `autoPaginate` is
   * false, within `maxPages`, `maxResults` and `maxWaitTime` (seconds); `limit`, `skip` and `status` shape each page.
   * When a limit stops it, `next` is the page to read on (the official client gives `null`).
   */
  getMonitorCheck(monitorId: string, checkId: string, options?: GetMonitorCheckOptions, requestOptions?: RequestOptions): APIPromise<MonitorCheckDetail> {
    const given: GetMonitorCheckOptions = isPlainObject(options) ? (options as GetMonitorCheckOptions) : {};
    const { autoPaginate, maxPages, maxResults, maxWaitTime, ...page } = given;
    const first = this.#client.getMonitorCheck(monitorId, checkId, page, requestOptions);
    const walk = async () => {
      const p: PaginationConfig = check(paginationSchema, { autoPaginate, maxPages, maxResults, maxWaitTime }, "pagination");
      const answer = await first.withResponse();
      const pages: MonitorCheckPage[] = [...answer.data.pages];
      let next = answer.data.next ?? undefined;
      let skip = page.skip ?? 0;
      const started = Date.now();
      for (let n = 0; p.autoPaginate !== false && next; n++) {
        if (limitReached(p, n, pages.length, started)) break;
        const q = new URL(next).searchParams;
        const from = Number(q.get("skip"));
        if (!(from > skip)) throw new PaginationError(checkId, `the next page (skip=${q.get("skip") ?? ""}) does not move past the last one (skip=${skip})`, undefined, "loop");
        skip = from;
        const more = await this.#client.getMonitorCheck(monitorId, checkId, { ...page, skip, limit: Number(q.get("limit")) || page.limit }, requestOptions);
        pages.push(...more.pages);
        next = more.next ?? undefined;
      }
      const kept = p.maxResults === undefined ? pages : pages.slice(0, p.maxResults);
      return { data: { ...answer.data, pages: kept, next: p.autoPaginate === false || next ? (next ?? null) : null }, response: answer.response };
    };
    return new APIPromise(walk());
  }

  /**
   * The official `getAgentThread`: `GET /v2/agent/threads/<id>` (`?includeData=true` when asked), sent as the official
   * client sends it; the server's answer decides (the service's own server has no such route: its 404, with the official fields).
   */
  getAgentThread(threadId: string, options?: { includeData?: boolean }, requestOptions?: RequestOptions): Promise<AgentThreadResponse> {
    return agentThread(this.#client.http, threadId, options, requestOptions);
  }

  /**
   * The official `developerSearch`: `POST /v2/search/developer` with `{ query, ...options }`, as the official client sends
   * it (the developer index is a separate service the server proxies when a deployment configures it; otherwise its 404).
   * An empty query is refused before sending, with the official words.
   */
  developerSearch(query: string, options?: DeveloperSearchOptions, requestOptions?: RequestOptions): Promise<DeveloperSearchResponse> {
    return developerSearch(this.#client.http, query, options, requestOptions);
  }

  /**
   * The official `findTools`: one tool catalogue (Alexandria) call, `POST /v2/scrape` with
   * `{ alexandria: [{ provider: "firecrawl", capability: "find-tools", options }] }` and an `x-request-id`, as the
   * official client sends it; the server's answer decides.
   */
  findTools(options?: FindToolsOptions, requestOptions?: RequestOptions): Promise<FindToolsData> {
    return findTools(this.#client.http, options, requestOptions);
  }

  /**
   * The official `firecrawl.research` (the research paper index): each call the `GET` under `/v2/search/research` the
   * official client sends; the server's answer decides (a separate service it proxies when a deployment configures it).
   */
  get research(): ResearchClient {
    return (this.#research ??= researchClient(this.#client.http));
  }

  /** The key never appears in `util.inspect` output. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Firecrawl { apiUrl: '${this.apiUrl}' }`;
  }

  /** What `JSON.stringify(client)` shows: the base URL, never the key. */
  toJSON(): { apiUrl: string } {
    return { apiUrl: this.apiUrl };
  }

  static {
    for (const name of SAME) {
      set(this.prototype, name, function (this: Firecrawl, ...args: unknown[]): unknown {
        return (this.#client[name] as (...a: unknown[]) => unknown).apply(this.#client, args);
      });
    }
    for (const [form, adapt] of Object.entries(ADAPTERS) as ["success" | "sessions", (r: never) => unknown][]) {
      for (const name of dropInMethods(form)) {
        set(this.prototype, name, function (this: Firecrawl, ...args: unknown[]): unknown {
          return ((this.#client[name as keyof WebData] as (...a: unknown[]) => APIPromise<never>).apply(this.#client, args)).map(adapt);
        });
      }
    }
    // The aliases of the catalogue (`dropInAliases`): each calls its operation's method, `WebData`'s for a forwarded
    // one and this class's otherwise; a v1-style one (named as the v1 method) passes its last argument through `extra`.
    for (const [, op] of OPERATION_LIST) {
      const target = op.method;
      if (!op.dropIn || !target) continue;
      const arity = (WebData.prototype[target as keyof WebData] as (...a: unknown[]) => unknown).length;
      for (const alias of op.dropInAliases ?? []) {
        const v1Style = op.v1?.includes(alias) ?? false;
        set(this.prototype, alias, function (this: Firecrawl, ...args: unknown[]): unknown {
          const self = (op.dropIn === "same" ? this.#client : this) as unknown as Record<string, (...a: unknown[]) => unknown>;
          return self[target]!.apply(self, v1Style ? [...Array.from({ length: arity - 1 }, (_, i) => args[i]), extra(args[arity - 1])] : args);
        });
      }
    }
    // `scrape({ alexandria })`: the official tool catalogue execution (`passthrough.ts`); a URL goes to WebData's scrape.
    const forwardedScrape = Object.getOwnPropertyDescriptor(this.prototype, "scrape")!.value as (...a: unknown[]) => unknown;
    set(this.prototype, "scrape", function (this: Firecrawl, url: unknown, ...rest: unknown[]): unknown {
      if (typeof url === "string" || !isPlainObject(url) || !("alexandria" in url)) return forwardedScrape.call(this, url, ...rest);
      const [options, requestOptions] = rest as [unknown, RequestOptions | undefined];
      if (options !== undefined || Object.keys(url).some((key) => !ALEXANDRIA_KEYS.has(key))) {
        return Promise.reject(officialRefusal("Provide an alexandria request without URL scrape options", "scrape"));
      }
      return alexandriaScrape(this.#client.http, url as unknown as AlexandriaScrapeRequest, requestOptions);
    });
    // Every call: an empty or blank URL is refused with the official client's words, and a failure carries
    // the official fields (`official-errors.ts`). The iterators, the watcher and the plain helpers are left as they are.
    const proto = this.prototype as unknown as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
      if (typeof method !== "function" || UNWRAPPED.has(name)) continue;
      set(proto, name, function (this: Firecrawl, ...args: unknown[]): unknown {
        return runOfficially(() => (URL_FIRST.has(name) ? emptyUrl(args[0], `${name} options`) : undefined) ?? (method as (...a: unknown[]) => unknown).apply(this, args));
      });
    }
  }

  #status(kind: JobKind, id: string, pagination: PaginationConfig | undefined, req: RequestOptions | undefined): APIPromise<JobStatus<Document>> {
    // The request options checked once, for the first read and the walk after it.
    let checked: Checked<RequestOptions>;
    try {
      checked = checkRequestOptions(req);
    } catch (err) {
      return new APIPromise<JobStatus<Document>>(Promise.reject(err));
    }
    const first = kind === "crawl" ? this.#client.getCrawlStatus(id, undefined, checked) : this.#client.getBatchScrapeStatus(id, undefined, checked);
    const walk = async () => {
      const p = check(paginationSchema, pagination ?? undefined, "pagination");
      const answer = await first.withResponse();
      if (p?.autoPaginate === false || !answer.data.next) return answer;
      const started = Date.now();
      const data: Document[] = [];
      let pages = -1;
      let next: string | undefined;
      const seen = new Set<string>();
      // One walk (`jobs/pages.ts`) from the page just read (never read twice), then `next` to the last page that exists now.
      for await (const raw of walkPages<Document>(this.#client.http, kind, id, checked, "v2", { pause: () => 0, snapshot: true, first: answer.data })) {
        const page = { ...raw, data: raw.data.filter((d) => firstSeen(seen, d)) };
        pages += 1;
        const room = p?.maxResults === undefined ? page.data.length : Math.max(0, p.maxResults - data.length);
        for (const doc of page.data.slice(0, room)) data.push(doc);
        next = page.next;
        if (limitReached(p, pages, data.length, started)) break;
        next = undefined;
      }
      const { next: _first, ...status } = answer.data;
      return { data: { ...status, data, ...(next ? { next } : {}) }, response: answer.response };
    };
    return new APIPromise(walk());
  }

  /**
   * How an official waiter ends: `run`'s result, or a failed or cancelled job's status (`read`). Past the deadline a crawl
   * or batch scrape (`official`) throws `JobTimeoutError` with the official fields; an extract or agent gives its last status.
   */
  async #ended<S>(run: () => Promise<S>, read: (id: string) => Promise<unknown>, official?: { kind: JobKind; timeout: number | undefined }): Promise<S> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof JobFailedError) return (await read(err.jobId)) as S;
      if (official) throw officialTimeout(err, official.kind, official.timeout);
      if (err instanceof JobTimeoutError && err.lastStatus !== undefined) return err.lastStatus as S;
      throw err;
    }
  }
}

/** The official batch scrape's `idempotencyKey` option. */
export interface IdempotencyKeyOption {
  /** Sent as the `x-idempotency-key` header (a UUID), as the official client sends it. */
  idempotencyKey?: string | undefined;
}

/** Moves an `idempotencyKey` option into the request options (the header), as the official client sends it. */
function keyToHeader<O extends object>(options: (O & IdempotencyKeyOption) | undefined, req: RequestOptions | undefined): [O | undefined, RequestOptions | undefined] {
  if (!isPlainObject(options) || !("idempotencyKey" in options)) return [options, req];
  const { idempotencyKey, ...rest } = options;
  return [rest as O, idempotencyKey === undefined ? req : { ...req, idempotencyKey }];
}

/** The URL as the official client sends a crawl's (trimmed); anything else as it is, for the check to report. */
function trimmed(url: string): string {
  return typeof url === "string" ? url.trim() : url;
}

// The methods `Firecrawl` has as `WebData` has them, the one-line adapters and the aliases (all made in its static block from the catalogue).
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Firecrawl extends Pick<WebData, Exclude<FirecrawlSameMethod, "scrape">> {
  /** Starts an extraction, with the official `success`. */
  startExtract(options: Params<"startExtract">[0], requestOptions?: RequestOptions): APIPromise<ExtractResponse>;
  /** The team's running crawls, with the official `success`. */
  getActiveCrawls(requestOptions?: RequestOptions): APIPromise<ActiveCrawlsResponse>;
  /** The team's agent runs, with the official `success`. */
  listAgents(...args: Params<"listAgents">): APIPromise<AgentListResponse>;
  /** An agent run's trace, with the official `success`. */
  getAgentTrace(...args: Params<"getAgentTrace">): APIPromise<AgentTraceResponse>;
  /** An artifact of an agent run, with the official `success`. */
  getAgentSnapshot(...args: Params<"getAgentSnapshot">): APIPromise<AgentSnapshotResponse>;
  /** Creates a browser session, with the official `success`. */
  browser(...args: Params<"browser">): APIPromise<BrowserCreateResponse>;
  /** Runs code in a browser session, with the official `success`. */
  browserExecute(...args: Params<"browserExecute">): APIPromise<BrowserExecuteResponse>;
  /** Destroys a browser session, with the official `success`. */
  deleteBrowser(...args: Params<"deleteBrowser">): APIPromise<BrowserDeleteResponse>;
  /** The browser sessions: the list itself, also readable as the official `.sessions`, with `success`. */
  listBrowsers(...args: Params<"listBrowsers">): APIPromise<BrowserListResponse>;
  /** Runs code or a prompt in a scraped page's browser, with the official `success`. */
  interact(...args: Params<"interact">): APIPromise<ScrapeExecuteResponse>;
  /** Ends a scraped page's browser session, with the official `success`. */
  stopInteraction(...args: Params<"stopInteraction">): APIPromise<ScrapeBrowserDeleteResponse>;
  /** Queue metrics of the team, with the official `success`. */
  getQueueStatus(requestOptions?: RequestOptions): APIPromise<QueueStatusResponse>;
  /** Rates a search's results, with the official `success`. */
  searchFeedback(...args: Params<"searchFeedback">): APIPromise<FeedbackResponse>;
  /** Rates a job, with the official `success`. */
  feedback(...args: Params<"feedback">): APIPromise<FeedbackResponse>;
  /** WebData's `scrape(url, options)`; or the official tool catalogue (Alexandria) execution, `scrape({ alexandria, requestId?, timeout? })`, sent as the official client sends it. */
  scrape: WebData["scrape"] & ((request: AlexandriaScrapeRequest, options?: undefined, requestOptions?: RequestOptions) => Promise<AlexandriaScrapeData>);
  /** @deprecated The official v1-style alias of {@link scrape}. */
  scrapeUrl(url: string, options?: Params<"scrape">[1], requestOptions?: RequestOptions): Result<"scrape">;
  /** @deprecated The official v1-style alias of {@link crawl}. */
  crawlUrl(url: string, options?: Parameters<Firecrawl["crawl"]>[1], requestOptions?: RequestOptions): ReturnType<Firecrawl["crawl"]>;
  /** @deprecated The official v1-style alias of {@link startCrawl}. */
  asyncCrawlUrl(url: string, options?: CrawlOptions, requestOptions?: RequestOptions): Result<"startCrawl">;
  /** @deprecated The official v1-style alias of {@link getCrawlStatus}. */
  checkCrawlStatus(id: string, pagination?: PaginationConfig, requestOptions?: RequestOptions): ReturnType<Firecrawl["getCrawlStatus"]>;
  /** @deprecated The official v1-style alias of {@link getCrawlErrors}. */
  checkCrawlErrors(id: string, requestOptions?: RequestOptions): Result<"getCrawlErrors">;
  /** @deprecated The official v1-style alias of {@link map}. */
  mapUrl(url: string, options?: Params<"map">[1], requestOptions?: RequestOptions): Result<"map">;
  /** @deprecated The official v1-style alias of {@link batchScrape}. */
  batchScrapeUrls(urls: string[], options?: Parameters<Firecrawl["batchScrape"]>[1], requestOptions?: RequestOptions): ReturnType<Firecrawl["batchScrape"]>;
  /** @deprecated The official v1-style alias of {@link startBatchScrape}. */
  asyncBatchScrapeUrls(urls: string[], options?: Parameters<Firecrawl["startBatchScrape"]>[1], requestOptions?: RequestOptions): ReturnType<Firecrawl["startBatchScrape"]>;
  /** @deprecated The official v1-style alias of {@link getBatchScrapeStatus}. */
  checkBatchScrapeStatus(id: string, pagination?: PaginationConfig, requestOptions?: RequestOptions): ReturnType<Firecrawl["getBatchScrapeStatus"]>;
  /** @deprecated The official v1-style alias of {@link getBatchScrapeErrors}. */
  checkBatchScrapeErrors(id: string, requestOptions?: RequestOptions): Result<"getBatchScrapeErrors">;
  /** @deprecated The official alias of {@link interact}. */
  scrapeExecute(...args: Params<"interact">): ReturnType<Firecrawl["interact"]>;
  /** @deprecated The official alias of {@link stopInteraction}. */
  stopInteractiveBrowser(...args: Params<"stopInteraction">): ReturnType<Firecrawl["stopInteraction"]>;
  /** @deprecated The official alias of {@link stopInteraction}. */
  deleteScrapeBrowser(...args: Params<"stopInteraction">): ReturnType<Firecrawl["stopInteraction"]>;
}

/** The official client's other name for the class. */
export const FirecrawlClient = Firecrawl;
/** The official client's other name for the class. */
export type FirecrawlClient = Firecrawl;

/** The official `SdkError`: every error this SDK throws is one (`instanceof`); `status`, `code`, `details` where the server answered. */
export type SdkError = WebDataError & { readonly status?: number; readonly code?: string; readonly details?: unknown; readonly jobId?: string };
/** The constructor of {@link SdkError}. */
export interface SdkErrorConstructor {
  /** An SDK error with `message` (the SDK's own errors are its subclasses). */
  new (message: string): SdkError;
  /** What `instanceof SdkError` checks. */
  readonly prototype: SdkError;
}
/** The official `SdkError` class: webdata's `WebDataError`, the base of every error the SDK throws. */
export const SdkError: SdkErrorConstructor = WebDataError as unknown as SdkErrorConstructor;

/** The SDK's `JobTimeoutError` with the official fields (`timeoutSeconds`, `jobType`) that this entry's waiters set. */
export type OfficialJobTimeoutError = JobTimeoutError & OfficialTimeoutFields;
/** The constructor of {@link OfficialJobTimeoutError}. */
export interface OfficialJobTimeoutErrorConstructor {
  /** A job timeout error (thrown by the waiters; `instanceof` is what code uses). */
  new (jobId: string, timeoutMs: number, lastStatus: unknown): OfficialJobTimeoutError;
  /** What `instanceof JobTimeoutError` checks. */
  readonly prototype: OfficialJobTimeoutError;
}
/** The official name and fields: `catch (e) { if (e instanceof JobTimeoutError) e.timeoutSeconds }`. The same class as the SDK's. */
export const OfficialJobTimeoutError: OfficialJobTimeoutErrorConstructor = JobTimeoutError as unknown as OfficialJobTimeoutErrorConstructor;
