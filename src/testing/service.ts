/**
 * The fake service core: routing, bearer-key checks, teams with credit and
 * token accounting (1 credit = 15 tokens), a request log, a switchable 429 and
 * fault injection. Endpoint handlers live in `handlers/` and register routes
 * here. Portable: only web-standard globals.
 */
import { buildFixtureWeb, generatedPage, GENERATED_PATHS, normalizeTarget, pageFrom, withScheme, type FixturePage, type PageSpec } from "./fixtures.js";
import {
  abortableDelay, connectionError, corruptFault, rateLimitFault, stalled,
  type CorruptOptions, type DropOptions, type FailOptions, type FaultScope, type FaultSpec, type RateLimitSpec, type StallOptions,
} from "./faults.js";
import { bearerToken, redactHeaders } from "./redact.js";

/** A team (account) of the fake service. */
export interface FakeTeam {
  /** Team id. */
  id: string;
  /** Credits in the plan. */
  planCredits: number;
  /** Credits spent so far. */
  creditsUsed: number;
  /** Credits spent, per API key, in order of spending: `[key name, credits, time]`. */
  ledger: { key: string; credits: number; at: number; tokens: number }[];
  /** Agent-signup sponsor state for provisioned keys. */
  sponsor?: { email: string; status: "pending" | "confirmed" | "blocked"; deadline: number; creditLimit: number } | undefined;
}

/**
 * One request the fake has seen, safe to print or snapshot: the
 * `authorization` header reads `Bearer [redacted]`, as the client's logs
 * redact the key (use {@link FakeService.keyOf} to learn which key was sent).
 */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Path and query, e.g. `/v2/crawl/<id>?skip=10`. */
  path: string;
  /** Path without query. */
  pathname: string;
  /** Query parameters (the last value of a repeated name). */
  query: Record<string, string>;
  /** Lower-cased request headers; `authorization` redacted. */
  headers: Record<string, string>;
  /** Parsed JSON body (the raw text when it was not JSON; undefined for none; a multipart upload's parts: text as it is, a file as `{ filename, type, size }`). */
  body: unknown;
  /** When the fake received it, by the fake's clock (ms). */
  at: number;
}

/** Options of {@link createFakeService}. */
export interface FakeServiceOptions {
  /** Keys accepted as bearer tokens (default `["fc-test-key"]`). */
  apiKeys?: string[];
  /** Answer without checking keys, like a self-hosted server with auth off (default false). */
  authDisabled?: boolean;
  /** Plan credits of the default team (default 100000). */
  planCredits?: number;
  /** Origin used in `url`/`next` links of answers (default: the request's origin). */
  publicUrl?: string;
  /** Clock in ms (default `Date.now`); tests can drive time. */
  now?: () => number;
  /** Signups allowed per 24 h before 429 (the real per-IP limit is 3). */
  signupDailyLimit?: number;
  /** Pages in the fixture web's `/many/` section (default 24). */
  manyPages?: number;
  /** Answer job status URLs with server-sent events when asked (`accept: text/event-stream`); the real service has no SSE (default false). */
  sse?: boolean;
  /** How often the WebSocket and SSE streams re-read a job's status, ms (default 5; the real service: 1000). */
  streamIntervalMs?: number;
  /** Your own pages, added to the fixture web (a page with the URL of a default page replaces it). */
  pages?: PageSpec[];
  /** Serve the default site at `https://acme.test` (default true; false leaves only `pages`). */
  defaultSite?: boolean;
  /**
   * Answer any URL with a generated page (default false: a URL off the fixture web is a scrape failure, as an
   * unreachable site is). A host the fake does not know gets a small generated site (`/`, `/about`, `/docs`,
   * `/blog`, linked to each other, in its sitemap) plus a page for any other path asked for, so scrape, map,
   * crawl and batch scrape of any site work: code written against the real service (the official client's
   * README) runs unchanged. The fixture site and your `pages` keep their own pages (an unknown path there is
   * a 404 page); a host under `.invalid` still never resolves.
   */
  anyUrl?: boolean;
  /**
   * The team's webhook secret: the fake then POSTs each job's webhook events,
   * signed with `x-firecrawl-signature` as the service signs them. Without it
   * or `webhookFetch` the fake sends none (see `fakeWebhooks`).
   */
  webhookSecret?: string;
  /** The fetch the fake's webhook deliveries go out with (with a secret and without this: the global `fetch`), e.g. your receiver called in-process. */
  webhookFetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /**
   * The free keyless allowance, as the public service has since 2026-06: this many requests without an
   * `Authorization` header are answered on `search`, `scrape`, `parse` and `interact` (a team of their own),
   * and past it a keyless request gets 429. Default: none (a request without a key is 401 everywhere).
   */
  keyless?: number;
  /**
   * Flag the deprecated endpoints as the service has since 2026-05 (`/v1/extract`, `/v2/extract`,
   * `/v1/deep-research`, `/v1/llmstxt` and their status reads): a `Deprecation: true` header, `Link` to the
   * successor, a `Warning: 299` and, in a JSON body, `warnings[]` and `replacement` (default true).
   */
  deprecations?: boolean;
  /**
   * The team's plan concurrency: how many calls that occupy a browser (scrape, search with
   * `scrapeOptions.formats`, interact, browser execute, crawl and batch-scrape starts, v1 and v2) it runs
   * at once. One more is answered 429, worded as the service words its rate limit ("... retry after 1s"),
   * and counted in {@link FakeService.teamLoad}. Also what queue status and concurrency check report as
   * `maxConcurrency`. Default: no limit (and `maxConcurrency` 2).
   */
  teamConcurrency?: number;
  /** How long each call that occupies a browser holds it before it is answered, ms (default 0), so calls overlap as on the service. */
  browserHoldMs?: number;
}

