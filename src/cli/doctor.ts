/**
 * `webdata doctor`: checks a deployment and reports what works there and what
 * to do about what does not. By default it only reads (account endpoints, an
 * unknown job's status and WebSocket) and sends one crawl start the server
 * must refuse (an invalid URL, to see whether `x-idempotency-key` breaks crawl
 * starts): no job, no credits. `--deep` adds the checks that spend credits
 * (`doctor-deep.ts`), and says so before it starts. The single checks live in
 * `doctor-checks.ts`.
 */
import { randomUUID } from "node:crypto";
import { isPublicDeployment } from "../core/config.js";
import type { RequestOptions } from "../core/request.js";
import { APIError, AuthenticationError, ConnectionError, InvalidResponseError, NotFoundError, PermissionDeniedError, TimeoutError } from "../core/errors.js";
import type { WebData } from "../node.js";
import { closeReason, idempotencyCheck, messageOf, row, sseCheck, tolerant, unreachable, type Check, type CheckStatus, type DoctorOptions } from "./doctor-checks.js";
import { deepChecks } from "./doctor-deep.js";
import { EXIT } from "./exit.js";
import { webSocketHandshake, type HandshakeResult } from "./probe.js";
import { plural, type Screen } from "./terminal.js";
import { send, type Endpoint } from "../api/endpoint.js";

/** A v1 account read: whether a server without the v2 routes speaks v1. */
const V1_CREDIT_USAGE: Endpoint<[]> = { op: "usage.credits", path: "/v1/team/credit-usage" };

/** An account read without the key: whether the server checks keys at all. */
const KEYLESS_CREDIT_USAGE: Endpoint<[]> = { op: "usage.credits", path: "/v2/team/credit-usage", auth: false };

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
  const run = new DoctorRun(client, options);
  const report = (exitCode: number): DoctorReport => ({ apiUrl: client.apiUrl, deep: options.deep, usable: !run.failed(), exitCode, checks: run.checks });
  // 1. Reachability, TLS, the key and the API version: one account read.
  await run.firstRead();
  for (const step of [() => run.reachable(), () => run.apiVersion(), () => run.apiKey()]) {
    const stop = await step();
    if (stop !== undefined) return report(stop);
  }
  // 2. Credits, queue, concurrency.
  const exitCode = run.credits();
  await run.queue();
  await run.concurrency();
  run.reach.detail = run.reachDetail();
  // 3. Crawl starts with x-idempotency-key: a start the server must refuse (an invalid URL). The server checks
  // the key before the body (the idempotency middleware runs before the controller), so a 400 shows the key
  // passed; a self-hosted server without its database fails the check with 500 (recorded).
  run.checks.push(await idempotencyCheck(client, run.probe));
  // 4. Live progress; 5. AI features and search, which cost credits: only with --deep.
  const sse = await run.liveProgress();
  await run.paidFeatures(sse);
  return report(exitCode || (run.failed() ? EXIT.failure : 0));
}

/** One run of the doctor: what it probes with, what the first read found, and the rows so far. */
class DoctorRun {
  readonly checks: Check[] = [];
  readonly probe: RequestOptions;
  readonly keyGiven: boolean;
  /** How long each account read took (the first one also pays for the connection). */
  readonly #timings: number[] = [];
  #usage: Awaited<ReturnType<WebData["getCreditUsage"]>> | undefined;
  #firstError: unknown;
  /** The server checks keys (false: self-hosted with authentication off). */
  #checksKeys = true;
  reach!: Check;

  constructor(
    readonly client: WebData,
    readonly options: DoctorOptions,
  ) {
    this.probe = { maxRetries: 0, timeoutMs: options.timeoutMs, signal: options.signal };
    this.keyGiven = Boolean(options.apiKey?.trim());
  }

  failed(): boolean {
    return this.checks.some((c) => c.status === "fail");
  }

