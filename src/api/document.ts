/**
 * The `Document` the service returns for a scraped page (reference §3.5),
 * shared by scrape, crawl, batch scrape and search results.
 */
import type { BrandingProfile, MenuProfile, ProductProfile } from "./profiles.js";

/** Page metadata (`metadata`). Known keys are typed; any `<meta>` name may also appear. */
export interface DocumentMetadata {
  /** `<title>` (string, or a list when the page repeats it). */
  title?: string | string[];
  /** Meta description. */
  description?: string | string[];
  /** Page language. */
  language?: string | string[];
  /** Meta keywords. */
  keywords?: string | string[];
  /** Meta robots. */
  robots?: string;
  /** Open Graph title. */
  ogTitle?: string;
  /** Open Graph description. */
  ogDescription?: string;
  /** Open Graph URL. */
  ogUrl?: string;
  /** Open Graph image. */
  ogImage?: string;
  /** Open Graph locale alternates. */
  ogLocaleAlternate?: string[];
  /** Open Graph site name. */
  ogSiteName?: string;
  /** Favicon URL. */
  favicon?: string;
  /** Final URL after redirects (`metadata.url`). */
  url?: string;
  /** The URL that was requested (`metadata.sourceURL`). */
  sourceURL?: string;
  /** HTTP status of the target page (a 404 page still scrapes). */
  statusCode: number;
  /** Scrape job id. */
  scrapeId?: string;
  /** Error text for a page that failed inside a crawl or batch. */
  error?: string;
  /** Page count of a PDF. */
  numPages?: number;
  /** Content type of the target. */
  contentType?: string;
  proxyUsed?: "basic" | "stealth";
  /** Whether the result came from the cache. */
  cacheState?: "hit" | "miss";
  /** When the cached copy was taken (ISO 8601). */
  cachedAt?: string;
  /**
   * Credits this page cost, as the server reports it (a scrape's and a parse's only figure: their answers
   * carry no top-level `creditsUsed`; `client.credits` counts it under `scrape` / `parse`). A page of a crawl
   * or batch scrape carries its own too, but the job's status total is what the meter counts, once.
   */
  creditsUsed?: number;
  /** Whether the request waited for a concurrency slot. */
  concurrencyLimited?: boolean;
  /** How long it waited, in ms. */
  concurrencyQueueDurationMs?: number;
  /** Any other `<meta>` name or property. */
  [key: string]: unknown;
}

/** Results of browser `actions` (`actions`). */
export interface ActionResults {
  /** Screenshot URLs, in action order. */
  screenshots?: string[];
  /** Page contents captured by `scrape` actions. */
  scrapes?: { url: string; html: string }[];
  /** Values returned by `executeJavascript` actions. */
  javascriptReturns?: { type: string; value: unknown }[];
  /** PDFs produced by `pdf` actions. */
  pdfs?: string[];
}

/** Change-tracking result (`changeTracking`). */
export interface ChangeTrackingResult {
  /** When the page was last scraped, or null for the first scrape. */
  previousScrapeAt: string | null;
  /** How the page changed. */
  changeStatus: "new" | "same" | "changed" | "removed";
  /** Whether the page is visible (linked) or hidden. */
  visibility: "visible" | "hidden";
  /** Git-style diff (mode `git-diff`, status `changed`): an object `{ text, json }` on current servers. */
  diff?: { text: string; json: unknown } | string;
  /** Structured comparison (mode `json`, status `changed`). */
  json?: unknown;
}

/** A scraped page. Only the fields of the requested formats are present. */
export interface Document<TJson = unknown> {
  /** Markdown (format `markdown`). */
  markdown?: string;
  /** Cleaned HTML (format `html`). */
  html?: string;
  /** Raw HTML (format `rawHtml`). */
  rawHtml?: string;
  /** Summary (format `summary`). */
  summary?: string;
  /** Links on the page (format `links`). */
  links?: string[];
  /** Image URLs on the page (format `images`). */
  images?: string[];
  /** Screenshot URL or data URI (format `screenshot`). */
  screenshot?: string;
  /** Extracted JSON (format `json`). */
  json?: TJson;
  /** Answer to a `query` format. */
  answer?: string;
  /** Selected attributes (format `attributes`). */
  attributes?: { selector: string; attribute: string; values: string[] }[];
  /** Brand profile (format `branding`). */
  branding?: BrandingProfile;
  /** Change tracking (format `changeTracking`). */
  changeTracking?: ChangeTrackingResult;
  /** Results of `actions`. */
  actions?: ActionResults;
  /** A warning from the server (LLM, robots, ZDR). */
  warning?: string;
  /** Audio file URL (format `audio`, added by the server after the baseline). */
  audio?: string;
  /** Video file URL (format `video`, added after the baseline). */
  video?: string;
  /** Product profile (format `product`, added after the baseline; not checked). */
  product?: ProductProfile;
  /** Menu profile (format `menu`, added after the baseline; not checked). */
  menu?: MenuProfile;
  /** Passages matching a `highlights` format's query (added after the baseline). */
  highlights?: unknown;
  /** Page metadata; always present. */
  metadata: DocumentMetadata;
}

/**
 * The URL a document was asked for, as the server recorded it: `metadata.sourceURL`, else `metadata.url` (the one rule
 * of batch outcomes, webhook deliveries and their reconcile, and result validation messages; `undefined` without either).
 */
export function requestedUrl(doc: unknown): string | undefined {
  const m = (doc as { metadata?: { sourceURL?: unknown; url?: unknown } } | null)?.metadata;
  const u = typeof m?.sourceURL === "string" ? m.sourceURL : m?.url;
  return typeof u === "string" ? u : undefined;
}

/** The URL of the page a document shows: `metadata.url` (after redirects), else `metadata.sourceURL` (what the CLI and the agent tools print); `""` without either. */
export function shownUrl(doc: Document): string {
  return doc.metadata?.url ?? doc.metadata?.sourceURL ?? "";
}
