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
import type { AgentTrace, AgentTraceEvent } from "../api/agent-runs.js";
import type { SearchCategory } from "../api/search.js";
import type { AgentWebhookEventFilter } from "../api/webhooks.js";

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
  targetId: string;
  type: "scrape";
  /** The scrape jobs of the check. */
  expectedJobs?: string[];
}
/** Official name of a crawl target's result in a check. */
export interface MonitorCrawlTargetResult extends Pick<MonitorScrapeTargetResult, "targetId"> {
  type: "crawl";
  /** The crawl of the check. */
  crawlId?: string;
}
/** Official name of a search target's result in a check. */
export interface MonitorSearchTargetResult extends Pick<MonitorScrapeTargetResult, "targetId"> {
  type: "search";
  /** The search ran. */
  searchCompleted?: boolean;
  resultCount?: number;
  /** Results judged a match for the goal. */
  matches?: number;
  /** The judge's summary. */
  summary?: string;
  /** The judge fell back to a simpler mode. */
  judgeDegraded?: boolean;
  degradedReason?: string | null;
  searchCredits?: number;
  judgeCredits?: number;
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
  mode: "extract" | "chat";
  prompt: string;
  urls?: string[];
  schema?: unknown;
  effort?: "low" | "medium" | "high";
  status: "processing" | "succeeded" | "failed" | "cancelled" | "refused" | "credit_limit_reached";
  /** Created, ISO 8601. */
  createdAt: string;
  /** Finished, ISO 8601. */
  finishedAt: string | null;
  creditsUsed: number | null;
  /** The assistant's reply. */
  message: string | null;
  /** Its data (with `includeData`). */
  data?: unknown;
  /** Follow-ups offered. */
  suggestions?: AgentSuggestion[] | null;
  /** Paid calls or terms waiting for approval. */
  pendingApproval?: PendingApproval | null;
  exchange?: AgentExchangeSummary | null;
}
/** Official name of an agent thread. */
export interface AgentThread extends Pick<AgentThreadRun, "id" | "createdAt"> {
  /** Updated, ISO 8601. */
  updatedAt: string;
  status: "idle" | "running";
  /** Its runs, in turn order. */
  runs: AgentThreadRun[];
}
/** Official name of `getAgentThread`'s answer (never given by this SDK: the route is not in the service, see MIGRATION.md). */
export interface AgentThreadResponse {
  success: boolean;
  thread?: AgentThread;
  error?: string;
}

