/**
 * The browser tools: act in the browser that scraped a page (`interact`, by the
 * scrape id the scrape tool prints), remote browser sessions (create, run code,
 * list, delete), and the account's credits and queue (`usage`).
 */
import * as z from "zod/v4/mini";
import type { BrowserExecuteResult } from "../api/browser.js";
import type { InteractResult } from "../api/interact.js";
import { OPERATIONS } from "../api/operations.js";
import { int } from "../core/validate.js";
import type { ToolName } from "./names.js";
import type { ToolSpec } from "./spec.js";

const id = z.string().check(z.minLength(1));
const { ttl: TTL, activityTtl: ACTIVITY_TTL } = OPERATIONS["browser.create"].limits;
const { code: CODE, timeout: TIMEOUT } = OPERATIONS["browser.execute"].limits;
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
    schema: z.strictObject({ scrapeId: id, prompt: z.optional(z.string().check(z.minLength(1))), code: z.optional(z.string().check(z.minLength(1))), language, timeout: z.optional(int(1)) }),
    params: { scrapeId: "The scrape id (from scrape).", prompt: 'What to do, e.g. "click Next and return the table". Give prompt or code.', code: "Code to run in the page's browser.", language: LANGUAGE_TEXT, timeout: "Seconds." },
    async run(client, a, ctx) {
      const { scrapeId, ...opts } = a;
      return runText(await client.interact(scrapeId as string, opts, { signal: ctx.signal }));
    },
  },
  interact_stop: {
    schema: z.strictObject({ scrapeId: id }),
    params: { scrapeId: "The scrape id." },
    async run(client, a, ctx) {
      const r = await client.stopInteraction(a.scrapeId as string, { signal: ctx.signal });
      return `session closed${r.creditsBilled !== undefined ? `, ${r.creditsBilled} credits billed` : ""}`;
    },
  },
  browser_create: {
    schema: z.strictObject({ ttl: z.optional(int(TTL.min, TTL.max)), activityTtl: z.optional(int(ACTIVITY_TTL.min, ACTIVITY_TTL.max)) }),
    params: { ttl: `Lifetime, seconds (default ${TTL.default}).`, activityTtl: `Closes after this many idle seconds (default ${ACTIVITY_TTL.default}).` },
    async run(client, a, ctx) {
      const s = await client.browser(a, { signal: ctx.signal });
      return `browser session ${s.id} open until ${s.expiresAt}\nlive view: ${s.liveViewUrl}`;
    },
  },
  browser_execute: {
    schema: z.strictObject({ id, code: z.string().check(z.minLength(CODE.min), z.maxLength(CODE.max)), language, timeout: z.optional(int(TIMEOUT.min, TIMEOUT.max)) }),
    params: { id: "The session id (from browser_create).", code: "The code; print or return what you need.", language: LANGUAGE_TEXT, timeout: `Seconds (default ${TIMEOUT.default}).` },
    async run(client, a, ctx) {
      const { id: session, ...opts } = a;
      return runText(await client.browserExecute(session as string, opts as { code: string }, { signal: ctx.signal }));
    },
  },
  browser_list: {
    schema: z.strictObject({ status: z.optional(z.enum(["active", "destroyed"])) }),
    params: { status: "Only these." },
    async run(client, a, ctx) {
      const list = await client.listBrowsers(a, { signal: ctx.signal });
      const sessions = Array.isArray(list) ? list : [];
      return sessions.length ? sessions.map((s) => `${s.id} ${s.status}, created ${s.createdAt}, last active ${s.lastActivity}`).join("\n") : "no sessions";
    },
  },
  browser_delete: {
    schema: z.strictObject({ id }),
    params: { id: "The session id." },
    async run(client, a, ctx) {
      await client.deleteBrowser(a.id as string, { signal: ctx.signal });
      return `browser session ${a.id as string} closed`;
    },
  },
  usage: {
    schema: z.strictObject({}),
    params: {},
    async run(client, _a, ctx) {
      const [credits, queue] = await Promise.all([client.getCreditUsage({ signal: ctx.signal }), client.getQueueStatus({ signal: ctx.signal })]);
      const period = credits.billingPeriodEnd ? ` (period ends ${credits.billingPeriodEnd})` : "";
      return `credits: ${credits.remainingCredits} of ${credits.planCredits} remaining${period}\nqueue: ${queue.activeJobsInQueue} running, ${queue.waitingJobsInQueue} waiting, concurrency limit ${queue.maxConcurrency}`;
    },
  },
} satisfies Partial<Record<ToolName, ToolSpec>>;