  /** Marks the rows not reached as skipped, saying why. */
  #skipRest(why: string): void {
    for (const id of REST) if (!this.checks.some((c) => c.id === id)) this.checks.push(row(id, "skip", why));
  }

  /** Runs a probe, keeping how long its answer took. */
  async #timed<T>(call: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await call();
    } finally {
      this.#timings.push(performance.now() - t);
    }
  }

  /** The account read that the first checks are read from. */
  async firstRead(): Promise<void> {
    const read = () => this.#timed(() => this.client.getCreditUsage(this.probe));
    this.#usage = await tolerant(this.options.signal, read, (err) => void (this.#firstError = err));
  }

  /** Whether the server answers, as the API, over TLS or plain HTTP; an exit code when it does not. */
  reachable(): number | undefined {
    const err = this.#firstError;
    if (err instanceof ConnectionError || err instanceof TimeoutError) {
      this.checks.push(unreachable(err, this.client.apiUrl));
      this.#skipRest("the server cannot be reached");
      return EXIT.connection;
    }
    if (err instanceof InvalidResponseError) {
      const answer = `HTTP ${err.status} with ${err.contentType ?? "no content-type"} (${err.bodyExcerpt.replace(/\s+/g, " ").slice(0, 80)})`;
      this.checks.push(row("reach", "fail", `an answer, but not the API's: ${answer}`, "a proxy, captive portal or other site answers at this URL: check --api-url / WEBDATA_API_URL (the server's root, without /v2)"));
      this.#skipRest("the URL does not answer as the API");
      return EXIT.failure;
    }
    const url = new URL(this.client.apiUrl);
    const exposed = url.protocol === "http:" && this.keyGiven && !/^(localhost|127\.|\[::1\])/.test(url.host);
    this.reach = row("reach", exposed ? "warn" : "ok", "", exposed ? "the key travels unencrypted: use https:// for a server off this machine" : undefined);
    this.checks.push(this.reach);
    this.reach.detail = this.reachDetail();
    return undefined;
  }

  /** The reach row's detail: the fastest answer of the account reads (a round trip on an open connection). */
  reachDetail(): string {
    const tls = new URL(this.client.apiUrl).protocol === "https:" ? "TLS certificate trusted" : "plain HTTP (no TLS)";
    return `answered in ${Math.round(Math.min(...this.#timings))} ms, ${tls}`;
  }

  /** The API version: v2 routes, else a server that speaks v1 only; an exit code when there is no v2. */
  async apiVersion(): Promise<number | undefined> {
    if (!(this.#firstError instanceof NotFoundError)) return undefined;
    const v1 = await send(this.client.http, V1_CREDIT_USAGE, this.probe).then(
      () => true,
      (err: unknown) => err instanceof APIError && err.status !== 404,
    );
    if (v1) this.checks.push(row("version", "fail", "v1 only: /v2 routes answer 404", "upgrade the server to a release with the v2 API (this CLI speaks v2; from code, client.v1 speaks v1)"));
    else this.checks.push(row("version", "fail", `no API routes here: GET /v2/team/credit-usage answers 404 (${messageOf(this.#firstError)})`, "check --api-url: it is the server's root URL, without /v2"));
    this.#skipRest("no v2 API at this URL");
    return EXIT.failure;
  }

  /** The key, and whether the server checks keys at all; an exit code when the key is missing or refused. */
  async apiKey(): Promise<number | undefined> {
    // An account read without the key: every failure (401 or other) means the server wants a key.
    this.#checksKeys = await this.#timed(() => send(this.client.http, KEYLESS_CREDIT_USAGE, this.probe)).then(
      () => false,
      () => true,
    );
    const { keyGiven } = this;
    const refused = this.#firstError instanceof AuthenticationError || this.#firstError instanceof PermissionDeniedError;
    if (refused || (!keyGiven && this.#checksKeys)) {
      if (keyGiven) this.checks.push(row("auth", "fail", `refused: ${messageOf(this.#firstError)}`, "check the key: --api-key <key> or WEBDATA_API_KEY (FIRECRAWL_API_KEY also works)"));
      else this.checks.push(row("auth", "fail", "none given, and the server wants one", "pass --api-key <key> or set WEBDATA_API_KEY"));
      this.#skipRest("needs a key the server accepts");
      return EXIT.auth;
    }
    const unchecked = `${keyGiven ? "given, but not needed" : "not needed"}: the server does not check keys (self-hosted, authentication off)`;
    this.checks.push(row("auth", "ok", this.#checksKeys ? "accepted" : unchecked));
    this.checks.push(row("version", "ok", "v2"));
    return undefined;
  }

  /** The credits left (read by the first read); the exit code for none left, else 0. */
  credits(): number {
    const c = this.#usage;
    if (!c) {
      this.checks.push(row("credits", "warn", `cannot be read: ${messageOf(this.#firstError)}`, "jobs may still work; the server's account endpoints fail (see its logs)"));
      return 0;
    }
    const unmetered = !this.#checksKeys || c.planCredits >= UNMETERED;
    const empty = !unmetered && c.remainingCredits <= 0;
    const low = !unmetered && !empty && c.planCredits > 0 && c.remainingCredits < c.planCredits * 0.05;
    const left = `${c.remainingCredits} of ${c.planCredits} remaining${c.billingPeriodEnd ? ` (period ends ${c.billingPeriodEnd.slice(0, 10)})` : ""}`;
    this.checks.push(row("credits", empty ? "fail" : low ? "warn" : "ok", unmetered ? "not metered (self-hosted)" : left, empty || low ? "add credits or upgrade the plan; `webdata usage` shows them" : undefined));
    return empty ? EXIT.credits : 0;
  }

  /** The queue's jobs and limit. */
  async queue(): Promise<void> {
    this.checks.push(await tolerant(this.options.signal, async () => {
      const q = await this.#timed(() => this.client.getQueueStatus(this.probe));
      const max = q.maxConcurrency >= UNMETERED ? "no limit" : `at most ${q.maxConcurrency} at once`;
      return row("queue", "ok", `${plural(q.jobsInQueue, "job")} in the queue (${q.activeJobsInQueue} active, ${q.waitingJobsInQueue} waiting), ${max}`);
    }, (err) => row("queue", "warn", `cannot be read: ${messageOf(err)}`, "the server's queue endpoint fails: see its logs")));
  }

  /** The jobs running and the concurrency limit. */
  async concurrency(): Promise<void> {
    this.checks.push(await tolerant(this.options.signal, async () => {
      const c = await this.#timed(() => this.client.getConcurrency(this.probe));
      return row("concurrency", "ok", `${c.concurrency} running, ${c.maxConcurrency >= UNMETERED || c.maxConcurrency === 0 ? "no limit reported" : `limit ${c.maxConcurrency}`}`);
    }, (err) => {
      if (!(err instanceof AuthenticationError && !this.#checksKeys)) return row("concurrency", "warn", `cannot be read: ${messageOf(err)}`, "only this endpoint is affected");
      const fix = "a self-hosted server without its database answers this endpoint 401; not a key problem (other calls work)";
      return row("concurrency", "warn", "GET /v2/concurrency-check answers 401 although the server checks no keys", fix);
    }));
  }

  /**
   * Live progress: the crawl WebSocket and server-sent events, asked about a running crawl when there is one
   * (read-only), else about an unknown job. The SSE row waits for `--deep` when it is not ok (a crawl of its own asks again).
   */
  async liveProgress(): Promise<Check> {
    const { client, options, probe } = this;
    const running = await tolerant(options.signal, async () => (await client.getActiveCrawls(probe)).crawls[0]?.id, () => undefined);
    const jobId = running ?? randomUUID();
    const ws = await webSocketHandshake(`${client.apiUrl}/v2/crawl/${jobId}`, this.keyGiven ? options.apiKey : undefined, options.timeoutMs, options.signal);
    this.checks.push(webSocketRow(ws, running !== undefined, options.proxyVariable));
    const sse = await sseCheck(client, jobId, running !== undefined, probe);
    if (!options.deep || sse.status === "ok") this.checks.push(sse);
    return sse;
  }

  /** AI features and search: tried with `--deep` (they cost credits), else said to be unchecked. */
  async paidFeatures(sse: Check): Promise<void> {
    if (this.options.deep) return void this.checks.push(...(await deepChecks(this.client, this.options, sse.status === "ok" ? undefined : sse)));
    const publicService = isPublicDeployment(this.client.apiUrl);
    const why = publicService ? "the public service has them; --deep tries them (spends credits)" : "not checked: they cost credits; --deep tries them";
    this.checks.push(row("ai", publicService ? "info" : "skip", why), row("search", publicService ? "info" : "skip", why));
  }
}

/** The crawl WebSocket's row: what the handshake found (`running`: asked about a running crawl, not an unknown job). */
function webSocketRow(ws: HandshakeResult, running: boolean, proxyVariable: string | undefined): Check {
  const direct = proxyVariable ? `; probed directly, not through ${proxyVariable}` : "";
  if (!ws.upgraded) {
    const fix = "live crawl progress falls back to polling the status (every 2 s); a proxy in front of the server must pass WebSocket upgrades";
    return row("websocket", "warn", `no WebSocket at /v2/crawl/<id>${ws.status ? ` (HTTP ${ws.status}${direct})` : ws.error ? ` (${ws.error}${direct})` : ""}`, fix);
  }
  const closed = ws.close ? ` (${running ? "a running crawl" : "an unknown job"} was closed with ${ws.close.code}${ws.close.reason ? ` "${closeReason(ws.close.reason)}"` : ""}${direct})` : "";
  return row("websocket", "ok", `answers${closed || (direct ? ` (${direct.slice(2)})` : "")}`);
}

/** The rows skipped when an early check fails. */
const REST = ["auth", "version", "credits", "queue", "concurrency", "idempotency", "websocket", "sse", "ai", "search"] as const;

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
