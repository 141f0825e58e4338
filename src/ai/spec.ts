/**
 * What one tool is made of ({@link ToolSpec}), and the helpers the tool modules share: the
 * allowed-domain check, the fixed parameters and the bounded wait. Private to `webdata/ai`.
 */
import type * as z from "zod/v4/mini";
import type { WebData } from "../client.js";
import { ValidationError } from "../core/errors.js";
import type { ToolName } from "./names.js";

/** A JSON Schema object. */
export type JsonSchemaObject = Record<string, unknown>;

/** Parameters the model must not choose: the application fixes them. */
export interface FixedParameters {
  /** Always scrape main content only (or always the whole page); hidden from the model. */
  onlyMainContent?: boolean;
  /** Hosts the tools may read (a host also allows its subdomains); any other URL is refused before sending. */
  allowedDomains?: string[];
  /** Largest crawl `limit` (default 50, stated in the schema); a larger or missing limit is lowered to it. */
  maxCrawlLimit?: number;
}

/** What a tool's `run` answers: a short head shown on every read, and a body read in parts when it is longer than the budget. */
export interface Reply {
  /** Shown first on every read of this result (job counters, ids); keep it short. */
  head?: string;
  /** The text read in parts (`offset`). */
  body: string;
  /** Where the rest of a cut body is read, when not this tool with these arguments (a job start: its status tool). */
  readOn?: { tool: ToolName; args: Record<string, unknown> };
  /** The result reports a failure (a failed job): an `isError` result, with the same text. */
  failed?: boolean;
}

/** What a tool's `run` gets besides the client and its arguments. */
export interface RunContext {
  fixed: FixedParameters;
  /** The tools in this set (a result names another tool only when the model has it). */
  names: readonly ToolName[];
  maxWaitMs: number;
  /** `ToolsOptions.pollIntervalMs`; `undefined`: the waiters' ramp. */
  pollIntervalMs: number | undefined;
  signal: AbortSignal | undefined;
}

/** One tool (its description, written for a model, is the operations catalogue's: `api/operations.ts`). */
export interface ToolSpec {
  /** The arguments' checks (a strict object: unknown keys are refused). */
  schema: z.ZodMiniObject;
  /** Property descriptions for the model, by name. */
  params: Record<string, string>;
  /** Long results are read in parts: the tool takes an `offset` (added to its schema). */
  readable?: boolean;
  /** Adjusts the JSON Schema a model sees to the options (a lowered limit). */
  adjust?(properties: Record<string, JsonSchemaObject>, fixed: FixedParameters): void;
  /** Runs the call. */
  run(client: WebData, args: Record<string, unknown>, ctx: RunContext): Promise<Reply | string>;
}

/** The default and largest crawl `limit` a model may ask for. */
export const DEFAULT_MAX_CRAWL_LIMIT = 50;

function hostAllowed(url: string, allowed: readonly string[] | undefined): boolean {
  if (!allowed) return true;
  let host: string;
  try {
    host = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  return allowed.some((d) => {
    const a = d.toLowerCase().replace(/^\*\./, "");
    return host === a || host.endsWith(`.${a}`);
  });
}

/** Refuses (before anything is sent) every URL outside `fixed.allowedDomains`. */
export function requireAllowed(urls: readonly string[], fixed: FixedParameters): void {
  const refused = urls.filter((u) => !hostAllowed(u, fixed.allowedDomains));
  if (refused.length) throw new ValidationError(refused.map((u) => ({ path: "url", message: `${u} is not on an allowed domain (${fixed.allowedDomains!.join(", ")})` })), "tool arguments");
}

/** Scrape options with the application's `onlyMainContent`, when it fixed one. */
export function withFixedScrape<T extends Record<string, unknown>>(opts: T, fixed: FixedParameters): T {
  return fixed.onlyMainContent === undefined ? opts : { ...opts, onlyMainContent: fixed.onlyMainContent };
}

/** How long a waiting tool waits: the model's `waitSeconds`, capped by the application's `maxWaitMs`. */
export function waitMs(args: Record<string, unknown>, ctx: RunContext): number {
  return Math.min(typeof args.waitSeconds === "number" ? args.waitSeconds * 1000 : ctx.maxWaitMs, ctx.maxWaitMs);
}

/** `Object.fromEntries` over the keys of a zod shape. */
export const pick = <S extends Record<string, unknown>, K extends keyof S>(shape: S, keys: readonly K[]): Pick<S, K> =>
  Object.fromEntries(keys.map((k) => [k, shape[k]])) as Pick<S, K>;
