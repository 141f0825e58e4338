/**
 * Tool definitions for function calling, as a model sees them (a name, a
 * description written for a model, JSON Schema parameters) and as the
 * application runs them (`call(name, args)`). The parameters are generated
 * from the zod schemas the arguments are checked with, which take their fields
 * from the request schemas (narrowed where a model needs less: `formats` names,
 * the crawl limit); the client checks the request again before sending.
 */
import * as z from "zod/v4/mini";
import type { WebData } from "../client.js";
import { ValidationError } from "../core/errors.js";
import { check, int } from "../core/validate.js";
import { MAX_TIMER_MS, waitShape } from "../core/options.js";
import { TOOL_DESCRIPTIONS } from "../api/operations.js";
import { TOOL_NAMES, type ToolName } from "./names.js";
import { Reader } from "./reading.js";
import { errorResult, failure, type ToolResult } from "./result.js";
import type { FixedParameters, JsonSchemaObject, ToolSpec } from "./spec.js";
import { BROWSER_TOOLS } from "./tools-browser.js";
import { JOB_TOOLS } from "./tools-jobs.js";
import { MONITOR_TOOLS } from "./tools-monitor.js";
import { READ_TOOLS } from "./tools-read.js";

export { TOOL_NAMES, type ToolName } from "./names.js";
export type { FixedParameters, JsonSchemaObject } from "./spec.js";

/** One tool as a model sees it. */
export interface ToolDefinition {
  /** Tool name (`scrape`, `crawl_start`, ...). */
  name: ToolName;
  /** What it does, written for a model. */
  description: string;
  /** JSON Schema of its arguments (an object schema). */
  parameters: JsonSchemaObject;
}

/** Options of {@link createTools}. */
export interface ToolsOptions {
  /** Only these tools (default: all, {@link TOOL_NAMES}). */
  only?: readonly ToolName[];
  /** Parameters the model must not change. */
  fixed?: FixedParameters;
  /**
   * Character budget of a result's text (default 20000). A longer result is cut with a
   * note naming the call that reads on (`offset`), so a model can read all of it in parts.
   */
  maxChars?: number;
  /** Longest a waiting tool (`crawl_wait`, `batch_scrape`, `extract`, `agent`, a status tool's `waitSeconds`) waits, ms (default 60000). */
  maxWaitMs?: number;
  /** Poll interval while waiting, ms (at least 500). Default: the waiters' ramp, 500 ms growing to 2000 ms, so a short job's answer comes sooner. */
  pollIntervalMs?: number;
}

/** Tool definitions plus the function that runs them. */
export interface Tools {
  /** The tools, as a model sees them. */
  readonly definitions: readonly ToolDefinition[];
  /**
   * Validates the model's arguments, runs the call and returns model-friendly
   * text. Never rejects: every failure is a {@link ToolResult} with `isError`.
   * A `null` given for an optional argument counts as not given, and a JSON
   * string given for an object argument is parsed (what strict-mode models send:
   * see `toOpenAITools(tools, { strict: true })`).
   */
  call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult>;
}

/** A result's character budget when `maxChars` is not given. */
export const DEFAULT_MAX_CHARS = 20_000;

const SPECS: Record<ToolName, ToolSpec> = { ...READ_TOOLS, ...JOB_TOOLS, ...BROWSER_TOOLS, ...MONITOR_TOOLS };

const OFFSET_TEXT = "Where to read on (a cut result's note gives it).";
const offsetArg = z.optional(int(0));

/** The schema a tool's arguments are checked with: its own, plus `offset` when it reads in parts. */
function argumentsSchema(spec: ToolSpec): z.ZodMiniObject {
  return spec.readable ? z.strictObject({ ...spec.schema.shape, offset: offsetArg }) : spec.schema;
}

/** Drops the bounds zod states for "any safe integer" (+-2^53-1): no limit, only characters in a model's context. */
function withoutSafeIntegerBounds(s: JsonSchemaObject): void {
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
  for (const v of Object.values(s)) {
    if (Array.isArray(v)) for (const x of v) if (x && typeof x === "object") withoutSafeIntegerBounds(x as JsonSchemaObject);
    if (v && typeof v === "object" && !Array.isArray(v)) withoutSafeIntegerBounds(v as JsonSchemaObject);
  }
}

