/**
 * The client as tools for an LLM agent (`webdata/ai`): the definitions a model
 * sees, and one model turn answered. A real app sends `toOpenAITools(tools)` (with
 * `{ strict: true }` for OpenAI's strict mode; or `toAnthropicTools`,
 * `toAISDKTools`) to its model; here the model's turn is scripted, so the
 * example runs without a model.
 *
 *   npm run build && npx tsx examples/agent-tools.ts   # the fake; set WEBDATA_API_KEY for the service
 */
import { createTools, runOpenAIToolCalls, toOpenAITools, type OpenAIToolCall } from "webdata/ai";
import { runIfMain, type Connection } from "./connect.js";

/** Runs one scripted model turn through the tools; returns the tool names and the answers for the next request. */
export async function main({ client, site }: Connection): Promise<{ toolNames: string[]; answers: string[] }> {
  const tools = createTools(client, {
    only: ["scrape", "search", "map"],
    fixed: { onlyMainContent: true, allowedDomains: [new URL(site).hostname] }, // the model cannot change these
    maxChars: 4000, // a longer result is cut, with a note naming the call that reads on
  });
  const definitions = toOpenAITools(tools); // -> openai.chat.completions.create({ model, messages, tools: definitions })
  const strictDefinitions = toOpenAITools(tools, { strict: true }); // strict mode (structured outputs)
  console.log(`${strictDefinitions.length} tools for strict mode: ${strictDefinitions.map((d) => d.function.name).join(", ")}`);

  // What a model answers with (message.tool_calls), scripted here:
  const toolCalls: OpenAIToolCall[] = [
    { id: "call_1", type: "function", function: { name: "scrape", arguments: JSON.stringify({ url: `${site}/about` }) } },
    { id: "call_2", type: "function", function: { name: "scrape", arguments: '{"url":"https://elsewhere.example/"}' } },
  ];
  const toolMessages = await runOpenAIToolCalls(tools, toolCalls); // never throws: errors are messages the model can act on
  for (const m of toolMessages) console.log(`${m.tool_call_id}: ${m.content.split("\n")[0]}`);
  return { toolNames: definitions.map((d) => d.function.name), answers: toolMessages.map((m) => m.content) };
}

runIfMain(import.meta.url, main);
