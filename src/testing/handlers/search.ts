/**
 * Fake `POST /v2/search` over the fixture web: `web` results are pages whose
 * title, description or text contain a query word; `news` are the matching
 * `/blog/` pages; `images` are the matching pages' images. `limit` applies per
 * source. With `scrapeOptions.formats`, each result is scraped and the
 * document fields are merged into the item (json conforming to the schema).
 * Validation failures answer 400 "Invalid request body" without `code`, as
 * the real search controller does.
 */
import type { FixturePage } from "../fixtures.js";
import { CREDITS, fail, HttpFailure, json, type FakeService } from "../service.js";
import { buildDocument, fakeId, parseFormats, SCRAPE_OPTION_KEYS } from "./scrape.js";

const KEYS = new Set([
  "query", "limit", "sources", "categories", "tbs", "filter", "lang", "country", "location", "timeout", "ignoreInvalidURLs", "enterprise",
  "asyncScraping", "scrapeOptions", "origin", "integration",
]);
const SEARCH_FORMATS = new Set(["markdown", "html", "rawHtml", "links", "images", "summary", "json", "query", "screenshot"]);

function invalid(path: (string | number)[], message: string, code = "custom", extra: Record<string, unknown> = {}): never {
  throw new HttpFailure(fail(400, "Invalid request body", { details: [{ ...extra, code, path, message }] }));
}

function matches(page: FixturePage, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${page.title} ${page.description} ${page.markdown}`.toLowerCase();
  return words.some((w) => text.includes(w));
}

type Item = Record<string, unknown> & { url?: string };

/** Registers `POST /v2/search`. */
export function registerSearch(fake: FakeService): void {
  fake.route("POST", "/v2/search", ({ body, team, key }) => {
    const q = searchQuery((body ?? {}) as Record<string, unknown>);
    fake.requireCredits(team, q.limit);
    const hits = fake.pages.filter((p) => p.statusCode === 200 && matches(p, q.query));
    const data: Record<string, Item[]> = {};
    for (const source of new Set(q.sources)) {
      const tag = q.category && source !== "images" ? { category: q.category } : {};
      data[source] = results(hits, source).slice(0, q.limit).map((it, i) => ({ ...it, position: i + 1, ...tag }));
    }
    const total = Object.values(data).reduce((n, items) => n + items.length, 0);
    const credits = Math.ceil(total / 10) * CREDITS.searchPer10 * (q.enterprise.includes("zdr") ? 10 : 1) + scrapeResults(fake, data, q.formats);
    fake.charge(team, credits, key);
    const out: Record<string, unknown> = { success: true, data, creditsUsed: credits, id: fakeId(fake) };
    if (total === 0) out.warning = "No search results found";
    return json(200, out);
  });
}

/** A search request's body, checked as the search controller checks it. */
function searchQuery(b: Record<string, unknown>) {
  const unknown = Object.keys(b).filter((k) => !KEYS.has(k));
  if (unknown.length) invalid([], `Unrecognized key(s) in object: ${unknown.map((k) => `'${k}'`).join(", ")}`, "unrecognized_keys");
  if (typeof b.query !== "string") invalid(["query"], "Invalid input: expected string, received undefined", "invalid_type", { expected: "string" });
  const limit = b.limit === undefined ? 10 : b.limit;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 100) invalid(["limit"], "Number must be between 1 and 100", "too_big");
  const sources = ((b.sources as unknown[] | undefined) ?? ["web"]).map((s, i) => {
    const t = typeof s === "string" ? s : (s as { type?: unknown })?.type;
    if (t !== "web" && t !== "news" && t !== "images") invalid(["sources", i], "Invalid input", "invalid_union");
    return t;
  });
  const categories = ((b.categories as unknown[] | undefined) ?? []).map((c) => (typeof c === "string" ? c : (c as { type?: string })?.type));
  const so = (b.scrapeOptions ?? {}) as Record<string, unknown>;
  const badKeys = Object.keys(so).filter((k) => !SCRAPE_OPTION_KEYS.has(k));
  if (badKeys.length) invalid(["scrapeOptions"], `Unrecognized key(s) in object: ${badKeys.join(", ")}`, "unrecognized_keys");
  const formats = so.formats === undefined ? [] : parseFormats(so.formats);
  formats.forEach((f, i) => {
    if (!SEARCH_FORMATS.has(f.type)) invalid(["scrapeOptions", "formats", i], "Invalid input", "invalid_union");
  });
  return { query: b.query, limit, sources, category: categories[0], formats, enterprise: (b.enterprise as string[] | undefined) ?? [] };
}

/** The items of one source for the pages that match. */
function results(hits: FixturePage[], source: "web" | "news" | "images"): Item[] {
  if (source === "web") return hits.map((p) => ({ url: p.url, title: p.title, description: p.description }));
  if (source === "news") return hits.filter((p) => p.url.includes("/blog/")).map((p, i) => ({ title: p.title, url: p.url, snippet: p.description, date: `${i + 1} days ago` }));
  return hits.flatMap((p) => p.images.map((img) => ({ title: p.title, imageUrl: img, imageWidth: 640, imageHeight: 480, url: p.url })));
}

/** Scrapes each result's page in `formats` into its item; the credits the scrapes cost. */
function scrapeResults(fake: FakeService, data: Record<string, Item[]>, formats: ReturnType<typeof parseFormats>): number {
  let credits = 0;
  for (const item of formats.length ? Object.values(data).flat() : []) {
    const page = item.url ? fake.findPage(item.url) : undefined;
    if (!page) continue;
    const { doc, credits: c } = buildDocument(fake, page, formats, page.url);
    Object.assign(item, doc);
    credits += c;
  }
  return credits;
}
