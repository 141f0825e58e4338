/**
 * The single checks of `webdata doctor` (its rows' shape, what a connection
 * failure means, the idempotent crawl start, server-sent events) and the
 * options they share. `doctor.ts` runs them in order; `doctor-deep.ts` adds
 * the ones that spend credits.
 */
import { randomUUID } from "node:crypto";
import type { RequestOptions } from "../core/request.js";
import { APIError, BadRequestError, ConflictError, InternalServerError, TimeoutError } from "../core/errors.js";
import type { WebData } from "../node.js";
import { causeCode } from "./report.js";
import { open, send, type Endpoint } from "../api/endpoint.js";

/** A crawl start the server must refuse (an invalid URL): the idempotency probe. */
const REFUSED_CRAWL: Endpoint<[], { id?: unknown }> = { op: "crawl.start", path: "/v2/crawl", body: () => ({ url: "not a url" }) };

/** A crawl's status route, asked for server-sent events (the id as given). */
const CRAWL_STATUS: Endpoint<[jobId: string]> = { op: "crawl.status", path: (jobId) => `/v2/crawl/${jobId}` };

/** How a check came out: works, a fact to know, works with a caveat, broken, or not checked. */
export type CheckStatus = "ok" | "info" | "warn" | "fail" | "skip";

/** One row of the doctor's table. */
export interface Check {
  /** Stable name for programs (`reach`, `auth`, `idempotency`, ...). */
  id: string;
  /** The row's title. */
  name: string;
  /** How it came out. */
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do about it (warn and fail rows). */
  fix?: string | undefined;
}

/** What the doctor needs. */
export interface DoctorOptions {
  /** The key in use, if any (never printed). */
  apiKey: string | undefined;
  /** Run the checks that start jobs and spend credits. */
  deep: boolean;
  /** The page the deep checks scrape and extract from. */
  target: string;
  /** Limit of one probe, ms. */
  timeoutMs: number;
  /** Ctrl-C. */
  signal: AbortSignal;
  /** The name of the proxy variable in force (`HTTPS_PROXY`, ...), if any: the WebSocket probe connects directly, and says so. */
  proxyVariable?: string | undefined;
}

/** Each row's title, by id. */
export const ROWS = {
  reach: "Reachable", auth: "API key", version: "API version", credits: "Credits", queue: "Queue", concurrency: "Concurrency", idempotency: "Idempotent crawl starts",
  websocket: "Crawl WebSocket", sse: "Crawl SSE", ai: "AI (JSON format, extract, agent)", search: "Search", crawl: "Crawl", scrape: "Scrape",
  "ai-json": "JSON format (AI)", "ai-extract": "Extract (AI)", "ai-agent": "Agent (AI)",
} as const;

/** A row of the table, titled from {@link ROWS}. */
export function row(id: keyof typeof ROWS, status: CheckStatus, detail: string, fix?: string): Check {
  return { id, name: ROWS[id], status, detail, ...(fix === undefined ? {} : { fix }) };
}

/** Runs a probe whose failure is a row, not the end: `failed` makes the row; Ctrl-C still ends the run. */
export async function tolerant<T>(signal: AbortSignal, call: () => Promise<T>, failed: (err: unknown) => T): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (signal.aborted) throw err;
    return failed(err);
  }
}

/** Names of the certificate and TLS failures Node reports (the cause's `code`). */
const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_)/;

/** What a connection failure means, and what to do about it. */
export function unreachable(err: unknown, apiUrl: string): Check {
  const code = causeCode(err);
  const host = new URL(apiUrl).host;
  if (code && TLS_CODE.test(code)) {
    const fix = `the certificate of ${host} is not trusted: renew or fix it; for a private CA, start Node with NODE_EXTRA_CA_CERTS=/path/to/ca.pem`;
    return { ...row("reach", "fail", `TLS failed: ${code} (${messageOf(err)})`, fix), name: "Reachable (TLS)" };
  }
  const fix =
    code === "ENOTFOUND" || code === "EAI_AGAIN" ? `the host ${new URL(apiUrl).hostname} does not resolve: check --api-url / WEBDATA_API_URL`
    : code === "ECONNREFUSED" ? `nothing listens at ${host}: is the server running, and is the port in --api-url right?`
    : err instanceof TimeoutError ? `no answer in time: check the network, a proxy (HTTPS_PROXY) or the server's load; --timeout-ms waits longer`
    : `check --api-url / WEBDATA_API_URL and the network between here and ${host}`;
  return row("reach", "fail", `${code ? `${code}: ` : ""}${messageOf(err)}`, fix);
}

