/**
 * Fake `POST /v2/scrape` and the document builder shared by crawl, batch and
 * search handlers.
 */
import { htmlOf, withScheme, type FixturePage } from "../fixtures.js";
import { CREDITS, fail, HttpFailure, json, type FakeService } from "../service.js";

/** v2 scrape option keys (strict, as the server). */
export const SCRAPE_OPTION_KEYS = new Set([
  "formats", "onlyMainContent", "onlyCleanContent", "includeTags", "excludeTags", "headers", "waitFor", "timeout", "mobile", "parsers",
  "actions", "location", "skipTlsVerification", "removeBase64Images", "blockAds", "proxy", "maxAge", "minAge", "storeInCache", "fastMode", "useMock",
]);
/** Formats the server added after the reference's baseline (§14): served with small deterministic values. */
const LATER_FORMATS = ["product", "menu", "audio", "video", "question", "highlights"];
const SCRAPE_TOP_KEYS = new Set(["url", "zeroDataRetention", "origin", "integration", ...SCRAPE_OPTION_KEYS]);
const STRING_FORMATS = new Set(["markdown", "html", "rawHtml", "links", "summary", "images", "branding", "json", "changeTracking", "screenshot", "attributes", "query", ...LATER_FORMATS]);

/** 400 in the server's words for unknown keys; returns the body as a record (none: `{}`). */
export function rejectUnknownKeys(body: unknown, allowed: Set<string>): Record<string, unknown> {
  const b = (body ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !allowed.has(k));
  const error = "Unrecognized key in body -- please review the v2 API documentation for request body changes";
  if (unknown.length) refuse(error, [{ code: "unrecognized_keys", keys: unknown, path: [], message: `Unrecognized key: "${unknown[0]}"` }]);
  return b;
}

/** 400 `BAD_REQUEST` with zod-like `details`, as the server answers a body it refuses. */
function refuse(error: string, details: Record<string, unknown>[]): never {
  throw new HttpFailure(fail(400, error, { code: "BAD_REQUEST", details }));
}

/**
 * 400 with zod-like details, worded as the server words it: the `error` is the
 * issue's own message for a refinement (`custom`), else "Bad Request".
 */
export function badRequest(path: string[], message: string, code = "custom"): never {
  refuse(code === "custom" ? message : "Bad Request", [{ code, path, message }]);
}

const URL_MESSAGE = "URL must have a valid top-level domain or be a valid path";

/** 400 for a bad URL, as recorded: a missing one names the rule; a malformed one is "Bad Request" with three issues. */
export function badUrl(path: (string | number)[], value: unknown): never {
  if (value === undefined) refuse(URL_MESSAGE, [{ code: "custom", path, message: URL_MESSAGE }]);
  refuse("Bad Request", [
    { code: "invalid_format", format: "url", path, message: "Invalid URL" },
    { code: "custom", path, message: URL_MESSAGE },
    { code: "custom", path, message: "Invalid URL" },
  ]);
}

/** Checks a URL as the server does (http(s), a TLD of 2+ characters). */
export function validUrl(raw: unknown): boolean {
  if (typeof raw !== "string") return false;
  const full = withScheme(raw);
  if (!URL.canParse(full)) return false;
  const u = new URL(full);
  return (u.protocol === "http:" || u.protocol === "https:") && /\.[a-z0-9-]{2,}$|^\d+\.\d+\.\d+\.\d+$|^localhost$/i.test(u.hostname);
}

type FormatObj = { type: string; [k: string]: unknown };

/** Normalises `formats` to objects; 400 for unknown names. Default `[{type:"markdown"}]`. */
export function parseFormats(raw: unknown): FormatObj[] {
  if (raw === undefined) return [{ type: "markdown" }];
  if (!Array.isArray(raw)) badRequest(["formats"], "Invalid input: expected array", "invalid_type");
  return raw.map((f, i) => {
    const obj = (typeof f === "string" ? { type: f } : f) as FormatObj;
    if (!obj || typeof obj.type !== "string" || !STRING_FORMATS.has(obj.type)) badRequest(["formats", String(i)], "Invalid input", "invalid_union");
    if (obj.type === "screenshot" && typeof obj.quality === "number" && obj.quality > 100) badRequest(["formats", String(i), "quality"], "Too big: expected number to be <=100", "too_big");
    return obj;
  });
}

