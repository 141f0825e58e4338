/**
 * Scrape one page: `POST /v2/scrape` (reference §3). The option types and the
 * checks here are shared by crawl, batch scrape, search and extract
 * (`scrapeOptions`).
 */
import { optionsArg } from "../core/options.js";
import { APIPromise, type HttpClient, type RequestOptions } from "../core/request.js";
import { anyObject } from "../core/response.js";
import * as z from "zod/v4/mini";
import { check, httpUrl, int, oneOf, rules } from "../core/validate.js";
import { FORMAT_NAMES, KNOWN_FORMATS_TEXT, OBJECT_FORMAT_NAMES } from "../core/formats.js";
import { distance } from "fastest-levenshtein";
import type { Document } from "./document.js";
import { scrapeRules } from "./scrape-rules.js";
import { validateDocuments, validatingSchema, wireFormats, type InferSchema, type JsonSchema, type SchemaInput } from "./schema.js";
import { send, type Endpoint } from "./endpoint.js";

export type { JsonSchema } from "./schema.js";

/**
 * Output formats given by name (`core/formats.ts` `FORMAT_NAMES`). The server turns a name into
 * `{ type: name }`. A name within a small edit distance of one of these is refused before sending
 * ("did you mean"); a name far from all of them (one the server added after this SDK) is sent as given.
 */
export type StringFormat = (typeof FORMAT_NAMES)[number];

/**
 * `{ type: "json" }`: structured extraction with a prompt and/or a schema. The
 * schema may be a zod 4 or zod 3 schema, any Standard Schema with JSON Schema
 * output, or a plain JSON Schema; `doc.json` is typed from it.
 */
export interface JsonFormat<S extends SchemaInput = SchemaInput> {
  type: "json";
  /** What to extract (at most 10000 characters). */
  prompt?: string;
  /** Schema of the result (converted to JSON Schema on the wire). */
  schema?: S;
  /**
   * Not sent: parse the returned `json` with `schema` (zod or Standard Schema)
   * and throw `ResultValidationError` naming the failing path when it does not match.
   */
  validate?: boolean;
}

/** `{ type: "screenshot" }`. */
export interface ScreenshotFormat {
  type: "screenshot";
  /** Whole page instead of the viewport (default false). */
  fullPage?: boolean;
  /** JPEG quality 1..100. */
  quality?: number;
  /** Viewport size (width <= 7680, height <= 4320). */
  viewport?: { width: number; height: number };
}

/** `{ type: "changeTracking" }`: compare with the previous scrape (needs `markdown` too). */
export interface ChangeTrackingFormat {
  type: "changeTracking";
  /** `git-diff` and/or `json` comparison. */
  modes?: ("git-diff" | "json")[];
  /** Schema for the `json` mode (zod, Standard Schema or JSON Schema). */
  schema?: SchemaInput;
  /** Prompt for the `json` mode. */
  prompt?: string;
  /** Separate history per tag. */
  tag?: string | null;
}

/** `{ type: "attributes" }`: read attributes of selected elements. */
export interface AttributesFormat {
  type: "attributes";
  /** CSS selector and attribute pairs. */
  selectors: { selector: string; attribute: string }[];
}

/** `{ type: "query" }`: ask a question about the page (answer in `answer`). */
export interface QueryFormat {
  type: "query";
  /** The question (at most 10000 characters). */
  prompt: string;
}

/** `{ type: "question" }` (added by the server after the baseline): answer a question about the page. */
export interface QuestionFormat {
  type: "question";
  question: string;
}

/** `{ type: "highlights" }` (added by the server after the baseline): passages relevant to a query. */
export interface HighlightsFormat {
  type: "highlights";
  /** What to look for. */
  query: string;
}

/** One entry of `formats`. */
export type Format =
  | StringFormat
  | { type: StringFormat }
  | JsonFormat
  | ScreenshotFormat
  | ChangeTrackingFormat
  | AttributesFormat
  | QueryFormat
  | QuestionFormat
  | HighlightsFormat;

/** Browser actions run before the page is captured (reference §3.4). At most 50. */
export type Action =
  | { type: "wait"; milliseconds: number; selector?: never }
  | { type: "wait"; selector: string; milliseconds?: never }
  | { type: "click"; selector: string; all?: boolean }
  | { type: "screenshot"; fullPage?: boolean; quality?: number; viewport?: { width: number; height: number } }
  | { type: "write"; text: string }
  | { type: "press"; key: string }
  | { type: "scroll"; direction?: "up" | "down"; selector?: string }
  | { type: "scrape" }
  | { type: "executeJavascript"; script: string }
  | { type: "pdf"; landscape?: boolean; scale?: number; format?: "A0" | "A1" | "A2" | "A3" | "A4" | "A5" | "A6" | "Letter" | "Legal" | "Tabloid" | "Ledger" };

