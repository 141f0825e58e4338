/**
 * Fake `POST /v2/parse` (multipart upload, added after the reference's
 * baseline) and `POST /v2/feedback`, as the server has them
 * (`controllers/v2/parse.ts`, `controllers/v2/feedback/controller.ts`): a
 * `file` part and an optional `options` JSON part; the document is built from
 * the upload (an HTML file's headings and text, a text file's lines, any other
 * kind a heading naming the file), deterministic for the same bytes.
 */
import { pageFrom } from "../fixtures.js";
import { CREDITS, fail, HttpFailure, json, type FakeService, type HandlerContext } from "../service.js";
import { badRequest, buildDocument, fakeId, parseFormats, rejectUnknownKeys, SCRAPE_OPTION_KEYS, UUID } from "./scrape.js";

/** The service's upload limit. */
const MAX_BYTES = 50 * 1024 * 1024;
const DOCUMENTS = [".pdf", ".docx", ".doc", ".docm", ".odt", ".ods", ".odp", ".rtf", ".xlsx", ".xls", ".xlsm", ".xlsb", ".pptx", ".ppt", ".pptm", ".epub", ".csv"];
const bad = (code: string, error: string): never => {
  throw new HttpFailure(fail(400, error, { code }));
};

/** The kind the server tells from the name's extension, else the content type. */
function kindOf(name: string, type: string): "html" | "pdf" | "document" | undefined {
  const ext = /\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? "";
  if (ext === ".pdf" || type.startsWith("application/pdf")) return "pdf";
  if (DOCUMENTS.includes(ext)) return "document";
  if ([".html", ".htm", ".xhtml"].includes(ext) || type.includes("text/html") || type.includes("application/xhtml+xml")) return "html";
  return undefined;
}

/** Markdown of an uploaded HTML file: headings and paragraphs, tags dropped. */
function markdownOf(html: string): string {
  return html
    .replace(/<(script|style|head)[^>]*>[\s\S]*?<\/\1>/gi, "")
    .replace(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi, (_m, n: string, t: string) => `\n${"#".repeat(Number(n))} ${t.trim()}\n`)
    .replace(/<(p|div|li|br|tr)[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Registers the parse and endpoint-feedback routes. */
export function registerParse(fake: FakeService): void {
  fake.route("POST", "/v2/parse", (c) => parse(fake, c));
  const given = new Map<string, string>();
  fake.route("POST", "/v2/feedback", ({ body }) => {
    const b = (body ?? {}) as Record<string, unknown>;
    const invalid = (message: string) => new HttpFailure(fail(400, "Invalid request body", { details: [{ code: "custom", path: [], message }], feedbackErrorCode: "INVALID_BODY" }));
    if (!["search", "scrape", "parse", "map"].includes(String(b.endpoint))) throw invalid('endpoint: expected one of "search"|"scrape"|"parse"|"map"');
    if (typeof b.jobId !== "string" || !UUID.test(b.jobId)) throw invalid("jobId: Invalid UUID");
    if (!["good", "partial", "bad"].includes(String(b.rating))) badRequest(["rating"], 'Invalid option: expected one of "good"|"bad"|"partial"', "invalid_value");
    const signal = ["issues", "tags", "valuableSources", "missingContent", "pageNumbers"].some((k) => Array.isArray(b[k]) && (b[k] as unknown[]).length > 0) || ["note", "querySuggestions", "url"].some((k) => typeof b[k] === "string" && b[k] !== "");
    if (!signal) throw invalid("Feedback must include at least one substantive signal: issues, note, sources, missingContent, querySuggestions, url, or pageNumbers.");
    return feedbackOnce(fake, given, `${String(b.endpoint)}:${b.jobId}`);
  });
}

/** Feedback on the job at `at`, once: a second answer names the first feedback's id and refunds nothing. */
export function feedbackOnce(fake: FakeService, given: Map<string, string>, at: string): Response {
  const earlier = given.get(at);
  if (earlier) return json(200, { success: true, feedbackId: earlier, creditsRefunded: 0, alreadySubmitted: true });
  const feedbackId = fakeId(fake);
  given.set(at, feedbackId);
  return json(200, { success: true, feedbackId, creditsRefunded: 0 });
}

/** The upload's options (the `options` field's JSON object, else none). */
function uploadOptions(form: FormData | undefined): Record<string, unknown> {
  const raw = form?.get("options");
  if (raw === null || raw === undefined) return {};
  if (typeof raw !== "string") bad("BAD_REQUEST", "The 'options' field must be a JSON string.");
  let options: Record<string, unknown> = {};
  try {
    options = JSON.parse(raw as string) as Record<string, unknown>;
  } catch {
    bad("BAD_REQUEST", "Invalid JSON in the 'options' field. Provide a valid JSON string.");
  }
  if (!options || typeof options !== "object" || Array.isArray(options)) bad("BAD_REQUEST", "The 'options' field must parse to a JSON object.");
  return options;
}

/** `POST /v2/parse`: an uploaded file as a document in the formats asked (the options a page load needs are refused). */
async function parse(fake: FakeService, { form, team, key }: HandlerContext): Promise<Response> {
  const file = form?.get("file");
  if (!file || typeof file === "string") bad("BAD_REQUEST", "Missing file upload. Send multipart/form-data with a 'file' field and optional 'options' JSON string.");
  const upload = file as File;
  if (upload.size > MAX_BYTES) bad("BAD_REQUEST", "Uploaded file exceeds maximum size of 50MB.");
  const options = uploadOptions(form);
  const name = upload.name || "upload";
  const kind = kindOf(name, upload.type);
  if (!kind) bad("UNSUPPORTED_FILE_TYPE", "Unsupported upload type. Supported file extensions: .html, .htm, .xhtml, .pdf, .docx, .doc, .docm, .odt, .ods, .odp, .rtf, .xlsx, .xls, .xlsm, .xlsb, .pptx, .ppt, .pptm, .epub, .csv");
  rejectUnknownKeys(options, new Set([...SCRAPE_OPTION_KEYS, "zeroDataRetention", "origin", "integration"]));
  const formats = parseFormats(options.formats);
  const refused = (Array.isArray(options.actions) && options.actions.length > 0 && "actions") || formats.map((f) => f.type).find((t) => ["screenshot", "branding", "changeTracking"].includes(t)) ||
    (typeof options.waitFor === "number" && options.waitFor > 0 && "waitFor") || (options.location !== undefined && "location") || (options.mobile === true && "mobile") ||
    (typeof options.proxy === "string" && !["auto", "basic"].includes(options.proxy) && "proxy");
  if (refused) bad("PARSE_UNSUPPORTED_OPTIONS", `Parse uploads do not support ${refused}.`);
  fake.requireCredits(team, CREDITS.scrape);
  const text = kind === "pdf" ? "" : await upload.text();
  const markdown = kind === "html" ? markdownOf(text) : name.toLowerCase().endsWith(".csv") ? text.trim() : `# ${name}`;
  const page = pageFrom({ url: `https://parse.firecrawl.dev/uploads/${encodeURIComponent(name)}`, markdown: markdown || `# ${name}`, ...(kind === "html" ? { html: text } : {}) });
  const { doc, credits } = buildDocument(fake, page, formats, name);
  doc.metadata = { ...(doc.metadata as object), contentType: kind === "html" ? "text/html" : upload.type || "application/octet-stream", ...(kind === "pdf" ? { numPages: 1 } : {}) };
  fake.charge(team, credits, key);
  return json(200, { success: true, data: doc });
}
