/**
 * The official client's declarations (`@mendable/firecrawl-js` 4.42.0 `dist/index.d.ts`) against the drop-in's, type
 * by type: for every exported type name (but the generic ones without defaults), every field the official type names
 * is a field of the drop-in's type of that name, so official code that sets or reads it compiles, and so on down into
 * each field's object (or an array's elements) for five levels: a field of the official `CrawlOptions.scrapeOptions`
 * the drop-in's lacks is `"scrapeOptions.origin"`. The fields the drop-in's types still lack are listed here exactly
 * (a new gap, or one closed, fails this file); MIGRATION.md ("types") says why they are left. Then official call sites that failed to compile against the drop-in (strict, NodeNext).
 * Names whose type is a union of strings or of object forms (formats, webhooks, file data) are compared by
 * assignability in test/firecrawl-shapes.test-d.ts, not by their keys.
 */
import { expectTypeOf, test } from "vitest";
import type * as O from "@mendable/firecrawl-js";
import type * as D from "webdata/firecrawl";
import Firecrawl, { type BatchScrapeOptions, type CrawlOptions } from "webdata/firecrawl";

/** The object types inside `T`: an array's elements, a function dropped, `null`/`undefined` dropped. */
type Inner<T> = T extends readonly (infer E)[] ? Inner<E> : T extends (...args: never[]) => unknown ? never : T extends object ? (Methods<T> extends never ? T : never) : never;

/** The keys of `T` whose values are functions: an object with methods (a zod schema, a class instance) is not data. */
type Methods<T> = { [K in keyof T]-?: NonNullable<T[K]> extends (...args: never[]) => unknown ? K : never }[keyof T];

/**
 * The fields of the official type `Off` that the drop-in's type `Ours` of the same name lacks, at any depth: a
 * missing field by its name, a missing field of a field's object (or of an array's elements) by its dotted path.
 */
type Gap<Off, Ours, Path extends string = "", Depth extends unknown[] = []> = [Off] extends [never]
  ? never
  : string extends keyof Off
    ? never
  : Depth["length"] extends 5
    ? never
    : {
        [K in keyof Off & string]-?: K extends keyof Ours
          ? Gap<Inner<NonNullable<Off[K]>>, Inner<NonNullable<Ours[K]>>, `${Path}${K}.`, [...Depth, 1]>
          : `${Path}${K}`;
      }[keyof Off & string];

