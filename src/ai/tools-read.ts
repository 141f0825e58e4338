/**
 * The reading tools: scrape, search, map, parse (a file the model holds, as
 * text or base64), and feedback on a search or on any job. Their arguments are
 * narrowed as `tools.ts` says: `formats` is an enum of the formats a model can
 * read; search `sources` are names.
 */
import * as z from "zod/v4/mini";
import { mapBody } from "../api/map.js";
import { OPERATIONS } from "../api/operations.js";
import { scrapeOptionsShape, type ScrapeParams } from "../api/scrape.js";
import { searchBody } from "../api/search.js";
import { ValidationError } from "../core/errors.js";
import { httpUrl } from "../core/validate.js";
import type { ToolName } from "./names.js";
import { pageText } from "./render.js";
import { pick, requireAllowed, withFixedScrape, type ToolSpec } from "./spec.js";

/** The scrape formats a model can read as text. */
export const TOOL_FORMATS = ["markdown", "summary", "links", "images", "html", "rawHtml", "screenshot", "branding"] as const;

/** `formats` as a model may give it: names only, at least one. */
export const toolFormats = z.optional(z.array(z.enum(TOOL_FORMATS)).check(z.minLength(1)));

const FORMATS_TEXT = 'Formats, default ["markdown"]. "summary" is short; "links" lists the page\'s links; "screenshot" gives an image URL.';

/** The formats of a parsed file (a file has no screenshot or branding). */
const PARSE_FORMATS = TOOL_FORMATS.filter((f) => f !== "screenshot" && f !== "branding");

