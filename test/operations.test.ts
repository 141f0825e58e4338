/**
 * The operations catalogue (`src/api/operations.ts`) is where each operation's name, route, one-line
 * description and limits live; the faces take them from there. These tests fail when a face restates
 * what the catalogue holds and drifts from it, or has an operation the catalogue lacks:
 * `WebData` (its methods, the routes it sends, its JSDoc), v1 (`client.v1`), the drop-in
 * (`webdata/firecrawl`: forwarded methods, the one-line adapters, aliases), the agent tools (names,
 * order, descriptions, bounds) and the CLI (commands, the numbers in its help).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { Firecrawl, type FirecrawlSameMethod } from "../src/firecrawl/index.js";
import { V1Client } from "../src/v1/client.js";
import { V1_API_METHODS, V1_PROMISE_METHODS } from "../src/v1/methods.js";
import { createTools, TOOL_NAMES } from "../src/ai/tools.js";
import { COMMANDS, commandHelp } from "../src/cli/commands.js";
import { dropInMethods, OPERATION_LIST, OPERATIONS, TOOL_DESCRIPTIONS, v1Methods, type Operation } from "../src/api/operations.js";
import type { Limit } from "../src/api/limits.js";
import { createFakeService } from "../src/testing/index.js";
import { v1 as v1Face } from "../src/v1/index.js";

const SRC = join(import.meta.dirname, "..", "src");
const ops = OPERATION_LIST as readonly (readonly [string, Operation])[];
/** The public methods of a class's prototype (less the constructor). */
const methodsOf = (proto: object) => Object.getOwnPropertyNames(proto).filter((n) => n !== "constructor" && typeof Object.getOwnPropertyDescriptor(proto, n)?.value === "function");

describe("the catalogue", () => {
  it("names each operation once in each face", () => {
    for (const face of ["method", "official"] as const) {
      const names = ops.flatMap(([, op]) => (op[face] ? [op[face]] : []));
      expect(names, face).toEqual([...new Set(names)]);
    }
    const v1 = ops.flatMap(([, op]) => op.v1 ?? []);
    expect(v1).toEqual([...new Set(v1)]);
    const tools = ops.flatMap(([, op]) => Object.keys(op.tools ?? {}));
    expect(tools).toEqual([...new Set(tools)]);
  });

  it("states each route as METHOD /version/path with <name> placeholders, and a one-line description", () => {
    for (const [name, op] of ops) {
      expect(op.route, name).toMatch(/^(GET|POST|PATCH|DELETE) \/v[12](\/([\w-]+|<\w+>))+$/);
      expect(op.description, name).toMatch(/^\S[^\n]*\S$/);
      expect(op.description.length, name).toBeLessThan(120);
    }
  });
});

