/**
 * The official client's type names for parse, the monitors, endpoint feedback,
 * agent threads, and the services outside the API server that `webdata/firecrawl`
 * rejects before sending (developer index, tool catalogue, research index),
 * typed from its declarations (`@mendable/firecrawl-js` 4.42.0) and the server.
 * Re-exported by `./types.ts`.
 */
import type { FeedbackOptions, SearchFeedbackOptions } from "../api/feedback.js";
import type { Monitor, MonitorCheckPage } from "../api/monitor.js";
import type { Format, StringFormat } from "../api/scrape.js";

// The parse and monitor shapes are webdata's, exported from "webdata" too (ParseFile, Monitor, ...).

/** Official name of a format name `parse` takes (no screenshot, changeTracking, branding, audio, video). */
export type ParseFormatString = Exclude<StringFormat, "screenshot" | "changeTracking" | "branding">;
/** Official name of a format object of `parse` given by name. */
export interface ParseFormat {
  /** The format's name. */
  type: ParseFormatString;
}
/** Official name of one entry of `parse`'s `formats`. */
export type ParseFormatOption = Exclude<Format, "screenshot" | "changeTracking" | "branding" | { type: "screenshot" | "changeTracking" | "branding" }>;
/** Official name of a monitor's e-mail recipient state. */
export type MonitorEmailRecipientSubscription = NonNullable<Monitor["emailRecipientSubscriptions"]>[number];
/** Official name of a page's per-field JSON diff. */
export type MonitorJsonFieldDiff = Record<string, { previous: unknown; current: unknown }>;
/** Official name of a page's diff. */
export type MonitorPageDiff = NonNullable<MonitorCheckPage["diff"]>;
/** Official name of a page's JSON snapshot. */
export type MonitorPageSnapshot = NonNullable<MonitorCheckPage["snapshot"]>;
/** Official name of a page's judgment against the monitor's goal. */
export type MonitorPageJudgment = NonNullable<MonitorCheckPage["judgment"]>;
/** Official name of a scrape target's result in a check. */
export interface MonitorScrapeTargetResult {
  /** The target. */
  targetId: string;
  /** `scrape`. */
  type: "scrape";
  /** The scrape jobs of the check. */
  expectedJobs?: string[];
}
/** Official name of a crawl target's result in a check. */
export interface MonitorCrawlTargetResult {
  /** The target. */
  targetId: string;
  /** `crawl`. */
  type: "crawl";
  /** The crawl of the check. */
  crawlId?: string;
}
/** Official name of a search target's result in a check. */
export interface MonitorSearchTargetResult {
  /** The target. */
  targetId: string;
  /** `search`. */
  type: "search";
  /** The search ran. */
  searchCompleted?: boolean;
  /** Results found. */
  resultCount?: number;
  /** Results judged a match for the goal. */
  matches?: number;
  /** The judge's summary. */
  summary?: string;
  /** The judge fell back to a simpler mode. */
  judgeDegraded?: boolean;
  /** Why. */
  degradedReason?: string | null;
  /** Credits of the search. */
  searchCredits?: number;
  /** Credits of the judge. */
  judgeCredits?: number;
  /** Results judged. */
  resultsJudged?: number;
}
/** Official name of a target's result in a check. */
export type MonitorTargetResult = MonitorScrapeTargetResult | MonitorCrawlTargetResult | MonitorSearchTargetResult;

/** Official name of a feedback rating. */
export type FeedbackRating = "good" | "partial" | "bad";
/** Official name of the endpoints `feedback` rates. */
export type EndpointFeedbackEndpoint = FeedbackOptions["endpoint"];
/** Official name of `feedback`'s request. */
export type EndpointFeedbackRequest = FeedbackOptions;
/** Official name of a useful source in feedback. */
export type FeedbackValuableSource = NonNullable<SearchFeedbackOptions["valuableSources"]>[number];
/** Official name of missing content in feedback. */
export type FeedbackMissingContent = NonNullable<SearchFeedbackOptions["missingContent"]>[number];