test("every official type's fields are fields of the drop-in's type of the same name (the remaining gaps listed)", () => {
  expectTypeOf<Gap<O.ActionOption, D.ActionOption>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ActiveCrawl, D.ActiveCrawl>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ActiveCrawlsResponse, D.ActiveCrawlsResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentEffort, D.AgentEffort>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentExchangeOptions, D.AgentExchangeOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentExchangeSummary, D.AgentExchangeSummary>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentListItem, D.AgentListItem>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentListOptions, D.AgentListOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentListResponse, D.AgentListResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentMode, D.AgentMode>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentOnTermsRequired, D.AgentOnTermsRequired>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentOptions, D.AgentOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentResponse, D.AgentResponse>>().toEqualTypeOf<"threadId" | "threadTurn">();
  expectTypeOf<Gap<O.AgentSkippedProvider, D.AgentSkippedProvider>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentSnapshotResponse, D.AgentSnapshotResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentStatusResponse, D.AgentStatusResponse>>().toEqualTypeOf<"message" | "mode" | "effort" | "threadId" | "threadTurn" | "suggestions" | "pendingApproval" | "exchange">();
  expectTypeOf<Gap<O.AgentSuggestion, D.AgentSuggestion>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTermsGate, D.AgentTermsGate>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTermsRequiredAction, D.AgentTermsRequiredAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentThread, D.AgentThread>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentThreadResponse, D.AgentThreadResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentThreadRun, D.AgentThreadRun>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceActiveBrowserSession, D.AgentTraceActiveBrowserSession>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceAgentFinishedEvent, D.AgentTraceAgentFinishedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceAgentIdentity, D.AgentTraceAgentIdentity>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceAgentRole, D.AgentTraceAgentRole>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceAgentStartedEvent, D.AgentTraceAgentStartedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceArtifactChange, D.AgentTraceArtifactChange>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceArtifactUpdatedEvent, D.AgentTraceArtifactUpdatedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceBrowserSessionFinishedEvent, D.AgentTraceBrowserSessionFinishedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceBrowserSessionStartedEvent, D.AgentTraceBrowserSessionStartedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceError, D.AgentTraceError>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceErrorOccurredEvent, D.AgentTraceErrorOccurredEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceEvent, D.AgentTraceEvent>>().toEqualTypeOf<"agent.name" | "agent.id" | "agent.role" | "agent.parentId">();
  expectTypeOf<Gap<O.AgentTraceProgressReportedEvent, D.AgentTraceProgressReportedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceReasoningSummaryEvent, D.AgentTraceReasoningSummaryEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceResponse, D.AgentTraceResponse>>().toEqualTypeOf<"events.agent.name" | "events.agent.id" | "events.agent.role" | "events.agent.parentId">();
  expectTypeOf<Gap<O.AgentTraceRunCancelRequestedEvent, D.AgentTraceRunCancelRequestedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceRunFinishedEvent, D.AgentTraceRunFinishedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceRunStartedEvent, D.AgentTraceRunStartedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceToolCallFinishedEvent, D.AgentTraceToolCallFinishedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentTraceToolCallStartedEvent, D.AgentTraceToolCallStartedEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AgentWebhookEvent, D.AgentWebhookEvent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AlexandriaCall, D.AlexandriaCall>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AlexandriaOptions, D.AlexandriaOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AlexandriaScrapeData, D.AlexandriaScrapeData>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AlexandriaScrapeError, D.AlexandriaScrapeError>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AlexandriaScrapeRequest, D.AlexandriaScrapeRequest>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AlexandriaScrapeResult, D.AlexandriaScrapeResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AttributesFormat, D.AttributesFormat>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.AuditMetadata, D.AuditMetadata>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.BatchScrapeJob, D.BatchScrapeJob>>().toEqualTypeOf<"data.pages" | "data.tools" | "data.agent_hints" | "data.blocks">();
  expectTypeOf<Gap<O.BatchScrapeOptions, D.BatchScrapeOptions>>().toEqualTypeOf<"options.origin" | "options.integration" | "options.profile" | "options.useMock" | "options.lockdown" | "options.redactPII" | "options.threatProtection" | "options.auditMetadata" | "options.domainTools">();
  expectTypeOf<Gap<O.BatchScrapeResponse, D.BatchScrapeResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.BrandingProfile, D.BrandingProfile>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.BrowserCreateResponse, D.BrowserCreateResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.BrowserDeleteResponse, D.BrowserDeleteResponse>>().toEqualTypeOf<"status">();
  expectTypeOf<Gap<O.BrowserExecuteResponse, D.BrowserExecuteResponse>>().toEqualTypeOf<"output" | "cdpUrl" | "liveViewUrl" | "interactiveLiveViewUrl" | "truncated">();
  expectTypeOf<Gap<O.BrowserListResponse, D.BrowserListResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.BrowserSession, D.BrowserSession>>().toEqualTypeOf<"status" | "streamWebView" | "createdAt" | "lastActivity">();
  expectTypeOf<Gap<O.CategoryOption, D.CategoryOption>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ChangeTrackingFormat, D.ChangeTrackingFormat>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ClickAction, D.ClickAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ConcurrencyCheck, D.ConcurrencyCheck>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.CrawlErrorsResponse, D.CrawlErrorsResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.CrawlJob, D.CrawlJob>>().toEqualTypeOf<"data.pages" | "data.tools" | "data.agent_hints" | "data.blocks">();
  expectTypeOf<Gap<O.CrawlOptions, D.CrawlOptions>>().toEqualTypeOf<"scrapeOptions.origin" | "scrapeOptions.integration" | "scrapeOptions.profile" | "scrapeOptions.useMock" | "scrapeOptions.lockdown" | "scrapeOptions.redactPII" | "scrapeOptions.threatProtection" | "scrapeOptions.auditMetadata" | "scrapeOptions.domainTools">();
  expectTypeOf<Gap<O.CrawlResponse, D.CrawlResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.CreateMonitorRequest, D.CreateMonitorRequest>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.CreditUsage, D.CreditUsage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.CreditUsageHistoricalPeriod, D.CreditUsageHistoricalPeriod>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.CreditUsageHistoricalResponse, D.CreditUsageHistoricalResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchLicenseDisclosure, D.DeveloperSearchLicenseDisclosure>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchOptions, D.DeveloperSearchOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchPassage, D.DeveloperSearchPassage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchRepoStatus, D.DeveloperSearchRepoStatus>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchResponse, D.DeveloperSearchResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchResult, D.DeveloperSearchResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchSourceStatus, D.DeveloperSearchSourceStatus>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DeveloperSearchType, D.DeveloperSearchType>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.DiscoveredTool, D.DiscoveredTool>>().toEqualTypeOf<"next.options" | "next.provider" | "next.capability" | "example.response" | "example.request" | "example.recordedAt">();
  expectTypeOf<Gap<O.Document, D.Document>>().toEqualTypeOf<"pages" | "tools" | "agent_hints" | "blocks">();
  expectTypeOf<Gap<O.DocumentMetadata, D.DocumentMetadata>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.EndpointFeedbackEndpoint, D.EndpointFeedbackEndpoint>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.EndpointFeedbackRequest, D.EndpointFeedbackRequest>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ErrorDetails, D.ErrorDetails>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ExecuteJavascriptAction, D.ExecuteJavascriptAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ExtractResponse, D.ExtractResponse>>().toEqualTypeOf<"warnings" | "warning" | "replacement">();
  expectTypeOf<Gap<O.FeedbackMissingContent, D.FeedbackMissingContent>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FeedbackRating, D.FeedbackRating>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FeedbackResponse, D.FeedbackResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FeedbackValuableSource, D.FeedbackValuableSource>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FindToolsData, D.FindToolsData>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FindToolsOptions, D.FindToolsOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FirecrawlClientInput, D.FirecrawlClientInput>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FirecrawlClientOptions, D.FirecrawlClientOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.Format, D.Format>>().toEqualTypeOf<"type">();
  expectTypeOf<Gap<O.FormatOption, D.FormatOption>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.FormatString, D.FormatString>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.GetMonitorCheckOptions, D.GetMonitorCheckOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.GetPaperOptions, D.GetPaperOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.GitHubScoreBreakdown, D.GitHubScoreBreakdown>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.GitHubSearchItem, D.GitHubSearchItem>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.GitHubSearchResponse, D.GitHubSearchResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.HighlightsFormat, D.HighlightsFormat>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.IdMap, D.IdMap>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ImageParser, D.ImageParser>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.JsonFormat, D.JsonFormat>>().toEqualTypeOf<"checkPromptInjection">();
  expectTypeOf<Gap<O.ListMonitorChecksOptions, D.ListMonitorChecksOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ListMonitorsOptions, D.ListMonitorsOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.LocationConfig, D.LocationConfig>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MapData, D.MapData>>().toEqualTypeOf<"id" | "agent_hints" | "links.position" | "links.category">();
  expectTypeOf<Gap<O.MapOptions, D.MapOptions>>().toEqualTypeOf<"threatProtection" | "auditMetadata">();
  expectTypeOf<Gap<O.MenuAvailability, D.MenuAvailability>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuImage, D.MenuImage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuItem, D.MenuItem>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuItemIdentifiers, D.MenuItemIdentifiers>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuMerchant, D.MenuMerchant>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuPrice, D.MenuPrice>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuProfile, D.MenuProfile>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MenuSection, D.MenuSection>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.Monitor, D.Monitor>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorCheck, D.MonitorCheck>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorCheckDetail, D.MonitorCheckDetail>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorCheckPage, D.MonitorCheckPage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorCrawlTarget, D.MonitorCrawlTarget>>().toEqualTypeOf<"scrapeOptions.origin" | "scrapeOptions.integration" | "scrapeOptions.profile" | "scrapeOptions.useMock" | "scrapeOptions.lockdown" | "scrapeOptions.redactPII" | "scrapeOptions.threatProtection" | "scrapeOptions.auditMetadata" | "scrapeOptions.domainTools" | "crawlOptions.scrapeOptions.origin" | "crawlOptions.scrapeOptions.integration" | "crawlOptions.scrapeOptions.profile" | "crawlOptions.scrapeOptions.useMock" | "crawlOptions.scrapeOptions.lockdown" | "crawlOptions.scrapeOptions.redactPII" | "crawlOptions.scrapeOptions.threatProtection" | "crawlOptions.scrapeOptions.auditMetadata" | "crawlOptions.scrapeOptions.domainTools" | "crawlOptions.robotsUserAgent">();
  expectTypeOf<Gap<O.MonitorCrawlTargetResult, D.MonitorCrawlTargetResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorEmailNotification, D.MonitorEmailNotification>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorEmailRecipientSubscription, D.MonitorEmailRecipientSubscription>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorNotification, D.MonitorNotification>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorPageDiff, D.MonitorPageDiff>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorPageJudgment, D.MonitorPageJudgment>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorPageSnapshot, D.MonitorPageSnapshot>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorSchedule, D.MonitorSchedule>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorScrapeTarget, D.MonitorScrapeTarget>>().toEqualTypeOf<"scrapeOptions.origin" | "scrapeOptions.integration" | "scrapeOptions.profile" | "scrapeOptions.useMock" | "scrapeOptions.lockdown" | "scrapeOptions.redactPII" | "scrapeOptions.threatProtection" | "scrapeOptions.auditMetadata" | "scrapeOptions.domainTools">();
  expectTypeOf<Gap<O.MonitorScrapeTargetResult, D.MonitorScrapeTargetResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorSearchTarget, D.MonitorSearchTarget>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorSearchTargetResult, D.MonitorSearchTargetResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorSummary, D.MonitorSummary>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorTarget, D.MonitorTarget>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorTargetResult, D.MonitorTargetResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.MonitorWebhookConfig, D.MonitorWebhookConfig>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PDFAction, D.PDFAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PDFParser, D.PDFParser>>().toEqualTypeOf<"pages" | "blocks" | "pageMarkdown" | "pageMarkers">();
  expectTypeOf<Gap<O.PaginationConfig, D.PaginationConfig>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PaperMetadata, D.PaperMetadata>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PaperMetadataResponse, D.PaperMetadataResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PaperResult, D.PaperResult>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PaperSignals, D.PaperSignals>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ParseFile, D.ParseFile>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ParseFileData, D.ParseFileData>>().toEqualTypeOf<"slice">();
  expectTypeOf<Gap<O.ParseFormat, D.ParseFormat>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ParseFormatOption, D.ParseFormatOption>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ParseFormatString, D.ParseFormatString>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ParseOptions, D.ParseOptions>>().toEqualTypeOf<"profile" | "useMock" | "redactPII" | "auditMetadata" | "domainTools">();
  expectTypeOf<Gap<O.Passage, D.Passage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PdfBlockConfidence, D.PdfBlockConfidence>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PdfBlockItem, D.PdfBlockItem>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PdfPage, D.PdfPage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PdfPageBlocks, D.PdfPageBlocks>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PendingApproval, D.PendingApproval>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PendingApprovalCall, D.PendingApprovalCall>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PendingCallsApproval, D.PendingCallsApproval>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PendingTermsApproval, D.PendingTermsApproval>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.PressAction, D.PressAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ProductAvailability, D.ProductAvailability>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ProductImage, D.ProductImage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ProductPrice, D.ProductPrice>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ProductProfile, D.ProductProfile>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ProductSale, D.ProductSale>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ProductVariant, D.ProductVariant>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.QueryFormat, D.QueryFormat>>().toEqualTypeOf<"mode">();
  expectTypeOf<Gap<O.QuestionFormat, D.QuestionFormat>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.QueueStatusResponse, D.QueueStatusResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ReadPaperResponse, D.ReadPaperResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.RedactPIIEntity, D.RedactPIIEntity>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.RedactPIIOptions, D.RedactPIIOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.RequiresAction, D.RequiresAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScrapeAction, D.ScrapeAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScrapeBrowserDeleteResponse, D.ScrapeBrowserDeleteResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScrapeExecuteRequest, D.ScrapeExecuteRequest>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScrapeExecuteResponse, D.ScrapeExecuteResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScrapeOptions, D.ScrapeOptions>>().toEqualTypeOf<"origin" | "integration" | "profile" | "toolDetail" | "useMock" | "lockdown" | "redactPII" | "threatProtection" | "auditMetadata" | "domainTools">();
  expectTypeOf<Gap<O.ScreenshotAction, D.ScreenshotAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScreenshotFormat, D.ScreenshotFormat>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ScrollAction, D.ScrollAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchData, D.SearchData>>().toEqualTypeOf<"tools" | "agent_hints">();
  expectTypeOf<Gap<O.SearchFeedbackRequest, D.SearchFeedbackRequest>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchGithubOptions, D.SearchGithubOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchPapersOptions, D.SearchPapersOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchPapersResponse, D.SearchPapersResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchRequest, D.SearchRequest>>().toEqualTypeOf<"highlights" | "includeDomains" | "excludeDomains" | "toolDetail" | "threatProtection" | "domainTools" | "scrapeOptions.origin" | "scrapeOptions.integration" | "scrapeOptions.profile" | "scrapeOptions.useMock" | "scrapeOptions.lockdown" | "scrapeOptions.redactPII" | "scrapeOptions.threatProtection" | "scrapeOptions.auditMetadata" | "scrapeOptions.domainTools">();
  expectTypeOf<Gap<O.SearchResultImages, D.SearchResultImages>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchResultNews, D.SearchResultNews>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SearchResultWeb, D.SearchResultWeb>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SimilarPapersOptions, D.SimilarPapersOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.SimilarPapersResponse, D.SimilarPapersResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.ThreatProtectionOptions, D.ThreatProtectionOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.TokenUsage, D.TokenUsage>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.TokenUsageHistoricalPeriod, D.TokenUsageHistoricalPeriod>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.TokenUsageHistoricalResponse, D.TokenUsageHistoricalResponse>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.UpdateMonitorRequest, D.UpdateMonitorRequest>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.Viewport, D.Viewport>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.WaitAction, D.WaitAction>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.WatcherOptions, D.WatcherOptions>>().toEqualTypeOf<never>();
  expectTypeOf<Gap<O.WriteAction, D.WriteAction>>().toEqualTypeOf<never>();
});