/** The team's browser load seen by a fake with `teamConcurrency` (see {@link FakeService.teamLoad}). */
export interface TeamLoad {
  /** Calls holding a browser now. */
  active: number;
  /** Most calls that held a browser at once. */
  peak: number;
  /** Calls answered 429 because the team's browsers were all busy. */
  rejected: number;
}

/** True for a call that occupies one of the team's browsers while it runs. */
function occupiesBrowser(method: string, pathname: string, body: unknown): boolean {
  if (method !== "POST") return false;
  if (/^\/v[12]\/(scrape|crawl|batch\/scrape)$/.test(pathname) || /^\/v2\/(scrape\/[^/]+\/interact|browser\/[^/]+\/execute)$/.test(pathname)) return true;
  const formats = (body as { scrapeOptions?: { formats?: unknown } } | undefined)?.scrapeOptions?.formats;
  return /^\/v[12]\/search$/.test(pathname) && Array.isArray(formats) && formats.length > 0;
}

/** What a handler gets. */
export interface HandlerContext {
  /** The request. */
  request: Request;
  /** The parsed URL. */
  url: URL;
  /** Route parameters (`:id`). */
  params: Record<string, string>;
  /** Parsed JSON body (undefined for none; for a multipart upload, its parts as {@link RecordedRequest.body} shows them). */
  body: unknown;
  /** A multipart upload's form data (undefined for other bodies). */
  form?: FormData | undefined;
  /** The authenticated team (undefined on unauthenticated routes). */
  team: FakeTeam | undefined;
  /** The bearer key used. */
  key: string | undefined;
  /** Origin for links in answers. */
  origin: string;
}

/** A route handler. */
export type Handler = (ctx: HandlerContext) => Response | Promise<Response>;