/** The JSON Schema a model sees for a tool: from its zod schema, with descriptions, minus fixed parameters. */
function parametersOf(spec: ToolSpec, fixed: FixedParameters): JsonSchemaObject {
  // From the same zod as the schemas (the Node build bundles `zod/v4/mini`: tsup.config.ts), so their descriptions are found.
  // `unrepresentable: "any"` is zod's option value (emit `{}` for a type JSON Schema cannot state), not a TypeScript `any`.
  const json = z.toJSONSchema(argumentsSchema(spec), { unrepresentable: "any", io: "input" }) as JsonSchemaObject & { properties?: Record<string, JsonSchemaObject> };
  delete json.$schema;
  withoutSafeIntegerBounds(json);
  const props = (json.properties ??= {});
  for (const [name, text] of Object.entries({ ...spec.params, ...(spec.readable ? { offset: OFFSET_TEXT } : {}) })) if (props[name]) props[name] = { ...props[name], description: text };
  spec.adjust?.(props, fixed);
  if (fixed.onlyMainContent !== undefined) delete props.onlyMainContent;
  return json;
}

/** `null` for an optional argument dropped, a JSON string for an object argument parsed: the forms strict-mode models send. */
function decode(value: unknown, schema: JsonSchemaObject | undefined): unknown {
  if (!schema) return value;
  const props = schema.properties as Record<string, JsonSchemaObject> | undefined;
  if (schema.type === "object" && typeof value === "string" && !props) {
    try {
      const parsed = JSON.parse(value) as unknown;
      return parsed && typeof parsed === "object" ? parsed : value;
    } catch {
      return value;
    }
  }
  if (props && value && typeof value === "object" && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === null && props[k] && !acceptsNull(props[k])) continue;
      out[k] = decode(v, props[k]);
    }
    return out;
  }
  if (Array.isArray(value) && schema.items && typeof schema.items === "object") return value.map((v) => decode(v, schema.items as JsonSchemaObject));
  return value;
}

function acceptsNull(s: JsonSchemaObject): boolean {
  return s.type === "null" || (Array.isArray(s.type) && s.type.includes("null")) || (Array.isArray(s.anyOf) && (s.anyOf as JsonSchemaObject[]).some(acceptsNull));
}

/** `maxWaitMs` and `pollIntervalMs` of {@link ToolsOptions}: the wait family's interval, and a wait of at most what a timer holds. */
const toolsWaitOptions = z.object({ pollIntervalMs: waitShape.pollIntervalMs, maxWaitMs: z.optional(z.number().check(z.gte(0), z.lte(MAX_TIMER_MS))) });

/**
 * Tool definitions for `client`, for function calling with any model. Pass
 * `definitions` to the model (or an adapter: {@link toOpenAITools},
 * {@link toAnthropicTools}, {@link toAISDKTools}) and run what it asks with `call`.
 */
export function createTools(client: WebData, options: ToolsOptions = {}): Tools {
  const names = options.only ?? TOOL_NAMES;
  const unknown = names.filter((n) => !(n in SPECS));
  if (unknown.length) throw new ValidationError(unknown.map((n) => ({ path: "only", message: `unknown tool ${JSON.stringify(n)} (tools: ${TOOL_NAMES.join(", ")})` })), "tools options");
  const fixed = options.fixed ?? {};
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  // The waiting tools' times, checked once here (their polls never check them again): the wait family's poll interval, a wait a timer holds.
  check(toolsWaitOptions, { maxWaitMs: options.maxWaitMs, pollIntervalMs: options.pollIntervalMs }, "tools options");
  const ctxBase = { fixed, names, maxWaitMs: options.maxWaitMs ?? 60_000, pollIntervalMs: options.pollIntervalMs };
  const definitions = names.map((name) => ({ name, description: TOOL_DESCRIPTIONS[name]!, parameters: parametersOf(SPECS[name], fixed) }));
  const byName = new Map(definitions.map((d) => [d.name as string, d]));
  const reader = new Reader(maxChars, names);
  return {
    definitions,
    async call(name, args, callOptions = {}) {
      const definition = byName.get(name);
      if (!definition) return failure(`unknown tool ${JSON.stringify(name)}; the tools are: ${names.join(", ")}`);
      const tool = definition.name;
      const spec = SPECS[tool];
      try {
        const given = check(argumentsSchema(spec), decode(args ?? {}, definition.parameters), `${name} arguments`) as Record<string, unknown>;
        const { offset, ...rest } = given;
        const from = typeof offset === "number" ? offset : 0;
        const kept = from > 0 ? reader.kept(tool, rest) : undefined;
        const reply = kept ?? (await spec.run(client, rest, { ...ctxBase, signal: callOptions.signal }));
        return reader.read(tool, rest, typeof reply === "string" ? { body: reply } : reply, from, spec.readable === true);
      } catch (err) {
        return errorResult(err);
      }
    },
  };
}
