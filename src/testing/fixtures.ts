/**
 * The fake service's fixture web: a small site whose pages have markdown,
 * html, links and metadata, in the shapes the real server returns.
 */

/** One page of the fixture web. */
export interface FixturePage {
  /** Absolute URL (no trailing slash except the root). */
  url: string;
  /** `<title>`. */
  title: string;
  /** Meta description. */
  description: string;
  /** Markdown body. */
  markdown: string;
  /** Outgoing links (absolute). */
  links: string[];
  /** Image URLs. */
  images: string[];
  /** Listed in the sitemap. */
  inSitemap: boolean;
  /** HTTP status the target answers with. */
  statusCode: number;
  /** The page's own HTML (served for the `html`/`rawHtml` formats); built from the markdown when absent. */
  html?: string | undefined;
  /** Extra `metadata` fields of the scraped document (`ogImage`, `keywords`, ...). */
  metadata?: Record<string, unknown> | undefined;
  /** The page redirects here (absolute): a scrape returns that page, with `metadata.url` its URL and `sourceURL` the one requested. */
  redirectTo?: string | undefined;
}

/**
 * A page of your own for the fake's fixture web: what a scrape of `url` returns.
 *
 * @example createFakeService({ pages: [{ url: "https://shop.test/item", markdown: "# Blue mug\n\n$12" }] })
 */
export interface PageSpec {
  /** Absolute http(s) URL of the page. */
  url: string;
  /** Markdown body (default: `# <title>`). */
  markdown?: string;
  /** HTML body (default: built from the markdown). */
  html?: string;
  /** Outgoing links, absolute or relative to `url` (a crawl follows them). */
  links?: string[];
  /** Image URLs (the `images` format, image search). */
  images?: string[];
  /** `metadata` of the scraped document: `title` and `description` are used in map and search results; other fields are passed through. */
  metadata?: { title?: string; description?: string; [field: string]: unknown };
  /** HTTP status the page answers with (default 200; a scrape still succeeds and reports it in `metadata.statusCode`). */
  status?: number;
  /** Listed in the site's sitemap (map, crawl); default true. */
  inSitemap?: boolean;
  /** Redirects to this page (absolute, or relative to `url`; a page of the fixture web): a scrape's `metadata.url` is that page's URL, `sourceURL` the one requested. */
  redirectTo?: string;
}

/** Builds a fixture page from a {@link PageSpec}. */
export function pageFrom(spec: PageSpec): FixturePage {
  const url = normalizeTarget(spec.url);
  const { title: rawTitle, description: rawDescription, ...extra } = spec.metadata ?? {};
  const firstHeading = /^#\s+(.+)$/m.exec(spec.markdown ?? "")?.[1];
  const title = typeof rawTitle === "string" ? rawTitle : (firstHeading ?? new URL(url).pathname);
  const description = typeof rawDescription === "string" ? rawDescription : "";
  return {
    url,
    title,
    description,
    markdown: spec.markdown ?? `# ${title}`,
    links: (spec.links ?? []).map((l) => new URL(l, url).toString()),
    images: (spec.images ?? []).map((l) => new URL(l, url).toString()),
    inSitemap: spec.inSitemap ?? true,
    statusCode: spec.status ?? 200,
    html: spec.html,
    metadata: Object.keys(extra).length ? extra : undefined,
    redirectTo: spec.redirectTo === undefined ? undefined : normalizeTarget(new URL(spec.redirectTo, url).toString()),
  };
}

/** The fixture site's origin. */
export const FIXTURE_ORIGIN = "https://acme.test";

function page(path: string, title: string, description: string, body: string, links: string[], extra: Omit<PageSpec, "url"> = {}): FixturePage {
  return pageFrom({ url: `${FIXTURE_ORIGIN}${path}`, markdown: `# ${title}\n\n${body}`, links, metadata: { title, description }, ...extra });
}

