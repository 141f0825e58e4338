/**
 * `webdata doctor`: checks a deployment and reports what works there and what
 * to do about what does not. By default it only reads (account endpoints, an
 * unknown job's status and WebSocket) and sends one crawl start the server
 * must refuse (an invalid URL, to see whether `x-idempotency-key` breaks crawl
 * starts): no job, no credits. `--deep` also scrapes a page with the JSON
 * format, searches, runs an extract and starts (and cancels) an agent run,
 * which spend credits; it says so before it starts.
 */
import { randomUUID } from "node:crypto";
import { isPublicDeployment } from "../core/config.js";
import type { RequestOptions } from "../core/request.js";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  InvalidResponseError,
  JobFailedError,
  NotFoundError,
  PermissionDeniedError,
  TimeoutError,
} from "../core/errors.js";
import type { WebData } from "../node.js";
import { EXIT } from "./exit.js";
import { webSocketHandshake } from "./probe.js";
import { causeCode } from "./report.js";
import { plural, type Screen } from "./terminal.js";

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

/** The doctor's findings. */
export interface DoctorReport {
  /** The deployment checked. */
  apiUrl: string;
  /** True when `--deep` ran the checks that start jobs and spend credits. */
  deep: boolean;
  /** True when no check failed: the deployment can be used (warnings aside). */
  usable: boolean;
  /** The exit code: 0 usable; 8 unreachable; 3 key missing or refused; 4 no credits; 1 any other failed check. */
  exitCode: number;
  /** The rows, in order. */
  checks: Check[];
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

/** Names of the certificate and TLS failures Node reports (the cause's `code`). */
const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_)/;

/** What a connection failure means, and what to do about it. */
function unreachable(err: unknown, apiUrl: string): Check {
  const code = causeCode(err);
  const host = new URL(apiUrl).host;
  if (code && TLS_CODE.test(code)) {
    return {
      id: "reach",
      name: "Reachable (TLS)",
      status: "fail",
      detail: `TLS failed: ${code} (${messageOf(err)})`,
      fix: `the certificate of ${host} is not trusted: renew or fix it; for a private CA, start Node with NODE_EXTRA_CA_CERTS=/path/to/ca.pem`,
    };
  }
  const fix =
    code === "ENOTFOUND" || code === "EAI_AGAIN" ? `the host ${new URL(apiUrl).hostname} does not resolve: check --api-url / WEBDATA_API_URL`
    : code === "ECONNREFUSED" ? `nothing listens at ${host}: is the server running, and is the port in --api-url right?`
    : err instanceof TimeoutError ? `no answer in time: check the network, a proxy (HTTPS_PROXY) or the server's load; --timeout-ms waits longer`
    : `check --api-url / WEBDATA_API_URL and the network between here and ${host}`;
  return { id: "reach", name: "Reachable", status: "fail", detail: `${code ? `${code}: ` : ""}${messageOf(err)}`, fix };
}

function messageOf(err: unknown): string {
  if (err instanceof APIError) return `${err.serverMessage} (HTTP ${err.status})`;
  return err instanceof Error ? err.message : String(err);
}

/** Figures the self-hosted server sends when it does not meter (authentication off). */
const UNMETERED = 99_999_999;

