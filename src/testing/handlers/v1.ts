/**
 * Fake v1-only and v1-shaped routes (reference §15): `POST /v1/scrape`,
 * `POST /v1/search`, `/v1/extract`, `/v1/llmstxt`, `/v1/deep-research` and
 * `GET /v1/team/queue-status`. v1 option sets are strict (unknown key -> 400).
 * Crawl and batch scrape v1 routes are served by the job engine.
 */
import { withScheme } from "../fixtures.js";
import { CREDITS, fail, HttpFailure, json, type FakeService, type Handler, type HandlerContext } from "../service.js";
import { badRequest, badUrl, conform, fakeId, rejectUnknownKeys, scrapeTarget, stateOf, validUrl } from "./scrape.js";
import { EXTRACT_KEYS } from "./tasks.js";
import { FAKE_MAX_CONCURRENCY } from "./usage-history.js";

/** v1 scrape option keys (reference §15.2, strict). */
export const V1_SCRAPE_OPTION_KEYS = new Set([
  "formats", "headers", "includeTags", "excludeTags", "onlyMainContent", "onlyCleanContent", "waitFor", "timeout", "location", "geolocation", "mobile",
  "skipTlsVerification", "removeBase64Images", "blockAds", "proxy", "storeInCache", "maxAge", "parsePDF", "extract", "jsonOptions", "changeTrackingOptions",
  "actions", "fastMode", "useMock", "__experimental_cache",
]);
const V1_FORMATS = new Set(["markdown", "html", "rawHtml", "links", "screenshot", "screenshot@fullPage", "extract", "json", "summary", "changeTracking", "branding"]);
const SCRAPE_KEYS = new Set([...V1_SCRAPE_OPTION_KEYS, "url", "agent", "zeroDataRetention", "origin", "integration"]);
const SEARCH_KEYS = new Set(["query", "limit", "tbs", "filter", "lang", "country", "location", "timeout", "ignoreInvalidURLs", "scrapeOptions", "origin", "integration"]);
const CRAWL_KEYS = new Set([
  "url", "includePaths", "excludePaths", "maxDepth", "maxDiscoveryDepth", "limit", "allowBackwardLinks", "crawlEntireDomain", "allowExternalLinks",
  "allowSubdomains", "ignoreRobotsTxt", "ignoreSitemap", "deduplicateSimilarURLs", "ignoreQueryParameters", "regexOnFullURL", "delay", "scrapeOptions",
  "webhook", "maxConcurrency", "zeroDataRetention", "origin", "integration",
]);
const BATCH_KEYS = new Set([...V1_SCRAPE_OPTION_KEYS, "urls", "webhook", "appendToId", "ignoreInvalidURLs", "maxConcurrency", "zeroDataRetention", "origin", "integration"]);
const LLMS_KEYS = new Set(["url", "maxUrls", "showFullText", "cache", "__experimental_stream", "origin", "integration"]);
const RESEARCH_KEYS = new Set(["query", "topic", "maxDepth", "maxUrls", "timeLimit", "analysisPrompt", "systemPrompt", "formats", "jsonOptions", "origin", "integration", "__experimental_streamSteps"]);

type Rec = Record<string, unknown>;

/** A v1 async task of the fake (extract, llmstxt, deep research). */
interface V1Task {
  kind: "extract" | "llmstxt" | "deep-research";
  polls: number;
  result: Rec;
  fail: string | undefined;
}

/** Knobs of the fake's v1 tasks. */
export interface V1FakeState {
  /** Status reads that answer `processing` before a task finishes (default 0: the first read is final). */
  pollsToFinish: number;
  /** When set, the next started task fails with this error text. */
  failNext: string | undefined;
  /** Tasks by id. */
  tasks: Map<string, V1Task>;
}

/** The fake's v1 task state (tests tune `pollsToFinish` and `failNext`). */
export function v1FakeState(fake: FakeService): V1FakeState {
  return stateOf(fake, "v1", () => ({ pollsToFinish: 0, failNext: undefined, tasks: new Map() }));
}