/** Runs before routing; answers the request by returning a Response, or passes with `undefined` (SSE uses it). */
export type RequestHook = (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;

interface Route {
  method: string;
  parts: string[];
  handler: Handler;
  auth: boolean;
  /** `METHOD /pattern`, for the tables below. */
  line: string;
}

/** The routes the free keyless allowance answers (the public service, since 2026-06). */
const KEYLESS_ROUTES = new Set(["POST /v2/scrape", "POST /v2/search", "POST /v2/parse", "POST /v2/scrape/:id/interact"]);

/** The deprecated routes and what the service says of each (its deprecation middleware, 2026-05). */
const DEPRECATED_ROUTES: Record<string, { message: string; replacement?: string }> = {
  "POST /v1/extract": { message: "/v1/extract is deprecated. Use /v2/scrape with formats including a 'json' format object.", replacement: "/v2/scrape" },
  "GET /v1/extract/:id": { message: "/v1/extract/:jobId is deprecated. Use /v2/scrape with formats including a 'json' format object.", replacement: "/v2/scrape" },
  "POST /v2/extract": { message: "/v2/extract is deprecated. Use /v2/scrape with formats including a 'json' format object.", replacement: "/v2/scrape" },
  "GET /v2/extract/:id": { message: "/v2/extract/:jobId is deprecated. Use /v2/scrape with formats including a 'json' format object.", replacement: "/v2/scrape" },
  "POST /v1/deep-research": { message: "/v1/deep-research is deprecated. Use /v2/search instead.", replacement: "/v2/search" },
  "GET /v1/deep-research/:id": { message: "/v1/deep-research/:jobId is deprecated. Use /v2/search instead.", replacement: "/v2/search" },
  "POST /v1/llmstxt": { message: "/v1/llmstxt is deprecated and will not be replaced." },
  "GET /v1/llmstxt/:id": { message: "/v1/llmstxt/:jobId is deprecated and will not be replaced." },
};

/** An answer with the service's deprecation signal: headers always, `warnings[]` and `replacement` in a JSON object body. */
async function flagDeprecated(res: Response, dep: { message: string; replacement?: string }): Promise<Response> {
  const headers = new Headers(res.headers);
  headers.set("deprecation", "true");
  if (dep.replacement) headers.set("link", `<${dep.replacement}>; rel="successor-version"`);
  headers.set("warning", `299 - ${JSON.stringify(dep.message)}`);
  let text = await res.text();
  if ((headers.get("content-type") ?? "").includes("json")) {
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === "object" && !Array.isArray(body)) {
        const rec = body as Record<string, unknown>;
        const annotated: Record<string, unknown> = { ...rec, warnings: [...(Array.isArray(rec.warnings) ? rec.warnings : []), dep.message] };
        if (dep.replacement && annotated.replacement === undefined) annotated.replacement = dep.replacement;
        text = JSON.stringify(annotated);
      }
    } catch {
      // not JSON after all: sent as it is, with the headers
    }
  }
  headers.delete("content-length");
  return new Response(text, { status: res.status, statusText: res.statusText, headers });
}

/** JSON response helper. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

/** The standard error body. */
export function fail(status: number, error: string, extra: Record<string, unknown> = {}): Response {
  return json(status, { success: false, error, ...extra });
}

/** Thrown by handlers to answer with an error. */
export class HttpFailure extends Error {
  constructor(readonly response: Response) {
    super("HTTP failure");
  }
}

/** Credits per request kind, as the real service charges. */
export const CREDITS = { scrape: 1, jsonFormat: 4, map: 1, searchPer10: 2, extract: 20, agent: 20, browser: 2 } as const;
/** Tokens per credit. */
export const TOKENS_PER_CREDIT = 15;

/** A stateful, deterministic stand-in for the service. */
export class FakeService {
  /** Every request seen, in order. */
  readonly requests: RecordedRequest[] = [];
  /** The fixture web. */
  readonly pages: FixturePage[];
  /** Options in force. */
  readonly options: Required<Omit<FakeServiceOptions, "publicUrl" | "pages" | "defaultSite" | "webhookSecret" | "webhookFetch" | "keyless" | "teamConcurrency">> & Pick<FakeServiceOptions, "webhookSecret" | "webhookFetch" | "keyless" | "teamConcurrency"> & { publicUrl: string | undefined };
  /** Teams by key. */
  readonly teams = new Map<string, FakeTeam>();
  /** The default team (owner of the configured keys). */
  readonly team: FakeTeam;
  /** The team of keyless requests (`keyless`): what they spent is charged to it, as a key's calls are to its team. */
  readonly keylessTeam: FakeTeam;
  /** Keyless requests the allowance (`keyless`) has answered: requests, not credits, as the option counts them. */
  #keylessAnswered = 0;
  /** Free-form state for handlers of later capabilities (jobs, browsers). */
  readonly state = new Map<string, unknown>();
  readonly #routes: Route[] = [];
  readonly #faults: (FaultSpec & { left: number })[] = [];
  readonly #hooks: RequestHook[] = [];
  readonly #keys = new WeakMap<RecordedRequest, string>();
  #clockOffset = 0;
  readonly #load: TeamLoad = { active: 0, peak: 0, rejected: 0 };