/** Official name of a developer-index result kind. */
export type DeveloperSearchType = "doc" | "issue" | "pull_request" | "readme";
/** Official name of `developerSearch`'s options (sent as the official client sends it, see MIGRATION.md). */
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
  minStars?: number;
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
  state: "licensed" | "known_absent" | "unknown";
  spdx_id: string | null;
}
/** Official name of a developer-index passage. */
export interface DeveloperSearchPassage {
  text: string;
  /** Where to cite it. */
  citation_url?: string;
}
/** Official name of a developer-index result. */
export interface DeveloperSearchResult {
  id: string;
  url: string;
  title?: string;
  /** Matching passages. */
  passages: DeveloperSearchPassage[];
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
  source: string;
  indexed: boolean;
}
/** Official name of `developerSearch`'s answer. */
export interface DeveloperSearchResponse {
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
  provider: string;
  capability: string;
  options?: Record<string, unknown>;
}
/** Official name of `findTools`' options (sent as the official client sends it, see MIGRATION.md). */
export interface FindToolsOptions {
  /** URLs the tools should handle. */
  urls?: string[];
  providers?: string[];
  categories?: string[];
  groups?: string[];
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
  items: { id: string; name: string; next?: AlexandriaCall; execute?: Pick<AlexandriaCall, "provider" | "capability">; [key: string]: unknown }[];
  /** How many in all. */
  total: number;
  /** The next page's call. */
  next: AlexandriaCall | null;
}
/** Official name of a tool found in the catalogue. */
export interface DiscoveredTool {
  provider: string;
  capability: string;
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
  title: string;
  abstract: string;
  /** Ranking score. */
  score: number;
  /** Ranking signals (similarity results). */
  signals?: PaperSignals;
}
/** Official name of a paper's metadata. */
export interface PaperMetadata extends Pick<PaperResult, "paperId" | "ids" | "title" | "abstract"> {
  /** Authors, comma-joined. */
  authors?: string;
  /** arXiv categories. */
  categories?: string[];
  createdDate?: string;
  updateDate?: string;
}
/** Official name of an in-body passage. */
export interface Passage {
  text: string;
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
  success: boolean;
  paper: PaperMetadata;
}
/** Official name of `research.getPaper`'s answer in read mode. */
export interface ReadPaperResponse extends PaperMetadataResponse {
  /** Resolved id. */
  paperId: string;
  query: string;
  /** Matching passages. */
  passages: Passage[];
}
/** Official name of `research.similarPapers`' options. */
export interface SimilarPapersOptions extends Pick<SearchPapersOptions, "k"> {
  /** Intent to rerank by. */
  intent: string;
  /** Traversal mode. */
  mode?: "similar" | "citers" | "references";
  /** Extra rerank. */
  rerank?: boolean;
  /** More seed papers. */
  anchor?: string[];
}
/** Official name of `research.similarPapers`' answer. */
export interface SimilarPapersResponse {
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
export interface SearchGithubOptions extends Pick<DeveloperSearchOptions, "k"> {}
/** Official name of `research.searchGithub`'s answer (deprecated there). */
export interface GitHubSearchResponse {
  success: boolean;
  results: GitHubSearchItem[];
  /** Deprecation notices. */
  warnings?: string[];
  /** The replacement endpoint. */
  replacement?: string;
}
/** Official name of `firecrawl.research`: the research paper index's calls (each call sent as the official client sends it, see MIGRATION.md). */
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

/** Official name of a research result's ranking signals (similarity results). */
export interface PaperSignals {
  /** Structural strength (co-citation, coupling or seed overlap counts). */
  structural: number;
  /** Semantic score of the intent search (0 if absent). */
  semantic: number;
  /** Citation-graph article rank. */
  articleRank: number;
  /** Seeds connected to the candidate. */
  seedOverlap: number;
}
/** Official name of a GitHub search result's scores (deprecated there). */
export interface GitHubScoreBreakdown {
  /** Reciprocal rank fusion. */
  rrf?: number;
  semantic?: number;
  lexical?: number;
  fusion?: number;
  rerank?: number;
}
/** Official name of a GitHub search result (deprecated there). */
export interface GitHubSearchItem {
  /** What was matched. */
  resultType?: "github_history" | "repo_readme" | "web";
  /** `owner/name` (empty for web results outside a repository). */
  repo: string;
  url: string;
  /** History page kind (`issue`, `pull`). */
  pageType?: string;
  /** Issue or pull request number. */
  number?: number;
  /** Matched segments. */
  segmentCount?: number;
  /** The readme's URL (readme results). */
  readmeUrl?: string;
  /** Page title (web results). */
  title?: string;
  /** Matched excerpt. */
  snippet: string;
  /** Matched content, markdown. */
  contentMd?: string;
  scores: GitHubScoreBreakdown;
}

/** Official name of the options of a tool catalogue (Alexandria) execution. */
export interface AlexandriaOptions {
  /** Reused with the identical payload when retrying an execution. */
  requestId?: string;
  timeout?: number;
  integration?: string;
  origin?: string;
}
/** Official name of a tool catalogue (Alexandria) execution request (sent as the official client sends it, see MIGRATION.md). */
export interface AlexandriaScrapeRequest extends AlexandriaOptions {
  /** The call or calls. */
  alexandria: AlexandriaCall | AlexandriaCall[];
}
/** Official name of a failed catalogue call's error. */
export interface AlexandriaScrapeError {
  code: string;
  message: string;
  /** HTTP status. */
  status?: number;
  /** Present when credits were captured before the failure. */
  chargeId?: string;
}
/** Official name of one catalogue call's result: its data, or its error. */
export type AlexandriaScrapeResult =
  | { provider: string; capability: string; creditsCost: number; data: unknown; records?: number; upstreamStatus?: number; recordedAt?: string; error?: undefined; [key: string]: unknown }
  | { provider?: string; capability?: string; error: AlexandriaScrapeError; [key: string]: unknown };
/** Official name of a catalogue execution's answer. */
export interface AlexandriaScrapeData {
  /** The execution's id. */
  scrapeId: string;
  /** The request id (reuse it to retry). */
  requestId: string;
  /** One result per call. */
  alexandria: AlexandriaScrapeResult[];
  /** Credits in all. */
  creditsCost: number;
}

/** Official name of a search category as an object: webdata's {@link SearchCategory} object form (`github`, `research`, `pdf`; not the official `developer`, the developer index, which this SDK does not support). */
export type CategoryOption = Extract<SearchCategory, object>;

/** Official name of the image parser of `parsers` (OCR of raster images; takes no options). Not in webdata's `parsers` type: see MIGRATION.md. */
export interface ImageParser {
  type: "image";
}
/** Official name of a PDF page's markdown (a document's `pages`, with the PDF parser's `pages: true`). */
export interface PdfPage {
  /** 1-based physical page. */
  pageNumber: number;
  markdown: string;
}
/** Official name of a layout block's confidences. */
export interface PdfBlockConfidence {
  layout: number | null;
  ocr: number | null;
}
/** Official name of a layout block of a PDF page (the PDF parser's `blocks: true`). */
export interface PdfBlockItem {
  id: string;
  /** Block kind. */
  type: string;
  label: string | null;
  /** Bounding box `[x0, y0, x1, y1]`. */
  bbox: [number, number, number, number] | null;
  /** Its text. */
  content: string;
  /** Where it is in the document's markdown. */
  markdownSpan: [number, number] | null;
  readingOrder: number;
  /** Where it came from. */
  source: string | null;
  confidence: PdfBlockConfidence;
}
/** Official name of a PDF page's layout blocks. */
export interface PdfPageBlocks extends Pick<PdfPage, "pageNumber"> {
  width: number | null;
  height: number | null;
  /** Block extraction status. */
  status: string;
  items: PdfBlockItem[];
}

/** Official name of the entity kinds `redactPII` can restrict to. */
export type RedactPIIEntity = "PERSON" | "EMAIL" | "PHONE" | "LOCATION" | "FINANCIAL" | "SECRET";
/** Official name of the `redactPII` scrape option's object form. Not in webdata's scrape options: see MIGRATION.md. */
export interface RedactPIIOptions {
  /** `accurate` (server default), `aggressive` or `fast`. */
  mode?: "accurate" | "aggressive" | "fast";
  /** Restrict to these kinds (unset: all). */
  entities?: RedactPIIEntity[];
  /** `tag` (server default), `mask` or `remove`. */
  replaceStyle?: "tag" | "mask" | "remove";
}
/** Official name of the `threatProtection` scrape option (enterprise: a per-request override of the team's policy). Not in webdata's scrape options: see MIGRATION.md. */
export interface ThreatProtectionOptions {
  /** Scanning mode. */
  mode?: "off" | "manual-only" | "normal" | "zscaler";
  /** Block verdicts at or above this risk score (0-100). */
  riskScoreThreshold?: number;
  /** Domains or globs always blocked. */
  blacklist?: string[];
  /** Domains or globs always allowed. */
  whitelist?: string[];
  /** Blocked TLDs, lowercase, no dot. */
  blockedTlds?: string[];
  /** When scanning is unavailable: `closed` blocks, `open` allows. */
  failurePolicy?: "open" | "closed";
}
/** Official name of the `auditMetadata` scrape option. Not in webdata's scrape options: see MIGRATION.md. */
export interface AuditMetadata {
  /** The user the request is made for. */
  username: string;
}

/** Official name of an agent webhook's event filter: webdata's {@link AgentWebhookEventFilter}. */
export type AgentWebhookEvent = AgentWebhookEventFilter;

/** Official name of what the agent does when a provider needs data terms the team has not accepted. */
export type AgentOnTermsRequired = "skip" | "ask";
/** Official name of an agent run's `exchange` options (paid provider calls). Not in webdata's agent options: see MIGRATION.md. */
export interface AgentExchangeOptions {
  /** Use the exchange. */
  enabled?: boolean;
  /** Toolkits (at most 5). */
  toolkits?: string[];
  /** Maximum paid calls. */
  maxCalls?: number;
  /** Ask before paid calls. */
  requireApproval?: boolean;
  /** Answers the previous turn's pending approval. */
  approve?: { approvalId: string; callIds?: string[]; always?: boolean };
  /** Refuses it. */
  decline?: { approvalId: string };
  /** `skip` (server default) or `ask`. */
  onTermsRequired?: AgentOnTermsRequired;
}
/** Official name of a gated provider a run would have used but did not. */
export interface AgentSkippedProvider extends Pick<AgentTermsGate, "provider" | "name" | "capability" | "adds" | "version"> {
  reason: "terms_required";
  /** Where a person accepts the terms. */
  termsUrl: string;
}
/** Official name of the exchange calls that show and accept providers' terms (nothing is run for you). */
export interface AgentTermsRequiredAction {
  type: "accept_terms";
  /** The `terms` pending approval that answers this. */
  approvalId: string;
  /** The providers (as a `terms` pending approval names them, without the logo) and their calls. */
  providers: (Omit<AgentTermsGate, "logo"> & {
    show: { provider: "firecrawl"; capability: "terms/show"; options: { provider: string } };
    accept: { provider: "firecrawl"; capability: "terms/accept"; options: { provider: string; version: string; digest: string | null; confirmed: true } };
  })[];
}
/** Official name of a run's exchange summary. */
export interface AgentExchangeSummary {
  /** Whether the exchange was on. */
  enabled: boolean;
  /** Toolkits the run resolved to. */
  toolkits?: string[];
  /** Approval was required. */
  requireApproval?: boolean;
  onTermsRequired?: AgentOnTermsRequired;
  /** Paid calls made. */
  paidCalls: number;
  /** Their credits. */
  creditsUsed: number | null;
  /** Gated providers not used. */
  skippedProviders?: AgentSkippedProvider[];
  /** In `ask` mode, when a terms offer ended the turn. */
  requiresAction?: AgentTermsRequiredAction;
}
/** Official name of a provider in a `terms` pending approval. */
export interface AgentTermsGate {
  /** Provider id. */
  provider: string;
  name: string;
  logo?: string;
  capability?: string;
  /** What it would add. */
  adds?: string;
  /** Terms version. */
  version: string;
  /** Terms digest (null when none was published). */
  digest: string | null;
  /** Terms URL. */
  url: string;
}
/** Official name of a paid call a `calls` pending approval holds back. */
export interface PendingApprovalCall {
  id: string;
  provider: string;
  capability: string;
  input: Record<string, unknown>;
  /** More inputs. */
  more?: Record<string, unknown>[];
  /** Estimated credits. */
  creditsEstimate: number | null;
}
/** What both kinds of pending approval carry (not an official name; its parts are). */
export interface PendingApprovalBase {
  id: string;
  reason: string;
  /** How it was answered, once answered. */
  resolution: null | { approved: boolean; callIds: string[]; always: boolean; byRunId: string };
}
/** Official name of a turn waiting for paid calls to be allowed or refused (`kind` absent on older items). */
export interface PendingCallsApproval extends PendingApprovalBase {
  kind?: "calls";
  /** The calls held back. */
  calls: PendingApprovalCall[];
  /** Never on this kind. */
  terms?: never;
}
/** Official name of a turn waiting for providers' data terms to be accepted (`ask` mode). */
export interface PendingTermsApproval extends PendingApprovalBase {
  kind: "terms";
  calls: never[];
  /** The providers. */
  terms: AgentTermsGate[];
}
/** Official name of a pending approval: narrow on `kind === "terms"`. */
export type PendingApproval = PendingCallsApproval | PendingTermsApproval;

/** Official name of an agent's role in a trace. */
export type AgentTraceAgentRole = "orchestrator" | "subagent" | "browser" | "system";
/** Official name of the agent an event comes from. */
export interface AgentTraceAgentIdentity {
  id: string;
  role: AgentTraceAgentRole;
  name: string;
  /** The agent that started it. */
  parentId?: string;
}
/** Official name of a trace event's error. */
export interface AgentTraceError {
  /** What went wrong. */
  code: "cancelled" | "credit_limit_reached" | "parent_finished" | "refused" | "internal";
  /** Where. */
  source: "agent" | "tool" | "billing" | "system";
  /** Whether a retry can help. */
  retryable: boolean;
  message: string;
}
/** Official name of an artifact change (`artifact.updated`); read the content with `getAgentSnapshot(jobId, snapshotId)`. */
export interface AgentTraceArtifactChange {
  /** Content kind. */
  kind: "json" | "markdown" | "html" | "screenshot" | "text";
  artifactId: string;
  path?: string;
  /** The snapshot holding its content. */
  snapshotId: string;
  /** What changed. */
  change: "init" | "partial" | "append" | "modify" | "update";
  changedFields?: string[];
  itemCount?: number;
  /** The tool call that changed it. */
  sourceToolCallId?: string;
}
/**
 * What every trace event carries (schema version 1), as the official client
 * types it: webdata's {@link AgentTraceEvent} (whose events these all are) with
 * the fields typed (its `occurredAt`, `producerSequence` required). Not an official name; the events below are.
 */
export interface AgentTraceEventBase extends AgentTraceEvent {
  schemaVersion: 1;
  eventId: string;
  runId: string;
  occurredAt: string;
  producerSequence: number;
  /** The agent it comes from. */
  agent: AgentTraceAgentIdentity;
}
/** Official name of the `run.started` trace event. */
export interface AgentTraceRunStartedEvent extends AgentTraceEventBase {
  type: "run.started";
}
/** Official name of the `run.cancel_requested` trace event. */
export interface AgentTraceRunCancelRequestedEvent extends AgentTraceEventBase {
  type: "run.cancel_requested";
  reason: "user";
}
/** Official name of the `run.finished` trace event. */
export interface AgentTraceRunFinishedEvent extends AgentTraceEventBase {
  type: "run.finished";
  /** How the run ended. */
  outcome: "succeeded" | "failed" | "cancelled" | "refused" | "credit_limit_reached";
  /** Its error (absent on older rows). */
  error?: AgentTraceError | null;
}
/** Official name of the `agent.started` trace event. */
export interface AgentTraceAgentStartedEvent extends AgentTraceEventBase {
  type: "agent.started";
}
/** Official name of the `agent.finished` trace event. */
export interface AgentTraceAgentFinishedEvent extends AgentTraceEventBase, Pick<AgentTraceRunFinishedEvent, "error"> {
  type: "agent.finished";
  /** How the agent ended. */
  outcome: "succeeded" | "failed" | "cancelled" | "refused";
  /** How long it ran. */
  durationMs: number;
}
/** Official name of the `browser.session.started` trace event. */
export interface AgentTraceBrowserSessionStartedEvent extends AgentTraceEventBase {
  type: "browser.session.started";
  sessionId: string;
}
/** Official name of the `browser.session.finished` trace event. */
export interface AgentTraceBrowserSessionFinishedEvent extends AgentTraceEventBase, Pick<AgentTraceBrowserSessionStartedEvent, "sessionId">, Pick<AgentTraceAgentFinishedEvent, "durationMs"> {
  type: "browser.session.finished";
}
/** Official name of the `progress.reported` trace event. */
export interface AgentTraceProgressReportedEvent extends AgentTraceEventBase {
  type: "progress.reported";
  phase: "planning" | "working" | "finalizing";
  /** The report. */
  message: string;
}
/** Official name of the `reasoning.summary` trace event. */
export interface AgentTraceReasoningSummaryEvent extends AgentTraceEventBase {
  type: "reasoning.summary";
  /** The summary. */
  text: string;
}
/** Official name of the `tool_call.started` trace event. */
export interface AgentTraceToolCallStartedEvent extends AgentTraceEventBase {
  type: "tool_call.started";
  toolCallId: string;
  toolName: string;
  parameters: unknown;
}
/** Official name of the `tool_call.finished` trace event. */
export interface AgentTraceToolCallFinishedEvent extends AgentTraceEventBase, Pick<AgentTraceToolCallStartedEvent, "toolCallId" | "toolName"> {
  type: "tool_call.finished";
  result: unknown;
}
/** Official name of the `artifact.updated` trace event. */
export interface AgentTraceArtifactUpdatedEvent extends AgentTraceEventBase {
  type: "artifact.updated";
  /** The change. */
  artifact: AgentTraceArtifactChange;
}
/** Official name of the `error.occurred` trace event. */
export interface AgentTraceErrorOccurredEvent extends AgentTraceEventBase {
  type: "error.occurred";
  error: AgentTraceError;
}
/** Official name of a browser session running in an agent job (a trace's `activeBrowserSessions`, with `liveView: true`): webdata's. */
export type AgentTraceActiveBrowserSession = NonNullable<AgentTrace["activeBrowserSessions"]>[number];
