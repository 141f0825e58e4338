/**
 * Webhooks (reference §4.10): the `webhook` option of job starts, the typed
 * payloads the service POSTs for every event, and signature verification with
 * Web Crypto (`crypto.subtle`), so a receiver can run on the edge.
 */
import type { Document } from "./document.js";
import type { MonitorCheckStatus, MonitorPageStatus, MonitorSummary } from "./monitor-shapes.js";
import { isRecord, WebhookVerificationError } from "../core/errors.js";
import * as z from "zod/v4/mini";
import { oneOf } from "../core/validate.js";

/** Events a crawl, batch scrape or extract webhook can subscribe to (`webhook.events`). */
export type WebhookEventFilter = "started" | "page" | "completed" | "failed";
/** Events an agent webhook can subscribe to (`webhook.events` of `startAgent`). */
export type AgentWebhookEventFilter = "started" | "action" | "completed" | "failed" | "cancelled";

/** The object form of `webhook` (strict on the server: only these keys). */
export interface WebhookObject<E extends string = WebhookEventFilter> {
  /** Where the service POSTs (`url`, required). */
  url: string;
  /** Extra request headers (`headers`); `x-firecrawl-signature` is not allowed. */
  headers?: Record<string, string>;
  /** Echoed back in every delivery as `metadata` (`metadata`, string values). */
  metadata?: Record<string, string>;
  /** Which events to send (`events`); empty or absent means all. */
  events?: E[];
}

/** `webhook` of crawl, batch scrape and extract starts: a URL, or `{url, headers, metadata, events}`. */
export type WebhookConfig = string | WebhookObject<WebhookEventFilter>;
/** `webhook` of agent starts: a URL, or `{url, headers, metadata, events}` with agent events. */
export type AgentWebhookConfig = string | WebhookObject<AgentWebhookEventFilter>;

const SIGNATURE_HEADER = "x-firecrawl-signature";

/** An absolute http(s) URL (no bare host): a webhook's, a crawl preview's. */
export function isFullHttpUrl(s: string): boolean {
  try {
    return /^https?:$/.test(new URL(s).protocol); // an http(s) URL always has a host: the parser refuses an empty one
  } catch {
    return false;
  }
}

/** Checks a `webhook` option before sending (URL present, no signature header, known events). */
export function webhookSchema(events: readonly string[] = ["started", "page", "completed", "failed"]): z.ZodMiniType {
  const url = z.string().check(z.refine(isFullHttpUrl, { message: "must be an absolute http(s) URL" }));
  return oneOf({
    string: url,
    object: z.object({
      url,
      headers: z.optional(
        z.record(z.string(), z.string()).check(
          z.refine((h) => !Object.keys(h).some((k) => k.toLowerCase() === SIGNATURE_HEADER), {
            message: "The following headers are not allowed: x-firecrawl-signature",
          }),
        ),
      ),
      metadata: z.optional(z.record(z.string(), z.string())),
      events: z.optional(z.array(z.enum(events as [string, ...string[]]))),
    }),
  }, "a URL or { url, headers, metadata, events }");
}

/** Fields every delivery carries (reference §4.10 "Payload"). */
interface WebhookBase<T extends string> {
  type: T;
  /**
   * Always `true`: an event this version of webdata knows and types (set by
   * {@link parseWebhook}, not sent by the service). {@link UnknownWebhook} has
   * `false`; check `event.known` before a `switch (event.type)` to narrow.
   */
  known: true;
  /** The job id (`id`). */
  id: string;
  /** Unique per delivery (`webhookId`); reused on retries, so use it to de-duplicate. */
  webhookId: string;
  /** Your `webhook.metadata`, echoed back (`metadata`). */
  metadata?: Record<string, string>;
}

/** Fields every failure delivery carries besides the common ones. */
interface FailedWebhook<T extends string> extends WebhookBase<T> {
  success: false;
  /** The server's error text. */
  error: string;
}

/** `crawl.started` / `batch_scrape.started` / `extract.started` / `agent.started`: no data. */
export interface JobStartedWebhook<T extends string> extends WebhookBase<T> {
  success: true;
  data: [];
}

/** A page that scraped (`crawl.page` / `batch_scrape.page` with `success: true`). */
export interface PageSucceededWebhook<T extends string> extends WebhookBase<T> {
  /** The page scraped. */
  success: true;
  data: [Document];
}

/** A page that failed (`crawl.page` / `batch_scrape.page` with `success: false`). */
export interface PageFailedWebhook<T extends string> extends FailedWebhook<T> {
  /** Only the URL that failed. */
  data: [{ metadata: { sourceURL: string } }];
}

