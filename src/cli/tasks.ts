/**
 * The commands over one job at a time: `extract` and `agent` (start, wait with
 * a status line, print the result; Ctrl-C cancels an agent run), and
 * `status <id>` / `cancel <id>` of a crawl, batch scrape, extract or agent job
 * (`--kind`, default crawl).
 */
import type { AgentStatus } from "../api/agent.js";
import type { ExtractStatus } from "../api/extract.js";
import { ConflictError, JobFailedError, NotFoundError } from "../core/errors.js";
import type { JobHookEvent } from "../core/hooks.js";
import type { RequestOptions } from "../core/request.js";
import type { WaitOptions, WaitStatus } from "../node.js";
import type { WebData } from "../node.js";
import { badArgument, cancelInterrupted, needPositionals, positiveInt, record, schemaFile, stringFlag, type Command, type CommandContext, type Values } from "./args.js";
import { EXIT } from "./exit.js";
import { formatElapsed } from "./progress.js";
import { plural } from "./terminal.js";

/** The kinds of job `status` and `cancel` take. */
const KINDS = ["crawl", "batch", "extract", "agent"] as const;
type Kind = (typeof KINDS)[number];

/** Job states after which nothing changes. */
const ENDED = new Set(["completed", "failed", "cancelled"]);

/** The job `status` and `cancel` name: its id, and `--kind`, checked (default crawl); `req` carries the run's signal. */
function jobOf(ctx: CommandContext, positionals: string[], values: Values): { kind: Kind; id: string; req: RequestOptions } {
  needPositionals(positionals, 1, "id");
  const raw = values.kind ?? "crawl";
  if (!KINDS.includes(raw as Kind)) throw badArgument("kind", `--kind must be one of ${KINDS.join(", ")}, got ${JSON.stringify(raw)}`);
  return { kind: raw as Kind, id: positionals[0]!, req: { signal: ctx.signal } };
}

/** What to do about a 404 of `status`/`cancel` when no `--kind` was given: the id may be another kind's. */
function kindHint(err: unknown, values: Values): string | undefined {
  return err instanceof NotFoundError && values.kind === undefined ? "no crawl has this id; for another kind of job pass --kind batch, extract or agent" : undefined;
}

const POLL_HELP = "  --poll-interval-ms <ms>    time between status reads (default: 0.5 s, growing to 2 s)";

/** Credits as words, when the server counts them. */
function credits(n: number | undefined): string | undefined {
  return n === undefined || n < 0 ? undefined : `${plural(n, "credit")} used`;
}

/** A result as indented JSON (a string as it is). */
function dataText(data: unknown): string {
  return typeof data === "string" ? `${data}\n` : `${JSON.stringify(data, null, 2)}\n`;
}

/**
 * Runs an extract or agent job with the client's waiter (`wait`: `client.extract` or `client.agent`): "Started" with
 * its id, then its state and time on the status line (a terminal) at each status read, then its result on stdout
 * (indented JSON; with `--json` one line `{"type":kind,...}`). A failed or cancelled job exits 9 with its reason.
 * Ctrl-C cancels an agent run on the server (an extract cannot be cancelled: it keeps running, and `webdata status`
 * reads it later).
 */
async function runTask(ctx: CommandContext, kind: "extract" | "agent", values: Values, wait: (w: WaitOptions, req: RequestOptions) => Promise<ExtractStatus | AgentStatus>): Promise<number> {
  const pollIntervalMs = positiveInt(values, "poll-interval-ms");
  const t0 = Date.now();
  let id = "";
  let last: WaitStatus | undefined;
  const elapsed = () => formatElapsed((Date.now() - t0) / 1000);
  const onJob = (e: JobHookEvent) => void (e.phase === "start" && ((id = e.jobId), ctx.err(`Started ${kind} ${id}\n`)));
  const onStatus = (st: WaitStatus) => void ((last = st), !ENDED.has(st.status) && ctx.screen.status(`${kind} ${id}: ${st.status}, ${elapsed()}`));
  const end = (st: { status: string; error?: string | undefined; creditsUsed?: number | undefined }, ok: boolean) => {
    const summary = [`${kind} ${id} ${st.status}${st.error ? `: ${st.error}` : ""}`, credits(st.creditsUsed), elapsed()].filter(Boolean).join(", ");
    ctx.screen.endStatus(`${ok ? summary : ctx.screen.paintErr(summary, "red")}\n`);
  };
  try {
    const st = await wait({ signal: ctx.signal, onStatus, ...(pollIntervalMs ? { pollIntervalMs } : {}) }, { hooks: { onJob } });
    end(st, true);
    ctx.out(ctx.json ? record(kind, st) : dataText(st.data));
    return 0;
  } catch (err) {
    if (err instanceof JobFailedError) {
      const st = { id, status: err.status, error: err.serverError, creditsUsed: last?.creditsUsed };
      end(st, false);
      if (ctx.json) ctx.out(record(kind, st));
      return EXIT.jobFailed;
    }
    if (!ctx.signal.aborted || !id) throw err;
    if (kind === "extract") ctx.screen.endStatus(`Interrupted: extract ${id} keeps running on the server (an extract cannot be cancelled); read it later with: webdata status ${id} --kind extract\n`);
    return cancelInterrupted(ctx, kind, id, kind === "agent" ? (req) => ctx.client.cancelAgent(id, req) : undefined);
  }
}