/** Location emulation (`location`). */
export interface Location {
  /** ISO 3166-1 alpha-2 country code (any case), `us-generic` or `us-whitelist`. */
  country?: string;
  /** Preferred languages, Accept-Language style. */
  languages?: string[];
}

/** PDF parser settings (`parsers`). `[]` returns PDFs unparsed. */
export type Parser = "pdf" | { type: "pdf"; mode?: "fast" | "auto" | "ocr"; maxPages?: number };

/** Scrape options (v2 `baseScrapeOptions`), used by scrape, batch scrape and `scrapeOptions` elsewhere. */
export interface ScrapeOptions {
  /** Output formats (default `["markdown"]`). */
  formats?: readonly Format[];
  /** Main content only (default true). */
  onlyMainContent?: boolean;
  /** Strip boilerplate further (default false). */
  onlyCleanContent?: boolean;
  /** CSS selectors to keep. */
  includeTags?: string[];
  /** CSS selectors to drop. */
  excludeTags?: string[];
  /** Headers sent to the target site. */
  headers?: Record<string, string>;
  /** Extra wait before capture, ms (0..60000, at most half of `timeout`). */
  waitFor?: number;
  /** Server-side scrape timeout, ms (>= 1000). The client waits at least this long plus a margin. */
  timeout?: number;
  /** Emulate a mobile device. */
  mobile?: boolean;
  /** PDF parsing (replaces v1 `parsePDF`). */
  parsers?: Parser[];
  actions?: Action[];
  location?: Location;
  /** Skip TLS verification of the target. */
  skipTlsVerification?: boolean;
  /** Remove base64 images (default true). */
  removeBase64Images?: boolean;
  /** Block ads (default true). */
  blockAds?: boolean;
  /** Proxy type (default `auto`). */
  proxy?: "basic" | "stealth" | "enhanced" | "auto";
  /** Accept a cached copy up to this age, ms (`0` disables the cache; server default 2 days). */
  maxAge?: number;
  /** Only serve cached copies at least this old, ms (a miss is 404 `SCRAPE_NO_CACHED_DATA`). */
  minAge?: number;
  /** Store the result in the cache (default true). */
  storeInCache?: boolean;
  /** Faster, less thorough scraping. */
  fastMode?: boolean;
}

/** Options of {@link scrape}: scrape options plus the top-level scrape fields. */
export interface ScrapeParams extends ScrapeOptions {
  /** Zero data retention (needs team permission). */
  zeroDataRetention?: boolean;
  /** Free-form origin tag (default `api`). */
  origin?: string;
  /** Integration name (a known one, or any string starting with `_`). */
  integration?: string;
}

const viewport = z.object({ width: int(1, 7680), height: int(1, 4320) });
/** Object formats with a required field: a bare name is a server 400. */
const OBJECT_ONLY: Record<string, string> = { attributes: '{ type: "attributes", selectors }', query: '{ type: "query", prompt }', question: '{ type: "question", question }', highlights: '{ type: "highlights", query }' };
/** v1 format names the v2 server rejects. */
const V1_ONLY: Record<string, string> = { extract: '{ type: "json", prompt, schema }', "screenshot@fullPage": '{ type: "screenshot", fullPage: true }' };
// The names above are reported by scrapeOptionsRules (with what to write instead); unknown names: `formatNameSchema`.
const jsonSchema = z.record(z.string(), z.unknown());
/** The object formats with fields, each checked against its own schema (`{ type: "markdown" }` and the like take none). */
const OBJECT_FORMATS = new Map<string, z.ZodMiniType>(Object.entries({
  json: z.looseObject({ prompt: z.optional(z.string().check(z.maxLength(10000))), schema: z.optional(jsonSchema) }),
  screenshot: z.looseObject({ fullPage: z.optional(z.boolean()), quality: z.optional(int(1, 100)), viewport: z.optional(viewport) }),
  changeTracking: z.looseObject({
    modes: z.optional(z.array(z.enum(["git-diff", "json"]))),
    schema: z.optional(jsonSchema),
    prompt: z.optional(z.string()),
    tag: z.optional(z.nullable(z.string())),
  }),
  attributes: z.looseObject({ selectors: z.array(z.object({ selector: z.string(), attribute: z.string() })) }),
  query: z.looseObject({ prompt: z.string().check(z.maxLength(10000)) }),
  question: z.looseObject({ question: z.string() }),
  highlights: z.looseObject({ query: z.string() }),
}));
/** `{ type, ... }` with any other field: an action. */
const typedObject = z.looseObject({ type: z.string() });