/** `crawl.completed` / `batch_scrape.completed`: no data (read results from the status endpoint). */
export interface JobCompletedWebhook<T extends string> extends JobStartedWebhook<T> {}

/** One extract result, as sent in `extract.completed`. */
export interface ExtractWebhookResult {
  /** Whether the extraction succeeded. */
  success: boolean;
  data?: unknown;
  extractId: string;
  warning?: string;
  /** Per-URL trace. */
  urlTrace?: unknown[];
  error?: string;
  totalUrlsScraped?: number;
  /** Sources per field. */
  sources?: Record<string, unknown>;
  tokensBilled?: number;
  creditsBilled?: number;
  /** Anything else the server adds. */
  [key: string]: unknown;
}

/** `extract.completed`. */
export interface ExtractCompletedWebhook extends WebhookBase<"extract.completed"> {
  /** Whether the extract succeeded. */
  success: boolean;
  data: [ExtractWebhookResult];
}

/** `extract.failed`. */
export interface ExtractFailedWebhook extends FailedWebhook<"extract.failed"> {
  /** Usually empty. */
  data: unknown[];
}

/** `agent.action`: one step the agent took. */
export interface AgentActionWebhook extends WebhookBase<"agent.action"> {
  success: true;
  /** The action: estimated credits so far, the tool used and its input. */
  data: [{ creditsUsed: number; action: string; input: unknown }];
}

/** `agent.completed`. */
export interface AgentCompletedWebhook extends WebhookBase<"agent.completed"> {
  success: true;
  /** Total credits and the data found. */
  data: [{ creditsUsed: number; data: Record<string, unknown> }];
}

/** `agent.failed`. */
export interface AgentFailedWebhook extends FailedWebhook<"agent.failed"> {
  /** Credits used before the failure. */
  data: [{ creditsUsed: number }];
}

/** `agent.cancelled`. */
export interface AgentCancelledWebhook extends WebhookBase<"agent.cancelled"> {
  success: false;
  /** Credits used before the cancel. */
  data: [{ creditsUsed: number }];
}

/** `crawl.cancelled`: the crawl was cancelled (the server's `WebhookEvent.CRAWL_CANCELLED`). */
export interface CrawlCancelledWebhook extends FailedWebhook<"crawl.cancelled"> {
  data: [];
}

/** The judgment of a page's change (a monitor with `judgeEnabled`): whether it matters for the monitor's goal, and why. */
export interface MonitorPageJudgment {
  /** The change matters. */
  meaningful: boolean;
  /** How sure the judge is. */
  confidence: "high" | "medium" | "low";
  /** Why. */
  reason: string;
  /** The changes that matter. */
  meaningfulChanges: { type: "added" | "removed" | "changed"; before: string | null; after: string | null; reason: string }[];
}

/** One page of a monitor's check, as `monitor.page` sends it. */
export interface MonitorPageWebhookData extends Pick<MonitorCheckWebhookData, "monitorId" | "checkId"> {
  /** The page. */
  url: string;
  /** What happened to it. */
  status: MonitorPageStatus;
  /** The scrape it was compared with. */
  previousScrapeId?: string | null;
  /** This check's scrape. */
  currentScrapeId?: string | null;
  /** Why it failed. */
  error?: string | null;
  /** The judge's verdict (`null` without a judge). */
  isMeaningful?: boolean | null;
  /** The judge's reasons. */
  judgment?: MonitorPageJudgment | null;
  /** The change: `text` (a git-style diff) and/or `json` (per field). */
  diff?: { text?: string; json?: Record<string, { previous: unknown; current: unknown }> } | null;
}

/** `monitor.page`: one page of a running check (`success` false when the page failed). `id` is the check's id. */
export interface MonitorPageWebhook extends WebhookBase<"monitor.page"> {
  /** The page was read. */
  success: boolean;
  /** Why the page failed. */
  error?: string;
  data: [MonitorPageWebhookData];
}

/** A monitor's finished check, as `monitor.check.completed` sends it. */
export interface MonitorCheckWebhookData {
  monitorId: string;
  /** The check (also the delivery's `id`). */
  checkId: string;
  /** How the check ended. */
  status: MonitorCheckStatus;
  /** Pages by outcome. */
  summary: MonitorSummary;
}

/** `monitor.check.completed`: a check ended (`success` true when its status is `completed`). `id` is the check's id. */
export interface MonitorCheckCompletedWebhook extends WebhookBase<"monitor.check.completed"> {
  /** The check completed. */
  success: boolean;
  /** Why it did not. */
  error?: string;
  data: [MonitorCheckWebhookData];
}

