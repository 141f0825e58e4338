/**
 * How the CLI reports an error: for people, the class and message followed by
 * what the server said that helps (its `code`, the `details` of a 400 field
 * by field, the request id) and what to do; for programs (`--json`), one JSON
 * object on one line. Never the API key: every error passed the client's
 * redaction boundary, and `toJSON()` lists plain fields only.
 */
import {
  APIError,
  AuthenticationError,
  ConnectionError,
  InvalidResponseError,
  isRecord,
  RateLimitError,
  ValidationError,
  WebDataError,
} from "../core/errors.js";

/** Longest `details` value printed on one line before it is cut. */
const MAX_DETAIL = 300;
/** Most detail lines printed. */
const MAX_LINES = 10;

/** The server's `details` as lines: `path: message` for each zod-style issue (repeats dropped), else compact JSON. */
export function detailLines(details: unknown): string[] {
  if (details === undefined || details === null) return [];
  if (Array.isArray(details)) {
    const lines: string[] = [];
    for (const d of details) {
      let text: string;
      if (isRecord(d) && typeof d.message === "string") {
        const path = Array.isArray(d.path) ? d.path.map(String).join(".") : typeof d.path === "string" ? d.path : "";
        text = path ? `${path}: ${d.message}` : d.message;
      } else text = cut(typeof d === "string" ? d : JSON.stringify(d));
      if (!lines.includes(text)) lines.push(text);
    }
    return lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `(${lines.length - MAX_LINES} more)`] : lines;
  }
  return [cut(typeof details === "string" ? details : JSON.stringify(details))];
}

function cut(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}...` : text;
}

/** The first `code` in an error's cause chain (`ECONNREFUSED`, `CERT_HAS_EXPIRED`, ...). */
export function causeCode(err: unknown): string | undefined {
  for (let e: unknown = err, i = 0; e instanceof Error && i < 8; e = e.cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && !(e instanceof WebDataError)) return code;
  }
  return undefined;
}

/** What to do about an error, when the CLI can tell. */
function hint(err: unknown): string | undefined {
  if (err instanceof AuthenticationError) return "check the key: --api-key <key> or WEBDATA_API_KEY";
  if (err instanceof RateLimitError && err.retryAfterMs !== undefined) return `the server asks to retry after ${Math.ceil(err.retryAfterMs / 1000)}s`;
  if (err instanceof ConnectionError) return "is the API URL right? --api-url <url> or WEBDATA_API_URL (run `webdata doctor` to check the deployment)";
  return undefined;
}

/** An error as text for people: `Class: message`, then indented lines with the server's code, details, request id and a hint. */
export function errorText(err: unknown): string {
  if (err instanceof ValidationError) return err.message;
  const head = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const lines: string[] = [];
  if (err instanceof APIError) {
    if (err.code) lines.push(`code: ${err.code}`);
    // The message carries the server's reason already (bounded): a detail line it holds is not said twice.
    for (const d of detailLines(err.details)) if (!err.message.includes(d)) lines.push(d);
    if (err.requestId) lines.push(`request id: ${err.requestId}`);
  } else if (err instanceof InvalidResponseError) {
    lines.push(`code: ${err.code}`);
    if (err.bodyExcerpt) lines.push(`body: ${cut(err.bodyExcerpt.replace(/\s+/g, " ").trim())}`);
    if (err.requestId) lines.push(`request id: ${err.requestId}`);
  } else if (err instanceof ConnectionError) {
    const code = causeCode(err);
    if (code && !err.message.includes(code)) lines.push(`code: ${code}`);
  }
  const h = hint(err);
  if (h) lines.push(`hint: ${h}`);
  return [head, ...lines.map((l) => `  ${l}`)].join("\n");
}

/** An error as one JSON object for `--json`: `{"type":"error","exitCode":N,"error":{name,message,status,code,details,requestId,...}}`. */
export function errorRecord(err: unknown, exitCode: number): Record<string, unknown> {
  let error: Record<string, unknown>;
  if (err instanceof WebDataError) {
    error = err.toJSON();
    // The body repeats `error`, `code` and `details`; the cause chain's code is what a program branches on.
    delete error.body;
    if (err instanceof ConnectionError) error.code = causeCode(err);
  } else error = err instanceof Error ? { name: err.name, message: err.message } : { name: "Error", message: String(err) };
  return { type: "error", exitCode, error: JSON.parse(JSON.stringify(error)) as unknown };
}

/** A record as one line of JSON. */
export function jsonLine(record: Record<string, unknown>): string {
  return `${JSON.stringify(record)}\n`;
}
