/**
 * The MCP server's reach and cost: the API's capabilities as tools (scrape,
 * search, map, parse, crawl, batch, extract, agent, interact, browser sessions,
 * page monitors, search and job feedback, usage), each schema stating the real limits and enums, all of them
 * within a character budget far below the official Firecrawl MCP server's
 * (59.7K characters of descriptions and schemas for 26 tools), called through
 * the MCP SDK's own client against the fake: results are text, failures are
 * `isError` results, and the key never appears.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main as toolSizes } from "../examples/mcp-tools.js";
import { createMcpServer, MCP_MAX_WAIT_MS, TOOL_NAMES, type ToolsOptions } from "../src/ai/index.js";
import { TOOL_FORMATS } from "../src/ai/tools-read.js";
import { WebData } from "../src/index.js";
import { createFakeService, fakeTasks, type FakeService } from "../src/testing/node.js";
import { settled } from "./support/settled.js";

/** Characters of descriptions and input schemas, all tools together: our budget (the official server: 59,700 for 26 tools). */
const BUDGET = 15_000;
/** Characters one tool may cost. */
const TOOL_BUDGET = 1_500;
const OFFICIAL = 59_700;

let fake: FakeService;
let client: WebData;


const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
let mcp: Client;
let close: () => Promise<void>;

async function connect(options: ToolsOptions = {}): Promise<Client> {
  const server = await createMcpServer(client, { pollIntervalMs: 500, maxWaitMs: 5_000, ...options });
  const [a, b] = InMemoryTransport.createLinkedPair();
  mcp = new Client({ name: "test", version: "1.0.0" });
  await Promise.all([server.connect(a), mcp.connect(b)]);
  close = async () => {
    await mcp.close();
    await server.close();
  };
  return mcp;
}

beforeEach(() => {
  fake = createFakeService();
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
});
afterEach(async () => {
  vi.useRealTimers();
  await close?.();
});

type Schema = { properties: Record<string, Record<string, unknown>>; required?: string[] };

async function call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await mcp.callTool({ name, arguments: args });
  const text = (r.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
  expect(text).not.toContain(fake.apiKey);
  return { text, isError: r.isError === true };
}

