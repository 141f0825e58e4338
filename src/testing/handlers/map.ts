/**
 * Fake `POST /v2/map` and `POST /v1/map`.
 */
import { withScheme } from "../fixtures.js";
import { CREDITS, json, type FakeService } from "../service.js";
import { badRequest, badUrl, rejectUnknownKeys, validUrl } from "./scrape.js";

const V2_KEYS = new Set([
  "url", "search", "sitemap", "includeSubdomains", "ignoreQueryParameters", "limit", "timeout", "location", "headers", "ignoreCache", "useIndex",
  "filterByPath", "useMock", "origin", "integration", "includePaths", "excludePaths", "maxDiscoveryDepth", "crawlEntireDomain", "allowExternalLinks",
  "allowSubdomains", "ignoreRobotsTxt", "deduplicateSimilarURLs", "regexOnFullURL", "delay",
]);
const V1_KEYS = new Set(["url", "search", "ignoreSitemap", "sitemapOnly", "includeSubdomains", "limit", "timeout", "location", "ignoreQueryParameters", "useMock", "filterByPath", "useIndex", "ignoreCache", "headers", "origin", "integration"]);

interface MapQuery {
  url: string;
  search?: string;
  sitemap: "include" | "only" | "skip";
  limit: number;
}

function links(fake: FakeService, q: MapQuery): { url: string; title: string; description: string }[] {
  const start = new URL(withScheme(q.url));
  fake.findPage(start.toString()); // with `anyUrl`, an unknown site is generated before it is mapped
  let pages = fake.pages.filter((p) => new URL(p.url).host === start.host);
  if (q.sitemap === "only") pages = pages.filter((p) => p.inSitemap);
  if (q.sitemap === "skip") pages = pages.filter((p) => !p.inSitemap || p.url === `${start.origin}/`);
  if (q.search) {
    const s = q.search.toLowerCase();
    pages = pages.filter((p) => `${p.url} ${p.title} ${p.description}`.toLowerCase().includes(s));
  }
  return pages.slice(0, q.limit).map((p) => ({ url: p.url, title: p.title, description: p.description }));
}

/** Registers both map routes. */
export function registerMap(fake: FakeService): void {
  fake.route("POST", "/v2/map", ({ body, team, key }) => {
    const b = rejectUnknownKeys(body, V2_KEYS);
    if (!validUrl(b.url)) badUrl(["url"], b.url);
    if (b.sitemap !== undefined && !["include", "only", "skip"].includes(String(b.sitemap))) badRequest(["sitemap"], 'Invalid option: expected one of "only"|"include"|"skip"', "invalid_value");
    const limit = typeof b.limit === "number" ? b.limit : 5000;
    if (limit < 1 || limit > 100000) badRequest(["limit"], "Number must be between 1 and 100000", "too_big");
    fake.requireCredits(team, CREDITS.map);
    const out = links(fake, { url: String(b.url), search: b.search as string | undefined, sitemap: (b.sitemap as MapQuery["sitemap"]) ?? "include", limit });
    fake.charge(team, CREDITS.map, key);
    const body2: Record<string, unknown> = { success: true, links: out };
    if (out.length <= 1 && limit !== 1) body2.warning = `Only ${out.length} result(s) found. For broader coverage, try mapping the base domain: ${new URL(String(b.url)).origin}`;
    return json(200, body2);
  });

  fake.route("POST", "/v1/map", ({ body, team, key }) => {
    const b = rejectUnknownKeys(body, V1_KEYS);
    if (!validUrl(b.url)) badUrl(["url"], b.url);
    const limit = typeof b.limit === "number" ? b.limit : 5000;
    if (limit < 1 || limit > 30000) badRequest(["limit"], "Number must be less than or equal to 30000", "too_big");
    const loc = b.location as { country?: unknown } | undefined;
    if (loc?.country !== undefined && !/^[A-Z]{2}$/.test(String(loc.country))) badRequest(["location", "country"], "Invalid country code", "invalid_format");
    fake.requireCredits(team, CREDITS.map);
    const sitemap = b.sitemapOnly === true ? "only" : b.ignoreSitemap === true ? "skip" : "include";
    const out = links(fake, { url: String(b.url), search: b.search as string | undefined, sitemap, limit });
    fake.charge(team, CREDITS.map, key);
    return json(200, { success: true, links: out.map((l) => l.url) });
  });
}
