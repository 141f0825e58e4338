/**
 * `webdata/webhooks`: receiving the service's webhooks. Verify a delivery's
 * signature and parse it into a typed payload, with Web Crypto only, so a
 * receiver runs in Node, Deno, Bun, browsers and Workers alike:
 *
 *     import { parseWebhook } from "webdata/webhooks";
 *
 *     const event = await parseWebhook(rawBody, { secret, signature: req.headers.get("x-firecrawl-signature") });
 *     if (!event.known) return; // an event type newer than this version: event.type, event.data
 *     switch (event.type) { ... } // narrowed on the known types
 *
 * To test a receiver, `webdata/testing` signs deliveries (`signWebhook`) and
 * its fake service delivers a job's events to the job's `webhook`.
 *
 * The `webhook` option of job starts (`WebhookConfig`, `AgentWebhookConfig`)
 * is typed in the main entry too; its errors (`WebhookVerificationError`) are
 * `WebDataError`s like every other.
 */
export {
  verifyWebhookSignature,
  parseWebhook,
  WebhookVerificationError,
  WEBHOOK_EVENT_TYPES,
  type ParseWebhookOptions,
  type WebhookConfig,
  type AgentWebhookConfig,
  type WebhookObject,
  type WebhookEventFilter,
  type AgentWebhookEventFilter,
  type WebhookPayload,
  type ParsedWebhook,
  type UnknownWebhook,
  type WebhookEventType,
  type CrawlWebhook,
  type BatchScrapeWebhook,
  type ExtractWebhook,
  type AgentWebhook,
  type JobStartedWebhook,
  type PageSucceededWebhook,
  type PageFailedWebhook,
  type JobCompletedWebhook,
  type ExtractCompletedWebhook,
  type ExtractFailedWebhook,
  type ExtractWebhookResult,
  type AgentActionWebhook,
  type AgentCompletedWebhook,
  type AgentFailedWebhook,
  type AgentCancelledWebhook,
  type CrawlCancelledWebhook,
  type MonitorWebhook,
  type MonitorPageWebhook,
  type MonitorPageWebhookData,
  type MonitorPageJudgment,
  type MonitorCheckCompletedWebhook,
  type MonitorCheckWebhookData,
} from "./api/webhooks.js";
