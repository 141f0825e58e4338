/**
 * `POST /v2/crawl/params-preview` (reference §4.8): the crawl options the
 * service derives from a natural-language prompt.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { anyObject } from "../core/response.js";
import { check } from "../core/validate.js";
import { send, type Endpoint } from "./endpoint.js";
import type { CrawlOptions } from "./crawl.js";
import { isFullHttpUrl } from "./webhooks.js";

/** The crawl options the model may produce, as `CrawlOptions` types them. */
type PreviewedOptions = "includePaths" | "excludePaths" | "maxDiscoveryDepth" | "crawlEntireDomain" | "allowExternalLinks"
  | "allowSubdomains" | "sitemap" | "ignoreQueryParameters" | "deduplicateSimilarURLs" | "delay" | "limit";

/** Options the service generated from the prompt (keys per reference §4.3; not schema-checked by the server). */
export interface CrawlParamsPreview extends Pick<CrawlOptions, PreviewedOptions> {
  /** The URL the options are for. */
  url: string;
  /** Legacy depth limit, when the model produced one. */
  maxDepth?: number;
  /** Any other key the model produced. */
  [key: string]: unknown;
}

const previewBody = z.object({
  url: z.string().check(z.refine(isFullHttpUrl, { message: "must be a full http(s) URL such as https://example.com" })),
  prompt: z.string().check(z.minLength(1), z.maxLength(10000)),
});

/** What {@link crawlParamsPreview} reads: the options under `data`. */
const previewAnswer = z.looseObject({ data: anyObject });

const PREVIEW: Endpoint<[url: string, prompt: string], { data: CrawlParamsPreview }, CrawlParamsPreview> = { op: "crawl.paramsPreview",
  path: "/v2/crawl/params-preview",
  body: (url, prompt) => check(previewBody, { url, prompt }, "crawl params preview"),
  response: previewAnswer,
  map: (r) => r.data,
};

/** `POST /v2/crawl/params-preview`. */
export function crawlParamsPreview(http: HttpClient, url: string, prompt: string, req?: RequestOptions): APIPromise<CrawlParamsPreview> {
  return send(http, PREVIEW, req, url, prompt);
}