/** Runs the checks against `client`'s deployment. */
export async function runDoctor(client: WebData, options: DoctorOptions): Promise<DoctorReport> {
  const apiUrl = client.apiUrl;
  const checks: Check[] = [];
  const add = (c: Check) => void checks.push(c);
  const probe: RequestOptions = { maxRetries: 0, timeoutMs: options.timeoutMs, signal: options.signal };
  const publicService = isPublicDeployment(apiUrl);
  const keyGiven = Boolean(options.apiKey?.trim());
  const report = (exitCode: number): DoctorReport => ({ apiUrl, deep: options.deep, usable: !checks.some((c) => c.status === "fail"), exitCode, checks });
  const skipRest = (why: string) => {
    for (const [id, name] of REST) if (!checks.some((c) => c.id === id)) add({ id, name, status: "skip", detail: why });
  };

  // 1. Reachability, TLS, the key and the API version: one account read.
  const started = performance.now();
  let credits: Awaited<ReturnType<WebData["getCreditUsage"]>> | undefined;
  let firstError: unknown;
  try {
    credits = await client.getCreditUsage(probe);
  } catch (err) {
    if (options.signal.aborted) throw err;
    firstError = err;
  }
  const timings = [performance.now() - started];
  /** Runs a probe, keeping how long its answer took (the first one also pays for the connection). */
  const timed = async <T>(call: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await call();
    } finally {
      timings.push(performance.now() - t);
    }
  };
  if (firstError instanceof ConnectionError || firstError instanceof TimeoutError) {
    add(unreachable(firstError, apiUrl));
    skipRest("the server cannot be reached");
    return report(EXIT.connection);
  }
  if (firstError instanceof InvalidResponseError) {
    add({
      id: "reach",
      name: "Reachable",
      status: "fail",
      detail: `an answer, but not the API's: HTTP ${firstError.status} with ${firstError.contentType ?? "no content-type"} (${firstError.bodyExcerpt.replace(/\s+/g, " ").slice(0, 80)})`,
      fix: "a proxy, captive portal or other site answers at this URL: check --api-url / WEBDATA_API_URL (the server's root, without /v2)",
    });
    skipRest("the URL does not answer as the API");
    return report(EXIT.failure);
  }
  const scheme = new URL(apiUrl).protocol;
  const loopback = /^(localhost|127\.|\[::1\])/.test(new URL(apiUrl).host);
  const reach: Check = {
    id: "reach",
    name: "Reachable",
    status: scheme === "http:" && keyGiven && !loopback ? "warn" : "ok",
    detail: "",
    ...(scheme === "http:" && keyGiven && !loopback ? { fix: "the key travels unencrypted: use https:// for a server off this machine" } : {}),
  };
  add(reach);
  /** The reach row's detail: the fastest answer of the account reads (a round trip on an open connection). */
  const reachDetail = () => `answered in ${Math.round(Math.min(...timings))} ms, ${scheme === "https:" ? "TLS certificate trusted" : "plain HTTP (no TLS)"}`;
  reach.detail = reachDetail();

  // The API version: v2 routes, else a server that speaks v1 only.
  if (firstError instanceof NotFoundError) {
    let v1 = false;
    try {
      await client.http.request({ method: "GET", path: "/v1/team/credit-usage" }, probe);
      v1 = true;
    } catch (err) {
      v1 = err instanceof APIError && err.status !== 404;
    }
    add({
      id: "version",
      name: "API version",
      status: "fail",
      detail: v1 ? "v1 only: /v2 routes answer 404" : `no API routes here: GET /v2/team/credit-usage answers 404 (${messageOf(firstError)})`,
      fix: v1 ? "upgrade the server to a release with the v2 API (this CLI speaks v2; from code, client.v1 speaks v1)" : "check --api-url: it is the server's root URL, without /v2",
    });
    skipRest("no v2 API at this URL");
    return report(EXIT.failure);
  }

  // 2. The key, and whether the server checks keys at all.
  let checksKeys = true;
  try {
    await timed(() => client.http.request({ method: "GET", path: "/v2/team/credit-usage", auth: false }, probe));
    checksKeys = false;
  } catch {
    // 401 (or anything else): the server wants a key.
  }
  const refused = firstError instanceof AuthenticationError || firstError instanceof PermissionDeniedError;
  if (refused || (!keyGiven && checksKeys)) {
    add({
      id: "auth",
      name: "API key",
      status: "fail",
      detail: keyGiven ? `refused: ${messageOf(firstError)}` : "none given, and the server wants one",
      fix: keyGiven ? "check the key: --api-key <key> or WEBDATA_API_KEY (FIRECRAWL_API_KEY also works)" : "pass --api-key <key> or set WEBDATA_API_KEY",
    });
    skipRest("needs a key the server accepts");
    return report(EXIT.auth);
  }
  add({
    id: "auth",
    name: "API key",
    status: "ok",
    detail: !checksKeys ? `${keyGiven ? "given, but not needed" : "not needed"}: the server does not check keys (self-hosted, authentication off)` : "accepted",
  });
  add({ id: "version", name: "API version", status: "ok", detail: "v2" });

  // 3. Credits, queue, concurrency.
  let exitCode = 0;
  if (credits) {
    const unmetered = !checksKeys || credits.planCredits >= UNMETERED;
    const low = credits.planCredits > 0 && credits.remainingCredits < credits.planCredits * 0.05;
    if (!unmetered && credits.remainingCredits <= 0) exitCode = EXIT.credits;
    add({
      id: "credits",
      name: "Credits",
      status: unmetered ? "ok" : credits.remainingCredits <= 0 ? "fail" : low ? "warn" : "ok",
      detail: unmetered ? "not metered (self-hosted)" : `${credits.remainingCredits} of ${credits.planCredits} remaining${credits.billingPeriodEnd ? ` (period ends ${credits.billingPeriodEnd.slice(0, 10)})` : ""}`,
      ...(!unmetered && (credits.remainingCredits <= 0 || low) ? { fix: "add credits or upgrade the plan; `webdata usage` shows them" } : {}),
    });
  } else {
    add({ id: "credits", name: "Credits", status: "warn", detail: `cannot be read: ${messageOf(firstError)}`, fix: "jobs may still work; the server's account endpoints fail (see its logs)" });
  }
  try {
    const q = await timed(() => client.getQueueStatus(probe));
    const max = q.maxConcurrency >= UNMETERED ? "no limit" : `at most ${q.maxConcurrency} at once`;
    add({ id: "queue", name: "Queue", status: "ok", detail: `${plural(q.jobsInQueue, "job")} in the queue (${q.activeJobsInQueue} active, ${q.waitingJobsInQueue} waiting), ${max}` });
  } catch (err) {
    if (options.signal.aborted) throw err;
    add({ id: "queue", name: "Queue", status: "warn", detail: `cannot be read: ${messageOf(err)}`, fix: "the server's queue endpoint fails: see its logs" });
  }
  try {
    const c = await timed(() => client.getConcurrency(probe));
    add({ id: "concurrency", name: "Concurrency", status: "ok", detail: `${c.concurrency} running, ${c.maxConcurrency >= UNMETERED || c.maxConcurrency === 0 ? "no limit reported" : `limit ${c.maxConcurrency}`}` });
  } catch (err) {
    if (options.signal.aborted) throw err;
    const selfHosted401 = err instanceof AuthenticationError && !checksKeys;
    add({
      id: "concurrency",
      name: "Concurrency",
      status: "warn",
      detail: selfHosted401 ? "GET /v2/concurrency-check answers 401 although the server checks no keys" : `cannot be read: ${messageOf(err)}`,
      fix: selfHosted401 ? "a self-hosted server without its database answers this endpoint 401; not a key problem (other calls work)" : "only this endpoint is affected",
    });
  }

  reach.detail = reachDetail();

  // 4. Crawl starts with x-idempotency-key: a start the server must refuse (an invalid URL). The server checks
  // the key before the body (the idempotency middleware runs before the controller), so a 400 shows the key
  // passed; a self-hosted server without its database fails the check with 500 (recorded).
  add(await idempotencyCheck(client, probe));

  // 5. Live progress: the crawl WebSocket and server-sent events, asked about a running crawl when there
  // is one (read-only), else about an unknown job.
  let running: string | undefined;
  try {
    running = (await client.getActiveCrawls(probe)).crawls[0]?.id;
  } catch (err) {
    if (options.signal.aborted) throw err;
  }
  const jobId = running ?? randomUUID();
  const ws = await webSocketHandshake(`${apiUrl}/v2/crawl/${jobId}`, keyGiven ? options.apiKey : undefined, options.timeoutMs, options.signal);
  const direct = options.proxyVariable ? `; probed directly, not through ${options.proxyVariable}` : "";
  add(
    ws.upgraded ?
      { id: "websocket", name: "Crawl WebSocket", status: "ok", detail: `answers${ws.close ? ` (${running ? "a running crawl" : "an unknown job"} was closed with ${ws.close.code}${ws.close.reason ? ` "${closeReason(ws.close.reason)}"` : ""}${direct})` : direct ? ` (${direct.slice(2)})` : ""}` }
    : {
        id: "websocket",
        name: "Crawl WebSocket",
        status: "warn",
        detail: `no WebSocket at /v2/crawl/<id>${ws.status ? ` (HTTP ${ws.status}${direct})` : ws.error ? ` (${ws.error}${direct})` : ""}`,
        fix: "live crawl progress falls back to polling the status (every 2 s); a proxy in front of the server must pass WebSocket upgrades",
      },
  );
  const sse = await sseCheck(client, jobId, running !== undefined, probe);
  if (!options.deep || sse.status === "ok") add(sse);

  // 6. AI features and search: calls that cost credits, so only with --deep.
  if (!options.deep) {
    const why = publicService ? "the public service has them; --deep tries them (spends credits)" : "not checked: they cost credits; --deep tries them";
    add({ id: "ai", name: "AI (JSON format, extract, agent)", status: publicService ? "info" : "skip", detail: why });
    add({ id: "search", name: "Search", status: publicService ? "info" : "skip", detail: why });
  } else {
    for (const c of await deepChecks(client, options, sse.status === "ok" ? undefined : sse)) add(c);
  }
  const failed = checks.some((c) => c.status === "fail");
  return report(exitCode || (failed ? EXIT.failure : 0));
}

