/**
 * `POST /v2/crawl/params-preview` (reference §4.8): the crawl options the
 * service derives from a natural-language prompt.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import * as z from "zod/v4/mini";
import { anyObject } from "../core/response.js";
import { check } from "../core/validate.js";
import { send, type Endpoint } from "./endpoint.js";

/** Options the service generated from the prompt (keys per reference §4.3; not schema-checked by the server). */
export interface CrawlParamsPreview {
  /** The URL the options are for. */
  url: string;
  /** Path regexes to include. */
  includePaths?: string[];
  /** Path regexes to exclude. */
  excludePaths?: string[];
  /** Legacy depth limit, when the model produced one. */
  maxDepth?: number;
  /** Discovery depth limit. */
  maxDiscoveryDepth?: number;
  /** Follow siblings and parents. */
  crawlEntireDomain?: boolean;
  /** Follow external links. */
  allowExternalLinks?: boolean;
  /** Follow subdomains. */
  allowSubdomains?: boolean;
  /** Sitemap use. */
  sitemap?: "skip" | "include" | "only";
  /** Drop query strings when de-duplicating. */
  ignoreQueryParameters?: boolean;
  /** De-duplicate similar URLs. */
  deduplicateSimilarURLs?: boolean;
  /** Delay between pages, seconds. */
  delay?: number;
  /** Page limit. */
  limit?: number;
  /** Any other key the model produced. */
  [key: string]: unknown;
}

/** An absolute http(s) URL (the preview takes no bare host). */
function isFullHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
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
