/**
 * The root entry (`webdata`) is what users use: `WebData`, `scrape`, the schema helpers
 * (`typedJsonSchema`, `toWireSchema`), every error class, each public method's options and
 * result types and a few types named all the time. The parts of those types are in
 * `webdata/types`, which has every type the root has. The names are listed here, so a name
 * added to the root fails until it is added on purpose (and a type moved off it fails
 * until `webdata/types` has it). Read with the TypeScript compiler (`getExportsOfModule`),
 * as a user's `import` sees them; the runtime exports are checked against the values.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as portable from "../src/index.js";
import * as node from "../src/node.js";
import * as server from "../src/server.js";
import * as types from "../src/types.js";

/** The root entry's values: what users construct, call or catch. */
const ROOT_VALUES = [
  "APIError", "AbortError", "AuthenticationError", "BadRequestError", "ConflictError", "ConnectionError", "DeprecatedEndpointError", "GoneError",
  "HookError", "IdempotencyConflictError", "InternalServerError", "InvalidResponseError", "JobFailedError", "JobTimeoutError", "NotFoundError", "PaginationError",
  "PaymentRequiredError", "PermissionDeniedError", "RateLimitError", "RedirectError", "RequestTimeoutError",
  "ResponseTooLargeError", "ResultValidationError", "SignupError",
  "TimeoutError", "ValidationError", "WatchTransportError", "WebData", "WebDataError", "scrape", "toWireSchema", "typedJsonSchema",
  // Long jobs: the expired job's error class (a stalled job's is `webdata/team`'s: errors-home.test.ts).
  "JobExpiredError",
];

/** The root entry's types: each method's options and result types, and the few types named all the time. */
const ROOT_TYPES = [
  "APIPromise", "ActiveCrawls", "AgentListOptions", "AgentOptions", "AgentRequest", "AgentRunList", "AgentSignupParams", "AgentSignupResult",
  "AgentSnapshot", "AgentStartResult", "AgentStatus", "AgentTrace", "BatchScrapeOptions", "BatchScrapeStartResult", "BrowserExecuteOptions",
  "BrowserExecuteResult", "BrowserOptions", "BrowserSession", "BrowserSessionInfo", "ClientOptions", "ClientPlugin", "Concurrency", "ConcurrencyLimiter", "CrawlDocument", "CrawlOptions",
  "CrawlParamsPreview", "CrawlStartResult", "CreateMonitorRequest", "CreditUsage", "Document", "DocumentStream", "ExtractOptions", "ExtractStartResult",
  "ExtractStatus", "FeedbackOptions", "FeedbackResult", "Format", "HistoricalUsageOptions", "Hooks", "InteractOptions", "InteractResult",
  "JobDocumentsOptions", "JobErrors", "JobPageOptions", "JobStatus", "ListMonitorChecksOptions", "ListMonitorsOptions", "Logger", "MapOptions",
  "MapResult", "Monitor", "MonitorCheck", "MonitorCheckDetail", "MonitorCheckPageOptions", "ParseFile", "ParseOptions", "QueueStatus",
  "RequestOptions", "ResponseInfo", "ScrapeOptions", "ScrapeParams", "ScrapeResult", "SearchFeedbackOptions", "SearchOptions", "SearchResult",
  "StandaloneOptions", "StopInteractionResult", "TokenUsage", "UpdateMonitorRequest", "ValidateOption", "WaitOptions", "WatchEvent", "Watcher",
  "WatcherOptions", "WithResponse",
  // Long jobs: batchScrapeDocuments' options and iterator, byUrl's failure, the crawl and batch waiters' options.
  "BatchDocuments", "BatchDocumentsOptions", "BatchFailure", "JobWaitOptions", "WaitStatus",
];

