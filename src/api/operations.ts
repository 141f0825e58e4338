/**
 * The catalogue of operations: for each, its stable name, its route, a one-line description, the numbers a
 * caller meets (`api/limits.ts`), and the name it has in each face of the client (the `WebData` method, the
 * v1 methods, the drop-in's adapter and aliases, the agent tools with the description a model reads, the CLI
 * commands). The faces read it rather than restate it: the agent tools take their descriptions and bounds
 * here, the drop-in generates its one-line adapters from it, the v1 method lists and the CLI's help numbers
 * come from it; `WebData`'s own JSDoc (which must stay in the declarations) is held equal to it by
 * `test/operations.test.ts`, which also fails when a face has an operation this table lacks.
 *
 * Every endpoint names its operation here (`Endpoint.op`: a type import, erased), so hooks, spans and the meter name a
 * call by it; what each may cost is its row of `CREDIT_RULES` (`api/credit-rules.ts`, keyed by the same names, so an
 * operation without a rule does not compile), apart only so that the governance stages of `webdata/team` carry the
 * rules without every description. Only the faces (`ai/`, `cli/`, `firecrawl/`, `v1/methods.ts`) import its values:
 * nothing on the path of a call, and not the root entry.
 */
import { BROWSER_ACTIVITY_TTL, BROWSER_CODE, BROWSER_TIMEOUT, BROWSER_TTL, FEEDBACK_NOTE, MAP_LIMIT, MONITOR_NAME, MONITOR_PAGE, MONITOR_QUERIES, PARSE_FILE, PROMPT, SEARCH_LIMIT, type Limit } from "./limits.js";

/**
 * How the drop-in (`webdata/firecrawl`) has the operation: `same` forwards `WebData`'s method as it is;
 * `success` adds the official `success` flag to the result; `sessions` / `periods` return the list also
 * readable as the official wrapper's field; `own` is a method written out (official semantics differ).
 */
export type DropInForm = "same" | "success" | "sessions" | "periods" | "own";

/** One operation. */
export interface Operation {
  /** The HTTP method and route (`<id>` for a path segment); for a waiter, its first request. */
  readonly route: string;
  /** What it does, in one line (the opening of `WebData`'s JSDoc for it). */
  readonly description: string;
  /** The `WebData` method (none: a v1-only operation). */
  readonly method?: string;
  /** What the method returns: an `APIPromise` of one request (the default), a `Promise` that waits, an iterator of pages, a watcher. */
  readonly kind?: "wait" | "pages" | "watch";
  /** The numbers a caller meets, by parameter. */
  readonly limits?: Readonly<Record<string, Limit>>;
  /** The `client.v1` methods (the legacy names). */
  readonly v1?: readonly string[];
  /** The drop-in's form of the method (see {@link DropInForm}); none: not in the drop-in. */
  readonly dropIn?: DropInForm;
  /** The drop-in's method when `WebData` has none (an official call whose route is not one of webdata's own). */
  readonly official?: string;
  /** The drop-in's deprecated v1-style or official aliases of it. */
  readonly dropInAliases?: readonly string[];
  /** The agent tools (`webdata/ai`) that run it, each with the description a model reads. */
  readonly tools?: Readonly<Record<string, string>>;
  /** The `webdata` commands that run it. */
  readonly cli?: readonly string[];
}

const MB = (bytes: number) => `${bytes / 1024 / 1024} MB`;