/** Every page-monitor delivery (`createMonitor({ webhook })`). */
export type MonitorWebhook = MonitorPageWebhook | MonitorCheckCompletedWebhook;

/** Every crawl delivery. There is no `crawl.failed` event: failed pages arrive as `crawl.page` with `success: false`. */
export type CrawlWebhook =
  | JobStartedWebhook<"crawl.started">
  | PageSucceededWebhook<"crawl.page">
  | PageFailedWebhook<"crawl.page">
  | JobCompletedWebhook<"crawl.completed">
  | CrawlCancelledWebhook;
/** Every batch-scrape delivery (no `batch_scrape.failed` event exists). */
export type BatchScrapeWebhook =
  | JobStartedWebhook<"batch_scrape.started">
  | PageSucceededWebhook<"batch_scrape.page">
  | PageFailedWebhook<"batch_scrape.page">
  | JobCompletedWebhook<"batch_scrape.completed">;
/** Every extract delivery. */
export type ExtractWebhook = JobStartedWebhook<"extract.started"> | ExtractCompletedWebhook | ExtractFailedWebhook;
/** Every agent delivery (sent by the agent service). */
export type AgentWebhook =
  | JobStartedWebhook<"agent.started">
  | AgentActionWebhook
  | AgentCompletedWebhook
  | AgentFailedWebhook
  | AgentCancelledWebhook;
/** Any webhook delivery this version knows, discriminated on `type` (and on `success` for `*.page`). */
export type WebhookPayload = CrawlWebhook | BatchScrapeWebhook | ExtractWebhook | AgentWebhook | MonitorWebhook;
/** Every event name (`type`) the service sends. */
export type WebhookEventType = WebhookPayload["type"];

/**
 * A verified delivery whose `type` this version of webdata does not know: an
 * event the service added later. It is a webhook all the same (never a
 * verification failure): acknowledge it (answer 2xx) and read what you need.
 * The fields every delivery has are typed when present with their usual types,
 * every other field is kept on the object, and `data` is always a list.
 */
export interface UnknownWebhook {
  /** The event name, as sent (for example `"crawl.failed"`, which no service version sends yet). */
  type: string;
  /** Always `false`: narrow with `if (!event.known)` before switching on the known types. */
  known: false;
  /** Whether the service reports success (`success`), when it sent a boolean. */
  success?: boolean;
  /** The job (or check) id: `id`, or `jobId` as v0 crawls send it, when present. */
  id?: string;
  /** Unique per delivery (`webhookId`), when present. */
  webhookId?: string;
  /** The delivery's `data`, as sent: one object or value is a list of one, none is empty. */
  data: unknown[];
  /** The server's error text (`error`), when present. */
  error?: string;
  /** Your `webhook.metadata`, echoed back (`metadata`), when present. */
  metadata?: Record<string, string>;
}

/**
 * What {@link parseWebhook} resolves to: a known event ({@link WebhookPayload},
 * `known: true`) or an {@link UnknownWebhook} (`known: false`). TypeScript
 * cannot narrow on a `type` literal while an open `string` is in the union, so
 * check `known` first:
 *
 *     if (!event.known) return ack(); // a newer event: event.type, event.data
 *     switch (event.type) { case "crawl.page": ... } // narrowed as before
 */
export type ParsedWebhook = WebhookPayload | UnknownWebhook;

/** Every `type` value, for runtime checks. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  "crawl.started",
  "crawl.page",
  "crawl.completed",
  "crawl.cancelled",
  "batch_scrape.started",
  "batch_scrape.page",
  "batch_scrape.completed",
  "extract.started",
  "extract.completed",
  "extract.failed",
  "agent.started",
  "agent.action",
  "agent.completed",
  "agent.failed",
  "agent.cancelled",
  "monitor.page",
  "monitor.check.completed",
];

const encoder = new TextEncoder();

function toBytes(body: string | Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> {
  if (typeof body === "string") return encoder.encode(body);
  return body instanceof Uint8Array ? new Uint8Array(body) : new Uint8Array(body);
}

function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Checks the `X-Firecrawl-Signature` header of a delivery: `sha256=<hex>` where
 * the hex is HMAC-SHA256 of the exact raw body under your team's webhook secret.
 * Pass the body bytes (or text) exactly as received, before any JSON parsing.
 * Uses Web Crypto and a constant-time comparison. Resolves `false` (never
 * throws) for a missing, malformed or wrong signature.
 */