/**
 * Builds a value that conforms to a JSON Schema, from the page's content
 * (deterministic). Follows local `$ref`s (`#/definitions/..`, `#/$defs/..`),
 * merges `allOf`, picks the first non-null branch of `anyOf`/`oneOf` and type
 * lists, honours `const`, `enum`, string formats, numeric bounds and `minItems`.
 */
export function conform(schema: unknown, page: FixturePage, key = "", root: unknown = schema, depth = 0): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (depth > 12) return null;
  const next = (x: unknown, k = key) => conform(x, page, k, root, depth + 1);
  if (typeof s.$ref === "string") {
    const target = s.$ref.replace(/^#\//, "").split("/").reduce<unknown>((o, part) => (o as Record<string, unknown> | undefined)?.[part], root);
    return next(target);
  }
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.allOf) && s.allOf.length) {
    return Object.assign({}, ...s.allOf.map((x) => next(x)).filter((v) => typeof v === "object" && v !== null));
  }
  const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined) as Record<string, unknown>[] | undefined;
  if (branches?.length) return next(branches.find((b) => b?.type !== "null") ?? branches[0]);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const type = types.find((t) => t !== "null") ?? types[0];
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props)) out[k] = next(v, k);
      return out;
    }
    case "array": {
      if (Array.isArray(s.items)) return s.items.map((x) => next(x));
      const n = Math.max(1, typeof s.minItems === "number" ? s.minItems : 1);
      return Array.from({ length: n }, () => next(s.items));
    }
    case "integer":
      return Math.round(bounded(s, page.title.length));
    case "number":
      return bounded(s, page.title.length + 0.5);
    case "boolean":
      return true;
    case "null":
      return null;
    case "string":
    default:
      return stringFor(s, page, key);
  }
}

/** `base` within the schema's `minimum` and `maximum`. */
function bounded(s: Record<string, unknown>, base: number): number {
  let n = base;
  if (typeof s.minimum === "number") n = Math.max(n, s.minimum);
  if (typeof s.maximum === "number") n = Math.min(n, s.maximum);
  return n;
}

/** A string for the schema: a sample of its `format`, else the page's field its key names (title, URL, description). */
function stringFor(s: Record<string, unknown>, page: FixturePage, key: string): string {
  const formats: Record<string, string> = {
    "date-time": "2026-01-01T00:00:00.000Z",
    date: "2026-01-01",
    time: "00:00:00",
    email: `hello@${new URL(page.url).hostname}`,
    uri: page.url,
    url: page.url,
    uuid: "00000000-0000-4000-8000-000000000000",
  };
  if (typeof s.format === "string" && formats[s.format]) return formats[s.format]!;
  return /title|name/i.test(key) ? page.title : /url|link/i.test(key) ? page.url : /desc|summary/i.test(key) ? page.description : page.title;
}

/** The Document for a page and the requested formats, with the credits it costs. */
export function buildDocument(fake: FakeService, page: FixturePage, formats: FormatObj[], sourceURL: string): { doc: Record<string, unknown>; credits: number } {
  const doc: Record<string, unknown> = {};
  let credits = CREDITS.scrape;
  for (const f of formats) {
    switch (f.type) {
      case "markdown": doc.markdown = page.markdown; break;
      case "html": doc.html = htmlOf(page); break;
      case "rawHtml": doc.rawHtml = `<!DOCTYPE html>${htmlOf(page)}`; break;
      case "links": doc.links = [...page.links]; break;
      case "images": doc.images = [...page.images]; break;
      case "summary": doc.summary = `${page.title}: ${page.description}`; break;
      case "screenshot": doc.screenshot = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="; break;
      case "json":
        doc.json = f.schema ? conform(f.schema, page) : { title: page.title, description: page.description };
        credits += CREDITS.jsonFormat;
        break;
      case "query": doc.answer = `${page.title}. ${page.description}`; break;
      case "changeTracking": doc.changeTracking = { previousScrapeAt: null, changeStatus: "new", visibility: "visible" }; break;
      case "attributes":
        doc.attributes = ((f.selectors ?? []) as { selector: string; attribute: string }[]).map((s) => ({ ...s, values: [] }));
        break;
      case "branding": doc.branding = { colorScheme: "light", colors: { primary: "#123456" } }; break;
      case "product": doc.product = { name: page.title, description: page.description }; break;
      case "menu": doc.menu = { sections: [] }; break;
      case "audio": doc.audio = `${FIXTURE_MEDIA}/audio-${fakeId(fake)}.mp3`; break;
      case "video": doc.video = `${FIXTURE_MEDIA}/video-${fakeId(fake)}.mp4`; break;
      case "question": doc.answer = `${page.title}. ${page.description}`; break;
      case "highlights": doc.highlights = page.description; break;
    }
  }
  doc.metadata = {
    title: page.title,
    description: page.description,
    language: "en",
    ogLocaleAlternate: [],
    scrapeId: fakeId(fake),
    sourceURL,
    url: page.url,
    statusCode: page.statusCode,
    contentType: "text/html",
    proxyUsed: "basic",
    creditsUsed: credits,
    concurrencyLimited: false,
    ...page.metadata,
  };
  return { doc, credits };
}