describe("the tool list", () => {
  it("covers what the API can do, in a stated order", async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["interact", "interact_stop", "browser_create", "browser_execute", "browser_list", "browser_delete", "agent", "agent_status", "agent_cancel", "extract", "extract_status", "search_feedback", "usage", "crawl_cancel", "batch_status", "parse", "monitor_create", "monitor_list", "monitor_get", "monitor_run", "monitor_delete", "feedback"]));
  });

  it(`costs at most ${BUDGET} characters of descriptions and schemas (at most ${TOOL_BUDGET} per tool), printed as a table`, async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const sizes = await toolSizes({ client, site: "https://acme.test", fake, pollIntervalMs: 500 });
    const table = log.mock.calls.map((c) => String(c[0])).join("\n");
    log.mockRestore();
    console.log(table); // quoted in the README and the changelog
    expect(sizes.tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    expect(sizes.total).toBeLessThanOrEqual(BUDGET);
    expect(sizes.total * 4).toBeLessThan(OFFICIAL);
    for (const t of sizes.tools) expect(t.description + t.schema, t.name).toBeLessThanOrEqual(TOOL_BUDGET);
    expect(table).toContain(`| **${TOOL_NAMES.length} tools** |`);
    expect(table).toContain(`**${sizes.total}** |`);
    // The README quotes the table as printed.
    const { readFileSync } = await import("node:fs");
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(readme).toContain(table.split("\n\nThe whole tools/list")[0]!);
  });

  it("formats are an enum, limits and enums are the API's, the crawl limit is at most 50 (or the application's lower cap)", async () => {
    const { tools } = await (await connect()).listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema as unknown as Schema;
    for (const name of ["scrape", "batch_scrape"]) expect(schema(name).properties.formats).toMatchObject({ type: "array", minItems: 1, items: { type: "string", enum: [...TOOL_FORMATS] } });
    expect(schema("crawl_start").properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 50 });
    expect(schema("scrape").properties.waitFor).toMatchObject({ minimum: 0, maximum: 60000 });
    expect(schema("search").properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(schema("search").properties.sources).toMatchObject({ items: { enum: ["web", "news", "images"] } });
    expect(schema("map").properties.limit).toMatchObject({ minimum: 1, maximum: 100000 });
    expect(schema("map").properties.sitemap).toMatchObject({ enum: ["include", "only", "skip"] });
    expect(schema("extract").properties.urls).toMatchObject({ maxItems: 10 });
    expect(schema("agent").properties.prompt).toMatchObject({ minLength: 1, maxLength: 10000 });
    expect(schema("agent").properties.model).toMatchObject({ enum: ["spark-1-mini", "spark-1-pro"] });
    expect(schema("browser_create").properties).toMatchObject({ ttl: { minimum: 30, maximum: 3600 }, activityTtl: { minimum: 10, maximum: 3600 } });
    expect(schema("browser_execute").properties).toMatchObject({ code: { minLength: 1, maxLength: 100000 }, language: { enum: ["node", "python", "bash"] }, timeout: { minimum: 1, maximum: 300 } });
    expect(schema("browser_execute").required).toEqual(["id", "code"]);
    expect(schema("search_feedback").properties.rating).toMatchObject({ enum: ["good", "partial", "bad"] });
    expect(schema("browser_list").properties.status).toMatchObject({ enum: ["active", "destroyed"] });
    expect(tools.find((t) => t.name === "parse")!.description).toMatch(/at most 50 MB/);
    expect(schema("parse").properties).toMatchObject({ encoding: { enum: ["text", "base64"] }, formats: { minItems: 1, items: { enum: ["markdown", "summary", "links", "images", "html", "rawHtml"] } }, offset: { minimum: 0 } });
    expect(schema("parse").required).toEqual(["content", "filename"]);
    expect(schema("monitor_create").properties).toMatchObject({ name: { minLength: 1, maxLength: 256 }, queries: { minItems: 1, maxItems: 12 }, site: { description: "A site crawled at each check (at most 50 pages)." } });
    expect(schema("monitor_create").required).toEqual(["name", "schedule"]);
    expect(schema("monitor_list").properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(schema("monitor_get").properties.status).toMatchObject({ enum: ["same", "new", "changed", "removed", "error"] });
    expect(schema("feedback").properties).toMatchObject({ endpoint: { enum: ["scrape", "parse", "map", "search"] }, rating: { enum: ["good", "partial", "bad"] }, note: { minLength: 1, maxLength: 4000 } });
    await close();
    const lowered = await (await connect({ fixed: { maxCrawlLimit: 20 } })).listTools();
    expect((lowered.tools.find((t) => t.name === "crawl_start")!.inputSchema as unknown as Schema).properties.limit).toMatchObject({ maximum: 20, description: "Most pages to crawl, at most 20 (default 20)." });
  });

  it("annotations mark the read-only and the destructive tools", async () => {
    const { tools } = await (await connect()).listTools();
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(readOnly).toEqual(["scrape", "search", "map", "parse", "crawl_status", "crawl_wait", "batch_status", "extract_status", "agent_status", "browser_list", "monitor_list", "monitor_get", "usage"]);
    expect(destructive).toEqual(["crawl_cancel", "agent_cancel", "interact_stop", "browser_delete", "monitor_delete"]);
  });
});

