/**
 * `webdata/ai`: the client as tools for LLM agents. Tool definitions for
 * function calling ({@link createTools}), adapters for OpenAI (strict mode
 * too), Anthropic and the Vercel AI SDK, and an MCP server
 * ({@link createMcpServer}). Nothing here is reachable from `import "webdata"`.
 *
 * @module
 */
export { createTools, TOOL_NAMES, type FixedParameters, type JsonSchemaObject, type ToolDefinition, type ToolName, type Tools, type ToolsOptions } from "./tools.js";
export type { ToolResult } from "./result.js";
export { toStrictSchema, STRICT_FORMATS } from "./strict.js";
export {
  runAnthropicToolUses,
  runOpenAIToolCalls,
  toAISDKTools,
  toAnthropicTools,
  toOpenAITools,
  type AISDKTool,
  type AnthropicTool,
  type AnthropicToolResult,
  type AnthropicToolUse,
  type OpenAITool,
  type OpenAIToolCall,
  type OpenAIToolMessage,
  type OpenAIToolsOptions,
} from "./adapters.js";
export { createMcpServer, MCP_MAX_WAIT_MS } from "./mcp.js";
