/**
 * Standalone functions for the smallest bundles. `import { scrape } from "webdata"`
 * brings the request layer and the scrape module only, not the whole client
 * (about half the size of `WebData` in a minified browser bundle; see
 * `test/size.test.ts`). Same validation, retries, errors and result types as
 * `client.scrape`.
 */
import { scrape as scrapeWith, type ScrapeParams, type ScrapeResult } from "./api/scrape.js";
import { resolveConfig, type ClientOptions } from "./core/config.js";
import { HttpClient, type APIPromise, type RequestOptions } from "./core/request.js";
import { selectTransport } from "./core/transport.js";

/** Client options and per-call options in one object, for a one-shot call. */
export type StandaloneOptions = ClientOptions & RequestOptions;

/**
 * Scrapes one page without constructing a client: `POST /v2/scrape`.
 * Sends with `options.fetch`, else the global `fetch` (also on Node).
 *
 * @example
 * ```ts
 * import { scrape } from "webdata";
 * const doc = await scrape("https://example.com", { formats: ["markdown"] }, { apiKey: "fc-..." });
 * ```
 */
export function scrape<O extends ScrapeParams>(url: string, options?: O, standaloneOptions: StandaloneOptions = {}): APIPromise<ScrapeResult<O>> {
  const { signal, idempotencyKey, ...clientOptions } = standaloneOptions;
  const http = new HttpClient(resolveConfig(clientOptions), selectTransport(standaloneOptions));
  return scrapeWith(http, url, options, { signal, idempotencyKey });
}