describe("WebData takes its operations from the catalogue", () => {
  const methods = methodsOf(WebData.prototype).filter((n) => n !== "toJSON");
  const byMethod = new Map(ops.flatMap(([name, op]) => (op.method ? [[op.method, [name, op] as const]] : [])));

  it("has exactly the catalogue's methods", () => {
    expect(methods.sort()).toEqual([...byMethod.keys()].sort());
  });

  /** Each method's JSDoc, whitespace folded, read from `src/client.ts`. */
  const jsdoc = new Map<string, string>();
  const file = ts.createSourceFile("client.ts", readFileSync(join(SRC, "client.ts"), "utf8"), ts.ScriptTarget.ES2022, true);
  file.forEachChild(function visit(node) {
    if (ts.isClassDeclaration(node) && node.name?.text === "WebData") {
      for (const m of node.members) {
        if (!ts.isMethodDeclaration(m) || !ts.isIdentifier(m.name)) continue;
        const text = ts.getJSDocCommentsAndTags(m).map((d) => d.getText()).join(" ");
        jsdoc.set(m.name.text, text.replace(/^\s*\/?\*+\/?/gm, " ").replace(/\s+/g, " ").trim());
      }
    }
  });

  it.each([...byMethod.entries()].map(([m, [name, op]]) => [name, m, op] as const))("%s: %s's JSDoc says the catalogue's description and route", (_name, method, op) => {
    const doc = jsdoc.get(method);
    expect(doc, method).toBeDefined();
    expect(doc, method).toContain(op.description);
    // One request: the JSDoc names its route (`POST /v2/scrape`); a waiter, an iterator or the watcher makes several.
    if (op.kind === undefined) expect(doc, method).toContain(`\`${op.route}`);
  });

  /** The arguments each method is called with below (valid, so each sends). */
  const ARGS: Record<string, unknown[]> = {
    scrape: ["https://acme.test/"], search: ["q"], map: ["https://acme.test/"], parse: [{ data: "<p>x</p>", filename: "a.html" }],
    crawlParamsPreview: ["https://acme.test/", "docs"], startCrawl: ["https://acme.test/"], getCrawlStatus: ["j1"], cancelCrawl: ["j1"],
    crawlDocuments: ["j1"], getCrawlErrors: ["j1"], getActiveCrawls: [], crawl: ["https://acme.test/"],
    startBatchScrape: [["https://acme.test/"]], batchScrape: [["https://acme.test/"]], getBatchScrapeStatus: ["j1"], batchScrapeDocuments: ["j1"],
    getBatchScrapeErrors: ["j1"], cancelBatchScrape: ["j1"], watcher: ["j1"], startExtract: [{ urls: ["https://acme.test/"], prompt: "x" }],
    extract: [{ urls: ["https://acme.test/"], prompt: "x" }], getExtractStatus: ["j1"], startAgent: ["x"], agent: ["x"], getAgentStatus: ["j1"],
    cancelAgent: ["j1"], listAgents: [], getAgentTrace: ["j1"], getAgentSnapshot: ["j1", "s1"], agentSignup: [{ email: "a@acme.test", agent_name: "bot", accept_terms: true }],
    interact: ["j1", { prompt: "x" }], stopInteraction: ["j1"], browser: [], browserExecute: ["b1", { code: "1" }], listBrowsers: [], deleteBrowser: ["b1"],
    createMonitor: [{ name: "m", schedule: { cron: "0 * * * *" }, targets: [{ type: "scrape", urls: ["https://acme.test/"] }] }], listMonitors: [],
    getMonitor: ["m1"], updateMonitor: ["m1", { name: "n" }], runMonitor: ["m1"], deleteMonitor: ["m1"], listMonitorChecks: ["m1"], getMonitorCheck: ["m1", "c1"],
    searchFeedback: ["s1", { rating: "good" }], feedback: [{ endpoint: "scrape", jobId: "j1", rating: "good", note: "x" }],
    getCreditUsage: [], getTokenUsage: [], getCreditUsageHistorical: [], getTokenUsageHistorical: [], getQueueStatus: [], getConcurrency: [],
  };

  it.each([...byMethod.entries()].map(([m, [name, op]]) => [name, m, op] as const))("%s: %s sends the catalogue's route first", async (_name, method, op) => {
    const sent: string[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      sent.push(`${init?.method ?? "GET"} ${url.pathname}`);
      return new Response(JSON.stringify({ success: false, error: "refused" }), { status: 400, headers: { "content-type": "application/json" } });
    };
    const client = new WebData({ plugins: [v1Face], apiKey: "fc-test", apiUrl: "https://api.acme.test", fetch, maxRetries: 0, logLevel: "off" });
    const args = ARGS[method];
    expect(args, `arguments for ${method}`).toBeDefined();
    const out = (client[method as keyof WebData] as (...a: unknown[]) => unknown)(...args!);
    if (out && typeof out === "object" && Symbol.asyncIterator in out) {
      try {
        for await (const _ of out as AsyncIterable<unknown>) break;
      } catch {
        // the 400
      }
      (out as { close?: () => void }).close?.();
    } else await Promise.resolve(out).catch(() => undefined);
    const pattern = new RegExp(`^${op.route.replace(/<\w+>/g, "[^/]+")}$`);
    expect(sent[0], method).toMatch(pattern);
  });
});

