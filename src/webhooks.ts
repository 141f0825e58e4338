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
 * On several replicas, `webhookReceiver({ secret, store })` handles each
 * delivery once (by job, event and page; a cancel's flood of failed pages as
 * one cancellation) through a store shared in Redis (`redisWebhookStore` of
 * `webdata/redis`), and `receiver.reconcile(client, jobId)` reads the job over
 * REST for what the deliveries missed.
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
export {
  webhookReceiver,
  DEFAULT_WEBHOOK_TTL_MS,
  type WebhookReceiver,
  type WebhookReceiverOptions,
  type ReceivedWebhook,
  type FirstWebhook,
  type CancellationWebhook,
  type DuplicateWebhook,
  type SeenDeliveries,
} from "./webhooks/receiver.js";
export { memoryWebhookStore, DEFAULT_MAX_KEYS, type WebhookStore, type MemoryWebhookStoreOptions } from "./webhooks/store.js";
export { reconcileJob, type ReconcileClient, type ReconcileOptions, type Reconciliation, type SeenPages, type JobKind } from "./webhooks/reconcile.js";