/** `status <id>` of a crawl or batch scrape as text: state, counts, credits, expiry, error and warning. */
function jobText(kind: Kind, st: Awaited<ReturnType<WebData["getCrawlStatus"]>>): string {
  const parts = [`${kind} ${st.id}: ${st.status}`, `${st.completed}/${plural(Math.max(st.total, st.completed), "page")}`, credits(st.creditsUsed), st.expiresAt ? `results kept until ${st.expiresAt}` : undefined];
  const more = [st.error ? `error: ${st.error}` : undefined, st.warning ? `warning: ${st.warning}` : undefined].filter(Boolean).map((l) => `  ${l}\n`);
  return `${parts.filter(Boolean).join(", ")}\n${more.join("")}`;
}

/** The commands of this module, by name. */
export const TASK_COMMANDS: Record<string, Command> = {
  extract: {
    summary: "extract structured data from pages (or a site, url/*) with a prompt and/or a JSON Schema",
    usage: `Usage: webdata extract <url...> (--prompt <text> | --schema <file>) [options]

Starts an extract job over the pages given (a trailing /* reads the whole site), waits for it
with a status line on stderr, and prints the extracted data as indented JSON (with --json: one
line {"type":"extract","id":...,"status":"completed","data":...}). A failed job exits 9 with its
reason. Ctrl-C stops waiting; an extract cannot be cancelled, so the job keeps running on the
server (read it later with webdata status <id> --kind extract).

Options:
  --prompt <text>            what to extract
  --schema <file>            the shape of the result: a JSON Schema file
  --web-search               also search the web for sources
  --show-sources             report the sources used (in the --json line)
${POLL_HELP}`,
    options: { prompt: { type: "string" }, schema: { type: "string" }, "web-search": { type: "boolean" }, "show-sources": { type: "boolean" }, "poll-interval-ms": { type: "string" } },
    async run(ctx, positionals, values) {
      const prompt = stringFlag(values, "prompt");
      const schema = await schemaFile(values);
      if (prompt === undefined && schema === undefined) throw badArgument("prompt", "extract needs --prompt <text> or --schema <file> (or both)");
      if (positionals.length === 0 && values["web-search"] !== true) throw badArgument("url", "extract needs at least one URL (or --web-search)");
      positiveInt(values, "poll-interval-ms");
      const options = {
        ...(positionals.length ? { urls: positionals } : {}),
        ...(prompt !== undefined ? { prompt } : {}),
        ...(schema !== undefined ? { schema } : {}),
        ...(values["web-search"] === true ? { enableWebSearch: true } : {}),
        ...(values["show-sources"] === true ? { showSources: true } : {}),
      };
      return runTask(ctx, "extract", values, (w, req) => ctx.client.extract({ ...options, ...w }, req));
    },
  },
  agent: {
    summary: "run an agent on a task (\"find the pricing of ...\"), optionally shaped by a JSON Schema",
    usage: `Usage: webdata agent <prompt...> [options]

Starts an agent run on the task given, waits for it with a status line on stderr, and prints its
result (indented JSON; with --json: one line {"type":"agent","id":...,"status":"completed","data":...}).
A failed run exits 9 with its reason. Ctrl-C cancels the run on the server.

Options:
  --url <url>                a page to start from (repeatable)
  --schema <file>            the shape of the result: a JSON Schema file
  --max-credits <n>          the run's credit budget
  --model <name>             the model (server default spark-1-pro)
${POLL_HELP}`,
    options: { url: { type: "string", multiple: true }, schema: { type: "string" }, "max-credits": { type: "string" }, model: { type: "string" }, "poll-interval-ms": { type: "string" } },
    async run(ctx, positionals, values) {
      needPositionals(positionals, 1, "prompt");
      const schema = await schemaFile(values);
      const maxCredits = positiveInt(values, "max-credits");
      const model = stringFlag(values, "model");
      positiveInt(values, "poll-interval-ms");
      const urls = values.url as string[] | undefined;
      const options = { ...(urls ? { urls } : {}), ...(schema !== undefined ? { schema } : {}), ...(maxCredits ? { maxCredits } : {}), ...(model ? { model } : {}) };
      return runTask(ctx, "agent", values, (w, req) => ctx.client.agent(positionals.join(" "), { ...options, ...w }, req));
    },
  },
  status: {
    summary: "show a job's status: a crawl by default; --kind batch, extract or agent",
    usage: `Usage: webdata status <id> [--kind crawl|batch|extract|agent]

Reads a job's status once and prints it: a crawl or batch scrape's state, pages done, credits and
expiry; an extract or agent job's state and, once completed, its result (indented JSON). The id
is a crawl's unless --kind says otherwise (the service has no way to tell a job's kind from its
id). With --json: one line {"type":"status","kind":...,"id":...,"status":...} (a crawl or batch
scrape without its documents: webdata crawl prints those). Exits 0 whatever the job's state.

Options:
  --kind <kind>              crawl (default), batch, extract or agent`,
    options: { kind: { type: "string" } },
    hint: kindHint,
    async run(ctx, positionals, values) {
      const { kind, id, req } = jobOf(ctx, positionals, values);
      if (kind === "crawl" || kind === "batch") {
        // One document at most: the status is what is asked for, not the pages.
        const st = kind === "crawl" ? await ctx.client.getCrawlStatus(id, { limit: 1 }, req) : await ctx.client.getBatchScrapeStatus(id, { limit: 1 }, req);
        const { data: _data, next: _next, ...fields } = st;
        ctx.out(ctx.json ? record("status", { kind, ...fields }) : jobText(kind, st));
        return 0;
      }
      const st = kind === "extract" ? await ctx.client.getExtractStatus(id, req) : await ctx.client.getAgentStatus(id, req);
      if (ctx.json) ctx.out(record("status", { kind, ...st }));
      else {
        ctx.out(`${[`${kind} ${id}: ${st.status}${st.error ? `: ${st.error}` : ""}`, credits(st.creditsUsed), st.expiresAt ? `result kept until ${st.expiresAt}` : undefined].filter(Boolean).join(", ")}\n`);
        if (st.status === "completed") ctx.out(dataText(st.data));
      }
      return 0;
    },
  },
  cancel: {
    summary: "cancel a running job: a crawl by default; --kind batch or agent",
    usage: `Usage: webdata cancel <id> [--kind crawl|batch|agent]

Cancels a running job on the server and says so (with --json: one line
{"type":"cancelled","kind":...,"id":...}). A job that had already ended (the server answers
409) is said so, with the server's words, and exits 0 (--json adds "alreadyEnded":true).
The id is a crawl's unless --kind says otherwise.
An extract job cannot be cancelled: the service has no way to.

Options:
  --kind <kind>              crawl (default), batch or agent`,
    options: { kind: { type: "string" } },
    hint: kindHint,
    async run(ctx, positionals, values) {
      const { kind, id, req } = jobOf(ctx, positionals, values);
      if (kind === "extract") throw badArgument("kind", "an extract job cannot be cancelled: the service has no way to (it ends by itself; webdata status <id> --kind extract reads it)");
      try {
        await (kind === "crawl" ? ctx.client.cancelCrawl(id, req) : kind === "batch" ? ctx.client.cancelBatchScrape(id, req) : ctx.client.cancelAgent(id, req));
      } catch (err) {
        // 409: the job had already ended (completed, failed or cancelled): nothing to cancel, which is what was asked.
        if (!(err instanceof ConflictError)) throw err;
        ctx.out(ctx.json ? record("cancelled", { kind, id, alreadyEnded: true, serverMessage: err.serverMessage }) : `${kind} ${id} had already ended (the server: ${err.serverMessage}): nothing to cancel\n`);
        return 0;
      }
      ctx.out(ctx.json ? record("cancelled", { kind, id }) : `Cancelled ${kind} ${id}\n`);
      return 0;
    },
  },
};
