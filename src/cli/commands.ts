/**
 * The CLI's commands, each a thin face of one client method. Arguments are
 * parsed with `node:util`'s `parseArgs`; every command has `--help`.
 */
import type { ParseArgsConfig } from "node:util";
import type { Document } from "../api/document.js";
import { createMcpServer } from "../ai/mcp.js";
import { DEFAULT_MAX_CHARS, TOOL_NAMES, type ToolName } from "../ai/tools.js";
import { DEFAULT_MAX_CRAWL_LIMIT } from "../ai/spec.js";
import { OPERATIONS } from "../api/operations.js";
import type { RequestOptions } from "../core/request.js";
import { cancelInterrupted, line, needPositionals, positiveInt, record, type Command, type CommandContext } from "./args.js";
import { EXIT, EXIT_HELP } from "./exit.js";
import { DEEP_NOTICE, renderReport, runDoctor } from "./doctor.js";
import { FAKE_COMMAND } from "./fake.js";
import { documentBody, FORMAT_HELP, FORMAT_OPTIONS, missingFormats, namesOf, scrapeOptionsOf } from "./formats.js";
import { documentUrl, PageWriter } from "./output.js";
import { Progress } from "./progress.js";
import { TASK_COMMANDS } from "./tasks.js";
import { plural } from "./terminal.js";

export { nonNegativeInt, positiveInt, type Command, type CommandContext } from "./args.js";