/** The rows skipped when an early check fails. */
const REST: [string, string][] = [
  ["auth", "API key"],
  ["version", "API version"],
  ["credits", "Credits"],
  ["queue", "Queue"],
  ["concurrency", "Concurrency"],
  ["idempotency", "Idempotent crawl starts"],
  ["websocket", "Crawl WebSocket"],
  ["sse", "Crawl SSE"],
  ["ai", "AI (JSON format, extract, agent)"],
  ["search", "Search"],
];

async function idempotencyCheck(client: WebData, probe: RequestOptions): Promise<Check> {
  const id = "idempotency";
  const name = "Idempotent crawl starts";
  try {
    const started = await client.http.request<{ id?: unknown }>({ method: "POST", path: "/v2/crawl", body: { url: "not a url" } }, { ...probe, idempotencyKey: randomUUID() });
    // Never expected: a server that started a crawl of "not a url". Cancel it.
    if (typeof started.id === "string") await client.cancelCrawl(started.id, probe).catch(() => undefined);
    return { id, name, status: "warn", detail: "the server accepted a crawl start with an invalid URL (cancelled)", fix: "the server does not validate crawl starts as the service does: check its version" };
  } catch (err) {
    if (probe.signal?.aborted) throw err;
    if (err instanceof BadRequestError) return { id, name, status: "ok", detail: "x-idempotency-key accepted (probed with an invalid URL: no crawl started)" };
    if (err instanceof InternalServerError) {
      return {
        id,
        name,
        status: "warn",
        detail: `a crawl start carrying x-idempotency-key fails with HTTP ${err.status} here`,
        fix: "a self-hosted server without its database (Supabase) cannot check keys: keep the client's idempotencyKeys option off for this server (the default off the public service), or give the server its database",
      };
    }
    if (err instanceof ConflictError) return { id, name, status: "warn", detail: `a fresh x-idempotency-key was refused: ${messageOf(err)}`, fix: "keep idempotencyKeys off for this server" };
    return { id, name, status: "warn", detail: `cannot tell: ${messageOf(err)}`, fix: "crawl starts may still work; try `webdata doctor --deep` or a small crawl" };
  }
}