/** The root entry's 170 names before `webdata/types` (0.1.0): each is still importable, from the root or from `webdata/types`. */
const ROOT_BEFORE = [
  "APIError", "APIErrorInit", "APIPromise", "AbortError", "Action", "ActionResults", "ActiveCrawl", "ActiveCrawls", "AgentListOptions",
  "AgentOptions", "AgentRequest", "AgentRun", "AgentRunList", "AgentSignupParams", "AgentSignupRecord", "AgentSignupResult", "AgentSnapshot",
  "AgentStartResult", "AgentStatus", "AgentTrace", "AgentTraceEvent", "AgentWebhookConfig", "ApiVersion", "AttributesFormat", "AuthenticationError",
  "BadRequestError", "BatchScrapeOptions", "BatchScrapeStartResult", "BrandingProfile", "BrowserExecuteOptions", "BrowserExecuteResult",
  "BrowserOptions", "BrowserSession", "BrowserSessionGoneError", "BrowserSessionInfo", "ChangeTrackingFormat", "ChangeTrackingResult",
  "ClientOptions", "Concurrency", "ConflictError", "ConnectionError", "CrawlDocument", "CrawlOptions", "CrawlParamsPreview", "CrawlStartResult",
  "CreateMonitorRequest", "CreditUsage", "CreditUsagePeriod", "Document", "DocumentMetadata", "ExtractOptions", "ExtractStartResult",
  "ExtractStatus", "FeedbackOptions", "FeedbackResult", "Format", "GoneError", "HighlightsFormat", "HistoricalUsageOptions",
  "IdempotencyConflictError", "ImageResult", "InferSchema", "InteractOptions", "InteractResult", "InternalServerError", "InvalidResponseCode",
  "InvalidResponseError", "InvalidResponseErrorInit", "JobDocumentsOptions", "JobError", "JobErrors", "JobFailedError", "JobKind", "JobPageOptions",
  "JobState", "JobStatus", "JobTimeoutError", "JsonFormat", "JsonOfFormats", "JsonSchema", "ListMonitorChecksOptions", "ListMonitorsOptions",
  "Location", "LogLevel", "Logger", "MapLink", "MapOptions", "MapResult", "MenuProfile", "Monitor", "MonitorCheck", "MonitorCheckDetail",
  "MonitorCheckPageOptions", "MonitorTarget", "NewsResult", "NotFoundError", "PaginationError", "PaginationLoopError", "ParseFile", "ParseOptions",
  "Parser", "PaymentRequiredError", "PermissionDeniedError", "ProductProfile", "QueryFormat", "QuestionFormat", "QueueStatus", "RateLimitError",
  "RedirectError", "RequestOptions", "RequestTimeoutError", "ResponseInfo", "ResponseIssue", "ResponseTooLargeError", "ResultIssue",
  "ResultValidationError", "RetryEvent", "SchemaInput", "ScrapeOptions", "ScrapeParams", "ScrapeResult", "ScrapedFields", "ScreenshotFormat",
  "SearchCategory", "SearchCategoryName", "SearchFeedbackOptions", "SearchFormat", "SearchFormatName", "SearchItem", "SearchOptions", "SearchResult",
  "SearchScrapeOptions", "SearchSource", "SearchSourceName", "SignupBlockedError", "SignupExpiredError", "SignupInvalidError", "SignupPendingError",
  "StandaloneOptions", "StopInteractionResult", "StringFormat", "TimeoutError", "TokenUsage", "TokenUsagePeriod", "TypedJsonSchema",
  "UpdateMonitorRequest", "UsagePeriod", "VERSION", "ValidateOption", "ValidationError", "ValidationIssue", "WaitOptions", "WatchDocumentEvent",
  "WatchDoneEvent", "WatchErrorEvent", "WatchEvent", "WatchEventType", "WatchStatusEvent", "WatchTransportError", "Watcher", "WatcherOptions",
  "WebData", "WebDataError", "WebResult", "WebSocketConstructor", "WebhookConfig", "WithResponse", "scrape", "toWireSchema", "typedJsonSchema",
];

