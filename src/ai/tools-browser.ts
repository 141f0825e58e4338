/**
 * The browser tools: act in the browser that scraped a page (`interact`, by the
 * scrape id the scrape tool prints), remote browser sessions (create, run code,
 * list, delete), and the account's credits and queue (`usage`).
 */
import * as z from "zod/v4/mini";
import type { BrowserExecuteResult } from "../api/browser.js";
import type { InteractResult } from "../api/interact.js";
import { int } from "../core/validate.js";
import type { ToolName } from "./names.js";
import type { ToolSpec } from "./spec.js";

const id = z.string().check(z.minLength(1));
const language = z.optional(z.enum(["node", "python", "bash"]));
const LANGUAGE_TEXT = 'Default "node" (a Playwright `page` is in scope).';

/** A script's or an interaction's outcome as text. */
function runText(r: Partial<BrowserExecuteResult & InteractResult>): string {
  const parts: string[] = [];
  if (typeof r.exitCode === "number") parts.push(`exit code ${r.exitCode}${r.killed ? " (killed: the timeout passed)" : ""}`);
  if (r.error) parts.push(`error: ${r.error}`);
  if (typeof r.output === "string" && r.output) parts.push(`output:\n${r.output}`);
  if (r.result !== undefined && r.result !== null && r.result !== "") parts.push(`result: ${typeof r.result === "string" ? r.result : JSON.stringify(r.result)}`);
  if (r.stdout) parts.push(`stdout:\n${r.stdout}`);
  if (r.stderr) parts.push(`stderr:\n${r.stderr}`);
  if (r.liveViewUrl) parts.push(`live view: ${r.liveViewUrl}`);
  return parts.join("\n") || "done (no output)";
}

/** The browser, interaction and account tools, by name. */
export const BROWSER_TOOLS = {
  interact: {
    description: "Act in the browser that scraped a page (by the scrape id the scrape tool shows): say what to do in words (prompt) or run code; the session stays open until interact_stop.",
    schema: z.strictObject({ scrapeId: id, prompt: z.optional(z.string().check(z.minLength(1))), code: z.optional(z.string().check(z.minLength(1))), language, timeout: z.optional(int(1)) }),
    params: { scrapeId: "The scrape id (from scrape).", prompt: 'What to do, e.g. "click Next and return the table". Give prompt or code.', code: "Code to run in the page's browser.", language: LANGUAGE_TEXT, timeout: "Seconds." },
    async run(client, a, ctx) {
      const { scrapeId, ...opts } = a;
      return runText(await client.interact(scrapeId as string, opts, { signal: ctx.signal }));
    },
  },
  interact_stop: {
    description: "Close the browser session that interact opened for a scrape.",
    schema: z.strictObject({ scrapeId: id }),
    params: { scrapeId: "The scrape id." },
    async run(client, a, ctx) {
      const r = await client.stopInteraction(a.scrapeId as string, { signal: ctx.signal });
      return `session closed${r.creditsBilled !== undefined ? `, ${r.creditsBilled} credits billed` : ""}`;
    },
  },
  browser_create: {
    description: "Open a remote browser session (billed by the minute while open) and return its id; run code in it with browser_execute and close it with browser_delete.",
    schema: z.strictObject({ ttl: z.optional(int(30, 3600)), activityTtl: z.optional(int(10, 3600)) }),
    params: { ttl: "Lifetime, seconds (default 600).", activityTtl: "Closes after this many idle seconds (default 300)." },
    async run(client, a, ctx) {
      const s = await client.browser(a, { signal: ctx.signal });
      return `browser session ${s.id} open until ${s.expiresAt}\nlive view: ${s.liveViewUrl}`;
    },
  },
  browser_execute: {
    description: "Run code in a browser session (node: Playwright with `page` in scope; python; bash) and return its output.",
    schema: z.strictObject({ id, code: z.string().check(z.minLength(1), z.maxLength(100000)), language, timeout: z.optional(int(1, 300)) }),
    params: { id: "The session id (from browser_create).", code: "The code; print or return what you need.", language: LANGUAGE_TEXT, timeout: "Seconds (default 30)." },
    async run(client, a, ctx) {
      const { id: session, ...opts } = a;
      return runText(await client.browserExecute(session as string, opts as { code: string }, { signal: ctx.signal }));
    },
  },
  browser_list: {
    description: "List the team's browser sessions.",
    schema: z.strictObject({ status: z.optional(z.enum(["active", "destroyed"])) }),
    params: { status: "Only these." },
    async run(client, a, ctx) {
      const list = await client.listBrowsers(a, { signal: ctx.signal });
      const sessions = Array.isArray(list) ? list : [];
      return sessions.length ? sessions.map((s) => `${s.id} ${s.status}, created ${s.createdAt}, last active ${s.lastActivity}`).join("\n") : "no sessions";
    },
  },
  browser_delete: {
    description: "Close a browser session (billing stops).",
    schema: z.strictObject({ id }),
    params: { id: "The session id." },
    async run(client, a, ctx) {
      await client.deleteBrowser(a.id as string, { signal: ctx.signal });
      return `browser session ${a.id as string} closed`;
    },
  },
  usage: {
    description: "The account's remaining credits and its job queue. Check it before costly work (crawls, agent, browser sessions).",
    schema: z.strictObject({}),
    params: {},
    async run(client, _a, ctx) {
      const [credits, queue] = await Promise.all([client.getCreditUsage({ signal: ctx.signal }), client.getQueueStatus({ signal: ctx.signal })]);
      const period = credits.billingPeriodEnd ? ` (period ends ${credits.billingPeriodEnd})` : "";
      return `credits: ${credits.remainingCredits} of ${credits.planCredits} remaining${period}\nqueue: ${queue.activeJobsInQueue} running, ${queue.waitingJobsInQueue} waiting, concurrency limit ${queue.maxConcurrency}`;
    },
  },
} satisfies Partial<Record<ToolName, ToolSpec>>;