/** The bytes of base64 text; a `ValidationError` naming `content` when it is not base64. */
function base64Bytes(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new ValidationError([{ path: "content", message: 'is not base64 (give text with encoding "text", the default)' }], "parse arguments");
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The reading tools, by name. */
export const READ_TOOLS = {
  scrape: {
    schema: z.strictObject({ url: httpUrl, formats: toolFormats, ...pick(scrapeOptionsShape, ["onlyMainContent", "includeTags", "excludeTags", "waitFor", "maxAge"] as const) }),
    params: {
      url: "The page (http or https).",
      formats: FORMATS_TEXT,
      onlyMainContent: "Drop headers, navigation and footers (default true).",
      includeTags: "CSS selectors to keep.",
      excludeTags: "CSS selectors to drop.",
      waitFor: "Milliseconds to wait for the page to render.",
      maxAge: "Accept a cached copy up to this old, ms (0: always fresh; default 2 days).",
    },
    readable: true,
    async run(client, a, ctx) {
      requireAllowed([a.url as string], ctx.fixed);
      const { url, ...opts } = a;
      const doc = await client.scrape(url as string, withFixedScrape(opts, ctx.fixed) as ScrapeParams, { signal: ctx.signal });
      return pageText(doc, { scrapeIdFor: ctx.names.includes("interact") ? "interact" : ctx.names.includes("feedback") ? "feedback" : undefined });
    },
  },
  search: {
    schema: z.strictObject({ query: z.string().check(z.minLength(1)), ...pick(searchBody.shape, ["limit", "tbs", "location", "country"] as const), sources: z.optional(z.array(z.enum(["web", "news", "images"])).check(z.minLength(1))) }),
    params: { query: "What to search for.", limit: `Results per source (default ${OPERATIONS.search.limits.limit.default}).`, sources: 'Default ["web"].', tbs: 'Time filter: "qdr:h", "qdr:d", "qdr:w", "qdr:m", "qdr:y".', location: 'E.g. "Germany".', country: "Two-letter code, e.g. US." },
    readable: true,
    async run(client, a, ctx) {
      const { query, ...opts } = a;
      const res = await client.search(query as string, opts, { signal: ctx.signal });
      const lines: string[] = [];
      for (const source of ["web", "news", "images"] as const) {
        const items = (res[source] ?? []) as { title?: string; url?: string; description?: string; snippet?: string; imageUrl?: string }[];
        if (!items.length) continue;
        lines.push(`# ${source}`);
        for (const it of items) lines.push(`- ${it.title ?? it.url ?? it.imageUrl} (${it.url ?? it.imageUrl})${(it.description ?? it.snippet) ? `: ${it.description ?? it.snippet}` : ""}`);
      }
      if (res.warning) lines.push(`warning: ${res.warning}`);
      const head = ctx.names.includes("search_feedback") && res.id ? `search id: ${res.id} (for search_feedback)` : undefined;
      return { ...(head ? { head } : {}), body: lines.length ? lines.join("\n") : "no results" };
    },
  },
  map: {
    schema: z.strictObject({ url: httpUrl, ...pick(mapBody.shape, ["search", "limit", "includeSubdomains", "sitemap"] as const) }),
    params: { url: "The site's start URL.", search: "Order links by relevance to this text.", limit: `At most this many links (default ${OPERATIONS.map.limits.limit.default}).`, includeSubdomains: "Include subdomains.", sitemap: 'Default "include".' },
    readable: true,
    async run(client, a, ctx) {
      requireAllowed([a.url as string], ctx.fixed);
      const { url, ...opts } = a;
      const res = await client.map(url as string, opts, { signal: ctx.signal });
      return { head: `${res.links.length} links${res.warning ? ` (warning: ${res.warning})` : ""}`, body: res.links.map((l) => `${l.url}${l.title ? ` ${l.title}` : ""}`).join("\n") };
    },
  },
  parse: {
    schema: z.strictObject({
      content: z.string().check(z.minLength(1)),
      filename: z.string().check(z.minLength(1)),
      encoding: z.optional(z.enum(["text", "base64"])),
      formats: z.optional(z.array(z.enum(PARSE_FORMATS)).check(z.minLength(1))),
      ...pick(scrapeOptionsShape, ["onlyMainContent"] as const),
    }),
    params: { filename: "Its extension tells its kind: report.pdf.", formats: 'Default ["markdown"].' },
    readable: true,
    async run(client, a, ctx) {
      const { content, filename, encoding, ...opts } = a;
      const data = encoding === "base64" ? base64Bytes(content as string) : (content as string);
      const doc = await client.parse({ data, filename: filename as string }, withFixedScrape(opts, ctx.fixed), { signal: ctx.signal });
      return pageText(doc, { scrapeIdFor: ctx.names.includes("feedback") ? "feedback" : undefined });
    },
  },
  search_feedback: {
    schema: z.strictObject({
      id: z.string().check(z.minLength(1)),
      rating: z.enum(["good", "partial", "bad"]),
      usefulUrls: z.optional(z.array(httpUrl)),
      missing: z.optional(z.string().check(z.minLength(1))),
      betterQuery: z.optional(z.string()),
    }),
    params: { id: "The search id (from search).", usefulUrls: "Results that helped.", missing: "What the results lacked.", betterQuery: "A query that would have worked better." },
    async run(client, a, ctx) {
      const r = await client.searchFeedback(
        a.id as string,
        {
          rating: a.rating as "good" | "partial" | "bad",
          ...(Array.isArray(a.usefulUrls) ? { valuableSources: (a.usefulUrls as string[]).map((url) => ({ url })) } : {}),
          ...(typeof a.missing === "string" ? { missingContent: [{ topic: a.missing }] } : {}),
          ...(typeof a.betterQuery === "string" ? { querySuggestions: a.betterQuery } : {}),
        },
        { signal: ctx.signal },
      );
      if (r.alreadySubmitted) return "feedback for this search was already recorded; nothing changed";
      return `feedback recorded${r.creditsRefunded ? `, ${r.creditsRefunded} credits refunded` : ""}${r.dailyCapReached ? " (the daily refund cap is reached)" : ""}`;
    },
  },
  feedback: {
    schema: z.strictObject({
      endpoint: z.enum(["scrape", "parse", "map", "search"]),
      jobId: z.string().check(z.minLength(1)),
      rating: z.enum(["good", "partial", "bad"]),
      note: z.string().check(z.minLength(1), z.maxLength(OPERATIONS.feedback.limits.note.max)),
    }),
    params: { jobId: "Its scrape or search id." },
    async run(client, a, ctx) {
      const r = await client.feedback(a as unknown as Parameters<typeof client.feedback>[0], { signal: ctx.signal });
      if (r.alreadySubmitted) return "feedback for this job was already recorded; nothing changed";
      return `feedback recorded${r.creditsRefunded ? `, ${r.creditsRefunded} credits refunded` : ""}`;
    },
  },
} satisfies Partial<Record<ToolName, ToolSpec>>;
