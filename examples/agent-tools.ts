/**
 * The client as tools for an LLM agent (`webdata/ai`): the definitions a model
 * sees, and one model turn answered. A real app sends `toOpenAITools(tools)` (or
 * `toAnthropicTools`, `toAISDKTools`) to its model; here the model's turn is
 * scripted so the example runs offline against the built-in fake service.
 * In your code, import from "webdata" and "webdata/ai"; this file imports the
 * sources so the test suite can run it without a build.
 *
 *   npx tsx examples/agent-tools.ts
 */
import { pathToFileURL } from "node:url";
import { createTools, runOpenAIToolCalls, toOpenAITools, type OpenAIToolCall } from "../src/ai/index.js";
import { WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";

/** Runs one scripted model turn through the tools; returns the tool messages for the next request. */
export async function agentTurn(client: WebData): Promise<{ toolNames: string[]; answers: string[] }> {
  const tools = createTools(client, {
    only: ["scrape", "search", "map"],
    fixed: { onlyMainContent: true, allowedDomains: ["acme.test"] }, // the model cannot change these
    maxChars: 4000, // each result is cut to this, with a note saying so
  });
  const definitions = toOpenAITools(tools); // -> openai.chat.completions.create({ model, messages, tools: definitions })

  // What a model answers with (message.tool_calls), scripted here:
  const toolCalls: OpenAIToolCall[] = [
    { id: "call_1", type: "function", function: { name: "scrape", arguments: '{"url":"https://acme.test/about"}' } },
    { id: "call_2", type: "function", function: { name: "scrape", arguments: '{"url":"https://elsewhere.example/"}' } },
  ];
  const toolMessages = await runOpenAIToolCalls(tools, toolCalls); // never throws: errors are messages the model can act on
  for (const m of toolMessages) console.log(`${m.tool_call_id}: ${m.content.split("\n")[0]}`);
  return { toolNames: definitions.map((d) => d.function.name), answers: toolMessages.map((m) => m.content) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const fake = createFakeService();
  const client = process.env.WEBDATA_API_KEY ? new WebData() : new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch });
  await agentTurn(client);
}
