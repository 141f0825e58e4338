/**
 * v1 scrape options (reference §15.2): string formats including `extract`,
 * `json` and `screenshot@fullPage`, the `extract`/`jsonOptions` objects that
 * must pair with those formats, `parsePDF`, `geolocation`. Shared by
 * `scrapeUrl`, batch scrape (top level) and `scrapeOptions` of crawl and search.
 */
import type { ExtractOptions } from "../api/extract.js";
import { wireSchema, type SchemaInput } from "../api/schema.js";
import { formatNameSchema, scrapeOptionsShape, type ChangeTrackingFormat, type Location, type ScrapeOptions, type ScrapeParams } from "../api/scrape.js";
import { scrapeRules, type RuleIssues } from "../api/scrape-rules.js";
import * as z from "zod/v4/mini";
import { int, rules } from "../core/validate.js";

/** The v1 format names (reference §15.2): fixed, so an unknown one is refused before sending. */
const FORMATS = ["markdown", "html", "rawHtml", "links", "screenshot", "screenshot@fullPage", "extract", "json", "summary", "changeTracking", "branding"] as const;

/** A v1 format name (reference §15.2). */
export type V1Format = (typeof FORMATS)[number];

/** v1 LLM extraction options (`extract`, deprecated, or `jsonOptions`). `S` is the schema's type, which types the result. */
export interface V1JsonOptions<S extends SchemaInput = SchemaInput> extends Pick<ExtractOptions, "prompt" | "systemPrompt"> {
  /** Schema of the result: a zod 4 / zod 3 schema, a Standard Schema with JSON Schema output, or a plain JSON Schema (converted on the wire; the result is typed from it). */
  schema?: S;
  /** Mode (server default `llm`). */
  mode?: "llm";
  /** Sampling temperature. */
  temperature?: number;
  /** FIRE-1 agent for the extraction. */
  agent?: { model?: string; prompt?: string };
}

/** v1 `changeTrackingOptions`. */
export interface V1ChangeTrackingOptions extends Omit<ChangeTrackingFormat, "type"> {}

/** The v2 scrape options v1 takes with the same meaning and defaults. */
type V2ScrapeFields = "headers" | "includeTags" | "excludeTags" | "onlyMainContent" | "waitFor" | "location" | "mobile" | "skipTlsVerification"
  | "removeBase64Images" | "blockAds" | "storeInCache";

/** Scrape options as v1 `scrapeOptions` of crawl, extract and search (v1 library `CrawlScrapeOptions`, plus the LLM options the v1 server accepts there too). */
export interface V1CrawlScrapeOptions<S extends SchemaInput = SchemaInput> extends Pick<ScrapeOptions, V2ScrapeFields> {
  /** Output formats (server default `["markdown"]`). `extract` needs `extract`, `json` needs `jsonOptions`. */
  formats?: V1Format[];
  /** Server-side scrape timeout, ms (>= 1000; v1 default 30000). */
  timeout?: number;
  /** Deprecated v1 name of `location`. */
  geolocation?: Location;
  /** Proxy (v1 default `basic`). */
  proxy?: "basic" | "stealth" | "enhanced" | "auto";
  /** Accept a cached copy up to this age, ms (v1 default one day). */
  maxAge?: number;
  /** Parse PDFs (default true). v2: `parsers`. */
  parsePDF?: boolean;
  /** Options of the `extract` format (deprecated v1 name of `jsonOptions`). */
  extract?: V1JsonOptions<S>;
  jsonOptions?: V1JsonOptions<S>;
  /** Options of the `changeTracking` format. */
  changeTrackingOptions?: V1ChangeTrackingOptions;
}

/** Options of `scrapeUrl` and of batch scrape (v1 library `ScrapeParams`). `S`, the `extract` / `jsonOptions` schema's type, types the result. */
export interface V1ScrapeParams<S extends SchemaInput = SchemaInput> extends V1CrawlScrapeOptions<S>, Pick<ScrapeParams, "actions" | "zeroDataRetention"> {
  /** FIRE-1 agent (scrape only). */
  agent?: { model?: string; prompt: string; sessionId?: string; waitBeforeClosingMs?: number };
}

