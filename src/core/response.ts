/**
 * The answer edge: a 2xx body is decoded as JSON and parsed with the loose zod
 * schema of what the calling method relies on (`RequestSpec.response`) before
 * any result is built. A body that is empty, not JSON (a proxy's HTML page),
 * malformed, or missing what the result needs is an {@link InvalidResponseError}
 * carrying status, content-type, request id, endpoint, a redacted excerpt and
 * zod's issues. Error statuses (4xx/5xx) never come here: they keep the
 * status mapping of `request.ts`.
 *
 * The schemas themselves live beside each capability (`api/*`, `jobs/*`,
 * `v1/*`); the helpers here keep them short and cheap (documents are checked
 * to be objects, never deep-checked).
 */
import * as z from "zod/v4/mini";
import { InvalidResponseError, isRecord, type InvalidResponseCode, type ResponseIssue } from "./errors.js";
import { redactHeaders, redactKeyShapes } from "./redact.js";
import { at } from "./validate.js";

/** A zod schema (zod 4 / zod mini) describing what a method reads from a 2xx body. */
export type ResponseSchema = z.ZodMiniType;

/** What is known about the answer being read (for the error). */
export interface AnswerInfo {
  /** HTTP status. */
  status: number;
  /** Response headers, as they came (redacted with {@link secrets} when an error is made). */
  headers: Headers;
  /** The client's secrets, redacted from the headers an error keeps. */
  secrets: readonly string[];
  /** The `x-request-id` sent with the call. */
  requestId: string | undefined;
  /** A request id the server sent, when it differs from `requestId`. */
  serverRequestId?: string | undefined;
  /** HTTP method of the request. */
  method: string;
  /** The URL that answered (only its path is named in the error). */
  url: string;
}

/** Longest body excerpt kept on the error, in characters. */
export const EXCERPT_CHARS = 500;