/**
 * The known name that `name`, not one itself, is a misspelling of: the same but for case, or within a
 * small edit distance (1 for a name of up to 4 characters, else 2; Levenshtein, by fastest-levenshtein).
 */
function misspelt(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return undefined;
  const lower = name.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(lower, k.toLowerCase());
    if (d <= (name.length <= 4 ? 1 : 2) && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name;
}

/**
 * The check of a format name against the names a version knows (`known`, listed in messages as `listed`),
 * one rule for v2 and v1: a misspelling of a known name is refused with "did you mean" and the valid
 * names; any other unknown name is sent as given when `open` (v2: the server may know a format this SDK
 * does not yet), else refused with the valid names (v1, whose formats are fixed).
 */
export function formatNameSchema(known: readonly string[], listed: string, open: boolean): z.ZodMiniType<string> {
  return z.string().check(
    rules((name: string, ctx) => {
      const near = misspelt(name, known);
      if (near) ctx.issues.push({ code: "custom", path: [], message: `unknown format "${name}": did you mean "${near}"? The formats: ${listed}`, input: name });
      else if (!open && !known.includes(name)) ctx.issues.push({ code: "custom", path: [], message: `unknown format "${name}". The formats: ${listed}`, input: name });
    }),
  );
}

/** v2 format names: every name the server takes (written as a name or, for some, only as an object), the v1 names the rules explain included. */
const formatName = formatNameSchema([...FORMAT_NAMES, ...OBJECT_FORMAT_NAMES, ...Object.keys(V1_ONLY)], KNOWN_FORMATS_TEXT, true);
/** `{ type, ... }` of an object format without fields of its own to check, or one the SDK does not know (the server is the judge). */
const typedFormat = z.looseObject({ type: formatName });
/** A format: a name, or `{ type, ... }` checked against its type's schema (`oneOf`: the field at fault named). */
const formatSchema = oneOf({ string: formatName, object: (f) => OBJECT_FORMATS.get(f.type as string) ?? typedFormat }, "a format name or { type, ... }");

/** Checks of the scrape options shared by every endpoint that takes them. */
export const scrapeOptionsShape = {
  formats: z.optional(z.array(formatSchema)),
  onlyMainContent: z.optional(z.boolean()),
  onlyCleanContent: z.optional(z.boolean()),
  includeTags: z.optional(z.array(z.string())),
  excludeTags: z.optional(z.array(z.string())),
  headers: z.optional(z.record(z.string(), z.string())),
  waitFor: z.optional(int(0, 60000)),
  timeout: z.optional(int(1000)),
  mobile: z.optional(z.boolean()),
  parsers: z.optional(
    z.array(
      oneOf(
        { string: z.enum(["pdf"]), object: z.object({ type: z.enum(["pdf"]), mode: z.optional(z.enum(["fast", "auto", "ocr"])), maxPages: z.optional(int(1, 10000)) }) },
        '"pdf" or { type: "pdf", mode, maxPages }',
      ),
    ),
  ),
  // The 50-action limit is checked in scrapeOptionsRules: a failed length check would stop the cross-field rules.
  actions: z.optional(z.array(typedObject)),
  location: z.optional(z.looseObject({ country: z.optional(z.string().check(z.minLength(2))), languages: z.optional(z.array(z.string())) })),
  skipTlsVerification: z.optional(z.boolean()),
  removeBase64Images: z.optional(z.boolean()),
  blockAds: z.optional(z.boolean()),
  proxy: z.optional(z.enum(["basic", "stealth", "enhanced", "auto"])),
  maxAge: z.optional(int(0)),
  minAge: z.optional(int(0)),
  storeInCache: z.optional(z.boolean()),
  fastMode: z.optional(z.boolean()),
} as const;

/** The v2 reading of the cross-field scrape rules (`api/scrape-rules.ts`): a `formats` entry is a name or a `{ type }` object. */
export function scrapeOptionsRules(o: ScrapeOptions, ctx: { issues: { path: PropertyKey[]; message: string; code: "custom"; input: unknown }[] }): void {
  // Runs even when the value is not an object (`when: () => true`): the object check reports that.
  if (typeof o !== "object" || o === null) return;
  const names = (Array.isArray(o.formats) ? o.formats : []).map((f) => (typeof f === "string" ? f : (f as { type?: unknown } | null)?.type));
  (Array.isArray(o.formats) ? o.formats : []).forEach((f, i) => {
    const instead = typeof f === "string" ? (OBJECT_ONLY[f] ?? V1_ONLY[f]) : undefined;
    if (instead) ctx.issues.push({ code: "custom", path: ["formats", i], message: `the "${String(f)}" format must be written ${instead}`, input: f });
  });
  scrapeRules({ names, formats: o.formats, waitFor: o.waitFor, timeout: o.timeout, actions: o.actions }, ctx);
}

/** Validates scrape options nested under `scrapeOptions` (crawl, search, extract); marked pure: `scrape` alone does not carry it. */
export const scrapeOptionsSchema = /* @__PURE__ */ z.looseObject(scrapeOptionsShape).check(/* @__PURE__ */ rules((o, ctx) => scrapeOptionsRules(o as ScrapeOptions, ctx as never), { when: () => true }));

const scrapeBody = z
  .looseObject({
    url: httpUrl,
    ...scrapeOptionsShape,
    zeroDataRetention: z.optional(z.boolean()),
    origin: z.optional(z.string()),
    integration: z.optional(z.string()),
  })
  .check(rules((o, ctx) => scrapeOptionsRules(o as ScrapeOptions, ctx as never), { when: () => true }));

/** What {@link scrape} reads from a 2xx answer: the document (not deep-checked). */
const scrapeAnswer = z.looseObject({ data: anyObject });

/** The `json` type of the `formats` given: inferred from the json format's schema, else `unknown`. */
export type JsonOfFormats<F> = F extends readonly (infer E)[] ? JsonOfFormat<Extract<E, { type: "json" }>> : unknown;
type JsonOfFormat<E> = [E] extends [never] ? unknown : E extends { schema?: infer S } ? InferSchema<S> : unknown;

/** The document {@link scrape} resolves to for options `O` (`json` typed from the json format's schema). */
export type ScrapeResult<O extends ScrapeOptions = ScrapeOptions> = Document<JsonOfFormats<O["formats"]>>;

/**
 * Scrape options as sent: schemas in `formats` converted to JSON Schema, the
 * `validate` flag removed. A new object when a format changed (every other key
 * passes through), else the options themselves, which nothing changes.
 */
export function wireScrapeOptions<O extends ScrapeOptions>(options: O, where = "formats"): O {
  if (!options.formats) return options;
  const formats = wireFormats(options.formats, where);
  return formats === options.formats ? options : { ...options, formats };
}

/** `POST /v2/scrape`: the options checked, the schemas in `formats` converted; the result is the document. */
const SCRAPE: Endpoint<[string, ScrapeParams], { data: Document }, Document> = { op: "scrape",
  path: "/v2/scrape",
  occupies: true,
  // `url` apart: the options' verdict is remembered whatever the URL (no rule of scrapeOptionsRules reads `url`).
  body: (url, opts) => check(scrapeBody, { ...wireScrapeOptions(optionsArg(opts, "scrape options")), url }, "scrape options", "url"),
  response: scrapeAnswer,
  map: ({ data }, [, opts], http) => {
    // A server without an AI key answers a json format with 200 and no `json`: said once per client, with the likely cause.
    if (data.json === undefined && !http.state.said.has("json-missing") && opts?.formats?.some((f) => f === "json" || (f as { type?: unknown }).type === "json")) {
      http.state.said.add("json-missing");
      http.log("warn", "webdata: no json in the answer to a json format (no AI key on the server?)");
    }
    return data;
  },
};

/** `POST /v2/scrape`. A 200 with `success:false` (e.g. `SCRAPE_DNS_RESOLUTION_ERROR`) throws `APIError`. */
export function scrape<O extends ScrapeParams>(http: HttpClient, url: string, options?: O, req?: RequestOptions): APIPromise<ScrapeResult<O>> {
  const opts: ScrapeParams = options ?? {};
  const formats = opts.formats; // the formats of the call, for validating its result
  const res = send(http, SCRAPE, req, url, opts);
  // No json format with a schema to validate the result by: the document as sent, with no step more.
  // (Formats that are no array are refused by the body's check: the call rejects.)
  if (!Array.isArray(formats) || !validatingSchema(formats)) return res as APIPromise<ScrapeResult<O>>;
  return new APIPromise(res.withResponse().then(async ({ data, response }) => ({ data: (await validateDocuments(formats, [data]))[0] as ScrapeResult<O>, response })));
}

