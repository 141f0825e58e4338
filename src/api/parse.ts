/**
 * Document parsing, added by the service after the reference's baseline (§14:
 * `POST /v2/parse`, multipart upload). Wire read from the server
 * (`apps/api/src/routes/v2.ts`, `controllers/v2/parse.ts`): a `file` part (its
 * kind told by the name's extension, else its content type) and an optional
 * `options` part, the scrape options as JSON text (options a file cannot have:
 * 400 `PARSE_UNSUPPORTED_OPTIONS`). The answer is a scrape's:
 * `{ success: true, data: Document }`. Over 50 MB is 400 "Uploaded file exceeds
 * maximum size of 50MB."; an unknown kind 400 `UNSUPPORTED_FILE_TYPE`.
 */
import type { APIPromise, HttpClient, RequestOptions } from "../core/request.js";
import { ValidationError } from "../core/errors.js";
import { send, type Endpoint } from "./endpoint.js";
import { check, rules } from "../core/validate.js";
import { PARSE_FILE } from "./limits.js";
import { anyObject } from "../core/response.js";
import * as z from "zod/v4/mini";
import { scrapeOptionsShape, wireScrapeOptions, type ScrapeParams, type ScrapeResult } from "./scrape.js";

/** The largest upload the service takes: 50 MB (checked before sending). */
export const PARSE_MAX_BYTES = PARSE_FILE.max;

/** The bytes of an upload: a `Blob`/`File`, bytes (`ArrayBuffer`, `Uint8Array`, a Node `Buffer`) or text. */
export type ParseFileData = Blob | ArrayBuffer | ArrayBufferView | string;

/** A file to parse. */
export interface ParseFile {
  /** Its content. */
  data: ParseFileData;
  /** Its name: the extension tells the service its kind (`.pdf`, `.docx`, `.html`, ...). */
  filename: string;
  /** Its MIME type (else the `Blob`'s, else none; text defaults to `text/plain`). */
  contentType?: string;
}

/** Options of `parse`: scrape options, less those a file cannot have. */
export type ParseOptions = Omit<ScrapeParams, "actions" | "waitFor" | "mobile" | "location" | "maxAge" | "minAge" | "storeInCache" | "proxy"> & {
  /** `basic` or `auto` only. */
  proxy?: "basic" | "auto";
};

const REFUSED = ["actions", "waitFor", "mobile", "location"];

const parseOptions = z.looseObject({ ...scrapeOptionsShape, proxy: z.optional(z.enum(["basic", "auto"])) }).check(
  rules<Record<string, unknown>>((o, ctx) => {
    for (const k of REFUSED) if (o[k] !== undefined) ctx.issues.push({ code: "custom", path: [k], message: "a parsed file has no page to act on: leave it out", input: o[k] });
    (Array.isArray(o.formats) ? (o.formats as unknown[]) : []).forEach((f, i) => {
      const name = typeof f === "string" ? f : (f as { type?: unknown } | null)?.type;
      if (name === "screenshot" || name === "branding" || name === "changeTracking") ctx.issues.push({ code: "custom", path: ["formats", i], message: `parse has no ${name} format`, input: f });
    });
  }),
);

/** The upload as a `Blob` of its content type; `ValidationError` for a missing name, no content, or over {@link PARSE_MAX_BYTES}. */
function uploadOf(file: ParseFile): [Blob, string] {
  const { data, filename, contentType: type } = (file ?? {}) as Partial<ParseFile>;
  const fail = (path: string, message: string) => new ValidationError([{ path, message }], "parse file");
  if (typeof filename !== "string" || !filename.trim()) throw fail("filename", "is required (its extension tells the service the file's kind)");
  const bytes = typeof data === "string" || data instanceof ArrayBuffer || ArrayBuffer.isView(data);
  if (!(data instanceof Blob) && !bytes) throw fail("data", "must be a Blob, bytes (ArrayBuffer, Uint8Array, Buffer) or text");
  const blob = data instanceof Blob && (!type || data.type === type) ? data : new Blob([data as BlobPart], { type: type ?? (typeof data === "string" ? "text/plain; charset=utf-8" : "") });
  if (blob.size === 0) throw fail("data", "is empty");
  if (blob.size > PARSE_MAX_BYTES) throw fail("data", `is ${blob.size} bytes; the service takes at most 50 MB (${PARSE_MAX_BYTES} bytes)`);
  return [blob, filename.trim()];
}

/** `POST /v2/parse`: the options as the `options` part (their `timeout` read by the route's `SERVER_TIMEOUTS` row), the file as the `file` part. */
const PARSE: Endpoint<[file: ParseFile, options: ParseOptions | undefined], { data: ScrapeResult<ParseOptions> }, ScrapeResult<ParseOptions>> = { op: "parse",
  path: "/v2/parse",
  body: (_file, options) => wireScrapeOptions(check(parseOptions, options ?? {}, "parse options")),
  form: "options",
  files: (file) => ({ file: uploadOf(file) }),
  response: z.looseObject({ data: anyObject }),
  map: (r) => r.data,
};

/** `POST /v2/parse` (multipart): the document parsed from the file. */
export function parse<O extends ParseOptions>(http: HttpClient, file: ParseFile, options?: O, req?: RequestOptions): APIPromise<ScrapeResult<O>> {
  return send(http, PARSE, req, file, options) as APIPromise<ScrapeResult<O>>;
}