/** Any JSON object; its fields are not looked into (documents, options, records passed on as they are). */
export const anyObject = z.custom<Record<string, unknown>>(isRecord, { error: "expected an object" });
// Marked pure (esbuild does not read zod's own marks): a bundle whose methods use neither drops them.
/** An array of JSON objects (documents, errors, sessions), each not looked into. */
export const objects = /* @__PURE__ */ z.array(anyObject);
/** An optional string that the server may also send as `null`. */
export const maybeString = /* @__PURE__ */ z.optional(/* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()));

/**
 * Decodes a 2xx body (the key already redacted from `text`). Not JSON, or
 * empty: {@link InvalidResponseError}, unless `schema` accepts an empty body.
 */
export function decodeAnswer(text: string, schema: ResponseSchema | undefined, info: AnswerInfo): unknown {
  if (text.trim() === "") {
    if (schema && z.safeParse(schema, undefined).success) return undefined;
    throw invalid("EMPTY_RESPONSE", text, info);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalid((info.headers.get("content-type") ?? "").includes("json") ? "INVALID_RESPONSE_JSON" : "NOT_JSON", text, info);
  }
}

/** Parses a decoded body with the method's schema; a mismatch is {@link InvalidResponseError} with zod's issues. */
export function checkAnswer(schema: ResponseSchema | undefined, body: unknown, text: string, info: AnswerInfo): void {
  if (!schema) return;
  const result = z.safeParse(schema, body);
  if (result.success) return;
  throw invalid("INVALID_RESPONSE_SHAPE", text, info, result.error.issues.map((i) => issue(i, body)));
}

function invalid(code: InvalidResponseCode, text: string, info: AnswerInfo, issues?: ResponseIssue[]): InvalidResponseError {
  const headers = redactHeaders(info.headers, info.secrets); // only an error reads them: redacted here, not on every answer
  return new InvalidResponseError({
    code,
    status: info.status,
    contentType: headers.get("content-type") ?? undefined,
    requestId: info.requestId,
    serverRequestId: info.serverRequestId,
    endpoint: `${info.method} ${new URL(info.url).pathname}`,
    bodyExcerpt: excerpt(text),
    issues,
    headers,
  });
}

/**
 * The start of a body, with anything shaped like an API key (`fc-...`) redacted. The client's own
 * secrets are out of `text` already (the request path redacts the answer before decoding it).
 */
export function excerpt(text: string): string {
  return redactKeyShapes(text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}...` : text);
}

type ZodIssue = z.core.$ZodIssue;

function issue(i: ZodIssue, body: unknown): ResponseIssue {
  const path = i.path.map((p) => (typeof p === "number" ? p : String(p)));
  return { code: i.code, path, message: describe(i, at(body, path)) };
}

/** zod mini carries no message text by default: say it in words here (never quoting the body). */
function describe(i: ZodIssue, value: unknown): string {
  if (i.code === "invalid_type") return `expected ${i.expected === "object" || i.expected === "array" ? `an ${i.expected}` : i.expected}, got ${kind(value)}`;
  if (i.code === "invalid_value") return `expected ${i.values.map((v) => JSON.stringify(v)).join(" or ")}`;
  if (i.code === "invalid_union") return `matches none of the expected shapes (got ${kind(value)})`;
  if (i.code === "custom") return `${i.message}, got ${kind(value)}`;
  return i.message && i.message !== "Invalid input" ? i.message : `invalid (got ${kind(value)})`;
}

function kind(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return typeof v;
}

/**
 * The server's deprecation signal of one answer (since 2026-05 the service flags deprecated endpoints: RFC 9745
 * `Deprecation: true` or `@<epoch seconds>`, RFC 8594 `Sunset`, `Link` with `rel="successor-version"` and
 * `rel="deprecation"`, a `Warning: 299 - "text"`, and in a JSON body `warnings[]` plus `replacement`).
 */
export interface DeprecationInfo {
  /** When the endpoint was deprecated, if the `Deprecation` header gave a date; `undefined` for `Deprecation: true` or no header. */
  deprecatedAt: Date | undefined;
  /** When the endpoint stops answering (`Sunset`), if said. */
  sunset: string | undefined;
  /** What to call instead (the body's `replacement`, else the `successor-version` link), if said. */
  replacement: string | undefined;
  /** The documentation of the deprecation (the `deprecation` link), if said. */
  docs: string | undefined;
  /** The server's texts: the body's `warnings[]`, else the `Warning` header's text. */
  warnings: string[];
}

/** Reads the deprecation signal of an answer; `undefined` when it has none (neither a `Deprecation` header nor `warnings[]`). */
export function deprecationOf(headers: Headers, body: unknown): DeprecationInfo | undefined {
  const header = headers.get("deprecation");
  const rec = isRecord(body) ? body : {};
  const bodyWarnings = Array.isArray(rec.warnings) ? rec.warnings.filter((w): w is string => typeof w === "string") : [];
  if (header === null && bodyWarnings.length === 0) return undefined;
  const at = header?.trim().match(/^@(-?\d+)$/);
  const links = linksOf(headers.get("link"));
  const warning = headers.get("warning")?.match(/^\s*299\s+\S+\s+"((?:[^"\\]|\\.)*)"/)?.[1]?.replace(/\\(.)/g, "$1");
  return {
    deprecatedAt: at?.[1] ? new Date(Number(at[1]) * 1000) : undefined,
    sunset: headers.get("sunset") ?? undefined,
    replacement: typeof rec.replacement === "string" ? rec.replacement : links["successor-version"],
    docs: links.deprecation,
    warnings: bodyWarnings.length ? bodyWarnings : warning ? [warning] : [],
  };
}

/** `<target>; rel="name"` entries of a `Link` header, by relation. */
function linksOf(link: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (link ?? "").matchAll(/<([^>]*)>\s*;\s*rel="?([^";,]+)"?/g)) if (m[1] !== undefined && m[2]) out[m[2]] ??= m[1];
  return out;
}

/** The deprecation notices given in this process (a log line, never a result): endpoint and the server's text. */
const noticed = new Set<string>();

/**
 * True the first time in this process that the deprecated capability of `endpoint` is flagged: the server's
 * deprecation is logged once per process and capability. A job's start and its status reads are one
 * capability (`POST /v2/extract` and `GET /v2/extract/:jobId`: one `extract()` call logs one line, not two).
 */
export function firstDeprecationNotice(endpoint: string, d: DeprecationInfo): boolean {
  // The server's text names the route (`/v2/extract/:jobId is deprecated...`): without its parameters, and
  // without the method, the start's and the status read's texts are one key. Without a text, the path
  // without its last segment when that is an id (it holds a digit).
  const key = d.warnings[0] ? d.warnings[0].replace(/\/:\w+/g, "") : (endpoint.split(" ")[1] ?? endpoint).replace(/\/[^/]*\d[^/]*$/, "");
  if (noticed.has(key)) return false;
  noticed.add(key);
  return true;
}

/**
 * The credits an answer reports, as it reports them (`-1`: a self-hosted server that does not know):
 * `creditsUsed` at the top (search, job and task statuses), else in `data` or the document's
 * `data.metadata` (scrape and parse: `metadata.creditsUsed`, the page's cost). The one reading of it: the
 * meter counts what is >= 0, the hooks' `onResponse` passes it on (`core/request.ts`).
 */
export function reportedCredits(raw: unknown): number | undefined {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const rec = raw as { creditsUsed?: unknown; data?: { creditsUsed?: unknown; metadata?: { creditsUsed?: unknown } } } | null;
  if (typeof rec !== "object" || rec === null) return undefined;
  const data = typeof rec.data === "object" && rec.data !== null && !Array.isArray(rec.data) ? rec.data : undefined;
  return num(rec.creditsUsed) ?? num(data?.creditsUsed) ?? num(typeof data?.metadata === "object" && data.metadata !== null ? data.metadata.creditsUsed : undefined);
}
