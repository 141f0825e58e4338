/**
 * The checks of `webdata doctor --deep`: they start jobs and spend credits (a
 * one-page crawl, a JSON-format scrape, a search, an extract, an agent run),
 * and cancel what they started, even after Ctrl-C.
 */
import type { RequestOptions } from "../core/request.js";
import { APIError, JobFailedError } from "../core/errors.js";
import type { WebData } from "../node.js";
import { messageOf, row, sseCheck, tolerant, type Check, type DoctorOptions } from "./doctor-checks.js";
import { plural } from "./terminal.js";

/** What `--deep` spends, said before it starts. */
export const DEEP_NOTICE =
  "--deep starts jobs and spends credits: a crawl of one page (cancelled once the checks are done), one scrape with the JSON format (about 5 credits), one search (about 2), one extract (about 20 or more) and one agent run (cancelled once it starts).";

/** What a deep check needs: the client, the page to try, the probe's options and the cleanup's (cancels run even after Ctrl-C: a job the doctor started does not outlive it). */
type Deep = { client: WebData; target: string; probe: RequestOptions; cleanUp: RequestOptions };

/** The checks that start jobs and spend credits. */
export async function deepChecks(client: WebData, options: DoctorOptions, sseUnknown: Check | undefined): Promise<Check[]> {
  const deep: Deep = { client, target: options.target, probe: { maxRetries: 0, timeoutMs: Math.max(options.timeoutMs, 60_000), signal: options.signal }, cleanUp: { maxRetries: 1, timeoutMs: 10_000 } };
  const checks: [(deep: Deep) => Promise<Check[]>, (err: unknown) => Check[]][] = [
    [(d) => crawl(d, sseUnknown), (err) => [...(sseUnknown ? [sseUnknown] : []), row("crawl", "fail", `cannot start a crawl: ${messageOf(err)}${codeOf(err)}`, "see the server's logs (its queue and workers)")]],
    [scrape, (err) => [row("scrape", "fail", `${deep.target}: ${messageOf(err)}${codeOf(err)}`, "try another page with --url <url>; the server may not reach the web (a proxy, DNS, its scraping engines)")]],
    [search, (err) => [row("search", "warn", messageOf(err), "search is not available on this server")]],
    [(d) => extract(d, options.signal), (err) => [row("ai-extract", "warn", `failed: ${err instanceof JobFailedError ? (err.serverError ?? err.status) : messageOf(err)}`, "extract needs an AI provider on the server")]],
    [agent, (err) => [row("ai-agent", "warn", `not available: ${messageOf(err)}`, "the agent needs an AI provider on the server (a self-hosted server answers 500 'Agent beta is not enabled')")]],
  ];
  const out: Check[] = [];
  for (const [check, failed] of checks) out.push(...(await tolerant(options.signal, () => check(deep), failed)));
  return out;
}

/** ` [CODE]` after a failure's message, when the server gave a code. */
const codeOf = (err: unknown) => (err instanceof APIError && err.code ? ` [${err.code}]` : "");

/** A crawl of one page: it starts, and its status is asked for server-sent events (when an unknown job's was not ok); then it is cancelled. */
async function crawl({ client, target, probe, cleanUp }: Deep, sseUnknown: Check | undefined): Promise<Check[]> {
  const job = await client.startCrawl(target, { limit: 1 }, probe);
  const out: Check[] = [];
  try {
    if (sseUnknown) out.push(await sseCheck(client, job.id, true, probe));
  } finally {
    await client.cancelCrawl(job.id, cleanUp).catch(() => undefined); // 409 when it already finished
  }
  return [...out, row("crawl", "ok", `crawl ${job.id} started (limit 1) and cancelled`)];
}

/** A scrape with the JSON format: the scrape's row, and whether the server has an AI provider (the json field). */
async function scrape({ client, target, probe }: Deep): Promise<Check[]> {
  const started = performance.now();
  const doc = await client.scrape(target, { formats: ["markdown", { type: "json", prompt: "The page's title.", schema: { type: "object", properties: { title: { type: "string" } } } }] }, probe);
  const ms = Math.round(performance.now() - started);
  const scraped = row("scrape", "ok", `${target}: ${plural(doc.markdown?.length ?? 0, "character")} of markdown in ${ms} ms`);
  if ((doc as { json?: unknown }).json !== undefined) return [scraped, row("ai-json", "ok", "answered with a json field")];
  const fix = "the server has no AI provider configured (a self-hosted server without an AI key, e.g. OPENAI_API_KEY): configure one there; extract and agent need it too";
  return [scraped, row("ai-json", "warn", "a json format scrape was answered 200 without a json field", fix)];
}

/** A search with one result. */
async function search({ client, probe }: Deep): Promise<Check[]> {
  const res = await client.search("firecrawl", { limit: 1 }, probe);
  const n = (res.web?.length ?? 0) + (res.news?.length ?? 0) + (res.images?.length ?? 0);
  if (n > 0) return [row("search", "ok", `${plural(n, "result")} for "firecrawl"`)];
  return [row("search", "warn", `no results for "firecrawl"${res.warning ? ` (${res.warning})` : ""}`, "the server has no search provider configured (a self-hosted server needs one, e.g. SEARXNG_ENDPOINT)")];
}

/** An extract of the page's title, waited for. */
async function extract({ client, target, probe }: Deep, signal: AbortSignal): Promise<Check[]> {
  const res = await client.extract({ urls: [target], prompt: "The page's title.", timeoutMs: 90_000, pollIntervalMs: 1_000, signal }, probe);
  return [row("ai-extract", res.status === "completed" ? "ok" : "warn", `extract ${res.id} ${res.status}`)];
}

/** An agent run, cancelled once it starts. */
async function agent({ client, target, probe, cleanUp }: Deep): Promise<Check[]> {
  const run = await client.startAgent(`Find the title of ${target}`, { urls: [target] }, probe);
  await client.cancelAgent(run.id, cleanUp).catch(() => undefined);
  return [row("ai-agent", "ok", `enabled (run ${run.id} started and cancelled)`)];
}
