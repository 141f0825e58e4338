/**
 * The tools in the shapes of the common model APIs, with no hard dependency on
 * any of them: OpenAI's function tools, Anthropic's tools, and the Vercel AI
 * SDK (`ai`, an optional peer, loaded only by {@link toAISDKTools}).
 */
import type { Tool } from "ai";
import type { ToolResult } from "./result.js";
import { toStrictSchema } from "./strict.js";
import type { JsonSchemaObject, Tools } from "./tools.js";

/** An OpenAI function tool (Chat Completions `tools[]`). */
export interface OpenAITool {
  type: "function";
  /** The function; `strict: true` with strict-mode parameters when asked for. */
  function: { name: string; description: string; parameters: JsonSchemaObject; strict?: boolean };
}

/** Options of {@link toOpenAITools}. */
export interface OpenAIToolsOptions {
  /**
   * Strict mode (structured outputs): every parameter schema in the form strict mode accepts
   * ({@link toStrictSchema}) and `strict: true` on each function. The model then always sends
   * valid arguments; `runOpenAIToolCalls` reads them back as usual.
   */
  strict?: boolean;
}

/** A tool call of an OpenAI assistant message (`message.tool_calls[]`). */
export interface OpenAIToolCall {
  /** Call id, echoed in the tool message. */
  id: string;
  type?: "function";
  /** Name and JSON-encoded arguments. */
  function: { name: string; arguments: string };
}

/** The tool message answering one OpenAI tool call. */
export interface OpenAIToolMessage {
  role: "tool";
  /** The call answered. */
  tool_call_id: string;
  /** The result text (errors included, starting `Error:`). */
  content: string;
}

/** The tools as OpenAI Chat Completions `tools` (strict-mode schemas with `{ strict: true }`). */
export function toOpenAITools(tools: Tools, options: OpenAIToolsOptions = {}): OpenAITool[] {
  return tools.definitions.map((d) => ({
    type: "function",
    function: options.strict ? { name: d.name, description: d.description, parameters: toStrictSchema(d.parameters), strict: true } : { name: d.name, description: d.description, parameters: d.parameters },
  }));
}

function parseArguments(text: string): { args: unknown } | { error: ToolResult } {
  try {
    return { args: text.trim() === "" ? {} : (JSON.parse(text) as unknown) };
  } catch {
    return { error: { content: "invalid arguments: not valid JSON", isError: true } };
  }
}

/** Runs an assistant message's tool calls; returns the `tool` messages to append, in order. */
export async function runOpenAIToolCalls(tools: Tools, calls: readonly OpenAIToolCall[], options?: { signal?: AbortSignal }): Promise<OpenAIToolMessage[]> {
  return Promise.all(
    calls.map(async (c) => {
      const parsed = parseArguments(c.function.arguments);
      const r = "error" in parsed ? parsed.error : await tools.call(c.function.name, parsed.args, options);
      return { role: "tool" as const, tool_call_id: c.id, content: r.isError ? `Error: ${r.content}` : r.content };
    }),
  );
}

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  name: string;
  description: string;
  /** JSON Schema of its input. */
  input_schema: JsonSchemaObject;
}

/** A `tool_use` block of an Anthropic assistant message. */
export interface AnthropicToolUse {
  type: "tool_use";
  /** Block id, echoed in the result. */
  id: string;
  name: string;
  /** Parsed input. */
  input: unknown;
}

/** A `tool_result` block answering one `tool_use`. */
export interface AnthropicToolResult {
  type: "tool_result";
  /** The `tool_use` answered. */
  tool_use_id: string;
  content: string;
  /** True when the call failed. */
  is_error: boolean;
}

/** The tools as Anthropic Messages API `tools`. */
export function toAnthropicTools(tools: Tools): AnthropicTool[] {
  return tools.definitions.map((d) => ({ name: d.name, description: d.description, input_schema: d.parameters }));
}

/**
 * Runs the `tool_use` blocks of an assistant message's content; returns the `tool_result` blocks for the next user message.
 * `content` is the message's content as Anthropic's SDK gives it, or a literal array of blocks (each block's own fields,
 * such as a `tool_use` block's `id`, `name` and `input`, are taken as written: the blocks' type is inferred, not narrowed).
 */
export async function runAnthropicToolUses<B extends { type: string }>(tools: Tools, content: readonly B[], options?: { signal?: AbortSignal }): Promise<AnthropicToolResult[]> {
  const uses = (content as readonly { type: string }[]).filter((b): b is AnthropicToolUse => b.type === "tool_use");
  return Promise.all(
    uses.map(async (u) => {
      const r = await tools.call(u.name, u.input, options);
      return { type: "tool_result" as const, tool_use_id: u.id, content: r.content, is_error: r.isError };
    }),
  );
}

/**
 * A Vercel AI SDK tool (`ai`'s `Tool`): a dynamic tool (its input is known only at
 * run time) whose `execute` answers text. Failures come back as text starting
 * `Error:`, so the model can act on them.
 */
export type AISDKTool = Tool<unknown, string>;

/**
 * The tools for the Vercel AI SDK (`generateText({ tools })`, `streamText`), a
 * `ToolSet` by name. Loads `ai` (an optional peer dependency: `npm i ai`) for its
 * `jsonSchema` helper.
 */
export async function toAISDKTools(tools: Tools): Promise<Record<string, AISDKTool>> {
  const ai = await import("ai");
  return Object.fromEntries(
    tools.definitions.map((d): [string, AISDKTool] => [
      d.name,
      {
        type: "dynamic",
        description: d.description,
        inputSchema: ai.jsonSchema<unknown>(d.parameters),
        async execute(args, options) {
          const r = await tools.call(d.name, args, options?.abortSignal ? { signal: options.abortSignal } : {});
          return r.isError ? `Error: ${r.content}` : r.content;
        },
      },
    ]),
  );
}