/** Where the fake's audio and video files "live". */
const FIXTURE_MEDIA = "https://storage.fake.webdata.test/media";

/** The fake's state under `key`, made by `init` on first use. */
export function stateOf<T>(fake: FakeService, key: string, init: () => T): T {
  if (!fake.state.has(key)) fake.state.set(key, init());
  return fake.state.get(key) as T;
}

/** A UUID, as the server's id checks read one. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A deterministic UUIDv7-shaped id from the fake's counter. */
export function fakeId(fake: FakeService): string {
  const n = ((fake.state.get("idCounter") as number | undefined) ?? 0) + 1;
  fake.state.set("idCounter", n);
  const hex = n.toString(16).padStart(12, "0");
  const t = Math.floor(fake.now()).toString(16).padStart(12, "0").slice(-12);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7000-8000-${hex}`;
}

/** The 404 page of the fixture web (scraped with success, `statusCode` 404). */
function notFoundPage(url: string): FixturePage {
  return { url, title: "404 Not Found", description: "", markdown: "# Not Found\n\nThe requested URL was not found on this server.", links: [], images: [], inSitemap: false, statusCode: 404 };
}

/** Scrapes a target of the fixture web the way the real server answers. Throws HTTP failures for unknown hosts. */
export function scrapeTarget(fake: FakeService, target: string, formats: FormatObj[]): { doc: Record<string, unknown>; credits: number } {
  const page = fake.findPage(target);
  const moved = page?.redirectTo === undefined ? undefined : fake.findPage(page.redirectTo);
  if (moved) return buildDocument(fake, moved, formats, target); // a redirect: the final page, `sourceURL` the URL requested
  if (page) return buildDocument(fake, page, formats, target);
  const u = new URL(withScheme(target));
  const known = fake.pages.some((p) => new URL(p.url).host === u.host);
  if (known) return buildDocument(fake, notFoundPage(u.toString()), formats, target);
  if (u.pathname.endsWith(".pdf")) {
    throw new HttpFailure(
      json(200, {
        success: false,
        code: "SCRAPE_DNS_RESOLUTION_ERROR",
        error: `DNS resolution failed for hostname "${u.hostname}". This means the domain name could not be translated to an IP address.`,
      }),
    );
  }
  throw new HttpFailure(
    fail(500, "All scraping engines failed! -- Double check the URL to make sure it's not broken. If the issue persists, contact us at help@firecrawl.com.", {
      code: "SCRAPE_ALL_ENGINES_FAILED",
    }),
  );
}

/** Registers `POST /v2/scrape`. */
export function registerScrape(fake: FakeService): void {
  fake.route("POST", "/v2/scrape", ({ body, team, key }) => {
    const b = rejectUnknownKeys(body, SCRAPE_TOP_KEYS);
    if (!validUrl(b.url)) badUrl(["url"], b.url);
    const formats = parseFormats(b.formats);
    fake.requireCredits(team, CREDITS.scrape);
    const { doc, credits } = scrapeTarget(fake, String(b.url), formats);
    fake.charge(team, credits, key);
    return json(200, { success: true, data: doc });
  });
}