/** Values that left the root, with where they are now (a documented place; nothing else left). */
const MOVED_VALUES: Record<string, string> = {
  // Error classes that differed only by a reason are one class with a typed `reason` (CHANGELOG says how a catch reads now).
  BrowserSessionGoneError: "`GoneError` (the API's only 410 is a destroyed browser session)",
  PaginationLoopError: "`PaginationError` with `reason: \"loop\"`",
  SignupBlockedError: "`SignupError` with `reason: \"blocked\"`",
  SignupExpiredError: "`SignupError` with `reason: \"expired\"`",
  SignupInvalidError: "`SignupError` with `reason: \"invalid\"`",
  SignupPendingError: "`SignupError` with `reason: \"pending\"`",
  VERSION: "the `version` field of `webdata/package.json`",
};

const file = (entry: string): string => new URL(`../src/${entry}`, import.meta.url).pathname;
const ENTRIES = ["index.ts", "server.ts", "node.ts", "types.ts"] as const;

/** Names and values each entry exports, as TypeScript sees them (a type-only export of a class is no value). */
function exportsOf(): Record<(typeof ENTRIES)[number], { names: string[]; values: string[] }> {
  const program = ts.createProgram(ENTRIES.map(file), {
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const out = {} as Record<(typeof ENTRIES)[number], { names: string[]; values: string[] }>;
  for (const entry of ENTRIES) {
    const source = program.getSourceFile(file(entry));
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`no module at ${entry}`);
    const names: string[] = [];
    const values: string[] = [];
    for (const symbol of checker.getExportsOfModule(module)) {
      names.push(symbol.name);
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const typeOnly = symbol.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d) || (ts.isExportSpecifier(d) && d.parent.parent.isTypeOnly)) ?? false;
      if (target.flags & ts.SymbolFlags.Value && !typeOnly) values.push(symbol.name);
    }
    out[entry] = { names: names.sort(), values: values.sort() };
  }
  return out;
}

describe("the root entry's names", () => {
  const entries = exportsOf();
  const sorted = (names: string[]): string[] => [...names].sort();

  it("the root exports exactly the listed names: at most 33 values and 130 names", () => {
    expect(entries["index.ts"].values).toEqual(sorted(ROOT_VALUES));
    expect(entries["index.ts"].names).toEqual(sorted([...ROOT_VALUES, ...ROOT_TYPES]));
    // 40 -> 33: classes that differed only by a reason merged (four Signup* into SignupError, PaginationLoopError into
    // PaginationError, BrowserSessionGoneError into GoneError); the team plugin's (BudgetExceededError, JobStalledError) moved to webdata/team.
    expect(ROOT_VALUES.length).toBeLessThanOrEqual(33);
    expect(ROOT_VALUES.length + ROOT_TYPES.length).toBeLessThanOrEqual(130);
  });

  it("Deno, Bun and Workers (server.ts) get the same names; Node adds only its client options type", () => {
    expect(entries["server.ts"]).toEqual(entries["index.ts"]);
    expect(entries["node.ts"].values).toEqual(entries["index.ts"].values);
    expect(entries["node.ts"].names).toEqual(sorted([...entries["index.ts"].names, "NodeClientOptions"]));
  });

  it("at run time each root entry exports exactly the listed values (a type alias such as Watcher or APIPromise has none)", () => {
    for (const mod of [portable, node, server]) expect(Object.keys(mod).sort()).toEqual(sorted(ROOT_VALUES));
  });

  it("webdata/types is types only, and has every type of the root", () => {
    expect(entries["types.ts"].values).toEqual([]);
    expect(Object.keys(types)).toEqual([]);
    expect(ROOT_TYPES.filter((name) => !entries["types.ts"].names.includes(name))).toEqual([]);
  });

  it("every name the root had before webdata/types is importable from the root or webdata/types (the values that left are named with their place)", () => {
    expect(ROOT_BEFORE).toHaveLength(170);
    const reachable = new Set([...entries["index.ts"].names, ...entries["types.ts"].names]);
    expect(ROOT_BEFORE.filter((name) => !reachable.has(name))).toEqual(Object.keys(MOVED_VALUES));
  });
});