/** Official name of a follow-up the agent offers for the next turn of a thread. */
export interface AgentSuggestion {
  /** Its label. */
  label: string;
  /** The prompt of the next turn. */
  prompt: string;
}
/** Official name of one run of an agent thread. */
export interface AgentThreadRun {
  /** The run's job id. */
  id: string;
  /** Its turn in the thread. */
  turn: number;
  /** `extract` or `chat`. */
  mode: "extract" | "chat";
  /** Its prompt. */
  prompt: string;
  /** Its URLs. */
  urls?: string[];
  /** Its schema. */
  schema?: unknown;
  /** Its effort. */
  effort?: "low" | "medium" | "high";
  /** Where it is. */
  status: "processing" | "succeeded" | "failed" | "cancelled" | "refused" | "credit_limit_reached";
  /** Created, ISO 8601. */
  createdAt: string;
  /** Finished, ISO 8601. */
  finishedAt: string | null;
  /** Credits used. */
  creditsUsed: number | null;
  /** The assistant's reply. */
  message: string | null;
  /** Its data (with `includeData`). */
  data?: unknown;
  /** Follow-ups offered. */
  suggestions?: AgentSuggestion[] | null;
  /** Paid calls or terms waiting for approval. */
  pendingApproval?: Record<string, unknown> | null;
  /** Its exchange summary. */
  exchange?: Record<string, unknown> | null;
}
/** Official name of an agent thread. */
export interface AgentThread {
  /** Its id. */
  id: string;
  /** Created, ISO 8601. */
  createdAt: string;
  /** Updated, ISO 8601. */
  updatedAt: string;
  /** `idle` or `running`. */
  status: "idle" | "running";
  /** Its runs, in turn order. */
  runs: AgentThreadRun[];
}
/** Official name of `getAgentThread`'s answer (never given by this SDK: the route is not in the service, see MIGRATION.md). */
export interface AgentThreadResponse {
  /** Whether the read succeeded. */
  success: boolean;
  /** The thread. */
  thread?: AgentThread;
  /** The server's error. */
  error?: string;
}

/** Official name of a developer-index result kind. */
export type DeveloperSearchType = "doc" | "issue" | "pull_request" | "readme";
/** Official name of `developerSearch`'s options (not supported by this SDK, see MIGRATION.md). */
export interface DeveloperSearchOptions {
  /** Results, 1-100. */
  k?: number;
  /** Passages per result, 1-5. */
  passages?: number;
  /** Result kinds. */
  types?: DeveloperSearchType[];
  /** GitHub `owner/name` filters. */
  repos?: string[];
  /** Documentation source ids. */
  sources?: string[];
  /** A GitHub language. */
  language?: string;
  /** Repository topics (all must match). */
  topic?: string[];
  /** An SPDX license id. */
  license?: string;
  /** Minimum stars. */
  minStars?: number;
  /** Maximum stars. */
  maxStars?: number;
  /** Archived repositories only, or none. */
  archived?: boolean;
  /** Forks only, or none. */
  fork?: boolean;
  /** Agent-skill evidence only. */
  skills?: "only";
}
/** Official name of a result's license disclosure. */
export interface DeveloperSearchLicenseDisclosure {
  /** What is known. */
  state: "licensed" | "known_absent" | "unknown";
  /** The SPDX id. */
  spdx_id: string | null;
}
/** Official name of a developer-index passage. */
export interface DeveloperSearchPassage {
  /** Its text. */
  text: string;
  /** Where to cite it. */
  citation_url?: string;
}
/** Official name of a developer-index result. */
export interface DeveloperSearchResult {
  /** Its id. */
  id: string;
  /** Its URL. */
  url: string;
  /** Its title. */
  title?: string;
  /** Matching passages. */
  passages: DeveloperSearchPassage[];
  /** Its license. */
  license?: DeveloperSearchLicenseDisclosure | string;
}
/** Official name of a requested repository's index state. */
export interface DeveloperSearchRepoStatus {
  /** `owner/name`. */
  repo: string;
  /** Indexed at all. */
  indexed: boolean;
  /** Indexed kinds. */
  types: { issue: boolean; pullRequest: boolean; readme: boolean };
}
/** Official name of a requested source's index state. */
export interface DeveloperSearchSourceStatus {
  /** The source. */
  source: string;
  /** Indexed. */
  indexed: boolean;
}
/** Official name of `developerSearch`'s answer. */
export interface DeveloperSearchResponse {
  /** Whether it succeeded. */
  success: boolean;
  /** Ranked results. */
  results: DeveloperSearchResult[];
  /** With `repos`. */
  repos?: DeveloperSearchRepoStatus[];
  /** With `sources`. */
  sources?: DeveloperSearchSourceStatus[];
}

/** Official name of a call of the tool catalogue (Alexandria). */
export interface AlexandriaCall {
  /** The provider. */
  provider: string;
  /** Its capability. */
  capability: string;
  /** The call's options. */
  options?: Record<string, unknown>;
}
/** Official name of `findTools`' options (not supported by this SDK, see MIGRATION.md). */
export interface FindToolsOptions {
  /** URLs the tools should handle. */
  urls?: string[];
  /** Providers. */
  providers?: string[];
  /** Categories. */
  categories?: string[];
  /** Groups. */
  groups?: string[];
  /** Capabilities. */
  capabilities?: string[];
  /** What to list. */
  level?: "providers" | "groups" | "tools";
  /** Details to include. */
  expand?: ("options" | "response" | "examples")[];
  /** Page size. */
  limit?: number;
  /** Page start. */
  offset?: number;
}
/** Official name of `findTools`' answer. */
export interface FindToolsData {
  /** What is listed. */
  level: "providers" | "groups" | "tools";
  /** The entries. */
  items: { id: string; name: string; next?: AlexandriaCall; execute?: Pick<AlexandriaCall, "provider" | "capability">; [key: string]: unknown }[];
  /** How many in all. */
  total: number;
  /** The next page's call. */
  next: AlexandriaCall | null;
}
/** Official name of a tool found in the catalogue. */
export interface DiscoveredTool {
  /** The provider. */
  provider: string;
  /** Its capability. */
  capability: string;
  /** What it does. */
  description: string;
  /** Other fields of the catalogue. */
  [key: string]: unknown;
}