  constructor(options: FakeServiceOptions = {}) {
    this.options = {
      apiKeys: options.apiKeys ?? ["fc-test-key"],
      authDisabled: options.authDisabled ?? false,
      planCredits: options.planCredits ?? 100_000,
      publicUrl: options.publicUrl,
      now: options.now ?? (() => Date.now()),
      signupDailyLimit: options.signupDailyLimit ?? 3,
      manyPages: options.manyPages ?? 24,
      sse: options.sse ?? false,
      streamIntervalMs: options.streamIntervalMs ?? 5,
      webhookSecret: options.webhookSecret,
      webhookFetch: options.webhookFetch,
      keyless: options.keyless,
      deprecations: options.deprecations ?? true,
      teamConcurrency: options.teamConcurrency,
      browserHoldMs: options.browserHoldMs ?? 0,
      anyUrl: options.anyUrl ?? false,
    };
    this.pages = options.defaultSite === false ? [] : buildFixtureWeb(this.options.manyPages);
    this.team = { id: "team-default", planCredits: this.options.planCredits, creditsUsed: 0, ledger: [] };
    this.keylessTeam = { id: "team-keyless", planCredits: Number.MAX_SAFE_INTEGER, creditsUsed: 0, ledger: [] };
    for (const k of this.options.apiKeys) this.teams.set(k, this.team);
    for (const spec of options.pages ?? []) this.addPage(spec);
  }

  /** The default API key. */
  get apiKey(): string {
    return this.options.apiKeys[0] ?? "fc-test-key";
  }

