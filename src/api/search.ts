/**
 * Web, news and image search, optionally scraping each result:
 * `POST /v2/search` (reference §7).
 */
import { optionsArg } from "../core/options.js";
import { APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import { maybeString, objects } from "../core/response.js";
import * as z from "zod/v4/mini";
import { check, int, oneOf, rules } from "../core/validate.js";
import { SEARCH_LIMIT } from "./limits.js";
import type { Document, DocumentMetadata } from "./document.js";
import { validateDocuments } from "./schema.js";
import { scrapeOptionsSchema, wireScrapeOptions, type JsonFormat, type JsonOfFormats, type QueryFormat, type ScrapeOptions, type ScreenshotFormat } from "./scrape.js";
import type { ScrapeParams } from "./scrape.js";
import { send, type Endpoint } from "./endpoint.js";

/** Where to search. */
export type SearchSourceName = "web" | "news" | "images";

/** A source as an object; `web` may carry its own filters (else it inherits the top-level ones). */
export type SearchSource =
  | SearchSourceName
  | { type: "web"; tbs?: string; filter?: string; lang?: string; country?: string; location?: string }
  | { type: "news" }
  | { type: "images" };

/** Result categories (web and news items get a `category`). */
export type SearchCategoryName = "github" | "research" | "pdf";

/** A category, by name or as `{ type }`. */
export type SearchCategory = SearchCategoryName | { type: SearchCategoryName };

/** Formats search results can be scraped into (a subset of the scrape formats). */
export type SearchFormatName = "markdown" | "html" | "rawHtml" | "links" | "images" | "summary" | "screenshot";

/** One entry of `scrapeOptions.formats` for search. */
export type SearchFormat = SearchFormatName | { type: SearchFormatName } | JsonFormat | QueryFormat | ScreenshotFormat;

/** Scrape options for search results (`scrapeOptions`); `formats` default `[]` = no scraping. */
export interface SearchScrapeOptions extends Omit<ScrapeOptions, "formats"> {
  /** What to scrape from each result; leave empty for result listings only. */
  formats?: readonly SearchFormat[];
}

/** Options of {@link search} (reference §7). */
export interface SearchOptions extends Pick<ScrapeParams, "origin" | "integration"> {
  /** Sources (default `["web"]`). */
  sources?: readonly SearchSource[];
  /** Restrict to categories. */
  categories?: readonly SearchCategory[];
  /** Results per source, 1..100 (server default 10). */
  limit?: number;
  /** Time filter, e.g. `qdr:d` or `cdr:1,cd_min:01/01/2025,cd_max:02/01/2025`. */
  tbs?: string;
  /** Search-engine filter string. */
  filter?: string;
  /** Language (server default `en`). */
  lang?: string;
  /** Country code (server default `us` when neither `country` nor `location` is given). */
  country?: string;
  /** Location, e.g. `San Francisco,California,United States`. */
  location?: string;
  /** Server-side timeout in ms (server default 60000; 408 `SCRAPE_TIMEOUT` when exceeded). */
  timeout?: number;
  /** Skip invalid result URLs instead of failing (default false). */
  ignoreInvalidURLs?: boolean;
  /** Enterprise search modes; `anon`/`zdr` need team permission (403). */
  enterprise?: readonly ("default" | "anon" | "zdr")[];
  /** Scrape each result. */
  scrapeOptions?: SearchScrapeOptions;
}

/** A web result (`data.web[]`). */
export interface WebResult {
  url: string;
  title?: string;
  /** Snippet. */
  description?: string;
  /** Rank within the source. */
  position?: number;
  /** Category (`github`, `research`, `pdf`) when `categories` was given. */
  category?: string;
}

/** A news result (`data.news[]`). */
export interface NewsResult extends Pick<WebResult, "position" | "category"> {
  /** Headline. */
  title?: string;
  /** Article URL. */
  url?: string;
  snippet?: string;
  /** Publication date as the engine words it. */
  date?: string;
  /** Thumbnail URL. */
  imageUrl?: string;
}

/** An image result (`data.images[]`). */
export interface ImageResult extends Pick<WebResult, "position"> {
  title?: string;
  imageUrl?: string;
  /** Width in pixels. */
  imageWidth?: number;
  /** Height in pixels. */
  imageHeight?: number;
  /** Page the image is on. */
  url?: string;
}

/** Document fields merged into a scraped search item (`metadata` may be absent when a result could not be scraped). */
export type ScrapedFields<TJson = unknown> = Omit<Document<TJson>, "metadata"> & { metadata?: DocumentMetadata };

type FormatsOf<O> = O extends { scrapeOptions?: infer S } ? (S extends { formats?: infer F } ? F : never) : never;
type Scrapes<O> = [FormatsOf<O>] extends [never] ? false : FormatsOf<O> extends readonly never[] | undefined ? false : true;

/** An item of a search result: the listing, plus the document fields when `O` asks for scraping. */
export type SearchItem<Base, O> = [Scrapes<O>] extends [false] ? Base : Base & ScrapedFields<JsonOfFormats<FormatsOf<O>>>;

/** What {@link search} resolves to: the wire's grouping plus `creditsUsed`, `id`, `warning`. */
export interface SearchResult<O extends SearchOptions = SearchOptions> {
  /** Web results (`sources` web). */
  web?: SearchItem<WebResult, O>[];
  /** News results (`sources` news). */
  news?: SearchItem<NewsResult, O>[];
  /** Image results (`sources` images). */
  images?: SearchItem<ImageResult, O>[];
  creditsUsed: number;
  id: string;
  /** Server warning (`warning`), e.g. when nothing was found. */
  warning?: string;
}

const SEARCH_FORMATS = new Set(["markdown", "html", "rawHtml", "links", "images", "summary", "screenshot", "json", "query"]);
const sourceName = z.enum(["web", "news", "images"]);
const categoryName = z.enum(["github", "research", "pdf"]);
const str = z.optional(z.string());
const webSource = z.looseObject({ type: z.enum(["web"]), tbs: str, filter: str, lang: str, country: str, location: str });
const sourceObject = z.looseObject({ type: sourceName });

export const searchBody = z.looseObject({
  query: z.string().check(z.minLength(1, "must be a non-empty search query")),
  sources: z.optional(
    z.array(
      oneOf(
        {
          string: sourceName,
          // An object by its `type`: web takes its own search options; news and images take none (a wrong type is named).
          object: (o) => (o.type === "web" ? webSource : sourceObject),
        },
        'a source name ("web", "news", "images") or { type, ... }',
      ),
    ),
  ),
  categories: z.optional(z.array(oneOf({ string: categoryName, object: z.looseObject({ type: categoryName }) }, 'a category name ("github", "research", "pdf") or { type }'))),
  limit: z.optional(int(SEARCH_LIMIT.min, SEARCH_LIMIT.max)),
  tbs: str,
  filter: str,
  lang: str,
  country: str,
  location: str,
  timeout: z.optional(int(1)),
  ignoreInvalidURLs: z.optional(z.boolean()),
  enterprise: z.optional(z.array(z.enum(["default", "anon", "zdr"]))),
  scrapeOptions: z.optional(
    scrapeOptionsSchema.check(
      rules((o, ctx) => {
        // Runs even when the object itself is wrong (`scrapeOptions: null`): read it defensively.
        const given = (o as ScrapeOptions | null)?.formats;
        (Array.isArray(given) ? given : []).forEach((f: unknown, i) => {
          const name = typeof f === "string" ? f : (f as { type?: unknown } | null)?.type;
          if (typeof name === "string" && !SEARCH_FORMATS.has(name as never)) {
            ctx.issues.push({ code: "custom", path: ["formats", i], message: `search cannot scrape the "${name}" format (allowed: ${[...SEARCH_FORMATS].join(", ")})`, input: f });
          }
        });
      }),
    ),
  ),
  origin: str,
  integration: str,
});

/** What {@link search} reads: `data` grouped by source (items not deep-checked) and the search `id`. */
const searchAnswer = z.looseObject({
  data: z.looseObject({ web: z.optional(objects), news: z.optional(objects), images: z.optional(objects) }),
  id: z.string(),
  creditsUsed: z.optional(z.number()),
  warning: maybeString,
});

/** True when a search (v2 or v1) scrapes its results, so occupies the team's browsers: `scrapeOptions.formats` lists a format. */
export function scrapesResults(options: unknown): boolean {
  const formats = (options as { scrapeOptions?: { formats?: unknown } } | null | undefined)?.scrapeOptions?.formats;
  return Array.isArray(formats) && formats.length > 0;
}

/** `POST /v2/search`: the options checked, the schemas in `scrapeOptions.formats` converted. */
const SEARCH: Endpoint<[string, SearchOptions], z.output<typeof searchAnswer>> = { op: "search",
  path: "/v2/search",
  occupies: (_query, opts) => scrapesResults(opts),
  body: (query, opts) => {
    const body: Record<string, unknown> = { ...optionsArg(opts, "search options"), query };
    if (opts.scrapeOptions) body.scrapeOptions = wireScrapeOptions(opts.scrapeOptions as ScrapeOptions, "scrapeOptions.formats");
    return check(searchBody, body, "search options");
  },
  response: searchAnswer,
};

/** `POST /v2/search`. A 400 here has no `code` (the search controller answers it itself). */
export function search<O extends SearchOptions>(http: HttpClient, query: string, options?: O, req?: RequestOptions): APIPromise<SearchResult<O>> {
  const opts: SearchOptions = options ?? {};
  const formats = opts.scrapeOptions?.formats; // the formats of the call, for validating its result
  const res = send(http, SEARCH, req, query, opts);
  return new APIPromise(
    res.withResponse().then(async ({ data, response }) => {
      const out: SearchResult = { creditsUsed: data.creditsUsed ?? 0, id: data.id };
      for (const k of ["web", "news", "images"] as const) {
        const items = data.data[k];
        if (Array.isArray(items)) out[k] = (await validateDocuments(formats, items as unknown as Document[])) as never;
      }
      if (typeof data.warning === "string") out.warning = data.warning;
      return { data: out as SearchResult<O>, response };
    }),
  );
}
