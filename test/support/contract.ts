/**
 * Is a request one the service's OpenAPI contract (`test/fixtures/openapi/`)
 * accepts? The route must be one of the document's paths, each path parameter
 * exactly one segment, query parameters of their declared type, and the JSON
 * body valid against the operation's request schema. Where the reference
 * (read from the server's source) says the server accepts more than the
 * document, the reference wins (DESIGN.md): bare hosts are URLs the server
 * prefixes with `http://`, and reference §13's differences are allowed.
 */
import { loadOpenApi, requestSchema, validate } from "./openapi.js";

type Schema = Record<string, unknown>;
const DOCS = { v1: loadOpenApi("v1-openapi"), v2: loadOpenApi("v2-openapi") };

/** A request as it left the client. */
export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
}

function templateMatch(template: string, path: string): Record<string, string> | undefined {
  const t = template.split("/");
  const p = path.split("/");
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] ?? "";
    const m = /^\{(.+)\}$/.exec(seg);
    if (m) params[m[1] ?? ""] = decodeURIComponent(p[i] ?? "");
    else if (seg !== p[i]) return undefined;
  }
  return params;
}

/** The bare hosts the server accepts as URLs (it prefixes `http://`), turned into absolute URLs; other values unchanged. */
function absoluteUrls(value: unknown, key = ""): unknown {
  if (typeof value === "string" && (key === "url" || key === "urls")) {
    try {
      new URL(value);
      return value;
    } catch {
      return `http://${value}`;
    }
  }
  if (Array.isArray(value)) return value.map((v) => absoluteUrls(v, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, absoluteUrls(v, k)]));
  return value;
}

/** Reference §13: the source accepts these beyond the 2026 OpenAPI document. */
const REFERENCE_ALLOWS = [/\.timeout: \d+ > maximum/, /\.proxy: "stealth" not in enum/, /\.formats\[\d+\]/, /\.query: /];

/** Routes of the reference that the OpenAPI document does not list (their bodies are checked by the SDK's own tests). */
const REFERENCE_ROUTES = new Set(["POST /v2/agent-signup", "GET /v2/concurrency-check", "GET /v1/concurrency-check"]);

/** Every way `req` breaks the contract (empty when it conforms). `apiUrl` is the client's base URL. */
export function contractProblems(req: SentRequest, apiUrl: string): string[] {
  const u = new URL(req.url);
  if (u.origin !== new URL(apiUrl).origin) return [`sent to another origin: ${u.origin}`];
  const m = /^\/(v1|v2)(\/.*)$/.exec(u.pathname);
  if (!m) return [`not an API route: ${u.pathname}`];
  const doc = DOCS[m[1] as "v1" | "v2"];
  const rest = m[2] ?? "";
  if (REFERENCE_ROUTES.has(`${req.method} ${u.pathname}`)) return [];
  const paths = doc.paths as Record<string, Schema>;
  const method = req.method.toLowerCase();
  const candidates = Object.keys(paths).filter((t) => paths[t]?.[method] && templateMatch(t, rest));
  // A literal route (`/crawl/active`) wins over a template (`/crawl/{id}`).
  const template = candidates.find((t) => !t.includes("{")) ?? candidates[0];
  if (!template) return [`${req.method} ${m[1]}${rest} is not in the contract`];
  const problems: string[] = [];
  const op = paths[template]?.[method] as Schema;
  const params = [...((paths[template]?.parameters as Schema[] | undefined) ?? []), ...((op.parameters as Schema[] | undefined) ?? [])];
  for (const p of params) {
    if (p.in !== "query") continue;
    const v = u.searchParams.get(String(p.name));
    if (v === null) continue;
    const type = (p.schema as Schema | undefined)?.type;
    if (type === "integer" && !/^-?\d+$/.test(v)) problems.push(`query ${String(p.name)}=${v}: not an integer`);
    if (type === "boolean" && v !== "true" && v !== "false") problems.push(`query ${String(p.name)}=${v}: not a boolean`);
  }
  if (req.body !== undefined && (op.requestBody as Schema | undefined)) {
    const found = validate(doc, requestSchema(doc, req.method, template), absoluteUrls(req.body));
    // Reference §8: extract takes `urls` or `prompt` ("Either 'urls' or 'prompt' must be provided."); the
    // OpenAPI document marks `urls` required. A prompt-only extract is valid.
    const promptOnly = req.method === "POST" && rest === "/extract" && typeof (req.body as { prompt?: unknown } | null)?.prompt === "string";
    problems.push(...found.filter((p) => !REFERENCE_ALLOWS.some((re) => re.test(p)) && !(promptOnly && p === "$.urls: required")));
  }
  return problems;
}

/** The route template a request matched and its decoded path parameters (for checking that an id did not change the route). */
export function routeOf(req: SentRequest): { template: string; params: Record<string, string> } | undefined {
  const u = new URL(req.url);
  const m = /^\/(v1|v2)(\/.*)$/.exec(u.pathname);
  if (!m) return undefined;
  const paths = DOCS[m[1] as "v1" | "v2"].paths as Record<string, Schema>;
  const method = req.method.toLowerCase();
  for (const t of Object.keys(paths)) {
    const params = paths[t]?.[method] ? templateMatch(t, m[2] ?? "") : undefined;
    if (params) return { template: t, params };
  }
  return undefined;
}