/** Checks v1 scrape options as the v1 server does (formats enum, option pairing); returns the v2 formats to build with. */
export function v1Formats(o: Rec, where: string[] = []): { type: string; schema?: unknown }[] {
  const raw = o.formats ?? ["markdown"];
  if (!Array.isArray(raw)) badRequest([...where, "formats"], "Invalid input: expected array", "invalid_type");
  raw.forEach((f, i) => {
    if (typeof f !== "string" || !V1_FORMATS.has(f)) badRequest([...where, "formats", String(i)], "Invalid enum value", "invalid_enum_value");
  });
  const f = raw as string[];
  if (f.includes("extract") !== (o.extract !== undefined) || f.includes("json") !== (o.jsonOptions !== undefined)) {
    badRequest(where, "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa");
  }
  if (f.includes("screenshot") && f.includes("screenshot@fullPage")) badRequest([...where, "formats"], "You may only specify either screenshot or screenshot@fullPage");
  return f.map((name) =>
    name === "extract" ? { type: "json", schema: (o.extract as Rec).schema, v1: "extract" }
    : name === "json" ? { type: "json", schema: (o.jsonOptions as Rec).schema }
    : name === "screenshot@fullPage" ? { type: "screenshot", fullPage: true }
    : { type: name },
  );
}

/** Scrapes a target with v1 formats: the `extract` format fills `extract` instead of `json`. */
export function v1Document(fake: FakeService, url: string, o: Rec, where: string[] = []): { doc: Rec; credits: number } {
  const formats = v1Formats(o, where);
  const { doc, credits } = scrapeTarget(fake, url, formats);
  const asExtract = formats.some((f) => (f as Rec).v1 === "extract");
  const asJson = formats.some((f) => f.type === "json" && (f as Rec).v1 === undefined);
  if (asExtract) doc.extract = doc.json;
  if (asExtract && !asJson) delete doc.json;
  return { doc, credits };
}

function startTask(fake: FakeService, kind: V1Task["kind"], result: Rec): string {
  const st = v1FakeState(fake);
  const id = fakeId(fake);
  st.tasks.set(id, { kind, polls: 0, result, fail: st.failNext });
  st.failNext = undefined;
  return id;
}

function readTask(fake: FakeService, kind: V1Task["kind"], id: string, notFound: string): { task: V1Task; done: boolean } {
  const task = v1FakeState(fake).tasks.get(id);
  if (!task || task.kind !== kind) throw new HttpFailure(fail(404, notFound));
  task.polls += 1;
  return { task, done: task.polls > v1FakeState(fake).pollsToFinish };
}

function expiresAt(fake: FakeService): string {
  return new Date(fake.now() + 86_400_000).toISOString();
}

/**
 * The v1 option checks of `POST /v1/crawl` and `POST /v1/batch/scrape` (strict
 * v1 key sets, v1 formats), run before the job engine's start routes answer.
 * A hook sees the request after the fake logged it, so the parsed body is the last logged one.
 */
function v1JobStartChecks(fake: FakeService): void {
  fake.addHook((request, url) => {
    if (request.method !== "POST" || (url.pathname !== "/v1/crawl" && url.pathname !== "/v1/batch/scrape")) return undefined;
    const b = (fake.requests[fake.requests.length - 1]?.body ?? {}) as Rec;
    if (typeof b !== "object" || b === null) return undefined;
    try {
      if (url.pathname === "/v1/crawl") {
        rejectUnknownKeys(b, CRAWL_KEYS);
        if (b.scrapeOptions !== undefined) {
          rejectUnknownKeys(b.scrapeOptions as Rec, V1_SCRAPE_OPTION_KEYS);
          v1Formats(b.scrapeOptions as Rec, ["scrapeOptions"]);
        }
      } else {
        rejectUnknownKeys(b, BATCH_KEYS);
        v1Formats(b);
      }
    } catch (err) {
      if (err instanceof HttpFailure) return err.response;
      throw err;
    }
    return undefined;
  });
}

/** Registers the v1 routes of this module. */
export function registerV1(fake: FakeService): void {
  v1JobStartChecks(fake);
  fake.route("POST", "/v1/scrape", (c) => scrape(fake, c));
  fake.route("POST", "/v1/search", (c) => search(fake, c));
  fake.route("POST", "/v1/extract", (c) => startExtract(fake, c));
  fake.route("GET", "/v1/extract/:id", taskStatus(fake, "extract", "Extract job not found", []));
  fake.route("POST", "/v1/llmstxt", (c) => startLlmsTxt(fake, c));
  fake.route("GET", "/v1/llmstxt/:id", taskStatus(fake, "llmstxt", "llmsTxt generation job not found", { llmstxt: "" }));
  fake.route("POST", "/v1/deep-research", (c) => startDeepResearch(fake, c));
  fake.route("GET", "/v1/deep-research/:id", (c) => deepResearchStatus(fake, c));
  fake.route("GET", "/v1/team/queue-status", () =>
    json(200, { success: true, jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: FAKE_MAX_CONCURRENCY, mostRecentSuccess: new Date(fake.now()).toISOString() }),
  );
}

