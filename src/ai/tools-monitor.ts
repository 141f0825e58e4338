/**
 * The monitor tools: create a monitor (a schedule and what it watches: pages,
 * a site crawled at each run, or search results), list them, read one (or one
 * check's pages with their diffs), run a check now, delete one. Updating a
 * monitor, and a target's own options (a search window, scrape options, several
 * targets of one kind, retention), are left to the library (`updateMonitor`,
 * `createMonitor`): the tools stay within the description budget. Private to `webdata/ai`.
 */
import * as z from "zod/v4/mini";
import type { CreateMonitorRequest, Monitor, MonitorCheck, MonitorSummary, MonitorTarget } from "../api/monitor.js";
import { OPERATIONS } from "../api/operations.js";
import { ValidationError } from "../core/errors.js";
import { httpUrl, int } from "../core/validate.js";
import type { ToolName } from "./names.js";
import { DEFAULT_MAX_CRAWL_LIMIT, requireAllowed, type RunContext, type ToolSpec } from "./spec.js";

const id = z.string().check(z.minLength(1));
const { name: NAME, queries: QUERIES } = OPERATIONS["monitor.create"].limits;
const { limit: PAGE } = OPERATIONS["monitor.list"].limits;

/** A 5-field cron expression (its minute and hour fields are digits, `*`, `/`, `,`, `-`); anything else is a schedule in words. */
const CRON = /^[\d*/,-]+\s+[\d*/,-]+(\s+\S+){3}$/;

/** A check's pages by outcome, in words. */
function summaryText(s: MonitorSummary | null | undefined): string {
  if (!s) return "no check yet";
  return `${s.totalPages} pages: ${s.changed} changed, ${s.new} new, ${s.removed} removed, ${s.same} same, ${s.error} failed`;
}

function monitorLine(m: Monitor): string {
  const next = m.nextRunAt ? `, next run ${m.nextRunAt}` : "";
  return `${m.id} "${m.name}" ${m.status}, cron "${m.schedule.cron ?? ""}" ${m.schedule.timezone ?? "UTC"}${next}; last check: ${summaryText(m.lastCheckSummary)}`;
}

function checkLine(c: MonitorCheck): string {
  return `check ${c.id}: ${c.status} (${c.trigger}${c.finishedAt ? `, finished ${c.finishedAt}` : ""})${c.summary ? `, ${summaryText(c.summary)}` : ""}${c.error ? `, error: ${c.error}` : ""}`;
}

/**
 * The request from the model's arguments: the schedule as `cron` or `text`, one target of each kind given
 * (`urls`: scrape, `site`: crawl, its limit the application's `maxCrawlLimit`, `queries`: search), every URL
 * checked against the allowed domains.
 */
function createRequest(a: Record<string, unknown>, ctx: RunContext): CreateMonitorRequest {
  const when = (a.schedule as string).trim();
  const urls = a.urls as string[] | undefined;
  const site = a.site as string | undefined;
  const queries = a.queries as string[] | undefined;
  requireAllowed([...(urls ?? []), ...(site ? [site] : [])], ctx.fixed);
  const targets: MonitorTarget[] = [
    ...(urls ? [{ type: "scrape" as const, urls }] : []),
    ...(site ? [{ type: "crawl" as const, url: site, crawlOptions: { limit: ctx.fixed.maxCrawlLimit ?? DEFAULT_MAX_CRAWL_LIMIT } }] : []),
    ...(queries ? [{ type: "search" as const, queries }] : []),
  ];
  if (!targets.length) throw new ValidationError([{ path: "urls", message: "give urls, site or queries: what the monitor watches" }], "monitor_create arguments");
  const schedule = { ...(CRON.test(when) ? { cron: when } : { text: when }), ...(typeof a.timezone === "string" ? { timezone: a.timezone } : {}) };
  return { name: a.name as string, schedule, targets, ...(typeof a.goal === "string" ? { goal: a.goal } : {}) };
}