  /**
   * The team's browser load: calls holding a browser now, the peak, and the 429s answered past
   * `teamConcurrency` (a client retries a 429, so count them here, at the server).
   *
   * @example expect(fake.teamLoad().rejected).toBe(0)
   */
  teamLoad(): TeamLoad {
    return { ...this.#load };
  }

  /** Current time of the fake's clock, in ms. */
  now(): number {
    return this.options.now() + this.#clockOffset;
  }

  /** Moves the fake's clock forward (signup deadlines, job expiry). */
  advanceClock(ms: number): void {
    this.#clockOffset += ms;
  }

  /** Registers a route; `:name` segments become params. */
  route(method: string, pattern: string, handler: Handler, opts: { auth?: boolean } = {}): void {
    this.#routes.push({ method, parts: pattern.split("/").filter(Boolean), handler, auth: opts.auth ?? true, line: `${method} ${pattern}` });
  }

  /** Adds a hook that runs before routing (after logging and faults). */
  addHook(hook: RequestHook): void {
    this.#hooks.push(hook);
  }

  /**
   * Injects a fault into the next matching request(s): the low-level form
   * behind the controls below.
   *
   * @example fake.inject({ match: "/v2/scrape", status: 503, times: 2 })
   */
  inject(fault: FaultSpec): void {
    this.#faults.push({ ...fault, left: fault.times ?? 1 });
  }

  /**
   * A one-shot failure: the next matching request is answered with `status`.
   *
   * @example fake.failNext(503, { match: "/v2/scrape" })
   */
  failNext(status: number, options: FailOptions = {}): void {
    this.inject({ match: options.match, times: options.times, status, body: options.body, headers: options.headers });
  }

  /**
   * A rate limit: the next matching request(s) get 429, worded as the real service words it.
   *
   * @example fake.rateLimit({ retryAfterSeconds: 2 })
   */
  rateLimit(spec: RateLimitSpec = {}): void {
    this.inject(rateLimitFault(spec, this.now()));
  }

  /**
   * A delay: the next matching request(s) are answered after `ms` (a client
   * timeout or abort ends the wait).
   *
   * @example fake.delay(5_000, { match: "/v2/map" })
   */
  delay(ms: number, scope: FaultScope = {}): void {
    this.inject({ ...scope, delayMs: ms });
  }

  /**
   * A dropped connection: the next matching request fails as a reset socket,
   * before the server did anything (unless `afterServerActs`).
   *
   * @example fake.dropConnection({ match: "/v2/crawl", afterServerActs: true })
   */
  dropConnection(options: DropOptions = {}): void {
    const { afterServerActs, ...scope } = options;
    this.inject(afterServerActs ? { ...scope, loseAnswer: true } : { ...scope, drop: true });
  }

  /**
   * A refused connection (ECONNREFUSED): the request provably never reached the server.
   *
   * @example fake.refuseConnection({ times: 2 })
   */
  refuseConnection(scope: FaultScope = {}): void {
    this.inject({ ...scope, refuse: true });
  }

  /**
   * A corrupt body: the next matching answer is truncated JSON, or the body you give.
   *
   * @example fake.corruptBody({ body: "<html>Bad gateway</html>", status: 502 })
   */
  corruptBody(options: CorruptOptions = {}): void {
    this.inject(corruptFault(options));
  }

  /**
   * A stalled stream: the next matching answer sends its status and headers,
   * then nothing more until the client gives up. The request is handled as usual.
   *
   * @example fake.stallStream({ match: "/v2/crawl/", afterBytes: 10 })
   */
  stallStream(options: StallOptions = {}): void {
    const { afterBytes, ...scope } = options;
    this.inject({ ...scope, stall: { afterBytes } });
  }

  /**
   * Adds a page of your own to the fixture web (replacing a page with the same URL).
   *
   * @example fake.addPage({ url: "https://shop.test/mug", markdown: "# Blue mug", links: ["/cart"] })
   */
  addPage(spec: PageSpec): FixturePage {
    const page = pageFrom(spec);
    const at = this.pages.findIndex((p) => normalizeTarget(p.url) === page.url);
    if (at >= 0) this.pages.splice(at, 1, page);
    else this.pages.push(page);
    return page;
  }

  /**
   * The API key a recorded request carried (its `authorization` is redacted
   * in {@link requests}), or undefined when it sent none.
   *
   * @example expect(fake.keyOf(fake.requests[0]!)).toBe(fake.apiKey)
   */
  keyOf(request: RecordedRequest): string | undefined {
    return this.#keys.get(request);
  }

  /**
   * The answer to an unhandled server exception: 500 `UNKNOWN_ERROR`, worded
   * as the hosted service words it, or (with `authDisabled`) as a self-hosted server does.
   */
  internalError(): Response {
    if (this.options.authDisabled) {
      return fail(500, "An error occurred. Please check your logs for more details. Error ID: 0123456789abcdef0123456789abcdef", { code: "UNKNOWN_ERROR" });
    }
    return fail(500, "An unexpected error occurred. Please contact help@firecrawl.com for help. Your exception ID is 01234567-89ab-4cde-8f01-23456789abcd", { code: "UNKNOWN_ERROR" });
  }

  /** Removes every pending fault. */
  clearFaults(): void {
    this.#faults.length = 0;
  }

  /** Finds a fixture page by URL; with `anyUrl`, a page of a host the fake does not know is generated (and kept). */
  findPage(url: string): FixturePage | undefined {
    if (!URL.canParse(withScheme(url))) return undefined;
    const target = normalizeTarget(url);
    return this.pages.find((p) => normalizeTarget(p.url) === target) ?? (this.options.anyUrl ? this.#generate(target) : undefined);
  }

  /** Hosts whose site the fake generated (`anyUrl`). */
  readonly #generatedHosts = new Set<string>();

  /** The generated page of `target` (normalised), its host's generated site added first; none for a host with pages of its own or under `.invalid`. */
  #generate(target: string): FixturePage | undefined {
    const u = new URL(target);
    if ((u.protocol !== "http:" && u.protocol !== "https:") || u.hostname.endsWith(".invalid")) return undefined;
    if (!this.#generatedHosts.has(u.host)) {
      if (this.pages.some((p) => new URL(p.url).host === u.host)) return undefined; // the fixture site or yours: its own pages only
      this.#generatedHosts.add(u.host);
      for (const path of GENERATED_PATHS) this.pages.push(generatedPage(`${u.origin}${path}`, true));
    }
    const known = this.pages.find((p) => normalizeTarget(p.url) === target);
    if (known) return known;
    const page = generatedPage(target, false);
    this.pages.push(page);
    return page;
  }

  /** Charges credits to a team; throws a 402 answer when it has too few. */
  charge(team: FakeTeam | undefined, credits: number, key = "default"): void {
    if (!team || credits <= 0) return;
    const sp = team.sponsor;
    if (sp && sp.status === "pending" && team.creditsUsed + credits > sp.creditLimit) {
      throw new HttpFailure(
        json(402, {
          success: false,
          error: "unverified_credit_limit_reached",
          message: "This agent key has used its 50 unverified credits. Ask the sponsor to confirm the verification e-mail.",
          credit_limit: sp.creditLimit,
          credits_used: team.creditsUsed,
          sponsor_status: "pending",
          login_url: "https://firecrawl.dev/signin",
          upgrade_url: "https://firecrawl.dev/pricing",
        }),
      );
    }
    if (team.creditsUsed + credits > team.planCredits) {
      throw new HttpFailure(
        fail(402, "Insufficient credits to perform this request. For more credits, you can upgrade your plan at https://firecrawl.dev/pricing or try changing the request limit to a lower value."),
      );
    }
    team.creditsUsed += credits;
    team.ledger.push({ key, credits, at: this.now(), tokens: credits * TOKENS_PER_CREDIT });
  }

  /** Credits a team has left (what a credit-checked route requires up front). */
  requireCredits(team: FakeTeam | undefined, credits: number): void {
    if (!team) return;
    const sp = team.sponsor;
    if (sp?.status === "blocked") throw new HttpFailure(fail(403, "This API key has been blocked by the account holder."));
    if (sp?.status === "pending" && this.now() > sp.deadline) {
      throw new HttpFailure(
        json(403, { success: false, error: "sponsor_verification_expired", message: "The sponsor did not confirm this agent key in time.", login_url: "https://firecrawl.dev/signin" }),
      );
    }
    if (sp?.status === "pending" && team.creditsUsed + credits > sp.creditLimit) this.charge(team, credits);
    if (team.creditsUsed + credits > team.planCredits) this.charge(team, credits);
  }

  /** The fetch-compatible entry point: inject it as the client's `fetch`. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    return this.handle(request);
  };

  /**
   * Answers one request. Rejects (like a network failure) for dropped or refused connections.
   * `internal` requests (the fake's own stream endpoints reading job status) are not logged and take no faults.
   */
  async handle(request: Request, opts: { internal?: boolean } = {}): Promise<Response> {
    const url = new URL(request.url);
    // A multipart upload (`POST /v2/parse`) is read as form data: the log shows each part, a file as its name, type and size.
    const form = (request.headers.get("content-type") ?? "").includes("multipart/form-data") ? await request.clone().formData().catch(() => undefined) : undefined;
    const text = request.method === "GET" || request.method === "HEAD" || form ? "" : await request.text();
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    let body: unknown = form ? formParts(form) : undefined;
    if (form) forms.set(request, form);
    let badJson = false;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
        badJson = (headers["content-type"] ?? "").includes("json");
      }
    }
    if (!opts.internal) this.#record(request.method, url, headers, body);

