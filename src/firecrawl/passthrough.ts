/**
 * The official client's methods whose routes are not webdata's own operations (agent threads, the
 * developer index, the research paper index, the tool catalogue): the drop-in sends the request the
 * official client 4.x sends (method, path, query, body, `x-request-id`) through webdata's request layer,
 * and the server's answer decides: a route the server lacks is its 404 (an `APIError` with the official
 * fields, `official-errors.ts`), a deployment that serves it answers as it does for the official client.
 * Where the official client refuses an argument itself (an empty query, a `k` that is not positive), the
 * drop-in refuses it before sending with the same words and no `status` ({@link officialRefusal}).
 * Nothing is sent the official client would not send; the `origin` tag it adds (its own name and
 * version) is left out, as on every other call of the drop-in.
 */
import { send, type Endpoint } from "../api/endpoint.js";
import type { HttpClient, RequestOptions } from "../core/request.js";
import { officialFailure, officialRefusal, researchError, runOfficially } from "./official-errors.js";
import type {
  AgentThreadResponse, AlexandriaCall, AlexandriaOptions, AlexandriaScrapeData, AlexandriaScrapeRequest, DeveloperSearchOptions, DeveloperSearchResponse, FindToolsData,
  FindToolsOptions, GetPaperOptions, GitHubSearchResponse, PaperMetadataResponse, ReadPaperResponse, ResearchClient, SearchGithubOptions, SearchPapersOptions,
  SearchPapersResponse, SimilarPapersOptions, SimilarPapersResponse,
} from "./later-types.js";

/** `GET /v2/agent/threads/:id` (`?includeData=true` when asked), as the official `getAgentThread` reads it. */
export function agentThread(http: HttpClient, threadId: string, options: { includeData?: boolean } | undefined, req?: RequestOptions): Promise<AgentThreadResponse> {
  return send(http, AGENT_THREAD, req, threadId, options);
}
const AGENT_THREAD: Endpoint<[threadId: string, options: { includeData?: boolean } | undefined], AgentThreadResponse> = { op: "agent.thread",
  path: (threadId, options) => `/v2/agent/threads/${encodeURIComponent(String(threadId))}${options?.includeData ? "?includeData=true" : ""}`,
};

/** The official wire names of `developerSearch`'s options, in the order it sends them. */
const DEVELOPER_KEYS: readonly [keyof DeveloperSearchOptions, string][] = [
  ["k", "k"], ["passages", "passages"], ["types", "types"], ["repos", "repos"], ["sources", "sources"], ["language", "language"], ["topic", "topic"],
  ["license", "license"], ["minStars", "min_stars"], ["maxStars", "max_stars"], ["archived", "archived"], ["fork", "fork"], ["skills", "skills"],
];

/** `POST /v2/search/developer` with `{ query, ...options }` (`minStars` as `min_stars`, ...), as the official `developerSearch` sends it. */
export function developerSearch(http: HttpClient, query: string, options: DeveloperSearchOptions | undefined, req?: RequestOptions): Promise<DeveloperSearchResponse> {
  return send(http, DEVELOPER_SEARCH, req, query, options);
}
const DEVELOPER_SEARCH: Endpoint<[query: string, options: DeveloperSearchOptions | undefined], DeveloperSearchResponse> = { op: "search.developer",
  path: "/v2/search/developer",
  body: (query, options) => {
    if (typeof query !== "string" || !query.trim()) throw officialRefusal("query cannot be empty", "query");
    const body: Record<string, unknown> = { query };
    for (const [key, wire] of DEVELOPER_KEYS) if (options?.[key] !== undefined) body[wire] = options[key];
    return body;
  },
};

/** At most this many calls in one catalogue execution (the official client's limit). */
const ALEXANDRIA_MAX_CALLS = 10;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The official catalogue payload of `calls`, with its own argument checks (its words, nothing sent). */
function alexandriaPayload(calls: readonly AlexandriaCall[], opts: AlexandriaOptions): Record<string, unknown> {
  if (!Array.isArray(calls) || calls.length === 0) throw officialRefusal("alexandria requires at least one call", "alexandria");
  if (calls.length > ALEXANDRIA_MAX_CALLS) throw officialRefusal(`alexandria accepts at most ${ALEXANDRIA_MAX_CALLS} calls`, "alexandria");
  const alexandria = calls.map((call, i) => {
    if (!call || typeof call.provider !== "string" || !call.provider.trim()) throw officialRefusal(`alexandria[${i}].provider cannot be empty`, `alexandria.${i}.provider`);
    if (typeof call.capability !== "string" || !call.capability.trim()) throw officialRefusal(`alexandria[${i}].capability cannot be empty`, `alexandria.${i}.capability`);
    if (Object.keys(call).some((k) => !["provider", "capability", "options"].includes(k))) throw officialRefusal("Unknown alexandria call option", `alexandria.${i}`);
    const item: AlexandriaCall = { provider: call.provider.trim(), capability: call.capability.trim() };
    if (call.options != null) {
      if (typeof call.options !== "object" || Array.isArray(call.options)) throw officialRefusal(`alexandria[${i}].options must be an object`, `alexandria.${i}.options`);
      item.options = call.options;
    }
    return item;
  });
  if (opts.timeout != null && (!Number.isInteger(opts.timeout) || opts.timeout <= 0)) throw officialRefusal("timeout must be a positive integer", "timeout");
  const payload: Record<string, unknown> = { alexandria };
  if (opts.timeout != null) payload.timeout = opts.timeout;
  if (opts.integration?.trim()) payload.integration = opts.integration.trim();
  if (opts.origin) payload.origin = opts.origin;
  return payload;
}