export async function verifyWebhookSignature(
  rawBody: string | Uint8Array | ArrayBuffer,
  signatureHeader: string | null | undefined,
  secret: string,
): Promise<boolean> {
  if (typeof signatureHeader !== "string" || typeof secret !== "string" || secret === "") return false;
  const m = /^\s*sha256=([0-9a-fA-F]+)\s*$/.exec(signatureHeader);
  const given = m?.[1] ? fromHex(m[1]) : undefined;
  if (!given || given.length !== 32) return false;
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) throw new Error("verifyWebhookSignature needs Web Crypto (globalThis.crypto.subtle)");
  const key = await subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const expected = new Uint8Array(await subtle.sign("HMAC", key, toBytes(rawBody)));
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= (expected[i] ?? 0) ^ (given[i] ?? 0);
  return diff === 0;
}

/** Options of {@link parseWebhook}. */
export interface ParseWebhookOptions {
  /** The `X-Firecrawl-Signature` header value; required when `secret` is given. */
  signature?: string | null | undefined;
  /** Your webhook secret: when given, a bad or missing signature throws. */
  secret?: string | undefined;
}

export { WebhookVerificationError } from "../core/errors.js";

/** What a JSON value is, for the error of a body that is not a delivery. */
function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  return "an object without a string `type`";
}

/** `data` as a list: a list as sent, one value as a list of one (the first monitor deliveries sent an object), none as empty. */
function dataList(data: unknown): unknown[] {
  if (Array.isArray(data)) return data;
  return data === undefined || data === null ? [] : [data];
}

/**
 * Verifies (when `secret` is given) and parses a delivery's raw body.
 *
 * Resolves a {@link ParsedWebhook}: a known event typed by its `type`
 * ({@link WebhookPayload}, `known: true`), or, for a `type` this version does
 * not know (an event the service added later), an {@link UnknownWebhook}
 * (`known: false`, its `type` and `data`): a new event is never taken for a
 * forgery. Throws {@link WebhookVerificationError} only for a delivery that
 * cannot be trusted or is not one: a bad or missing signature (with `secret`),
 * a body that is not JSON, JSON that is not an object with a string `type`, or
 * a known event without its job id (`jobId` of v0 crawls is accepted as `id`;
 * a monitor's delivery carries its check's id). Unknown extra fields are kept;
 * a `data` object is a list of one. The service's signature covers the body
 * only (no timestamp is signed), so there is no age to check: de-duplicate on
 * `webhookId`.
 *
 * @example
 * const event = await parseWebhook(raw, { secret, signature: req.headers.get("x-firecrawl-signature") });
 * if (!event.known) return new Response("ok"); // a newer event type: event.type, event.data
 * if (event.type === "crawl.page" && event.success) save(event.data[0]);
 */
export async function parseWebhook(rawBody: string | Uint8Array | ArrayBuffer, options: ParseWebhookOptions = {}): Promise<ParsedWebhook> {
  if (options.secret !== undefined && !(await verifyWebhookSignature(rawBody, options.signature, options.secret))) {
    throw new WebhookVerificationError("Webhook signature does not match the body");
  }
  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(toBytes(rawBody)));
  } catch {
    throw new WebhookVerificationError("Webhook body is not valid JSON");
  }
  if (!isRecord(body) || typeof body.type !== "string" || body.type === "") {
    throw new WebhookVerificationError(`Webhook body is not a webhook delivery: ${describeJson(body)}`);
  }
  const id = typeof body.id === "string" ? body.id : typeof body.jobId === "string" ? body.jobId : undefined;
  if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(body.type)) return unknownWebhook(body, body.type, id);
  if (id === undefined) throw new WebhookVerificationError(`Webhook body has no job id (a ${body.type} delivery carries \`id\`)`);
  const data = Array.isArray(body.data) ? body.data : isRecord(body.data) ? [body.data] : [];
  return { ...body, id, data, known: true } as unknown as WebhookPayload;
}

/** An event of a type this version does not know: every field kept, the common ones typed only when well-typed. */
function unknownWebhook(body: Record<string, unknown>, type: string, id: string | undefined): UnknownWebhook {
  const { success, id: _id, webhookId, error, metadata, ...rest } = body;
  const event: UnknownWebhook = { ...rest, type, known: false, data: dataList(body.data) };
  if (typeof success === "boolean") event.success = success;
  if (id !== undefined) event.id = id;
  if (typeof webhookId === "string") event.webhookId = webhookId;
  if (typeof error === "string") event.error = error;
  if (isRecord(metadata) && Object.values(metadata).every((v) => typeof v === "string")) event.metadata = metadata as Record<string, string>;
  return event;
}