/** The monitor tools, by name. */
export const MONITOR_TOOLS = {
  monitor_create: {
    schema: z.strictObject({
      name: z.string().check(z.minLength(NAME.min), z.maxLength(NAME.max)),
      schedule: z.string().check(z.minLength(1)),
      timezone: z.optional(z.string()),
      urls: z.optional(z.array(httpUrl).check(z.minLength(1))),
      site: z.optional(httpUrl),
      queries: z.optional(z.array(z.string()).check(z.minLength(QUERIES.min), z.maxLength(QUERIES.max))),
      goal: z.optional(z.string().check(z.minLength(1))),
    }),
    params: {
      schedule: 'A 5-field cron, or words: "every 30 minutes", "daily at 9:00".',
      urls: "Pages to watch.",
      site: "A site crawled at each check.",
      queries: "Searches to watch (needs goal).",
      goal: "What change matters.",
    },
    adjust(props, fixed) {
      props.site!.description = `A site crawled at each check (at most ${fixed.maxCrawlLimit ?? DEFAULT_MAX_CRAWL_LIMIT} pages).`;
    },
    async run(client, a, ctx) {
      const m = await client.createMonitor(createRequest(a, ctx), { signal: ctx.signal });
      return `monitor created: ${monitorLine(m)}`;
    },
  },
  monitor_list: {
    schema: z.strictObject({ limit: z.optional(int(PAGE.min, PAGE.max)), offset: z.optional(int(0)) }),
    params: {},
    async run(client, a, ctx) {
      const list = await client.listMonitors(a, { signal: ctx.signal });
      return list.length ? list.map(monitorLine).join("\n") : "no monitors";
    },
  },
  monitor_get: {
    schema: z.strictObject({ id, checkId: z.optional(id), status: z.optional(z.enum(["same", "new", "changed", "removed", "error"])), skip: z.optional(int(0)) }),
    params: { checkId: "A check's id.", status: "Only these pages.", skip: "Pages to skip (the result gives it)." },
    readable: true,
    async run(client, a, ctx) {
      const opts = { signal: ctx.signal };
      if (typeof a.checkId !== "string") {
        const [m, checks] = await Promise.all([client.getMonitor(a.id as string, opts), client.listMonitorChecks(a.id as string, { limit: 10 }, opts)]);
        return { head: monitorLine(m), body: checks.length ? checks.map(checkLine).join("\n") : "no checks yet" };
      }
      const skip = typeof a.skip === "number" ? a.skip : 0;
      const c = await client.getMonitorCheck(a.id as string, a.checkId, { limit: PAGE.max, ...(skip ? { skip } : {}), ...(typeof a.status === "string" ? { status: a.status as "changed" } : {}) }, opts);
      const more = c.next ? `; more pages: call monitor_get with ${JSON.stringify({ id: a.id, checkId: a.checkId, ...(a.status ? { status: a.status } : {}), skip: skip + c.pages.length })}` : "";
      const pages = c.pages.map((p) => [`## ${p.url}: ${p.status}${p.statusCode ? ` (HTTP ${p.statusCode})` : ""}${p.error ? `, ${p.error}` : ""}`, p.judgment ? `judged ${p.judgment.meaningful ? "meaningful" : "not meaningful"}: ${p.judgment.reason}` : "", p.diff?.text ?? ""].filter(Boolean).join("\n"));
      return { head: `${checkLine(c)}; pages ${skip + 1}-${skip + c.pages.length} below${more}`, body: pages.join("\n\n") };
    },
  },
  monitor_run: {
    schema: z.strictObject({ id }),
    params: { id: "The monitor id." },
    async run(client, a, ctx) {
      return `${checkLine(await client.runMonitor(a.id as string, { signal: ctx.signal }))}; read it with monitor_get`;
    },
  },
  monitor_delete: {
    schema: z.strictObject({ id }),
    params: { id: "The monitor id." },
    async run(client, a, ctx) {
      const ok = await client.deleteMonitor(a.id as string, { signal: ctx.signal });
      return ok ? `monitor ${a.id as string} deleted` : `monitor ${a.id as string}: the service did not confirm the delete`;
    },
  },
} satisfies Partial<Record<ToolName, ToolSpec>>;
