/**
 * The MCP server's tools as an MCP client receives them (`tools/list`, through
 * the official MCP SDK's client, in process), with what each costs a model's
 * context: the characters of its description and of its input schema (JSON).
 * test/mcp-tools.test.ts holds the total to a budget.
 *
 *   npm run build && npx tsx examples/mcp-tools.ts   # the fake; set WEBDATA_API_KEY for the service
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createMcpServer } from "webdata/ai";
import { runIfMain, type Connection } from "./connect.js";

/** One tool's size, in characters. */
export interface ToolSize {
  /** Tool name. */
  name: string;
  /** Characters of its description. */
  description: number;
  /** Characters of its input schema, as JSON. */
  schema: number;
}

/** Lists the tools over MCP and prints a table of their sizes; returns the sizes, their total and the whole `tools/list` answer's length. */
export async function main({ client }: Connection): Promise<{ tools: ToolSize[]; total: number; listChars: number }> {
  const server = await createMcpServer(client);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const mcp = new Client({ name: "sizes", version: "1.0.0" });
  await Promise.all([server.connect(a), mcp.connect(b)]);
  try {
    const list = await mcp.listTools();
    const tools = list.tools.map((t) => ({ name: t.name, description: (t.description ?? "").length, schema: JSON.stringify(t.inputSchema).length }));
    const total = tools.reduce((n, t) => n + t.description + t.schema, 0);
    console.log(`| tool | description | schema | total |\n| --- | ---: | ---: | ---: |`);
    for (const t of tools) console.log(`| ${t.name} | ${t.description} | ${t.schema} | ${t.description + t.schema} |`);
    console.log(`| **${tools.length} tools** | ${tools.reduce((n, t) => n + t.description, 0)} | ${tools.reduce((n, t) => n + t.schema, 0)} | **${total}** |`);
    const listChars = JSON.stringify(list.tools).length;
    console.log(`\nThe whole tools/list answer (names and annotations included): ${listChars} characters.`);
    return { tools, total, listChars };
  } finally {
    await mcp.close();
    await server.close();
  }
}

runIfMain(import.meta.url, main);
