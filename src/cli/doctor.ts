/**
 * `webdata doctor`: checks a deployment and reports what works there and what
 * to do about what does not. By default it only reads (account endpoints, an
 * unknown job's status and WebSocket) and sends one crawl start the server
 * must refuse (an invalid URL, to see whether `x-idempotency-key` breaks crawl
 * starts): no job, no credits. `--deep` (`doctor-deep.ts`) also crawls one
 * page, scrapes with the JSON format, searches, runs an extract and starts
 * (and cancels) an agent run, which spend credits; it says so before it
 * starts. The single checks live in `doctor-checks.ts`.
 */
import { randomUUID } from "node:crypto";
import { isPublicDeployment } from "../core/config.js";
import type { RequestOptions } from "../core/request.js";
import { APIError, AuthenticationError, ConnectionError, InvalidResponseError, NotFoundError, PermissionDeniedError, TimeoutError } from "../core/errors.js";
import type { WebData } from "../node.js";
import { closeReason, idempotencyCheck, messageOf, sseCheck, unreachable, type Check, type CheckStatus, type DoctorOptions } from "./doctor-checks.js";
import { deepChecks } from "./doctor-deep.js";
import { EXIT } from "./exit.js";
import { webSocketHandshake } from "./probe.js";
import { plural, type Screen } from "./terminal.js";
import { send, type Endpoint } from "../api/endpoint.js";

/** A v1 account read: whether a server without the v2 routes speaks v1. */
const V1_CREDIT_USAGE: Endpoint<[]> = { op: "usage.credits", path: "/v1/team/credit-usage" };

/** An account read without the key: whether the server checks keys at all. */
const KEYLESS_CREDIT_USAGE: Endpoint<[]> = { op: "usage.credits", path: "/v2/team/credit-usage", auth: false };

export type { Check, CheckStatus, DoctorOptions } from "./doctor-checks.js";
export { DEEP_NOTICE } from "./doctor-deep.js";

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
      await send(client.http, V1_CREDIT_USAGE, probe);
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
    await timed(() => send(client.http, KEYLESS_CREDIT_USAGE, probe));
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
