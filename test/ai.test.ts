/**
 * `webdata/ai`: tool definitions built from the request schemas, `call` against
 * the fake service (results cut to a budget, errors as results), fixed
 * parameters, and round trips through each adapter (OpenAI, Anthropic, the
 * Vercel AI SDK with its own mock model) and the MCP server (the MCP SDK's own
 * client, in process and over stdio with the built bin).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMcpServer, createTools, runAnthropicToolUses, runOpenAIToolCalls, toAISDKTools, toAnthropicTools, toOpenAITools, TOOL_NAMES } from "../src/ai/index.js";
import { TOOL_FORMATS } from "../src/ai/tools-read.js";
import { WebData } from "../src/index.js";
import { createFakeService, fakeJobs, serveFake, type FakeService, type ServedFake } from "../src/testing/node.js";
import { settled } from "./support/settled.js";

let fake: FakeService;
let client: WebData;


afterEach(() => {
  vi.useRealTimers();
});

beforeEach(() => {
  fake = createFakeService();
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
});

describe("createTools: the waiting tools' times", () => {
  it("checks pollIntervalMs and maxWaitMs once, when the tools are made (the poll loop does not check them again)", () => {
    const client = new WebData({ apiKey: "k", apiUrl: "http://127.0.0.1:1" });
    expect(() => createTools(client, { pollIntervalMs: -1 })).toThrow(/Invalid tools options: pollIntervalMs: must be >= 0/);
    expect(() => createTools(client, { pollIntervalMs: 3e9 })).toThrow(/Invalid tools options: pollIntervalMs: must be <= 2147483647/);
    expect(() => createTools(client, { maxWaitMs: Number.NaN })).toThrow(/Invalid tools options: maxWaitMs/);
    expect(() => createTools(client, { maxWaitMs: 3e9 })).toThrow(/Invalid tools options: maxWaitMs: must be <= 2147483647/);
    expect(() => createTools(client, { maxWaitMs: 0, pollIntervalMs: 500 })).not.toThrow();
  });
});

describe("createTools: definitions", () => {
  it("lists every tool with a description and an object schema generated from the request schemas", () => {
    const tools = createTools(client);
    expect(tools.definitions.map((d) => d.name)).toEqual([...TOOL_NAMES]);
    for (const d of tools.definitions) {
      expect(d.description.length).toBeGreaterThan(20);
      expect(d.parameters.type).toBe("object");
      expect(d.parameters.$schema).toBeUndefined();
    }
    const scrape = tools.definitions.find((d) => d.name === "scrape")!.parameters as { properties: Record<string, Record<string, unknown>>; required: string[]; additionalProperties: boolean };
    expect(scrape.required).toEqual(["url"]);
    expect(scrape.additionalProperties).toBe(false);
    // `formats` names the formats a model can read, as an enum (the request schema also takes objects and any name).
    const { description, ...formats } = scrape.properties.formats!;
    expect(formats).toEqual({ type: "array", minItems: 1, items: { type: "string", enum: [...TOOL_FORMATS] } });
    expect(description).toMatch(/formats/i);
    expect(scrape.properties.offset).toMatchObject({ type: "integer", minimum: 0, description: expect.stringMatching(/cut result's note/) as string });
  });

  it("restricts the set with `only` and hides fixed parameters from the model", () => {
    const tools = createTools(client, { only: ["scrape", "map"], fixed: { onlyMainContent: false } });
    expect(tools.definitions.map((d) => d.name)).toEqual(["scrape", "map"]);
    const props = (tools.definitions[0]!.parameters as { properties: Record<string, unknown> }).properties;
    expect(props).not.toHaveProperty("onlyMainContent");
    expect(() => createTools(client, { only: ["nope" as never] })).toThrow(/unknown tool "nope"/);
  });
});

describe("createTools: call", () => {
  it("scrape returns the page as markdown text", async () => {
    const r = await createTools(client).call("scrape", { url: "https://acme.test/about" });
    expect(r.isError).toBe(false);
    expect(r.content).toMatch(/^## About Acme \(https:\/\/acme\.test\/about\)/);
    expect(fake.requests[0]).toMatchObject({ method: "POST", pathname: "/v2/scrape" });
  });

  it("every format a model asked for is in the text; an inline screenshot is named, not pasted", async () => {
    const r = await createTools(client).call("scrape", { url: "https://acme.test/products", formats: ["summary", "markdown", "links", "images", "screenshot"] });
    expect(r.isError).toBe(false);
    expect(r.content).toMatch(/^## Acme Products \(https:\/\/acme\.test\/products\)\n\nscrape id: \S+ \(for interact\)\n\nSummary:\n.+\n\n# Acme Products\n\n\| Product \| Price \|/);
    expect(r.content).toMatch(/\n\nLinks:\nhttps:\/\/acme\.test\/\n\nImages:\nhttps:\/\/acme\.test\/img\/widget\.png\nhttps:\/\/acme\.test\/img\/gadget\.png\n\nScreenshot: an inline image \(\d+ characters of data URI, not shown\)$/);
    expect(r.content).not.toContain("base64");
  });

  it("cuts text to the budget with a note naming the call that reads on", async () => {
    const r = await createTools(client, { maxChars: 200 }).call("scrape", { url: "https://acme.test/" });
    expect(r.content.length).toBeLessThanOrEqual(200);
    expect(r.content).toMatch(/\[cut: characters 0-(\d+) of \d+ shown\. To read on, call scrape with \{"url":"https:\/\/acme\.test\/","offset":\1\}\]$/);
  });

  it("bad arguments, unknown tools, refused domains and rate limits are results a model can act on; nothing throws", async () => {
    const tools = createTools(client, { fixed: { allowedDomains: ["acme.test"] } });
    const bad = await tools.call("scrape", { url: "ftp://acme.test", bogus: 1 });
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^invalid arguments: /);
    expect(bad.content).toMatch(/url: /);
    expect(bad.content).toMatch(/bogus/);
    expect((await tools.call("nope", {})).content).toMatch(/unknown tool "nope"; the tools are: scrape, search/);
    const refused = await tools.call("scrape", { url: "https://evil.example/x" });
    expect(refused).toEqual({ isError: true, content: expect.stringMatching(/evil\.example\/x is not on an allowed domain \(acme\.test\)/) as string });
    expect((await tools.call("scrape", { url: "https://docs.acme.test/" })).content).not.toMatch(/allowed domain/);
    expect(fake.requests.filter((q) => q.body && (q.body as { url?: string }).url === "https://evil.example/x")).toHaveLength(0);

    fake.rateLimit({ retryAfterSeconds: 3 });
    const limited = await tools.call("scrape", { url: "https://acme.test/" });
    expect(limited).toEqual({ isError: true, content: "rate limited by the service, retry after 3 s" });
  });

  it("fixed parameters are enforced: onlyMainContent, and the crawl limit is capped", async () => {
    const tools = createTools(client, { fixed: { onlyMainContent: false, maxCrawlLimit: 3 } });
    await tools.call("scrape", { url: "https://acme.test/", onlyMainContent: true });
    expect(fake.requests.at(-1)!.body).toMatchObject({ onlyMainContent: false });
    const started = await tools.call("crawl_start", { url: "https://acme.test", limit: 500 });
    expect(started.content).toMatch(/^crawl started: id [0-9a-f-]{36} \(at most 3 pages, lowered from 500\)/);
    expect(fake.requests.at(-1)!.body).toMatchObject({ limit: 3, scrapeOptions: { onlyMainContent: false } });
  });

  it("crawl_start, crawl_status and crawl_wait follow a crawl to its pages", async () => {
    const tools = createTools(client, { pollIntervalMs: 500 });
    const started = await tools.call("crawl_start", { url: "https://acme.test", limit: 3 });
    const id = /id ([0-9a-f-]{36})/.exec(started.content)![1]!;
    const status = await tools.call("crawl_status", { id });
    expect(status.content).toMatch(new RegExp(`^crawl ${id}: (scraping|completed), \\d+ of \\d+ pages done`));
    fakeJobs(fake).finish(id);
    const done = await tools.call("crawl_wait", { id, waitSeconds: 5 });
    expect(done.isError).toBe(false);
    expect(done.content).toMatch(new RegExp(`^crawl ${id}: completed, 3 of 3 pages done, 3 shown below`));
    expect(done.content.match(/^## .*\(https:\/\/acme\.test/gm)).toHaveLength(3);
  });

  it("crawl_wait returns the crawl as it stands when the wait ends first", async () => {
    fakeJobs(fake).configure({ pagesPerPoll: 0 });
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const tools = createTools(client, { maxWaitMs: 600, pollIntervalMs: 500 });
    const id = /id ([0-9a-f-]{36})/.exec((await tools.call("crawl_start", { url: "https://acme.test", limit: 3 })).content)![1]!;
    const r = await settled(tools.call("crawl_wait", { id }));
    expect(r.isError).toBe(false);
    expect(r.content).toMatch(/scraping/);
    expect(r.content).toMatch(/still running: call crawl_status with this id later/);
  });

  it("search, map and batch_scrape answer with text", async () => {
    const tools = createTools(client, { pollIntervalMs: 500 });
    expect((await tools.call("search", { query: "widgets", limit: 2 })).content).toMatch(/^search id: [0-9a-f-]{36} \(for search_feedback\)\n\n# web\n- /);
    expect((await createTools(client, { only: ["search"] }).call("search", { query: "widgets", limit: 2 })).content).toMatch(/^# web\n- /);
    expect((await tools.call("map", { url: "https://acme.test", limit: 3 })).content).toMatch(/^3 links\n\nhttps:\/\/acme\.test\//);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const batch = await settled(tools.call("batch_scrape", { urls: ["https://acme.test/about", "https://acme.test/contact"] }));
    expect(batch.isError).toBe(false);
    expect(batch.content).toMatch(/completed, 2 of 2 pages done/);
  });
});

describe("adapters: a scripted model turn calls a tool", () => {
  it("OpenAI: tools shape, tool_calls run into tool messages", async () => {
    const tools = createTools(client, { only: ["scrape", "map"] });
    const defs = toOpenAITools(tools);
    expect(defs[0]).toEqual({ type: "function", function: { name: "scrape", description: tools.definitions[0]!.description, parameters: tools.definitions[0]!.parameters } });
    const assistant = {
      role: "assistant",
      tool_calls: [
        { id: "call_1", type: "function" as const, function: { name: "scrape", arguments: JSON.stringify({ url: "https://acme.test/about" }) } },
        { id: "call_2", type: "function" as const, function: { name: "map", arguments: "{not json" } },
      ],
    };
    const messages = await runOpenAIToolCalls(tools, assistant.tool_calls);
    expect(messages[0]).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect(messages[0]!.content).toMatch(/About Acme/);
    expect(messages[1]).toEqual({ role: "tool", tool_call_id: "call_2", content: "Error: invalid arguments: not valid JSON" });
  });

  it("Anthropic: tools shape, tool_use blocks run into tool_result blocks", async () => {
    const tools = createTools(client, { only: ["search"] });
    expect(toAnthropicTools(tools)).toEqual([{ name: "search", description: tools.definitions[0]!.description, input_schema: tools.definitions[0]!.parameters }]);
    const content = [
      { type: "text", text: "Let me search." },
      { type: "tool_use", id: "toolu_1", name: "search", input: { query: "widgets" } },
      { type: "tool_use", id: "toolu_2", name: "search", input: { query: "" } },
    ];
    const results = await runAnthropicToolUses(tools, content);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1", is_error: false });
    expect(results[1]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_2", is_error: true });
    expect(results[1]!.content).toMatch(/^invalid arguments: query/);
  });

  it("Vercel AI SDK: generateText with a mock model calls the tool and reads its result", async () => {
    const tools = await toAISDKTools(createTools(client, { only: ["scrape"] }));
    let step = 0;
    let seenToolResult = "";
    const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        step++;
        if (step === 1) {
          return { content: [{ type: "tool-call", toolCallId: "c1", toolName: "scrape", input: JSON.stringify({ url: "https://acme.test/about" }) }], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
        }
        const last = options.prompt.at(-1)!;
        seenToolResult = JSON.stringify(last.content);
        return { content: [{ type: "text", text: "Acme is about widgets." }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      },
    });
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "What is on acme.test/about?" });
    expect(result.text).toBe("Acme is about widgets.");
    expect(step).toBe(2);
    expect(seenToolResult).toMatch(/About Acme/);
    expect(fake.requests.filter((q) => q.pathname === "/v2/scrape")).toHaveLength(1);
  });
});

describe("MCP server", () => {
  it("lists the tools, calls one, and returns errors as results (MCP SDK client, in process)", async () => {
    const server = await createMcpServer(client, { only: ["scrape", "map", "crawl_start"] });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const mcp = new Client({ name: "test", version: "1.0.0" });
    await Promise.all([server.connect(a), mcp.connect(b)]);
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toEqual(["scrape", "map", "crawl_start"]);
      expect(tools[0]!.inputSchema).toMatchObject({ type: "object", required: ["url"] });
      expect(tools.map((t) => t.annotations)).toEqual([
        { readOnlyHint: true, openWorldHint: true },
        { readOnlyHint: true, openWorldHint: true },
        { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
      ]);
      const ok = await mcp.callTool({ name: "scrape", arguments: { url: "https://acme.test/about" } });
      expect(ok.isError).toBe(false);
      expect((ok.content as { type: string; text: string }[])[0]!.text).toMatch(/About Acme/);
      const map = await mcp.callTool({ name: "map", arguments: { url: "https://acme.test" } });
      expect((map.content as { text: string }[])[0]!.text).toMatch(/links/);
      const started = await mcp.callTool({ name: "crawl_start", arguments: { url: "https://acme.test", limit: 2 } });
      expect((started.content as { text: string }[])[0]!.text).toMatch(/^crawl started/);
      const bad = await mcp.callTool({ name: "scrape", arguments: { url: 42 } });
      expect(bad.isError).toBe(true);
      expect((bad.content as { text: string }[])[0]!.text).toMatch(/^invalid arguments: url/);
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});

describe("webdata mcp (the bin over stdio)", () => {
  let served: ServedFake;
  beforeEach(async () => {
    served = await serveFake(fake);
  });
  afterEach(async () => {
    await served.close();
  });

  it("serves the tools to an MCP client that spawns it", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [fileURLToPath(new URL("../dist/node/cli.js", import.meta.url)), "mcp", "--tools", "scrape,search", "--max-chars", "500"],
      env: { PATH: process.env.PATH ?? "", WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url },
      stderr: "pipe",
    });
    const mcp = new Client({ name: "test", version: "1.0.0" });
    await mcp.connect(transport);
    try {
      expect((await mcp.listTools()).tools.map((t) => t.name)).toEqual(["scrape", "search"]);
      const r = await mcp.callTool({ name: "scrape", arguments: { url: "https://acme.test/" } });
      const text = (r.content as { text: string }[])[0]!.text;
      expect(text.length).toBeLessThanOrEqual(500);
      expect(text).toMatch(/Acme/);
    } finally {
      await mcp.close();
    }
  });
});

describe("README: Tools for LLM agents", () => {
  it("the README's snippet is examples/agent-tools.ts, which runs one model turn against the fake", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const example = await readFile(fileURLToPath(new URL("../examples/agent-tools.ts", import.meta.url)), "utf8");
    const section = readme.slice(readme.indexOf("### Tools for LLM agents"), readme.indexOf("### MCP server"));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    for (const line of blocks[0]!.trim().split("\n")) expect(example).toContain(line.trim());
    // Every snippet is compiled against the `ai` package and our types by test/ai-sdk.test-d.ts.
    const typeTest = await readFile(fileURLToPath(new URL("./ai-sdk.test-d.ts", import.meta.url)), "utf8");
    for (const line of blocks.flatMap((b) => b.trim().split("\n"))) expect(typeTest).toContain(line.trim());
    const { main } = await import("../examples/agent-tools.js");
    const out = await main({ client, site: "https://acme.test", fake, pollIntervalMs: 500 });
    expect(out.toolNames).toEqual(["scrape", "search", "map"]);
    expect(out.answers[0]).toMatch(/^## About Acme/);
    expect(out.answers[1]).toMatch(/^Error: invalid arguments: url: https:\/\/elsewhere\.example\/ is not on an allowed domain/);
  });

  it("the MCP configuration's arguments start the server (`webdata mcp` with its flags)", async () => {
    const { readFile } = await import("node:fs/promises");
    const readme = await readFile(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const config = JSON.parse(/```json\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf("### MCP server")))![1]!) as { mcpServers: { webdata: { args: string[] } } };
    const args = config.mcpServers.webdata.args;
    const at = args.indexOf("webdata", args.lastIndexOf("-p") + 2);
    const served = await serveFake(fake);
    const transport = new StdioClientTransport({
      command: process.execPath,
      // From the sources (as `npm test` builds them), so the tool list is this tree's.
      args: ["--import", "tsx", fileURLToPath(new URL("../src/cli/main.ts", import.meta.url)), ...args.slice(at + 1)],
      env: { PATH: process.env.PATH ?? "", WEBDATA_API_KEY: fake.apiKey, WEBDATA_API_URL: served.url },
      stderr: "pipe",
    });
    const mcp = new Client({ name: "test", version: "1.0.0" });
    try {
      await mcp.connect(transport);
      expect((await mcp.listTools()).tools).toHaveLength(TOOL_NAMES.length);
      const r = await mcp.callTool({ name: "crawl_start", arguments: { url: "https://acme.test", limit: 500 } });
      expect((r.content as { text: string }[])[0]!.text).toMatch(/at most 20 pages/);
      // The tools added with parse, monitors and feedback, over stdio: the flag's cap reaches a monitor's crawl too.
      const parsed = await mcp.callTool({ name: "parse", arguments: { content: Buffer.from("<h1>Notes</h1>").toString("base64"), encoding: "base64", filename: "notes.html" } });
      expect((parsed.content as { text: string }[])[0]!.text).toMatch(/^## Notes \(https:\/\/parse\.firecrawl\.dev\/uploads\/notes\.html\)/);
      const made = await mcp.callTool({ name: "monitor_create", arguments: { name: "site", schedule: "every 30 minutes", site: "https://acme.test" } });
      expect((made.content as { text: string }[])[0]!.text).toMatch(/^monitor created: \S+ "site" active, cron "\*\/30 \* \* \* \*"/);
      expect(fake.requests.find((q) => q.pathname === "/v2/monitor")!.body).toMatchObject({ targets: [{ type: "crawl", url: "https://acme.test", crawlOptions: { limit: 20 } }] });
    } finally {
      await mcp.close();
      await served.close();
    }
  });
});