/** What the catalogue answers in `data`. */
interface AlexandriaAnswer {
  success?: boolean;
  scrape_id?: string;
  data?: { alexandria?: unknown; creditsCost?: unknown };
}

/**
 * A tool catalogue execution, as the official `scrape({ alexandria })` sends it: `POST /v2/scrape` with
 * `{ alexandria: [calls], timeout?, integration?, origin? }` and an `x-request-id` header (the caller's
 * `requestId`, else a random UUID, the same on every attempt), each attempt given the catalogue's deadline plus 30 s
 * (as the official client allows). The answer is `{ scrapeId, requestId, alexandria, creditsCost }`.
 */
export async function alexandriaScrape(http: HttpClient, request: AlexandriaScrapeRequest, req?: RequestOptions): Promise<AlexandriaScrapeData> {
  const { alexandria, ...opts } = request;
  const payload = alexandriaPayload(Array.isArray(alexandria) ? alexandria : [alexandria], opts);
  const requestId = opts.requestId ?? crypto.randomUUID();
  if (!REQUEST_ID.test(requestId)) throw officialRefusal("Invalid requestId", "requestId");
  const answer = await send(http, ALEXANDRIA, { timeoutMs: Math.min(opts.timeout ?? 50_000, 50_000) + 30_000, ...req, headers: { ...req?.headers, "x-request-id": requestId } }, payload);
  const data = answer.data;
  if (!data || !Array.isArray(data.alexandria) || typeof data.creditsCost !== "number" || !Number.isInteger(data.creditsCost) || data.creditsCost < 0) {
    throw officialFailure("Invalid alexandria response");
  }
  return { scrapeId: answer.scrape_id ?? "", requestId, alexandria: data.alexandria as AlexandriaScrapeData["alexandria"], creditsCost: data.creditsCost };
}

const ALEXANDRIA: Endpoint<[payload: Record<string, unknown>], AlexandriaAnswer> = { op: "tools.find", path: "/v2/scrape", body: (payload) => payload };

/** The official `findTools`: one catalogue call, `firecrawl` / `find-tools` with the options; its `data`, or its error. */
export async function findTools(http: HttpClient, options: FindToolsOptions | undefined, req?: RequestOptions): Promise<FindToolsData> {
  const result = await alexandriaScrape(http, { alexandria: [{ provider: "firecrawl", capability: "find-tools", options: { ...options } }] }, req);
  const item = result.alexandria[0];
  if (!item) throw officialFailure("Missing Find Tools result");
  if (item.error) throw officialFailure(item.error.message, item.error.status, item.error.code);
  return item.data as FindToolsData;
}

/** A query string of `params` (arrays repeated, empty items left out), as the official research calls build it. */
function query(params: [string, unknown][]): string {
  const q = new URLSearchParams();
  for (const [key, value] of params) {
    if (value == null) continue;
    if (Array.isArray(value)) {
      for (const v of value) if (v != null && String(v).length > 0) q.append(key, String(v));
    } else q.append(key, String(value));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

const RESEARCH = "/v2/search/research";
/** A `GET` of the research index: the path built by the call, after the official client's own argument checks. */
const RESEARCH_GET: Endpoint<[path: string, check: () => void]> = { op: "research",
  path: (path, check) => {
    check();
    return path;
  },
};

/**
 * `firecrawl.research`: each call a `GET` under `/v2/search/research`, as the official `ResearchClient` sends it; a
 * failure read as the official client reads the index's errors (`researchError`), with the official fields.
 */
export function researchClient(http: HttpClient): ResearchClient {
  const get = <T>(path: string, check: () => void): Promise<T> =>
    runOfficially(() => send(http, RESEARCH_GET as Endpoint<[string, () => void], T>, undefined, path, check).catch(researchError));
  const positive = (k: number | undefined) => {
    if (k != null && k <= 0) throw officialRefusal("k must be positive", "k");
  };
  const nonEmpty = (value: unknown, name: string) => {
    if (typeof value !== "string" || !value.trim()) throw officialRefusal(`${name} cannot be empty`, name);
  };
  const path = (id: string, tail = "") => `${RESEARCH}/papers/${encodeURIComponent(String(id))}${tail}`;
  return {
    searchPapers: (q: string, o: SearchPapersOptions = {}) =>
      get<SearchPapersResponse>(`${RESEARCH}/papers${query([["query", q], ["k", o.k], ["authors", o.authors], ["categories", o.categories], ["from", o.from], ["to", o.to]])}`, () => {
        nonEmpty(q, "query");
        positive(o.k);
      }),
    getPaper: ((id: string, o: GetPaperOptions = {}) =>
      get<PaperMetadataResponse | ReadPaperResponse>(`${path(id)}${query([["query", o.query], ["k", o.k]])}`, () => {
        nonEmpty(id, "id");
        if (o.k != null && o.query == null) throw officialRefusal("k is only valid together with query", "k");
        positive(o.k);
      })) as ResearchClient["getPaper"],
    similarPapers: (id: string, o: SimilarPapersOptions) =>
      get<SimilarPapersResponse>(`${path(id, "/similar")}${query([["intent", o?.intent], ["mode", o?.mode], ["k", o?.k], ["rerank", o?.rerank], ["anchor", o?.anchor]])}`, () => {
        nonEmpty(id, "id");
        nonEmpty(o?.intent, "intent");
        positive(o.k);
      }),
    searchGithub: (q: string, o: SearchGithubOptions = {}) =>
      get<GitHubSearchResponse>(`${RESEARCH}/github${query([["query", q], ["k", o.k]])}`, () => {
        nonEmpty(q, "query");
        positive(o.k);
      }),
  };
}