describe("v1 takes its names from the catalogue", () => {
  it("every V1Client method is one operation's v1 face, and the method lists are the catalogue's", () => {
    const v1 = ops.flatMap(([, op]) => op.v1 ?? []);
    expect([...v1].sort()).toEqual(methodsOf(V1Client.prototype).sort());
    expect(V1_API_METHODS).toEqual(v1Methods("APIPromise"));
    expect(V1_PROMISE_METHODS).toEqual(v1Methods("Promise"));
  });
});

describe("the drop-in takes its forms from the catalogue", () => {
  const proto = Firecrawl.prototype as unknown as Record<string, unknown>;
  // Compile-time: every member of the public union, and no other name (an excess property fails to compile).
  const SAME: Record<FirecrawlSameMethod, true> = {
    scrape: true, search: true, map: true, crawlParamsPreview: true, cancelCrawl: true, getCrawlErrors: true, crawlDocuments: true,
    getBatchScrapeErrors: true, cancelBatchScrape: true, batchScrapeDocuments: true, cancelAgent: true, getConcurrency: true, getCreditUsage: true,
    getTokenUsage: true, parse: true, createMonitor: true, listMonitors: true, getMonitor: true, updateMonitor: true, deleteMonitor: true, runMonitor: true, listMonitorChecks: true,
  };

  it("forwards exactly the catalogue's `same` methods (the public FirecrawlSameMethod union)", () => {
    expect(dropInMethods("same").sort()).toEqual(Object.keys(SAME).sort());
  });

  it("has every method and alias the catalogue gives it, and no operation the catalogue lacks", () => {
    const named = ops.flatMap(([, op]) => (op.dropIn ? [op.official ?? op.method!, ...(op.dropInAliases ?? [])] : []));
    const plumbing = ["toJSON", "research"]; // `research` is a getter (the official research index client)
    for (const name of named) expect(name in proto, name).toBe(true);
    expect(methodsOf(Firecrawl.prototype).filter((n) => !plumbing.includes(n)).sort()).toEqual(named.filter((n) => n !== "research").sort());
  });

  it.each(["success", "sessions"] as const)("wires each `%s` adapter: WebData's method, its result with the official field", async (form) => {
    const fake = createFakeService();
    const app = new Firecrawl({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const client = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const names = dropInMethods(form);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      // Each is its own method on the prototype (made in the static block), not WebData's.
      expect(typeof proto[name], name).toBe("function");
      expect(proto[name], name).not.toBe((WebData.prototype as unknown as Record<string, unknown>)[name]);
    }
    // Read-only calls the fake answers without any setup.
    const call = form === "success" ? "getQueueStatus" : "listBrowsers";
    const mine = await (app as unknown as Record<string, () => Promise<Record<string, unknown>>>)[call]!();
    const plain = await (client as unknown as Record<string, () => Promise<Record<string, unknown>>>)[call]!();
    expect(mine.success).toBe(true);
    expect(Object.keys(mine)).not.toContain("success");
    expect(plain).not.toHaveProperty("success");
    if (form === "sessions") expect(mine.sessions).toBe(mine);
  });
});

describe("the agent tools take their names, descriptions and bounds from the catalogue", () => {
  const tools = createTools(new WebData({ plugins: [v1Face], apiKey: "fc-test", apiUrl: "https://api.acme.test", fetch: async () => new Response("{}") }));
  const props = (name: string) => (tools.definitions.find((d) => d.name === name)!.parameters as { properties: Record<string, Record<string, unknown>> }).properties;

  it("lists the catalogue's tools, in its order, each with its description", () => {
    expect([...TOOL_NAMES]).toEqual(Object.keys(TOOL_DESCRIPTIONS));
    for (const d of tools.definitions) expect(d.description, d.name).toBe(TOOL_DESCRIPTIONS[d.name]);
  });

  /** A tool's parameter, the catalogue's limit it must state, and the JSON Schema keywords of that kind of bound. */
  const BOUNDS: [tool: string, param: string, limit: Limit, keys: ["minimum", "maximum"] | ["minLength", "maxLength"] | ["minItems", "maxItems"]][] = [
    ["browser_create", "ttl", OPERATIONS["browser.create"].limits.ttl, ["minimum", "maximum"]],
    ["browser_create", "activityTtl", OPERATIONS["browser.create"].limits.activityTtl, ["minimum", "maximum"]],
    ["browser_execute", "code", OPERATIONS["browser.execute"].limits.code, ["minLength", "maxLength"]],
    ["browser_execute", "timeout", OPERATIONS["browser.execute"].limits.timeout, ["minimum", "maximum"]],
    ["agent", "prompt", OPERATIONS.agent.limits.prompt, ["minLength", "maxLength"]],
    ["monitor_create", "name", OPERATIONS["monitor.create"].limits.name, ["minLength", "maxLength"]],
    ["monitor_create", "queries", OPERATIONS["monitor.create"].limits.queries, ["minItems", "maxItems"]],
    ["monitor_list", "limit", OPERATIONS["monitor.list"].limits.limit, ["minimum", "maximum"]],
    ["search", "limit", OPERATIONS.search.limits.limit, ["minimum", "maximum"]],
    ["map", "limit", OPERATIONS.map.limits.limit, ["minimum", "maximum"]],
    ["feedback", "note", OPERATIONS.feedback.limits.note, ["minLength", "maxLength"]],
  ];

  it.each(BOUNDS)("%s.%s states the catalogue's bounds, and its default when it names one", (tool, param, limit, [lo, hi]) => {
    const p = props(tool)[param]!;
    expect(p[hi], `${tool}.${param}`).toBe(limit.max);
    if (limit.min !== undefined) expect(p[lo], `${tool}.${param}`).toBe(limit.min);
    if (limit.default !== undefined && typeof p.description === "string" && /default/.test(p.description)) expect(p.description).toContain(`default ${limit.default}`);
  });

  it("states the parse tool's file limit from the catalogue", () => {
    expect(TOOL_DESCRIPTIONS.parse).toContain(`at most ${OPERATIONS.parse.limits.file.max / 1024 / 1024} MB`);
  });

  it("no tool module states a bound of its own (a number above 1 in a check): they read the catalogue", () => {
    const OWN_BOUND = /\b(?:int|(?:min|max)(?:Length|Items)|gte|lte)\(\s*(?:[2-9]|\d{2,})/;
    for (const f of ["tools-read.ts", "tools-jobs.ts", "tools-browser.ts", "tools-monitor.ts"]) {
      const code = readFileSync(join(SRC, "ai", f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      expect(code.split("\n").filter((l) => OWN_BOUND.test(l)), f).toEqual([]);
    }
  });
});

describe("the CLI takes its operations from the catalogue", () => {
  /** Commands that are not an operation of the service: the MCP server, the deployment check, the local fake. */
  const NOT_OPERATIONS = ["mcp", "doctor", "fake"];

  it("every command is one of the catalogue's CLI faces, and every CLI face a command", () => {
    const faces = new Set(ops.flatMap(([, op]) => op.cli ?? []));
    expect(Object.keys(COMMANDS).filter((c) => !NOT_OPERATIONS.includes(c)).sort()).toEqual([...faces].sort());
  });

  it("says the catalogue's numbers in its help", () => {
    const { min, max } = OPERATIONS.search.limits.limit;
    expect(commandHelp("search")).toContain(`results per source (${min}-${max})`);
  });
});