function scrape(fake: FakeService, { body, team, key }: HandlerContext): Response {
  const b = rejectUnknownKeys(body, SCRAPE_KEYS);
  if (!validUrl(b.url)) badUrl(["url"], b.url);
  fake.requireCredits(team, CREDITS.scrape);
  const { doc, credits } = v1Document(fake, String(b.url), b);
  fake.charge(team, credits, key);
  return json(200, { success: true, data: doc });
}

/** `POST /v1/search`: pages whose text holds the query, scraped when the options ask for formats. */
function search(fake: FakeService, { body, team, key }: HandlerContext): Response | Promise<Response> {
  const b = (body ?? {}) as Rec;
  if (typeof b.query !== "string") throw new Error("query missing"); // the real v1 handler fails with a TypeError: 500
  try {
    rejectUnknownKeys(b, SEARCH_KEYS);
    const so = (b.scrapeOptions ?? { formats: [] }) as Rec;
    rejectUnknownKeys(so, V1_SCRAPE_OPTION_KEYS);
    if (so.formats === undefined) so.formats = [];
    const limit = typeof b.limit === "number" ? b.limit : 5;
    if (limit < 1 || limit > 100) badRequest(["limit"], "Number must be between 1 and 100", "too_big");
    const q = b.query.toLowerCase();
    const pages = fake.pages.filter((p) => `${p.title} ${p.description} ${p.markdown}`.toLowerCase().includes(q)).slice(0, limit);
    fake.charge(team, Math.ceil(pages.length / 10) * CREDITS.searchPer10, key);
    const scrape = (so.formats as unknown[]).length > 0;
    const data = pages.map((p) => {
      const base = { url: p.url, title: p.title, description: p.description };
      if (!scrape) return base;
      const { doc, credits } = v1Document(fake, p.url, so, ["scrapeOptions"]);
      fake.charge(team, credits, key);
      return { ...base, ...doc };
    });
    return json(200, { success: true, data, id: fakeId(fake), ...(data.length ? {} : { warning: "No search results found" }) });
  } catch (err) {
    if (!(err instanceof HttpFailure) || err.response.status !== 400) throw err;
    // v1 search answers its own validation failures without a code (reference §1.2).
    return err.response.json().then((j: Rec) => fail(400, "Invalid request body", { details: j.details }));
  }
}

/** `POST /v1/extract`: the data is read from the first URL's page at once; its status reads finish the task. */
function startExtract(fake: FakeService, { body, team, key }: HandlerContext): Response {
  const b = rejectUnknownKeys(body, EXTRACT_KEYS);
  const urls = Array.isArray(b.urls) ? (b.urls as unknown[]) : [];
  if (urls.length === 0 && typeof b.prompt !== "string") badRequest([], "Either 'urls' or 'prompt' must be provided.");
  if (urls.length > 10) badRequest(["urls"], "Maximum of 10 URLs allowed per request while in beta.");
  urls.forEach((u, i) => { if (!validUrl(u)) badRequest(["urls", String(i)], "Invalid URL"); });
  fake.requireCredits(team, CREDITS.extract);
  fake.charge(team, CREDITS.extract, key);
  const page = fake.findPage(String(urls[0] ?? "")) ?? fake.pages[0];
  const data = page ? (b.schema ? conform(b.schema, page) : { title: page.title, description: page.description }) : {};
  const id = startTask(fake, "extract", { data, ...(b.showSources ? { sources: { [page?.url ?? ""]: ["title"] } } : {}) });
  return json(200, { success: true, id, urlTrace: [] });
}