test("official code that compiles against the official client compiles against the drop-in", () => {
  async function officialCode(): Promise<void> {
    const app = new Firecrawl({ apiKey: "fc-YOUR_API_KEY" });
    // Batch options with the official nesting, typed with the official name.
    const opts: BatchScrapeOptions = { options: { formats: ["markdown"] }, maxConcurrency: 1 };
    await app.startBatchScrape(["https://example.com"], opts);
    // A browser session read for its error.
    const session = await app.browser();
    if (!session.success) throw new Error(session.error ?? "no session");
    // A watcher's document listener with the official listener's looseness.
    const seen: string[] = [];
    const watch = app.watcher("job-id");
    watch.on("document", (doc) => seen.push(doc.metadata?.sourceURL));
    // v1 scrapeUrl with actions: their results are typed as there.
    const res = await app.v1.scrapeUrl("https://example.com", { formats: ["markdown"], actions: [{ type: "screenshot" }] });
    if (res.success) console.log(res.actions.screenshots.length, res.actions.scrapes, res.actions.javascriptReturns);
    // Crawl options as the official type has them: nulls, and robotsUserAgent.
    const crawlOptions: CrawlOptions = { limit: 10, prompt: null, maxDiscoveryDepth: null, robotsUserAgent: "bot" };
    await app.startCrawl("https://example.com", crawlOptions);
    await app.crawl("https://example.com", { ...crawlOptions, pollInterval: 2 });
  }
  void officialCode;
});