/** Every operation, by stable name; the agent tools are listed in this order. */
export const OPERATIONS = {
  scrape: { route: "POST /v2/scrape", description: "Scrapes one page", method: "scrape", v1: ["scrapeUrl"], dropIn: "same", dropInAliases: ["scrapeUrl"], tools: { scrape: "Read one web page as markdown (or other formats). Use it when you know the URL. A long page is cut; the note says how to read on." }, cli: ["scrape"] },
  search: { route: "POST /v2/search", description: "Searches the web, news and images, optionally scraping each result", method: "search", limits: { limit: SEARCH_LIMIT }, v1: ["search"], dropIn: "same", tools: { search: "Search the web: titles, URLs and descriptions of the results (web, news or images). Then scrape the pages you need." }, cli: ["search"] },
  map: { route: "POST /v2/map", description: "Lists a site's URLs", method: "map", limits: { limit: MAP_LIMIT }, v1: ["mapUrl"], dropIn: "same", dropInAliases: ["mapUrl"], tools: { map: "List a website's URLs (sitemap and links), optionally ordered by relevance to a text. Fast; use it to choose pages to scrape or to plan a crawl." }, cli: ["map"] },
  parse: { route: "POST /v2/parse", description: "Parses an uploaded file", method: "parse", limits: { file: PARSE_FILE }, dropIn: "same", tools: { parse: `Read a file you hold (PDF, Office, EPUB, HTML, CSV; at most ${MB(PARSE_FILE.max)}) as markdown: its text, or its bytes in base64.` } },
  "crawl.paramsPreview": { route: "POST /v2/crawl/params-preview", description: "Shows the crawl options the service derives from a prompt", method: "crawlParamsPreview", limits: { prompt: PROMPT }, dropIn: "same" },
  "crawl.start": { route: "POST /v2/crawl", description: "Starts a crawl", method: "startCrawl", v1: ["asyncCrawlUrl"], dropIn: "own", dropInAliases: ["asyncCrawlUrl"], tools: { crawl_start: "Start crawling a site: the service follows links from the URL and scrapes each page. Returns a job id at once; then call crawl_wait (or crawl_status) with it." }, cli: ["crawl"] },
  "crawl.status": { route: "GET /v2/crawl/<id>", description: "One page of a crawl's status and documents", method: "getCrawlStatus", v1: ["checkCrawlStatus"], dropIn: "own", dropInAliases: ["checkCrawlStatus"], tools: { crawl_status: "A crawl's progress and the pages scraped so far, without waiting.", crawl_wait: "Wait (bounded) for a crawl to finish and return its pages; if it is still running when the wait ends, say so: call it again later." }, cli: ["status"] },
  "crawl.cancel": { route: "DELETE /v2/crawl/<id>", description: "Cancels a crawl", method: "cancelCrawl", v1: ["cancelCrawl"], dropIn: "same", tools: { crawl_cancel: "Stop a running crawl (the pages scraped so far stay readable)." }, cli: ["cancel"] },
  "crawl.documents": { route: "GET /v2/crawl/<id>", description: "Every document of a crawl, following `next` until the crawl has ended and no page remains", method: "crawlDocuments", kind: "pages", dropIn: "same" },
  "crawl.errors": { route: "GET /v2/crawl/<id>/errors", description: "Failed and robots-blocked pages of a crawl", method: "getCrawlErrors", v1: ["checkCrawlErrors"], dropIn: "same", dropInAliases: ["checkCrawlErrors"] },
  "crawl.active": { route: "GET /v2/crawl/active", description: "The team's running crawls", method: "getActiveCrawls", dropIn: "success" },
  crawl: { route: "POST /v2/crawl", description: "Crawls a site and waits for the end", method: "crawl", kind: "wait", v1: ["crawlUrl"], dropIn: "own", dropInAliases: ["crawlUrl"] },
  "batchScrape.start": { route: "POST /v2/batch/scrape", description: "Starts a batch scrape", method: "startBatchScrape", v1: ["asyncBatchScrapeUrls"], dropIn: "own", dropInAliases: ["asyncBatchScrapeUrls"], cli: ["batch"] },
  batchScrape: { route: "POST /v2/batch/scrape", description: "Scrapes many URLs and waits for the end", method: "batchScrape", kind: "wait", v1: ["batchScrapeUrls"], dropIn: "own", dropInAliases: ["batchScrapeUrls"], tools: { batch_scrape: "Scrape several known URLs as one job and wait (bounded) for the pages. Better than many scrape calls for more than a few URLs." } },
  "batchScrape.status": { route: "GET /v2/batch/scrape/<id>", description: "One page of a batch scrape's status", method: "getBatchScrapeStatus", v1: ["checkBatchScrapeStatus"], dropIn: "own", dropInAliases: ["checkBatchScrapeStatus"], tools: { batch_status: "A batch scrape's progress and pages; waits (bounded) for the end when waitSeconds is given." }, cli: ["status"] },
  "batchScrape.documents": { route: "GET /v2/batch/scrape/<id>", description: "Every document of a batch scrape, following `next`", method: "batchScrapeDocuments", kind: "pages", dropIn: "same" },
  "batchScrape.errors": { route: "GET /v2/batch/scrape/<id>/errors", description: "Failed pages of a batch scrape", method: "getBatchScrapeErrors", v1: ["checkBatchScrapeErrors"], dropIn: "same", dropInAliases: ["checkBatchScrapeErrors"] },
  "batchScrape.cancel": { route: "DELETE /v2/batch/scrape/<id>", description: "Cancels a batch scrape", method: "cancelBatchScrape", dropIn: "same", cli: ["cancel"] },
  watcher: { route: "GET /v2/crawl/<id>", description: "Live events of a crawl or batch scrape", method: "watcher", kind: "watch", v1: ["crawlUrlAndWatch", "batchScrapeUrlsAndWatch"], dropIn: "own" },
  "extract.start": { route: "POST /v2/extract", description: "Starts an extraction", method: "startExtract", v1: ["asyncExtract"], dropIn: "success", cli: ["extract"] },
  extract: { route: "POST /v2/extract", description: "Extracts and waits for the result", method: "extract", kind: "wait", v1: ["extract"], dropIn: "own", tools: { extract: "Extract structured data from pages with an LLM on the service: URLs (a trailing /* reads a site) and a prompt and/or a JSON Schema; returns JSON. Waits (bounded)." } },
  "extract.status": { route: "GET /v2/extract/<id>", description: "An extraction's status", method: "getExtractStatus", v1: ["getExtractStatus"], dropIn: "own", tools: { extract_status: "An extract job's state and, once completed, its data; waits (bounded) when waitSeconds is given." }, cli: ["status"] },
  "agent.start": { route: "POST /v2/agent", description: "Starts an agent", method: "startAgent", limits: { prompt: PROMPT }, dropIn: "own", cli: ["agent"] },
  agent: { route: "POST /v2/agent", description: "Runs an agent and waits for its result", method: "agent", kind: "wait", limits: { prompt: PROMPT }, dropIn: "own", tools: { agent: "Give a research task to the service's web agent: it searches, browses and extracts on its own, and returns JSON (shaped by a schema when given). Slow and costs credits; waits (bounded), then agent_status reads on." } },
  "agent.status": { route: "GET /v2/agent/<id>", description: "An agent's status", method: "getAgentStatus", dropIn: "own", tools: { agent_status: "An agent job's state and, once completed, its data; waits (bounded) when waitSeconds is given." }, cli: ["status"] },
  "agent.cancel": { route: "DELETE /v2/agent/<id>", description: "Cancels an agent", method: "cancelAgent", dropIn: "same", tools: { agent_cancel: "Stop a running agent job." }, cli: ["cancel"] },
  "agent.list": { route: "GET /v2/agent", description: "The team's agent runs, newest first, 20 per page", method: "listAgents", dropIn: "success" },
  "agent.trace": { route: "GET /v2/agent/<id>/trace", description: "An agent run's trace of events", method: "getAgentTrace", dropIn: "success" },
  "agent.snapshot": { route: "GET /v2/agent/<id>/snapshots/<snapshotId>", description: "The full content of an artifact named by a trace's `artifact.updated` event", method: "getAgentSnapshot", dropIn: "success" },
  "agent.signup": { route: "POST /v2/agent-signup", description: "Provisions a sandboxed key for an agent", method: "agentSignup" },
  interact: { route: "POST /v2/scrape/<id>/interact", description: "Runs code or a prompt in the browser that scraped a page", method: "interact", dropIn: "success", dropInAliases: ["scrapeExecute"], tools: { interact: "Act in the browser that scraped a page (by the scrape id the scrape tool shows): say what to do in words (prompt) or run code; the session stays open until interact_stop." } },
  "interact.stop": { route: "DELETE /v2/scrape/<id>/interact", description: "Ends a scraped page's browser session", method: "stopInteraction", dropIn: "success", dropInAliases: ["stopInteractiveBrowser", "deleteScrapeBrowser"], tools: { interact_stop: "Close the browser session that interact opened for a scrape." } },
  "browser.create": { route: "POST /v2/browser", description: "Creates a browser session", method: "browser", limits: { ttl: BROWSER_TTL, activityTtl: BROWSER_ACTIVITY_TTL }, dropIn: "success", tools: { browser_create: "Open a remote browser session (billed by the minute while open) and return its id; run code in it with browser_execute and close it with browser_delete." } },
  "browser.execute": { route: "POST /v2/browser/<id>/execute", description: "Runs code in a browser session", method: "browserExecute", limits: { code: BROWSER_CODE, timeout: BROWSER_TIMEOUT }, dropIn: "success", tools: { browser_execute: "Run code in a browser session (node: Playwright with `page` in scope; python; bash) and return its output." } },
  "browser.list": { route: "GET /v2/browser", description: "Lists browser sessions", method: "listBrowsers", dropIn: "sessions", tools: { browser_list: "List the team's browser sessions." } },
  "browser.delete": { route: "DELETE /v2/browser/<id>", description: "Destroys a browser session", method: "deleteBrowser", dropIn: "success", tools: { browser_delete: "Close a browser session (billing stops)." } },
  "monitor.create": { route: "POST /v2/monitor", description: "Creates a page monitor", method: "createMonitor", limits: { name: MONITOR_NAME, queries: MONITOR_QUERIES }, dropIn: "same", tools: { monitor_create: "Watch pages, a site or searches for changes on a schedule (each check costs credits)." } },
  "monitor.list": { route: "GET /v2/monitor", description: "The team's monitors", method: "listMonitors", limits: { limit: MONITOR_PAGE }, dropIn: "same", tools: { monitor_list: "List the team's monitors." } },
  "monitor.get": { route: "GET /v2/monitor/<id>", description: "A monitor", method: "getMonitor", dropIn: "same", tools: { monitor_get: "A monitor and its checks; with checkId, one check's pages and diffs." } },
  "monitor.update": { route: "PATCH /v2/monitor/<id>", description: "Changes a monitor", method: "updateMonitor", dropIn: "same" },
  "monitor.run": { route: "POST /v2/monitor/<id>/run", description: "Runs a monitor now; the check it started", method: "runMonitor", dropIn: "same", tools: { monitor_run: "Check a monitor now (costs credits); monitor_get reads the check later." } },
  "monitor.delete": { route: "DELETE /v2/monitor/<id>", description: "Deletes a monitor", method: "deleteMonitor", dropIn: "same", tools: { monitor_delete: "Delete a monitor for good." } },
  "monitor.checks": { route: "GET /v2/monitor/<id>/checks", description: "A monitor's checks, newest first", method: "listMonitorChecks", limits: { limit: MONITOR_PAGE }, dropIn: "same" },
  "monitor.check": { route: "GET /v2/monitor/<id>/checks/<checkId>", description: "A check with one page of its pages and their diffs", method: "getMonitorCheck", limits: { limit: MONITOR_PAGE }, dropIn: "own" },
  "search.feedback": { route: "POST /v2/search/<id>/feedback", description: "Rates a search's results", method: "searchFeedback", dropIn: "success", tools: { search_feedback: "Rate a search's results (by its search id); a \"bad\" rating may refund its credits. Give it once per search." } },
  feedback: { route: "POST /v2/feedback", description: "Rates a job of `search`, `scrape`, `parse` or `map`", method: "feedback", limits: { note: FEEDBACK_NOTE }, dropIn: "success", tools: { feedback: "Say what was wrong (or right) with a scrape, parse, map or search result." } },
  "usage.credits": { route: "GET /v2/team/credit-usage", description: "Remaining credits of the team", method: "getCreditUsage", v1: ["getCreditUsage"], dropIn: "same", tools: { usage: "The account's remaining credits and its job queue. Check it before costly work (crawls, agent, browser sessions)." }, cli: ["usage"] },
  "usage.tokens": { route: "GET /v2/team/token-usage", description: "Remaining tokens of the team", method: "getTokenUsage", v1: ["getTokenUsage"], dropIn: "same", cli: ["usage"] },
  "usage.creditsHistorical": { route: "GET /v2/team/credit-usage/historical", description: "Credits spent per billing period", method: "getCreditUsageHistorical", v1: ["getCreditUsageHistorical"], dropIn: "own" },
  "usage.tokensHistorical": { route: "GET /v2/team/token-usage/historical", description: "Tokens spent per billing period", method: "getTokenUsageHistorical", v1: ["getTokenUsageHistorical"], dropIn: "own" },
  "usage.queue": { route: "GET /v2/team/queue-status", description: "Queue metrics of the team", method: "getQueueStatus", v1: ["getQueueStatus"], dropIn: "success" },
  "usage.concurrency": { route: "GET /v2/concurrency-check", description: "Current and maximum concurrency", method: "getConcurrency", dropIn: "same" },
  llmsText: { route: "POST /v1/llmstxt", description: "Generates LLMs.txt", kind: "wait", v1: ["generateLLMsText"] },
  "llmsText.start": { route: "POST /v1/llmstxt", description: "Starts LLMs.txt generation", v1: ["asyncGenerateLLMsText"] },
  "llmsText.status": { route: "GET /v1/llmstxt/<id>", description: "The status of an LLMs.txt generation", v1: ["checkGenerateLLMsTextStatus"] },
  deepResearch: { route: "POST /v1/deep-research", description: "Runs deep research and waits", kind: "wait", v1: ["deepResearch"] },
  "deepResearch.start": { route: "POST /v1/deep-research", description: "Starts deep research", v1: ["asyncDeepResearch"] },
  "deepResearch.status": { route: "GET /v1/deep-research/<id>", description: "The status of a deep research", v1: ["checkDeepResearchStatus"] },
  "agent.thread": { route: "GET /v2/agent/threads/<id>", description: "The official `getAgentThread`", dropIn: "own", official: "getAgentThread" },
  "search.developer": { route: "POST /v2/search/developer", description: "The official `developerSearch`", dropIn: "own", official: "developerSearch" },
  "tools.find": { route: "POST /v2/scrape", description: "The official `findTools`", dropIn: "own", official: "findTools" },
  research: { route: "GET /v2/search/research", description: "The official `firecrawl.research`", dropIn: "own", official: "research" },
} as const satisfies Record<string, Operation>;

/** A stable operation name (`scrape`, `crawl.start`, ...). */
export type OperationName = keyof typeof OPERATIONS;

/** The catalogue as a list, in its order. */
export const OPERATION_LIST: readonly (readonly [OperationName, Operation])[] = Object.entries(OPERATIONS) as [OperationName, Operation][];

/** The description a model reads for each agent tool, in the catalogue's order. */
export const TOOL_DESCRIPTIONS: Readonly<Record<string, string>> = Object.fromEntries(OPERATION_LIST.flatMap(([, op]) => Object.entries(op.tools ?? {})));

/** The `WebData` methods the drop-in has in form `form`. */
export function dropInMethods(form: DropInForm): string[] {
  return OPERATION_LIST.flatMap(([, op]) => (op.dropIn === form && op.method ? [op.method] : []));
}

/** The `client.v1` methods, split as they return: an `APIPromise` (one request) or a plain `Promise` (they wait, or return a watcher). */
export function v1Methods(returns: "APIPromise" | "Promise"): string[] {
  return OPERATION_LIST.flatMap(([, op]) => ((op.kind === undefined) === (returns === "APIPromise") ? (op.v1 ?? []) : []));
}
