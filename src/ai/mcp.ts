/**
 * A Model Context Protocol server exposing the same tools as
 * {@link createTools}, built on the official MCP TypeScript SDK
 * (`@modelcontextprotocol/sdk`, an optional peer dependency loaded here only).
 * `webdata mcp` serves it over stdio.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { WebData } from "../client.js";
import { VERSION } from "../core/version.js";
import { createTools, type ToolName, type ToolsOptions } from "./tools.js";

/** Tools that change nothing on the service (status reads, listings; scraping reads the web). */
const READ_ONLY: ReadonlySet<ToolName> = new Set(["scrape", "search", "map", "parse", "crawl_status", "crawl_wait", "batch_status", "extract_status", "agent_status", "browser_list", "monitor_list", "monitor_get", "usage"]);

/** Tools that end something (a job, a session). */
const DESTRUCTIVE: ReadonlySet<ToolName> = new Set(["crawl_cancel", "agent_cancel", "interact_stop", "browser_delete", "monitor_delete"]);

/** MCP tool annotations (hints for a client's approval prompts). */
function annotations(name: ToolName): { readOnlyHint: boolean; destructiveHint?: boolean; openWorldHint: true } {
  return READ_ONLY.has(name) ? { readOnlyHint: true, openWorldHint: true } : { readOnlyHint: false, destructiveHint: DESTRUCTIVE.has(name), openWorldHint: true };
}

/**
 * How long a waiting tool waits by default on the MCP server, ms: below the
 * 60-second request timeout MCP clients commonly apply (the MCP SDK's default),
 * so a wait ends with the job's id rather than a client-side timeout.
 */
export const MCP_MAX_WAIT_MS = 45_000;

/** How to install the SDK when it is missing. */
export const MCP_SDK_HINT = "The MCP server needs the official MCP SDK: `npm i @modelcontextprotocol/sdk`, or run `npx -y -p webdata -p @modelcontextprotocol/sdk webdata mcp`.";

/**
 * An MCP server (not yet connected) whose tools are `client`'s: connect it to a
 * transport (`await server.connect(new StdioServerTransport())`). Waiting tools
 * wait at most {@link MCP_MAX_WAIT_MS} unless `options.maxWaitMs` says otherwise. Tool failures
 * are results with `isError: true`, never protocol errors; each tool carries MCP
 * annotations (`readOnlyHint`, `destructiveHint`, `openWorldHint`).
 */
export async function createMcpServer(client: WebData, options: ToolsOptions = {}): Promise<Server> {
  let sdk: typeof import("@modelcontextprotocol/sdk/server/index.js");
  let types: typeof import("@modelcontextprotocol/sdk/types.js");
  try {
    [sdk, types] = await Promise.all([import("@modelcontextprotocol/sdk/server/index.js"), import("@modelcontextprotocol/sdk/types.js")]);
  } catch (err) {
    throw new Error(MCP_SDK_HINT, { cause: err });
  }
  const tools = createTools(client, { ...options, maxWaitMs: options.maxWaitMs ?? MCP_MAX_WAIT_MS });
  const server = new sdk.Server({ name: "webdata", version: VERSION }, { capabilities: { tools: {} } });
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: tools.definitions.map((d) => ({ name: d.name, description: d.description, inputSchema: d.parameters as { type: "object"; properties?: Record<string, object> }, annotations: annotations(d.name) })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request, extra) => {
    const r = await tools.call(request.params.name, request.params.arguments ?? {}, { signal: extra.signal });
    return { content: [{ type: "text" as const, text: r.content }], isError: r.isError };
  });
  return server;
}