/** Official name of a paper's ids by source (`pmid`, `doi`, `arxiv`, ...). */
export type IdMap = Record<string, string[]>;
/** Official name of a ranked paper. */
export interface PaperResult {
  /** Canonical id. */
  paperId: string;
  /** Preferred identifier (`arxiv:<id>`, `doi:<id>`, ...). */
  primaryId: string;
  /** Source ids. */
  ids?: IdMap;
  /** Title. */
  title: string;
  /** Abstract. */
  abstract: string;
  /** Ranking score. */
  score: number;
  /** Ranking signals (similarity results). */
  signals?: { structural: number; semantic: number; articleRank: number; seedOverlap: number };
}
/** Official name of a paper's metadata. */
export interface PaperMetadata {
  /** Canonical id. */
  paperId: string;
  /** Source ids. */
  ids?: IdMap;
  /** Title. */
  title: string;
  /** Abstract. */
  abstract: string;
  /** Authors, comma-joined. */
  authors?: string;
  /** arXiv categories. */
  categories?: string[];
  /** Created. */
  createdDate?: string;
  /** Updated. */
  updateDate?: string;
}
/** Official name of an in-body passage. */
export interface Passage {
  /** Its text. */
  text: string;
  /** Its score. */
  score: number;
}
/** Official name of `research.searchPapers`' options. */
export interface SearchPapersOptions {
  /** Results, 1-500. */
  k?: number;
  /** Author filters. */
  authors?: string[];
  /** arXiv category filters. */
  categories?: string[];
  /** From date (`YYYY-MM-DD`). */
  from?: string;
  /** To date. */
  to?: string;
}
/** Official name of `research.searchPapers`' answer. */
export interface SearchPapersResponse {
  /** Whether it succeeded. */
  success: boolean;
  /** Ranked papers. */
  results: PaperResult[];
}
/** Official name of `research.getPaper`'s options. */
export interface GetPaperOptions {
  /** Read mode: passages matching this. */
  query?: string;
  /** Passages (read mode). */
  k?: number;
}
/** Official name of `research.getPaper`'s answer. */
export interface PaperMetadataResponse {
  /** Whether it succeeded. */
  success: boolean;
  /** The paper. */
  paper: PaperMetadata;
}
/** Official name of `research.getPaper`'s answer in read mode. */
export interface ReadPaperResponse extends PaperMetadataResponse {
  /** Resolved id. */
  paperId: string;
  /** The read query. */
  query: string;
  /** Matching passages. */
  passages: Passage[];
}
/** Official name of `research.similarPapers`' options. */
export interface SimilarPapersOptions {
  /** Intent to rerank by. */
  intent: string;
  /** Traversal mode. */
  mode?: "similar" | "citers" | "references";
  /** Results, 1-500. */
  k?: number;
  /** Extra rerank. */
  rerank?: boolean;
  /** More seed papers. */
  anchor?: string[];
}
/** Official name of `research.similarPapers`' answer. */
export interface SimilarPapersResponse {
  /** Whether it succeeded. */
  success: boolean;
  /** Related papers. */
  results: PaperResult[];
  /** Candidates considered. */
  poolSize: number;
  /** More existed. */
  truncated: boolean;
  /** A note when there are none. */
  note?: string | null;
}
/** Official name of `research.searchGithub`'s options (deprecated there). */
export interface SearchGithubOptions {
  /** Results, 1-100. */
  k?: number;
}
/** Official name of `research.searchGithub`'s answer (deprecated there). */
export interface GitHubSearchResponse {
  /** Whether it succeeded. */
  success: boolean;
  /** Results. */
  results: { repo: string; url: string; snippet: string; [key: string]: unknown }[];
  /** Deprecation notices. */
  warnings?: string[];
  /** The replacement endpoint. */
  replacement?: string;
}
/** Official name of `firecrawl.research`: the research paper index's calls (not supported by this SDK, see MIGRATION.md; each rejects before sending). */
export interface ResearchClient {
  /** Abstract search. */
  searchPapers(query: string, options?: SearchPapersOptions): Promise<SearchPapersResponse>;
  /** A paper's metadata. */
  getPaper(id: string, options?: { query?: undefined; k?: undefined }): Promise<PaperMetadataResponse>;
  /** A paper's passages matching `query`. */
  getPaper(id: string, options: { query: string; k?: number }): Promise<ReadPaperResponse>;
  /** Related papers. */
  similarPapers(id: string, options: SimilarPapersOptions): Promise<SimilarPapersResponse>;
  /** GitHub history search (deprecated there). */
  searchGithub(query: string, options?: SearchGithubOptions): Promise<GitHubSearchResponse>;
}