describe("calling the tools over MCP", () => {
  it("interact acts in the browser of a scrape (by the scrape id the scrape shows), interact_stop closes it", async () => {
    await connect();
    const scraped = await call("scrape", { url: "https://acme.test/about" });
    const scrapeId = /^scrape id: (\S+) \(for interact\)$/m.exec(scraped.text)![1]!;
    const acted = await call("interact", { scrapeId, prompt: "click Contact" });
    expect(acted).toEqual({ isError: false, text: expect.stringMatching(/^output:\nDone: click Contact\nlive view: https:\/\/fake\.webdata\.test\/live\//) as string });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", pathname: `/v2/scrape/${scrapeId}/interact`, body: { prompt: "click Contact" } });
    expect(await call("interact_stop", { scrapeId })).toEqual({ isError: false, text: "session closed" });
    const again = await call("interact_stop", { scrapeId });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^the service answered 404: Interactive browser session not found/);
    const neither = await call("interact", { scrapeId });
    expect(neither).toEqual({ isError: true, text: expect.stringMatching(/^invalid arguments: either code or prompt must be provided/) as string });
  });

  it("browser sessions: create, execute, list, delete", async () => {
    await connect();
    const created = await call("browser_create", { ttl: 120 });
    const id = /^browser session (\S+) open until /.exec(created.text)![1]!;
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", pathname: "/v2/browser", body: { ttl: 120 } });
    const ran = await call("browser_execute", { id, code: "console.log('hi')" });
    expect(ran.isError).toBe(false);
    expect(ran.text).toMatch(/^exit code 0/);
    expect((await call("browser_list", { status: "active" })).text).toMatch(new RegExp(`^${id} active, created `));
    expect(await call("browser_delete", { id })).toEqual({ isError: false, text: `browser session ${id} closed` });
    const bad = await call("browser_create", { ttl: 5 });
    expect(bad).toEqual({ isError: true, text: expect.stringMatching(/^invalid arguments: ttl: must be >= 30/) as string });
  });

  it("agent: a run still going when the wait ends answers its id; agent_status reads it; agent_cancel stops one", async () => {
    fakeTasks(fake).configure({ pollsToFinish: 1000 });
    await connect({ maxWaitMs: 600 });
    fakeClock();
    const started = await settled(call("agent", { prompt: "Find the founding year", urls: ["https://acme.test/about"], model: "spark-1-mini" }));
    const id = /^agent (\S+): processing; still running: call agent_status with this id later/.exec(started.text)![1]!;
    expect(fake.requests.find((q) => q.pathname === "/v2/agent")!.body).toMatchObject({ prompt: "Find the founding year", model: "spark-1-mini" });
    expect((await call("agent_status", { id })).text).toMatch(new RegExp(`^agent ${id}: processing`));
    expect(await call("agent_cancel", { id })).toEqual({ isError: false, text: `agent ${id} cancelled` });
    expect((await call("agent_status", { id })).text).toMatch(new RegExp(`^agent ${id}: cancelled`));
    const twice = await call("agent_cancel", { id });
    expect(twice).toEqual({ isError: true, text: expect.stringMatching(/^the service answered 409: Agent is already cancelled/) as string });
  });

  it("a wait ends before an MCP client's 60-s request timeout: by default an agent still running after 45 s is answered with its id", async () => {
    fakeTasks(fake).configure({ pollsToFinish: 1000 });
    fakeClock();
    const server = await createMcpServer(client, { pollIntervalMs: 500 });
    const [a, b] = InMemoryTransport.createLinkedPair();
    mcp = new Client({ name: "test", version: "1.0.0" });
    await Promise.all([server.connect(a), mcp.connect(b)]);
    close = async () => {
      await mcp.close();
      await server.close();
    };
    const before = Date.now();
    const r = await settled(call("agent", { prompt: "Find the founding year" }));
    const waited = Date.now() - before;
    expect(r.text).toMatch(/^agent \S+: processing; still running: call agent_status with this id later/);
    expect(waited).toBeGreaterThanOrEqual(MCP_MAX_WAIT_MS);
    expect(waited).toBeLessThan(60_000);
    expect(MCP_MAX_WAIT_MS).toBe(45_000);
  });

  it("extract and extract_status answer the data as JSON", async () => {
    await connect();
    fakeTasks(fake).configure({ pollsToFinish: 0 }); // done at the first status read: no wait
    const r = await call("extract", { urls: ["https://acme.test/about"], prompt: "the company" });
    const id = /^extract (\S+): completed/.exec(r.text)![1]!;
    expect(r.text).toMatch(/"answer": "About Acme/);
    expect((await call("extract_status", { id })).text).toMatch(new RegExp(`^extract ${id}: completed[^]*"answer"`));
  });

  it("search shows its id; search_feedback rates it", async () => {
    await connect();
    const found = await call("search", { query: "widgets", sources: ["web", "news"] });
    const id = /^search id: (\S+) \(for search_feedback\)/.exec(found.text)![1]!;
    const rated = await call("search_feedback", { id, rating: "bad", missing: "prices", usefulUrls: ["https://acme.test/products"] });
    expect(rated.isError).toBe(false);
    expect(rated.text).toMatch(/^feedback recorded/);
    expect(fake.requests.at(-1)).toMatchObject({ pathname: `/v2/search/${id}/feedback`, body: { rating: "bad", missingContent: [{ topic: "prices" }], valuableSources: [{ url: "https://acme.test/products" }] } });
    expect((await call("search_feedback", { id, rating: "good" })).text).toBe("feedback for this search was already recorded; nothing changed");
  });

  it("parse reads a file given as text; feedback rates the job; the monitor tools create, run, read, list and delete", async () => {
    await connect();
    const parsed = await call("parse", { content: "<h1>Report</h1><p>Up 4%.</p>", filename: "q3.html" });
    expect(parsed).toEqual({ isError: false, text: expect.stringMatching(/^## Report \(https:\/\/parse\.firecrawl\.dev\/uploads\/q3\.html\)\n+scrape id: \S+ \(for feedback\)\n+# Report\n+Up 4%\./) as string });
    const scrapeId = /^scrape id: (\S+) \(for interact\)$/m.exec((await call("scrape", { url: "https://acme.test/about" })).text)![1]!;
    expect(await call("feedback", { endpoint: "scrape", jobId: scrapeId, rating: "partial", note: "the footer came through" })).toEqual({ isError: false, text: "feedback recorded" });
    const made = await call("monitor_create", { name: "about", schedule: "every hour", urls: ["https://acme.test/about"] });
    const id = /^monitor created: (\S+) "about" active/.exec(made.text)![1]!;
    const checkId = /^check (\S+): queued/.exec((await call("monitor_run", { id })).text)![1]!;
    expect((await call("monitor_get", { id, checkId })).text).toMatch(new RegExp(`^check ${checkId}: completed[^]*\\n\\n## https://acme\\.test/about: new \\(HTTP 200\\)$`));
    expect((await call("monitor_list", {})).text).toMatch(new RegExp(`^${id} "about" active`));
    expect(await call("monitor_delete", { id })).toEqual({ isError: false, text: `monitor ${id} deleted` });
    expect(await call("monitor_run", { id })).toEqual({ isError: true, text: expect.stringMatching(/^the service answered 404: Monitor not found/) as string });
  });

  it("crawl_cancel stops a crawl; usage reports credits and the queue", async () => {
    await connect();
    const started = await call("crawl_start", { url: "https://acme.test", limit: 500 });
    expect(started.text).toMatch(/\(at most 50 pages, lowered from 500\)/);
    const id = /id (\S+) \(/.exec(started.text)![1]!;
    expect(await call("crawl_cancel", { id })).toEqual({ isError: false, text: `crawl ${id} cancelled` });
    expect((await call("usage", {})).text).toMatch(/^credits: \d+ of 100000 remaining[^]*\nqueue: \d+ running, \d+ waiting, concurrency limit \d+$/);
  });

  it("failures are isError results in words, and an answer echoing the key does not carry it", async () => {
    await connect();
    fake.failNext(500, { match: "/v2/browser", body: { success: false, error: `upstream rejected token ${fake.apiKey}` } });
    const r = await call("browser_create", {});
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^the service answered 500: upstream rejected token /);
    expect((await call("nope", {})).text).toMatch(/^unknown tool "nope"/);
    const unauthorised = new WebData({ apiKey: "fc-wrong-key-123456", apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
    await close();
    client = unauthorised;
    await connect();
    const refused = await call("usage", {});
    expect(refused).toEqual({ isError: true, text: "the service refused the API key; this cannot be fixed by retrying" });
    const listed = JSON.stringify(await mcp.listTools());
    expect(listed).not.toContain("fc-");
  });
});
