/**
 * `WebData`: configuration plus one thin method per operation. Each method
 * validates its input in `api/*` and sends through the one request function.
 */
import { agentSignup, type AgentSignupParams, type AgentSignupRecord } from "./api/agent-signup.js";
import { crawlParamsPreview, type CrawlParamsPreview } from "./api/crawl-preview.js";
import type { Document } from "./api/document.js";
import { map, type MapOptions, type MapResult } from "./api/map.js";
import { scrape, type ScrapeParams } from "./api/scrape.js";
import { getCreditUsage, getTokenUsage, type CreditUsage, type TokenUsage } from "./api/usage.js";
import { resolveConfig, type ClientOptions } from "./core/config.js";
import { HttpClient, type APIPromise, type RequestOptions } from "./core/request.js";
import { fetchTransport, type Transport } from "./core/transport.js";
import { V1Client } from "./v1/client.js";

const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/** A provisioned agent key, plus a helper that builds a client using it. */
export interface AgentSignupResult extends AgentSignupRecord {
  /** A new client with the same options but the provisioned key. Not enumerable (not in JSON). */
  createClient(options?: ClientOptions): WebData;
}

/** The client for the web data API. */
export class WebData {
  readonly #http: HttpClient;
  readonly #options: ClientOptions;
  #v1: V1Client | undefined;

  /**
   * @param options Key, URL, timeouts, retries, logging; each falls back to the
   * environment (`WEBDATA_API_KEY`, `WEBDATA_API_URL`, `WEBDATA_LOG`) and then defaults.
   * Throws when the public deployment is used without a key.
   */
  constructor(options: ClientOptions = {}) {
    const config = resolveConfig(options);
    this.#options = options;
    this.#http = new HttpClient(config, WebData.transportFor(options));
  }

  /** @internal Picks the transport: a caller's `fetch` always wins. */
  protected static transportFor(options: ClientOptions): Transport {
    if (options.fetch) return fetchTransport(options.fetch);
    if (options.transport) return options.transport;
    return fetchTransport((input, init) => globalThis.fetch(input, init));
  }

  /** @internal The shared request layer (for `jobs/` and `v1/`). */
  get http(): HttpClient {
    return this.#http;
  }

  /** The base URL in use. */
  get apiUrl(): string {
    return this.#http.apiUrl;
  }

  /** The legacy v1 methods (`mapUrl`, `scrapeUrl`, ...), over the same transport. */
  get v1(): V1Client {
    this.#v1 ??= new V1Client(this.#http);
    return this.#v1;
  }

  /** Scrapes one page: `POST /v2/scrape`. */
  scrape(url: string, options?: ScrapeParams, requestOptions?: RequestOptions): APIPromise<Document> {
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

  /** Remaining tokens of the team (camelCase): `GET /v2/team/token-usage`. */
  getTokenUsage(requestOptions?: RequestOptions): APIPromise<TokenUsage> {
    return getTokenUsage(this.#http, requestOptions);
  }

  /** Remaining credits of the team (camelCase): `GET /v2/team/credit-usage`. */
  getCreditUsage(requestOptions?: RequestOptions): APIPromise<CreditUsage> {
    return getCreditUsage(this.#http, requestOptions);
  }

  /**
   * Provisions a sandboxed key for an agent: `POST /v2/agent-signup`, sent
   * without `Authorization`. Fails with `SignupInvalidError`, `SignupBlockedError`,
   * `SignupExpiredError` or `SignupPendingError`.
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