/** Builds the fixture web: 6 named pages plus `/many/1..N`. */
export function buildFixtureWeb(manyPages = 24): FixturePage[] {
  const pages: FixturePage[] = [
    page("/", "Acme Test Site", "A small static site used as the fake service's fixture web.", "Acme makes **widgets** and _gadgets_. See our [products](https://acme.test/products).\n\n* Fast shipping\n* Friendly support", ["/about", "/products", "/blog/first-post", "/contact", "/many/1", "https://example.com/"]),
    page("/about", "About Acme", "About the Acme company.", "Acme was founded in 1999. We build things.\n\n## Team\n\n1. Alice\n2. Bob", ["/", "/contact", "/private/internal"]),
    page("/products", "Acme Products", "Widgets and gadgets with prices.", "| Product | Price |\n| --- | --- |\n| Widget | $10 |\n| Gadget | $25 |", ["/"], { images: ["/img/widget.png", "/img/gadget.png"] }),
    page("/blog/first-post", "First post", "Our first blog post about widgets.", "Widgets are great. Read the [second post](https://acme.test/blog/second-post).", ["/", "/blog/second-post"]),
    page("/blog/second-post", "Second post", "A follow-up post about gadgets, not in the sitemap.", "Gadgets are even better.", ["/blog/first-post"], { inSitemap: false }),
    page("/contact", "Contact Acme", "How to reach Acme.", "Write to hello@acme.test.", ["/"]),
  ];
  for (let i = 1; i <= manyPages; i++) {
    const next = i < manyPages ? [`/many/${i + 1}`] : [];
    pages.push(page(`/many/${i}`, `Many ${i}`, `Page ${i} of the many section.`, `This is page ${i} of ${manyPages}.`, ["/", ...next], { inSitemap: false }));
  }
  return pages;
}

/** The pages of a site the fake generates for an unknown host (`anyUrl`): a closed set, linked to each other, so a crawl ends. */
export const GENERATED_PATHS = ["/", "/about", "/docs", "/blog"] as const;

/**
 * A page the fake generates for `url` on a host it does not know (`anyUrl`): a title from the host and
 * path, a line saying it was generated, and links to the site's {@link GENERATED_PATHS}. Deterministic.
 */
export function generatedPage(url: string, inSitemap: boolean): FixturePage {
  const u = new URL(url);
  const path = u.pathname === "/" ? "" : u.pathname;
  const title = `${u.host}${path}${u.search}`;
  const links = GENERATED_PATHS.map((p) => normalizeTarget(`${u.origin}${p}`));
  const nav = GENERATED_PATHS.map((p, i) => `[${p === "/" ? "Home" : p.slice(1)}](${links[i]})`).join(" | ");
  const markdown = `# ${title}\n\nA page the fake service generated for ${normalizeTarget(url)}: it answers any URL (anyUrl) with a page like this one.\n\n${nav}`;
  return pageFrom({ url, markdown, links, metadata: { title, description: `A page the fake service generated for ${title}.` }, inSitemap });
}

/** A page's HTML (for the `html`/`rawHtml` formats). */
export function htmlOf(p: FixturePage): string {
  if (p.html !== undefined) return p.html;
  const links = p.links.map((l) => `<a href="${l}">${l}</a>`).join("\n");
  const imgs = p.images.map((i) => `<img src="${i}">`).join("\n");
  return `<html lang="en"><head><title>${p.title}</title><meta name="description" content="${p.description}"></head><body><main>${p.markdown.replace(/\n/g, "<br>")}</main>\n${imgs}\n${links}</body></html>`;
}

/** A requested URL with `http://` in front when it names no scheme, as the server reads it. */
export function withScheme(raw: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
}

/** Normalises a requested URL the way the server does (adds `http://`, drops a trailing slash off paths, and the query when told). */
export function normalizeTarget(raw: string, ignoreQuery = false): string {
  const u = new URL(withScheme(raw));
  u.hash = "";
  if (ignoreQuery) u.search = "";
  let s = u.toString();
  if (u.pathname !== "/" && s.endsWith("/")) s = s.slice(0, -1);
  return s;
}