/** An error in one line: the server's own text and status for an answer, else the message. */
export function messageOf(err: unknown): string {
  if (err instanceof APIError) return `${err.serverMessage} (HTTP ${err.status})`;
  return err instanceof Error ? err.message : String(err);
}

/** Whether a crawl start carrying `x-idempotency-key` gets past the key check (a start the server must refuse: an invalid URL). */
export async function idempotencyCheck(client: WebData, probe: RequestOptions): Promise<Check> {
  try {
    const started = await send(client.http, REFUSED_CRAWL, { ...probe, idempotencyKey: randomUUID() });
    // Never expected: a server that started a crawl of "not a url". Cancel it.
    if (typeof started.id === "string") await client.cancelCrawl(started.id, probe).catch(() => undefined);
    return row("idempotency", "warn", "the server accepted a crawl start with an invalid URL (cancelled)", "the server does not validate crawl starts as the service does: check its version");
  } catch (err) {
    if (probe.signal?.aborted) throw err;
    if (err instanceof BadRequestError) return row("idempotency", "ok", "x-idempotency-key accepted (probed with an invalid URL: no crawl started)");
    if (err instanceof InternalServerError) {
      const fix = "a self-hosted server without its database (Supabase) cannot check keys: keep the client's idempotencyKeys option off for this server (the default off the public service), or give the server its database";
      return row("idempotency", "warn", `a crawl start carrying x-idempotency-key fails with HTTP ${err.status} here`, fix);
    }
    if (err instanceof ConflictError) return row("idempotency", "warn", `a fresh x-idempotency-key was refused: ${messageOf(err)}`, "keep idempotencyKeys off for this server");
    return row("idempotency", "warn", `cannot tell: ${messageOf(err)}`, "crawl starts may still work; try `webdata doctor --deep` or a small crawl");
  }
}

/** The reason of a close frame: the `error` of a JSON reason (`{"type":"error","error":"Job not found"}`), else as sent. */
export function closeReason(reason: string): string {
  try {
    const parsed = JSON.parse(reason) as { error?: unknown; type?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
    if (typeof parsed.type === "string") return parsed.type;
  } catch {
    // Not JSON: a plain-text reason.
  }
  return reason;
}

/** Asks a job's status URL for server-sent events; `known`: the job exists (an unknown job's 404 says nothing about SSE). */
export async function sseCheck(client: WebData, jobId: string, known: boolean, probe: RequestOptions): Promise<Check> {
  let type: string | null | undefined;
  let status: number;
  try {
    const res = await open(client.http, CRAWL_STATUS, { ...probe, headers: { accept: "text/event-stream" } }, jobId);
    type = res.headers.get("content-type");
    status = res.status;
    await res.stream()?.cancel().catch(() => undefined);
  } catch (err) {
    if (probe.signal?.aborted) throw err;
    if (!(err instanceof APIError)) return row("sse", "info", `no answer: ${messageOf(err)}`);
    type = err.headers?.get("content-type");
    status = err.status;
  }
  const media = type?.split(";")[0] ?? "no content-type";
  if ((type ?? "").includes("text/event-stream")) return row("sse", "ok", "answers (text/event-stream)");
  if (!known) return row("sse", "info", `not known: no crawl is running, and an unknown job's status answers ${media} (HTTP ${status}); --deep asks about a real crawl`);
  return row("sse", "info", `none: a crawl's status asked for text/event-stream answers ${media} (as the service does); live progress uses the WebSocket, else polling`);
}