/** The reason of a close frame: the `error` of a JSON reason (`{"type":"error","error":"Job not found"}`), else as sent. */
function closeReason(reason: string): string {
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
async function sseCheck(client: WebData, jobId: string, known: boolean, probe: RequestOptions): Promise<Check> {
  const id = "sse";
  const name = "Crawl SSE";
  let type: string | null | undefined;
  let status: number;
  try {
    const res = await client.http.raw({ method: "GET", path: `/v2/crawl/${jobId}` }, { ...probe, headers: { accept: "text/event-stream" } });
    type = res.headers.get("content-type");
    status = res.status;
    await res.stream()?.cancel().catch(() => undefined);
  } catch (err) {
    if (probe.signal?.aborted) throw err;
    if (!(err instanceof APIError)) return { id, name, status: "info", detail: `no answer: ${messageOf(err)}` };
    type = err.headers?.get("content-type");
    status = err.status;
  }
  const media = type?.split(";")[0] ?? "no content-type";
  if ((type ?? "").includes("text/event-stream")) return { id, name, status: "ok", detail: "answers (text/event-stream)" };
  if (!known) return { id, name, status: "info", detail: `not known: no crawl is running, and an unknown job's status answers ${media} (HTTP ${status}); --deep asks about a real crawl` };
  return { id, name, status: "info", detail: `none: a crawl's status asked for text/event-stream answers ${media} (as the service does); live progress uses the WebSocket, else polling` };
}

/** What `--deep` spends, said before it starts. */
export const DEEP_NOTICE =
  "--deep starts jobs and spends credits: a crawl of one page (cancelled once the checks are done), one scrape with the JSON format (about 5 credits), one search (about 2), one extract (about 20 or more) and one agent run (cancelled once it starts).";

/** The checks that start jobs and spend credits. */
async function deepChecks(client: WebData, options: DoctorOptions, sseUnknown: Check | undefined): Promise<Check[]> {
  const out: Check[] = [];
  const probe: RequestOptions = { maxRetries: 0, timeoutMs: Math.max(options.timeoutMs, 60_000), signal: options.signal };
  const target = options.target;
  // Cancels run even after Ctrl-C: a job the doctor started does not outlive it.
  const cleanUp: RequestOptions = { maxRetries: 1, timeoutMs: 10_000 };
  const rethrow = (err: unknown) => {
    if (options.signal.aborted) throw err;
  };
  // A crawl of one page: it starts, and its status is asked for server-sent events; then it is cancelled.
  try {
    const job = await client.startCrawl(target, { limit: 1 }, probe);
    try {
      if (sseUnknown) out.push(await sseCheck(client, job.id, true, probe));
    } finally {
      await client.cancelCrawl(job.id, cleanUp).catch(() => undefined); // 409 when it already finished
    }
    out.push({ id: "crawl", name: "Crawl", status: "ok", detail: `crawl ${job.id} started (limit 1) and cancelled` });
  } catch (err) {
    rethrow(err);
    if (sseUnknown) out.push(sseUnknown);
    out.push({ id: "crawl", name: "Crawl", status: "fail", detail: `cannot start a crawl: ${messageOf(err)}${err instanceof APIError && err.code ? ` [${err.code}]` : ""}`, fix: "see the server's logs (its queue and workers)" });
  }
  try {
    const started = performance.now();
    const doc = await client.scrape(target, { formats: ["markdown", { type: "json", prompt: "The page's title.", schema: { type: "object", properties: { title: { type: "string" } } } }] }, probe);
    const ms = Math.round(performance.now() - started);
    out.push({ id: "scrape", name: "Scrape", status: "ok", detail: `${target}: ${plural(doc.markdown?.length ?? 0, "character")} of markdown in ${ms} ms` });
    const json = (doc as { json?: unknown }).json;
    out.push(
      json === undefined ?
        {
          id: "ai-json",
          name: "JSON format (AI)",
          status: "warn",
          detail: "a json format scrape was answered 200 without a json field",
          fix: "the server has no AI provider configured (a self-hosted server without an AI key, e.g. OPENAI_API_KEY): configure one there; extract and agent need it too",
        }
      : { id: "ai-json", name: "JSON format (AI)", status: "ok", detail: "answered with a json field" },
    );
  } catch (err) {
    rethrow(err);
    out.push({ id: "scrape", name: "Scrape", status: "fail", detail: `${target}: ${messageOf(err)}${err instanceof APIError && err.code ? ` [${err.code}]` : ""}`, fix: "try another page with --url <url>; the server may not reach the web (a proxy, DNS, its scraping engines)" });
  }
  try {
    const res = await client.search("firecrawl", { limit: 1 }, probe);
    const n = (res.web?.length ?? 0) + (res.news?.length ?? 0) + (res.images?.length ?? 0);
    out.push(
      n > 0 ?
        { id: "search", name: "Search", status: "ok", detail: `${plural(n, "result")} for "firecrawl"` }
      : { id: "search", name: "Search", status: "warn", detail: `no results for "firecrawl"${res.warning ? ` (${res.warning})` : ""}`, fix: "the server has no search provider configured (a self-hosted server needs one, e.g. SEARXNG_ENDPOINT)" },
    );
  } catch (err) {
    rethrow(err);
    out.push({ id: "search", name: "Search", status: "warn", detail: messageOf(err), fix: "search is not available on this server" });
  }
  try {
    const res = await client.extract({ urls: [target], prompt: "The page's title.", timeoutMs: 90_000, pollIntervalMs: 1_000, signal: options.signal }, probe);
    out.push({ id: "ai-extract", name: "Extract (AI)", status: res.status === "completed" ? "ok" : "warn", detail: `extract ${res.id} ${res.status}` });
  } catch (err) {
    rethrow(err);
    const reason = err instanceof JobFailedError ? (err.serverError ?? err.status) : messageOf(err);
    out.push({ id: "ai-extract", name: "Extract (AI)", status: "warn", detail: `failed: ${reason}`, fix: "extract needs an AI provider on the server" });
  }
  try {
    const run = await client.startAgent(`Find the title of ${target}`, { urls: [target] }, probe);
    await client.cancelAgent(run.id, cleanUp).catch(() => undefined);
    out.push({ id: "ai-agent", name: "Agent (AI)", status: "ok", detail: `enabled (run ${run.id} started and cancelled)` });
  } catch (err) {
    rethrow(err);
    out.push({ id: "ai-agent", name: "Agent (AI)", status: "warn", detail: `not available: ${messageOf(err)}`, fix: "the agent needs an AI provider on the server (a self-hosted server answers 500 'Agent beta is not enabled')" });
  }
  return out;
}

const SYMBOL: Record<CheckStatus, string> = { ok: "✓", info: "i", warn: "!", fail: "✗", skip: "-" };
const COLOR = { ok: "green", info: "dim", warn: "yellow", fail: "red", skip: "dim" } as const;

/** The report as a table for people (colour on a terminal, none with NO_COLOR). */
export function renderReport(report: DoctorReport, screen: Screen): string {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const lines = [`webdata doctor: ${report.apiUrl}${report.deep ? " (--deep)" : ""}`, ""];
  for (const c of report.checks) {
    lines.push(`  ${screen.paintOut(SYMBOL[c.status], COLOR[c.status])} ${c.name.padEnd(width)}  ${c.detail}`);
    if (c.fix && (c.status === "warn" || c.status === "fail")) lines.push(`    ${" ".repeat(width)}  ${screen.paintOut(`-> ${c.fix}`, "dim")}`);
  }
  const warnings = report.checks.filter((c) => c.status === "warn").length;
  const failures = report.checks.filter((c) => c.status === "fail").length;
  const summary =
    report.usable ?
      `Usable${warnings ? `, with ${plural(warnings, "warning")}` : ""}.`
    : `Not usable: ${plural(failures, "check")} failed${warnings ? `, ${plural(warnings, "warning")}` : ""}.`;
  lines.push("", screen.paintOut(summary, report.usable ? "green" : "red"));
  return `${lines.join("\n")}\n`;
}