/** `POST /v1/llmstxt`: the site's pages as an llms.txt (and the full text when asked). */
function startLlmsTxt(fake: FakeService, { body, team, key }: HandlerContext): Response {
  const b = rejectUnknownKeys(body, LLMS_KEYS);
  if (!validUrl(b.url)) badUrl(["url"], b.url);
  const maxUrls = typeof b.maxUrls === "number" ? b.maxUrls : 10;
  if (maxUrls < 1 || maxUrls > 5000) badRequest(["maxUrls"], "Number must be between 1 and 5000", "too_big");
  const host = new URL(withScheme(String(b.url))).host;
  fake.findPage(String(b.url)); // with `anyUrl`, an unknown site is generated first
  const pages = fake.pages.filter((p) => new URL(p.url).host === host).slice(0, maxUrls);
  fake.charge(team, pages.length, key);
  const llmstxt = `# ${pages[0]?.title ?? host}\n\n${pages.map((p) => `- [${p.title}](${p.url}): ${p.description}`).join("\n")}\n`;
  const data: Rec = { llmstxt };
  if (b.showFullText === true) data.llmsfulltxt = pages.map((p) => p.markdown).join("\n\n");
  return json(200, { success: true, id: startTask(fake, "llmstxt", { data }) });
}

/** The status route of an extract or llms.txt task: `processing` with `pending` as its data until done, then failed or completed. */
function taskStatus(fake: FakeService, kind: "extract" | "llmstxt", notFound: string, pending: unknown): Handler {
  return ({ params }) => {
    const { task, done } = readTask(fake, kind, params.id ?? "", notFound);
    if (!done) return json(200, { success: true, data: pending, status: "processing", expiresAt: expiresAt(fake) });
    if (task.fail) return json(200, { success: false, data: pending, status: "failed", error: task.fail, expiresAt: expiresAt(fake) });
    return json(200, { success: true, status: "completed", expiresAt: expiresAt(fake), ...task.result });
  };
}

/** `POST /v1/deep-research`: an analysis of the first pages, its activities shown one status read at a time. */
function startDeepResearch(fake: FakeService, { body, team, key }: HandlerContext): Response {
  const b = rejectUnknownKeys(body, RESEARCH_KEYS);
  const query = typeof b.query === "string" ? b.query : typeof b.topic === "string" ? b.topic : undefined;
  if (!query) badRequest(["query"], "Either query or topic must be provided");
  const maxDepth = typeof b.maxDepth === "number" ? b.maxDepth : 7;
  if (maxDepth < 1 || maxDepth > 12) badRequest(["maxDepth"], "Number must be between 1 and 12", "too_big");
  const formats = (b.formats ?? ["markdown"]) as string[];
  if (formats.includes("json") !== (b.jsonOptions !== undefined)) badRequest(["jsonOptions"], "jsonOptions is required when json format is specified");
  fake.charge(team, CREDITS.extract, key);
  const sources = fake.pages.slice(0, 2).map((p) => ({ url: p.url, title: p.title, description: p.description }));
  const activities = [
    { type: "search", status: "complete", message: `Searched for ${query}`, timestamp: new Date(fake.now()).toISOString(), depth: 1 },
    { type: "analyze", status: "complete", message: "Analyzed sources", timestamp: new Date(fake.now()).toISOString(), depth: 1 },
  ];
  const json_ = formats.includes("json") && fake.pages[0] ? conform((b.jsonOptions as Rec).schema, fake.pages[0]) : undefined;
  const id = startTask(fake, "deep-research", { finalAnalysis: `# ${query}\n\n${sources.map((s) => s.title).join(", ")}`, sources, activities, json: json_, maxDepth });
  return json(200, { success: true, id });
}

function deepResearchStatus(fake: FakeService, { params }: HandlerContext): Response {
  const { task, done } = readTask(fake, "deep-research", params.id ?? "", "Deep research job not found");
  const r = task.result as { finalAnalysis: string; sources: Rec[]; activities: Rec[]; json: unknown; maxDepth: number };
  const n = done ? r.activities.length : Math.min(task.polls, r.activities.length - 1);
  const body = { sources: r.sources.slice(0, n), activities: r.activities.slice(0, n) };
  const common = { expiresAt: expiresAt(fake), currentDepth: done ? 1 : 0, maxDepth: r.maxDepth, totalUrls: body.sources.length, ...body };
  if (!done) return json(200, { success: true, data: { ...body }, status: "processing", ...common });
  if (task.fail) return json(200, { success: false, data: { ...body }, status: "failed", error: task.fail, ...common });
  return json(200, { success: true, data: { finalAnalysis: r.finalAnalysis, ...body, ...(r.json === undefined ? {} : { json: r.json }) }, status: "completed", ...common });
}