/** Flags every command takes. */
export const COMMON_OPTIONS = {
  "api-key": { type: "string" },
  "api-url": { type: "string" },
  json: { type: "boolean", default: false },
  "timeout-ms": { type: "string" },
  "max-retries": { type: "string" },
  verbose: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const satisfies NonNullable<ParseArgsConfig["options"]>;

const COMMON_HELP = `Common options:
  --api-key <key>   API key (default: WEBDATA_API_KEY, then FIRECRAWL_API_KEY)
  --api-url <url>   API URL (default: WEBDATA_API_URL, then FIRECRAWL_API_URL, then the public service)
  --json            machine output on stdout, the same for every command: one JSON object a line, each with
                    a "type" (document, file, done, map, search, usage, status, cancelled, extract, agent,
                    doctor, fake); an error is one line {"type":"error","exitCode":N,"error":{...}} on stdout,
                    its message on stderr too (as gh api does); Ctrl-C ends with {"type":"interrupted",...}
  --timeout-ms <ms> limit of one HTTP attempt (default 120000)
  --max-retries <n> retries of a failed request (default 2)
  --verbose         each request and its answer on stderr, with how long it took (also WEBDATA_LOG=debug)
  -h, --help        this help

Progress and messages go to stderr: on a terminal one line redrawn in place, else plain
lines. Colour only on a terminal, and never with NO_COLOR set.`;

/**
 * Warns, on stderr, of each format asked for that the server did not return for `doc`; with `warned`
 * (a crawl's pages), once a format, not once a page.
 */
function warnMissing(ctx: CommandContext, doc: Document, names: string[], warned?: Set<string>): void {
  const missing = missingFormats(doc, names).filter((n) => !warned?.has(n));
  if (missing.length === 0) return;
  for (const n of missing) warned?.add(n);
  ctx.err(`warning: the server returned no ${missing.join(", ")} for ${documentUrl(doc) || "the page"}${warned ? " (said once, whatever later pages lack)" : ""}\n`);
}

/** Why a job failed, for the text summary: the status's `error`, else the first entries of its `/errors`. */
async function failureReason(ctx: CommandContext, kind: "crawl" | "batch", id: string, error: string | undefined): Promise<string | undefined> {
  if (error) return error;
  try {
    const res = kind === "crawl" ? await ctx.client.getCrawlErrors(id, { timeoutMs: 10_000, maxRetries: 1 }) : await ctx.client.getBatchScrapeErrors(id, { timeoutMs: 10_000, maxRetries: 1 });
    const first = res.errors.slice(0, 3).map((e) => `${e.url ? `${e.url}: ` : ""}${e.error}${e.code ? ` [${e.code}]` : ""}`);
    return first.length ? `${first.join("; ")}${res.errors.length > 3 ? ` (and ${res.errors.length - 3} more)` : ""}` : undefined;
  } catch {
    return undefined;
  }
}

/** How a followed job ended, as the command says it: its summary line, whether it succeeded, and the reason of a failure. */
async function jobEnd(ctx: CommandContext, kind: "crawl" | "batch", id: string, event: { status: string; error?: string | undefined }, pages: number, out: unknown) {
  // A job that completed without a single page failed in all but name (the server reports a crawl whose
  // start page failed as completed, total 0): its /errors say why.
  const reason = event.status !== "completed" || pages === 0 ? await failureReason(ctx, kind, id, event.error) : undefined;
  const ok = event.status === "completed" && reason === undefined;
  const received = `${plural(pages, "page")}${typeof out === "string" ? ` written to ${out}` : ok ? "" : " received"}`;
  const summary =
    ok ? `${kind} ${id} completed: ${received}`
    : event.status === "completed" ? `${kind} ${id} completed without a page: ${reason ?? ""}`
    : `${kind} ${id} ${event.status}${reason ? `: ${reason}` : ""} (${received})`;
  return { ok, summary, reason };
}

/**
 * Runs a crawl or batch scrape to the end: a progress line on stderr, each page
 * written as it arrives, a word when every page is in but the server has not
 * finished the job; Ctrl-C: {@link cancelInterrupted}.
 */
async function followJob(ctx: CommandContext, kind: "crawl" | "batch", id: string, values: Record<string, unknown>, names: string[]): Promise<number> {
  const json = ctx.json;
  const writer = typeof values.out === "string" ? new PageWriter(values.out, names) : undefined;
  const progress = new Progress(ctx.screen, `${kind} ${id}`);
  const pollIntervalMs = positiveInt(values, "poll-interval-ms");
  let pages = 0;
  let at = { completed: 0, total: 0, status: "scraping" };
  const show = () => {
    const { completed, total, status } = at;
    // Waiting: the server counts every page done and each one it counted has arrived (a status may come
    // before the documents it counts: a socket's catchup, a stream's status event).
    if (status === "scraping" && total > 0 && pages > 0 && completed >= total && pages >= completed) progress.waiting(pages);
    else progress.update(Math.max(pages, completed), total, status === "completed" || status === "failed" || status === "cancelled");
  };
  const warned = new Set<string>();
  const emit = async (doc: Document) => {
    pages++;
    warnMissing(ctx, doc, names, warned);
    if (writer) {
      const file = await writer.write(doc);
      if (json) ctx.out(record("file", { url: documentUrl(doc), file }));
    } else if (json) ctx.out(record("document", doc));
    else ctx.out(`<!-- ${documentUrl(doc)} -->\n${documentBody(doc, names, ctx.screen)}\n`);
  };
  try {
    for await (const event of ctx.client.watcher(id, { kind, signal: ctx.signal, ...(pollIntervalMs ? { pollIntervalMs } : {}) })) {
      if (event.type === "document") await emit(event.document);
      else if (event.type === "status") at = { completed: event.completed, total: event.total, status: event.status };
      if (event.type === "document" || event.type === "status") show();
      if (event.type !== "done") continue;
      const { ok, summary, reason } = await jobEnd(ctx, kind, id, event, pages, values.out);
      progress.finish(ok ? summary : ctx.screen.paintErr(summary, "red"));
      if (json) ctx.out(record("done", { id, status: event.status, completed: event.completed, total: event.total, creditsUsed: event.creditsUsed, ...(reason ? { error: reason } : {}) }));
      return ok ? 0 : EXIT.jobFailed;
    }
    return 0;
  } catch (err) {
    if (!ctx.signal.aborted) throw err;
    const cancel = (req: RequestOptions) => (kind === "crawl" ? ctx.client.cancelCrawl(id, req) : ctx.client.cancelBatchScrape(id, req));
    return cancelInterrupted(ctx, kind, id, cancel, pages, ` (${plural(pages, "page")} received)`);
  }
}

/** Every command, by name. */
export const COMMANDS: Record<string, Command> = {
  scrape: {
    summary: "scrape one page, in every format asked for (markdown by default; --schema: JSON extraction)",
    usage: `Usage: webdata scrape <url> [options]

Prints the page in each format asked for: one format as it is (the markdown by default),
several each under a "==> name <==" heading, in the order asked. A format the server did not
return is named in a warning on stderr. With --json: one line, {"type":"document",...}.

Options:
${FORMAT_HELP}`,
    options: { ...FORMAT_OPTIONS },
    async run(ctx, positionals, values) {
      needPositionals(positionals, 1, "url");
      const options = await scrapeOptionsOf(values);
      const names = namesOf(options.formats);
      const doc = await ctx.client.scrape(positionals[0]!, options, { signal: ctx.signal });
      warnMissing(ctx, doc, names);
      if (typeof values.out === "string") {
        const file = await new PageWriter(values.out, names).write(doc);
        ctx.out(ctx.json ? record("file", { url: documentUrl(doc), file }) : `${file}\n`);
      } else ctx.out(ctx.json ? record("document", doc) : documentBody(doc, names, ctx.screen));
      return 0;
    },
  },
  map: {
    summary: "list the URLs of a site",
    usage: `Usage: webdata map <url> [options]\n\nPrints one URL a line (with its title when known).\n\nOptions:\n  --limit <n>      at most n links\n  --search <text>  order links by relevance to text`,
    options: { limit: { type: "string" }, search: { type: "string" } },
    async run(ctx, positionals, values) {
      needPositionals(positionals, 1, "url");
      const limit = positiveInt(values, "limit");
      const search = values.search as string | undefined;
      const res = await ctx.client.map(positionals[0]!, { ...(limit ? { limit } : {}), ...(search ? { search } : {}) }, { signal: ctx.signal });
      if (ctx.json) ctx.out(record("map", res));
      else for (const l of res.links) ctx.out(`${line(l.url, l.title)}\n`);
      if (res.warning && !ctx.json) ctx.err(`warning: ${res.warning}\n`);
      return 0;
    },
  },
  search: {
    summary: "search the web (and news, images)",
    usage: `Usage: webdata search <query...> [options]\n\nPrints title, URL and description of each result.\n\nOptions:\n  --limit <n>          results per source (${OPERATIONS.search.limits.limit.min}-${OPERATIONS.search.limits.limit.max})\n  --sources <list>     web, news, images (comma-separated; default web)\n  --scrape             also scrape each result to markdown`,
    options: { limit: { type: "string" }, sources: { type: "string" }, scrape: { type: "boolean", default: false } },
    async run(ctx, positionals, values) {
      needPositionals(positionals, 1, "query");
      const limit = positiveInt(values, "limit");
      const sources = typeof values.sources === "string" ? (values.sources.split(",").map((s) => s.trim()) as ("web" | "news" | "images")[]) : undefined;
      const res = await ctx.client.search(
        positionals.join(" "),
        { ...(limit ? { limit } : {}), ...(sources ? { sources } : {}), ...(values.scrape ? { scrapeOptions: { formats: ["markdown"] } } : {}) },
        { signal: ctx.signal },
      );
      if (ctx.json) {
        ctx.out(record("search", res));
        return 0;
      }
      for (const source of ["web", "news", "images"] as const) {
        const items = (res[source] ?? []) as { title?: string; url?: string; description?: string; snippet?: string; imageUrl?: string; markdown?: string }[];
        if (items.length === 0) continue;
        if (source !== "web" || res.news?.length || res.images?.length) ctx.out(`# ${source}\n`);
        for (const it of items) {
          ctx.out(`${line(it.title ?? it.url, it.url ?? it.imageUrl)}\n`);
          const desc = it.description ?? it.snippet;
          if (desc) ctx.out(`  ${desc}\n`);
          if (it.markdown) ctx.out(`\n${it.markdown}\n\n`);
        }
      }
      if (res.warning) ctx.err(`warning: ${res.warning}\n`);
      return 0;
    },
  },
  crawl: {
    summary: "crawl a site, with a live progress line (Ctrl-C cancels the crawl)",
    usage: `Usage: webdata crawl <url> [options]\n\nStarts a crawl and follows it to the end: a progress line on stderr, each page\nprinted (or written to --out) as it arrives. Ctrl-C cancels the crawl on the server.\n\nOptions:\n  --limit <n>                at most n pages\n  --max-depth <n>            link depth from the start URL\n  --include <regex>          only paths matching (repeatable)\n  --exclude <regex>          skip paths matching (repeatable)\n  --poll-interval-ms <ms>    status poll interval when no live stream is available (default 2000)\n${FORMAT_HELP}`,
    options: {
      ...FORMAT_OPTIONS,
      limit: { type: "string" },
      "max-depth": { type: "string" },
      include: { type: "string", multiple: true },
      exclude: { type: "string", multiple: true },
      "poll-interval-ms": { type: "string" },
    },
    async run(ctx, positionals, values) {
      needPositionals(positionals, 1, "url");
      const limit = positiveInt(values, "limit");
      const depth = values["max-depth"] === undefined ? undefined : Number(values["max-depth"]);
      const scrapeOptions = await scrapeOptionsOf(values);
      const job = await ctx.client.startCrawl(
        positionals[0]!,
        {
          ...(limit ? { limit } : {}),
          ...(depth === undefined ? {} : { maxDiscoveryDepth: depth }),
          ...(values.include ? { includePaths: values.include as string[] } : {}),
          ...(values.exclude ? { excludePaths: values.exclude as string[] } : {}),
          ...(Object.keys(scrapeOptions).length ? { scrapeOptions } : {}),
        },
        { signal: ctx.signal },
      );
      ctx.err(`Started crawl ${job.id}\n`);
      return followJob(ctx, "crawl", job.id, values, namesOf(scrapeOptions.formats));
    },
  },
  batch: {
    summary: "scrape many URLs in one job, with a live progress line (Ctrl-C cancels it)",
    usage: `Usage: webdata batch <url...> [options]\n\nStarts a batch scrape of the URLs given and follows it to the end, like crawl.\n\nOptions:\n  --poll-interval-ms <ms>    status poll interval when no live stream is available (default 2000)\n${FORMAT_HELP}`,
    options: { ...FORMAT_OPTIONS, "poll-interval-ms": { type: "string" } },
    async run(ctx, positionals, values) {
      needPositionals(positionals, 1, "url");
      const scrapeOptions = await scrapeOptionsOf(values);
      const job = await ctx.client.startBatchScrape(positionals, { ...scrapeOptions, ignoreInvalidURLs: true }, { signal: ctx.signal });
      ctx.err(`Started batch ${job.id}${job.invalidURLs?.length ? ` (skipped invalid: ${job.invalidURLs.join(", ")})` : ""}\n`);
      return followJob(ctx, "batch", job.id, values, namesOf(scrapeOptions.formats));
    },
  },
  ...TASK_COMMANDS,
  mcp: {
    summary: "run a Model Context Protocol server on stdio (for Claude Desktop, Cursor, ...)",
    usage: `Usage: webdata mcp [options]\n\nServes the tools (${TOOL_NAMES.join(", ")}) over MCP on stdin/stdout until stdin closes.\nNeeds the optional @modelcontextprotocol/sdk package:\n  npx -y -p webdata -p @modelcontextprotocol/sdk webdata mcp\n\nOptions:\n  --tools <list>             only these tools (comma-separated)\n  --only-main-content        always scrape main content only (hidden from the model; --no-only-main-content: whole pages)\n  --allowed-domains <list>   hosts the tools may read (comma-separated; subdomains included)\n  --max-crawl-limit <n>      largest crawl the model may start (default ${DEFAULT_MAX_CRAWL_LIMIT})\n  --max-chars <n>            character budget of a tool result (default ${DEFAULT_MAX_CHARS})`,
    options: { tools: { type: "string" }, "only-main-content": { type: "boolean" }, "allowed-domains": { type: "string" }, "max-crawl-limit": { type: "string" }, "max-chars": { type: "string" } },
    async run(ctx, _positionals, values) {
      const list = (v: unknown) => (typeof v === "string" ? v.split(",").map((x) => x.trim()).filter(Boolean) : undefined);
      const only = list(values.tools) as ToolName[] | undefined;
      const allowedDomains = list(values["allowed-domains"]);
      const maxCrawlLimit = positiveInt(values, "max-crawl-limit");
      const maxChars = positiveInt(values, "max-chars");
      const main = values["only-main-content"] as boolean | undefined;
      const server = await createMcpServer(ctx.client, {
        ...(only ? { only } : {}),
        ...(maxChars ? { maxChars } : {}),
        fixed: { ...(main === undefined ? {} : { onlyMainContent: main }), ...(allowedDomains ? { allowedDomains } : {}), ...(maxCrawlLimit ? { maxCrawlLimit } : {}) },
      });
      const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
      const closed = new Promise<void>((resolve) => {
        server.onclose = resolve;
        ctx.signal.addEventListener("abort", () => void server.close(), { once: true });
      });
      await server.connect(new StdioServerTransport());
      ctx.err(`webdata MCP server ready on stdio (${(only ?? TOOL_NAMES).join(", ")})\n`);
      await closed;
      return 0;
    },
  },
  doctor: {
    summary: "check a deployment: reachability, TLS, key, credits, live progress, AI and search",
    usage: `Usage: webdata doctor [options]

Checks the deployment at --api-url (or WEBDATA_API_URL, else the public service) and prints
what works there and what to do about what does not: reachability and TLS, the key (or a
self-hosted server without authentication), the API version, credits, queue and concurrency,
whether crawl starts accept x-idempotency-key, whether the crawl WebSocket and server-sent
events answer, and whether AI features and search are configured.

By default it only reads, and sends one crawl start the server must refuse (an invalid URL):
no job is started and no credit is spent. --deep also scrapes a page with the JSON format,
searches, runs an extract and starts (and cancels) an agent run: these spend credits.

Exits 0 when the deployment is usable (warnings aside), 8 when it cannot be reached,
3 when the key is missing or refused, 4 when no credits are left, 1 when another check failed.

Options:
  --deep        also run the checks that start jobs and spend credits (says so first)
  --url <url>   the page --deep scrapes and extracts from (default https://example.com)`,
    options: { deep: { type: "boolean", default: false }, url: { type: "string" } },
    async run(ctx, _positionals, values) {
      const deep = values.deep === true;
      if (deep) ctx.err(`${DEEP_NOTICE}\n`);
      const report = await runDoctor(ctx.client, {
        apiKey: ctx.apiKey,
        deep,
        target: typeof values.url === "string" ? values.url : "https://example.com",
        timeoutMs: positiveInt(values, "timeout-ms") ?? 10_000,
        signal: ctx.signal,
        proxyVariable: ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].find((v) => ctx.env[v]),
      });
      ctx.out(ctx.json ? record("doctor", report) : renderReport(report, ctx.screen));
      return report.exitCode;
    },
  },
  usage: {
    summary: "show remaining credits and tokens",
    usage: "Usage: webdata usage [options]\n\nPrints the remaining credits and tokens of the key's team.",
    options: {},
    async run(ctx, _positionals, values) {
      const [credits, tokens] = await Promise.all([ctx.client.getCreditUsage({ signal: ctx.signal }), ctx.client.getTokenUsage({ signal: ctx.signal })]);
      if (ctx.json) ctx.out(record("usage", { credits, tokens }));
      else {
        const period = credits.billingPeriodEnd ? ` (period ends ${credits.billingPeriodEnd})` : "";
        ctx.out(`Credits: ${credits.remainingCredits} of ${credits.planCredits} remaining${period}\nTokens: ${tokens.remainingTokens} of ${tokens.planTokens} remaining\n`);
      }
      return 0;
    },
  },
  fake: FAKE_COMMAND,
};

/** `webdata --help`. */
export function mainHelp(version: string): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const list = Object.entries(COMMANDS)
    .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
    .join("\n");
  return `webdata ${version}: the web data API from the terminal\n\nUsage: webdata <command> [options]\n\nCommands:\n${list}\n\nRun "webdata <command> --help" for a command's options.\n\n${COMMON_HELP}\n\n${EXIT_HELP}\n`;
}

/** `webdata <command> --help`. */
export function commandHelp(name: string): string {
  return `${COMMANDS[name]!.usage}\n\n${COMMON_HELP}\n\n${EXIT_HELP}\n`;
}