const prompt = z.optional(z.string().check(z.maxLength(10000)));
const jsonOptions = z.looseObject({ prompt, systemPrompt: prompt, schema: z.optional(z.record(z.string(), z.unknown())), mode: z.optional(z.enum(["llm"])), temperature: z.optional(z.number()) });

// The fields v1 shares with v2 keep the v2 checks (one limit, one place); the 50-action limit is a cross-field rule.
const { headers, includeTags, excludeTags, onlyMainContent, waitFor, timeout, location, mobile, skipTlsVerification, removeBase64Images, blockAds, proxy, storeInCache, maxAge, actions } = scrapeOptionsShape;

/** zod/mini checks of the v1 scrape option fields (unknown keys pass through to the server): the v2 checks of the shared fields, plus v1's own. */
export const v1ScrapeOptionsShape = {
  // The v2 format-name rule over v1's fixed names: a misspelling gets "did you mean", any other unknown name the list.
  formats: z.optional(z.array(formatNameSchema(FORMATS, FORMATS.join(", "), false))),
  headers,
  includeTags,
  excludeTags,
  onlyMainContent,
  waitFor,
  timeout,
  location,
  geolocation: location,
  mobile,
  skipTlsVerification,
  removeBase64Images,
  blockAds,
  proxy,
  storeInCache,
  maxAge,
  parsePDF: z.optional(z.boolean()),
  extract: z.optional(jsonOptions),
  jsonOptions: z.optional(jsonOptions),
  actions,
} as const;

/**
 * The v1 server's cross-field rules (400 there), checked before sending: the
 * shared scrape rules (`api/scrape-rules.ts`) in the v1 reading of `formats`
 * (names; `screenshot@fullPage` is a screenshot, a repeated name counts once),
 * plus the v1-only pairing of the `extract` / `json` formats with their options.
 */
export function v1ScrapeRules(o: V1ScrapeParams, ctx: RuleIssues): void {
  const f: unknown[] = Array.isArray(o.formats) ? o.formats : [];
  const names = [...new Set(f)].map((n) => (n === "screenshot@fullPage" ? "screenshot" : n));
  scrapeRules({ names, formats: o.formats, waitFor: o.waitFor, timeout: o.timeout, actions: o.actions }, ctx);
  const push = (path: string, message: string): void => void ctx.issues.push({ code: "custom", path: [path], message, input: (o as Record<string, unknown>)[path] });
  if (f.includes("extract") !== (o.extract !== undefined)) push("extract", "the extract format and the extract options must be given together");
  if (f.includes("json") !== (o.jsonOptions !== undefined)) push("jsonOptions", "the json format and jsonOptions must be given together");
}

/** Validates v1 `scrapeOptions` nested in crawl and search bodies. */
export const v1ScrapeOptionsSchema = z.looseObject(v1ScrapeOptionsShape).check(rules((o, ctx) => v1ScrapeRules(o as V1ScrapeParams, ctx as never)));

/** The wire form of v1 scrape options: schemas converted to plain JSON Schema (fresh objects; the caller's are never mutated). */
export function v1ScrapeWire<T extends V1ScrapeParams>(o: T, where = ""): T {
  const out: T = { ...o };
  if (o.extract?.schema) out.extract = { ...o.extract, schema: wireSchema(o.extract.schema, `${where}extract.schema`) };
  if (o.jsonOptions?.schema) out.jsonOptions = { ...o.jsonOptions, schema: wireSchema(o.jsonOptions.schema, `${where}jsonOptions.schema`) };
  if (o.changeTrackingOptions?.schema) out.changeTrackingOptions = { ...o.changeTrackingOptions, schema: wireSchema(o.changeTrackingOptions.schema, `${where}changeTrackingOptions.schema`) };
  return out;
}