    const fault = opts.internal ? undefined : this.#takeFault(`${request.method} ${url.pathname}${url.search}`, url.pathname);
    if (fault) {
      if (fault.delayMs) await abortableDelay(fault.delayMs, request.signal);
      if (fault.refuse) throw connectionError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1");
      if (fault.drop) throw connectionError("ECONNRESET", "socket hang up");
      if (fault.badJson) return new Response('{"success": tru', { status: fault.status ?? 200, headers: { "content-type": "application/json", ...fault.headers } });
      if (fault.stall) {
        const afterBytes = typeof fault.stall === "object" ? (fault.stall.afterBytes ?? 0) : 0;
        return stalled(await this.#answer(request, url, headers, body, badJson, opts), afterBytes, request);
      }
      if (fault.status !== undefined) {
        const b = typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body ?? { success: false, error: `Injected ${fault.status}` });
        return new Response(b, { status: fault.status, headers: { "content-type": typeof fault.body === "string" ? "text/plain" : "application/json; charset=utf-8", ...fault.headers } });
      }
      if (fault.loseAnswer) {
        await this.#answer(request, url, headers, body, badJson, opts);
        throw connectionError("ECONNRESET", "socket hang up (after the server acted)");
      }
    }
    return this.#answer(request, url, headers, body, badJson, opts);
  }

  /** Logs a request, its key kept aside and its `authorization` redacted. */
  #record(method: string, url: URL, headers: Record<string, string>, body: unknown): void {
    const entry: RecordedRequest = {
      method,
      path: url.pathname + url.search,
      pathname: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: redactHeaders(headers),
      body,
      at: this.now(),
    };
    const key = bearerToken(headers.authorization);
    if (key !== undefined) this.#keys.set(entry, key);
    this.requests.push(entry);
  }

  /** Routes a request that took no fault. */
  async #answer(request: Request, url: URL, headers: Record<string, string>, body: unknown, badJson: boolean, opts: { internal?: boolean }): Promise<Response> {
    if (badJson) return fail(400, "Bad request, malformed JSON", { code: "BAD_REQUEST_INVALID_JSON" });
    for (const hook of opts.internal ? [] : this.#hooks) {
      const answered = await hook(request, url);
      if (answered) return answered;
    }

    const parts = url.pathname.split("/").filter(Boolean);
    for (const route of this.#routes) {
      if (route.method !== request.method) continue;
      const params = matchRoute(route.parts, parts);
      if (!params) continue;
      const auth = route.auth ? this.#authenticate(headers, route.line) : { team: undefined, key: undefined };
      if (auth instanceof Response) return auth;
      const origin = this.options.publicUrl ?? url.origin;
      const limit = this.options.teamConcurrency;
      const occupies = limit !== undefined && occupiesBrowser(request.method, url.pathname, body);
      if (occupies && this.#load.active >= limit) {
        this.#load.rejected += 1;
        const fault = rateLimitFault({ retryAfterSeconds: 1 }, this.now());
        return json(429, fault.body, fault.headers);
      }
      if (occupies) this.#load.peak = Math.max(this.#load.peak, ++this.#load.active);
      try {
        if (occupies && this.options.browserHoldMs > 0) await abortableDelay(this.options.browserHoldMs, request.signal);
        const res = await route.handler({ request, url, params, body, form: forms.get(request), team: auth.team, key: auth.key, origin });
        const dep = this.options.deprecations ? DEPRECATED_ROUTES[route.line] : undefined;
        return dep ? await flagDeprecated(res, dep) : res;
      } catch (err) {
        if (err instanceof HttpFailure) return err.response;
        return this.internalError();
      } finally {
        if (occupies) this.#load.active -= 1;
      }
    }
    return new Response(`<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${request.method} ${url.pathname}</pre>\n</body>\n</html>\n`, {
      status: 404,
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  }

  #authenticate(headers: Record<string, string>, line: string): { team: FakeTeam | undefined; key: string | undefined } | Response {
    const auth = headers.authorization;
    if (this.options.authDisabled) return { team: this.team, key: undefined };
    if (!auth && this.options.keyless !== undefined && KEYLESS_ROUTES.has(line)) {
      if (this.#keylessAnswered >= this.options.keyless) {
        return fail(429, "Rate limit exceeded for keyless requests. Add an API key to your request to continue.");
      }
      this.#keylessAnswered += 1; // the allowance counts requests; their credits go to `keylessTeam` as any team's do
      return { team: this.keylessTeam, key: undefined };
    }
    if (!auth) return fail(401, "Unauthorized");
    const token = auth.split(" ")[1];
    if (!token) return fail(401, "Unauthorized: Token missing");
    const team = this.teams.get(token);
    if (!team) return fail(401, "Unauthorized: Invalid token");
    return { team, key: token };
  }

  #takeFault(line: string, pathname: string): FaultSpec | undefined {
    const hits = (m: FaultSpec["match"]) => m === undefined || (typeof m === "string" ? pathname.startsWith(m) : m.test(line));
    const f = this.#faults.find((x) => x.left > 0 && hits(x.match));
    if (f) f.left -= 1;
    return f;
  }
}

/** Each multipart request's form data, for its handler. */
const forms = new WeakMap<Request, FormData>();

/** The parts of a multipart body: text as it is, a file as `{ filename, type, size }`. */
function formParts(form: FormData): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  form.forEach((v, k) => (parts[k] = typeof v === "string" ? v : { filename: v.name, type: v.type, size: v.size }));
  return parts;
}

function matchRoute(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const v = parts[i] as string;
    if (p.startsWith(":")) params[p.slice(1)] = decodeURIComponent(v);
    else if (p !== v) return undefined;
  }
  return params;
}
