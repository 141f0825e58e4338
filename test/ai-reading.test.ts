/**
 * `webdata/ai`: a long result is read in parts. A model that does what the cut
 * note says (call the named tool with the arguments given, `offset` included)
 * reads the whole text exactly once: no gap, no overlap, no second request for
 * a kept result; crawls and batch scrapes read on through their status tools.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { createTools, type Tools } from "../src/ai/index.js";
import { Reader } from "../src/ai/reading.js";
import { WebData } from "../src/index.js";
import { createFakeService, fakeJobs, fakeTasks, type FakeService } from "../src/testing/node.js";

const LONG_URL = "https://acme.test/long";
// 30 000+ characters, with characters outside the BMP (two UTF-16 units each) throughout.
const LONG_MARKDOWN = `# Long page\n\n${Array.from({ length: 900 }, (_, i) => `Line ${i}: widgets 🧩 and gadgets ${"é".repeat(i % 7)}.`).join("\n")}`;
const LONG_TEXT = `## Long page (${LONG_URL})\n\n${LONG_MARKDOWN}`;

let fake: FakeService;
let client: WebData;


beforeEach(() => {
  const many = Array.from({ length: 6 }, (_, i) => ({ url: i === 0 ? "https://acme.test/big" : `https://acme.test/big/${i}`, markdown: `# Big ${i}\n\n${`Paragraph ${i}. `.repeat(80)}`, links: [] as string[] }));
  many[0]!.links = many.slice(1).map((p) => p.url);
  fake = createFakeService({ pages: [{ url: LONG_URL, markdown: LONG_MARKDOWN }, ...many] });
  client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
});

const NOTE = /\n\n\[cut: characters (\d+)-(\d+) of (\d+) shown\. To read on, call ([a-z_]+) with (\{.*\})\]$/;
const CONTINUED = /^\[continued from character (\d+) of (\d+)\]\n\n/;

interface Part {
  head: string;
  from: number;
  text: string;
  next?: { tool: string; args: Record<string, unknown>; from: number; to: number; total: number };
}

/** Splits a result into its head (jobs), the text read, and the read-on call its note names. */
function parse(content: string, hasHead: boolean): Part {
  let rest = content;
  let head = "";
  if (hasHead) {
    const at = rest.indexOf("\n\n");
    head = rest.slice(0, at);
    rest = rest.slice(at + 2);
  }
  const cont = CONTINUED.exec(rest);
  const from = cont ? Number(cont[1]) : 0;
  if (cont) rest = rest.slice(cont[0].length);
  const note = NOTE.exec(rest);
  if (!note) return { head, from, text: rest };
  return { head, from, text: rest.slice(0, note.index), next: { tool: note[4]!, args: JSON.parse(note[5]!) as Record<string, unknown>, from: Number(note[1]), to: Number(note[2]), total: Number(note[3]) } };
}

/** Does what the notes say until there is no note; returns every part in order. */
async function readAll(tools: Tools, tool: string, args: Record<string, unknown>, maxChars: number, hasHead = false): Promise<Part[]> {
  const parts: Part[] = [];
  let call: { tool: string; args: Record<string, unknown> } | undefined = { tool, args };
  while (call) {
    const r = await tools.call(call.tool, call.args);
    expect(r.isError, r.content).toBe(false);
    expect(r.content.length).toBeLessThanOrEqual(maxChars);
    const part = parse(r.content, hasHead);
    parts.push(part);
    call = part.next;
    expect(parts.length).toBeLessThan(200);
  }
  return parts;
}

function expectJoined(parts: Part[], whole: string): void {
  let at = 0;
  for (const p of parts) {
    expect(p.from).toBe(at); // no gap, no overlap
    if (p.next) {
      expect(p.next.from).toBe(at);
      expect(p.next.to).toBe(at + p.text.length);
      expect(p.next.total).toBe(whole.length);
      expect(p.next.args.offset).toBe(p.next.to);
      const last = p.text.charCodeAt(p.text.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false); // never half of a surrogate pair
    }
    at += p.text.length;
  }
  expect(parts.map((p) => p.text).join("")).toBe(whole);
}

describe("reading a long page in parts", () => {
  it("a model following the cut note reads the whole page exactly once, with one scrape", async () => {
    const tools = createTools(client, { only: ["scrape"], maxChars: 4000 });
    const parts = await readAll(tools, "scrape", { url: LONG_URL }, 4000);
    expect(LONG_TEXT.length).toBeGreaterThan(30_000);
    expect(parts.length).toBeGreaterThanOrEqual(9);
    expectJoined(parts, LONG_TEXT);
    expect(parts[0]!.next!.tool).toBe("scrape");
    expect(parts[0]!.next!.args).toEqual({ url: LONG_URL, offset: parts[0]!.text.length });
    // The parts after the first are read from the kept text: no second request, no second charge.
    expect(fake.requests.filter((q) => q.pathname === "/v2/scrape")).toHaveLength(1);
  });

  it("the schema and the description say how: an offset parameter, the cut note gives it", () => {
    const [scrape] = createTools(client, { only: ["scrape"] }).definitions;
    expect(scrape!.description).toMatch(/the note says how to read on/);
    expect((scrape!.parameters.properties as Record<string, unknown>).offset).toEqual({ type: "integer", minimum: 0, description: "Where to read on (a cut result's note gives it)." });
  });

  it("a read-on call whose result is no longer kept runs the call again and reads from the offset", async () => {
    const tools = createTools(client, { only: ["scrape"], maxChars: 4000 });
    const part = parse((await tools.call("scrape", { url: LONG_URL, offset: 12_345 })).content, false);
    expect(part.from).toBe(12_345);
    expect(part.text).toBe(LONG_TEXT.slice(12_345, 12_345 + part.text.length));
    expect(part.next!.args).toEqual({ url: LONG_URL, offset: 12_345 + part.text.length });
    expect(fake.requests.filter((q) => q.pathname === "/v2/scrape")).toHaveLength(1);
  });

  it("different arguments are a different result: the kept text is not mixed up", async () => {
    const tools = createTools(client, { only: ["scrape"], maxChars: 4000 });
    await tools.call("scrape", { url: LONG_URL });
    const other = await tools.call("scrape", { url: LONG_URL, formats: ["markdown", "links"], offset: 10 });
    expect(other.isError).toBe(false);
    expect(fake.requests.filter((q) => q.pathname === "/v2/scrape")).toHaveLength(2);
  });

  it("an offset at or past the end is an error result that gives the length", async () => {
    const tools = createTools(client, { only: ["scrape"] });
    const r = await tools.call("scrape", { url: LONG_URL, offset: 10_000_000 });
    expect(r).toEqual({ isError: true, content: `offset 10000000 is at or past the end of the text (${LONG_TEXT.length} characters): there is nothing more to read` });
  });

  it("a short page has no note, and the last part ends the text without one", async () => {
    const tools = createTools(client, { only: ["scrape"], maxChars: 4000 });
    const r = await tools.call("scrape", { url: "https://acme.test/about" });
    expect(r.content).not.toMatch(/\[cut:/);
    const parts = await readAll(tools, "scrape", { url: LONG_URL }, 4000);
    expect(parts.at(-1)!.next).toBeUndefined();
  });
});

describe("README: reading long results", () => {
  it("the README's example is what the scrape tool answers for that page", async () => {
    const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
    const section = readme.slice(readme.indexOf("### Tools for LLM agents"), readme.indexOf("### MCP server"));
    const shown = /```text\n([\s\S]*?)```/.exec(section)![1]!.trimEnd().split("\n");
    const at = shown.indexOf("...");
    const r = await createTools(client, { only: ["scrape"], maxChars: 4000 }).call("scrape", { url: LONG_URL });
    const lines = r.content.split("\n");
    expect(lines.slice(0, at)).toEqual(shown.slice(0, at));
    expect(lines.slice(lines.length - (shown.length - at - 1))).toEqual(shown.slice(at + 1));
    const end = /"offset":(\d+)/.exec(r.content)![1]!;
    expect(section).toContain(`The next part starts \`[continued from character ${end} of ${LONG_TEXT.length}]\``);
  });
});

describe("reading jobs in parts", () => {
  it("crawl_wait's note reads on with crawl_status: every page once, in order", async () => {
    fakeJobs(fake).configure({ defaultPageSize: 2 }); // the status is read over several pages
    const tools = createTools(client, { maxChars: 1500, pollIntervalMs: 500 });
    const started = await tools.call("crawl_start", { url: "https://acme.test/big", limit: 6 });
    const id = /id ([0-9a-f-]{36})/.exec(started.content)![1]!;
    fakeJobs(fake).finish(id);
    const parts = await readAll(tools, "crawl_wait", { id, waitSeconds: 5 }, 1500, true);
    expect(parts.length).toBeGreaterThan(3);
    for (const p of parts) expect(p.head).toBe(`crawl ${id}: completed, 6 of 6 pages done, 6 shown below`);
    expect(parts.slice(0, -1).every((p) => p.next!.tool === "crawl_status" && p.next!.args.id === id)).toBe(true);
    const whole = parts.map((p) => p.text).join("");
    expectJoined(parts, whole);
    const headings = whole.match(/^## Big \d+ \(https:\/\/acme\.test\/big(\/\d+)?\)$/gm)!;
    expect(headings).toHaveLength(6);
    expect(new Set(headings).size).toBe(6);
    for (let i = 0; i < 6; i++) expect(whole).toContain(`${`Paragraph ${i}. `.repeat(80).trim()}`);
  });

  it("crawl_status reads every status page of a running crawl (skip), without waiting", async () => {
    fakeJobs(fake).configure({ defaultPageSize: 2, pagesPerPoll: 0 });
    const tools = createTools(client, { maxChars: 100_000 });
    const id = /id ([0-9a-f-]{36})/.exec((await tools.call("crawl_start", { url: "https://acme.test/big", limit: 6 })).content)![1]!;
    fakeJobs(fake).configure({ pagesPerPoll: 6 });
    const r = await tools.call("crawl_status", { id });
    const shown = Number(/, (\d+) shown below/.exec(r.content)![1]);
    expect(shown).toBe(6);
    expect(r.content.match(/^## Big \d+/gm)).toHaveLength(6);
    expect(fake.requests.filter((q) => q.pathname === `/v2/crawl/${id}`).length).toBeGreaterThan(1);
  });

  it("batch_scrape's note reads on with batch_status from the kept result, with no new status read", async () => {
    const tools = createTools(client, { maxChars: 1200, pollIntervalMs: 500 });
    fakeJobs(fake).configure({ pagesPerPoll: 10 }); // done at the first status read: no wait
    const first = await tools.call("batch_scrape", { urls: ["https://acme.test/big/1", "https://acme.test/big/2", "https://acme.test/big/3"] });
    const part = parse(first.content, true);
    expect(part.next!.tool).toBe("batch_status");
    const reads = fake.requests.length;
    const parts = [part, ...(await readAll(tools, part.next!.tool, part.next!.args, 1200, true))];
    expect(fake.requests.length).toBe(reads);
    const whole = parts.map((p) => p.text).join("");
    expectJoined(parts, whole);
    expect(whole.match(/^## Big \d+/gm)).toEqual(["## Big 1", "## Big 2", "## Big 3"]);
  });

  it("agent and extract results read on with their status tools", async () => {
    const tools = createTools(client, { maxChars: 300, pollIntervalMs: 500 });
    const schema = { type: "object", properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`field${i}`, { type: "string" }])) };
    fakeTasks(fake).configure({ pollsToFinish: 0 }); // done at the first status read: no wait
    const r = await tools.call("agent", { prompt: "fill every field", urls: ["https://acme.test/about"], schema });
    const part = parse(r.content, true);
    expect(part.head).toMatch(/^agent [0-9a-f-]{36}: completed/);
    expect(part.next!.tool).toBe("agent_status");
    const parts = [part, ...(await readAll(tools, "agent_status", part.next!.args, 300, true))];
    const data = JSON.parse(parts.map((p) => p.text).join("")) as Record<string, unknown>;
    expect(Object.keys(data)).toHaveLength(30);
  });
});

describe("what is kept for reading on", () => {
  it("only cut results, the last 16, and no more than 4,000,000 characters together (the newest always)", () => {
    const reader = new Reader(100, ["scrape"]);
    reader.read("scrape", { url: "short" }, { body: "fits" }, 0, true);
    expect(reader.kept("scrape", { url: "short" })).toBeUndefined();
    for (let i = 0; i < 17; i++) reader.read("scrape", { url: `u${i}` }, { body: "x".repeat(500) }, 0, true);
    expect(reader.kept("scrape", { url: "u0" })).toBeUndefined();
    expect(reader.kept("scrape", { url: "u1" })!.body).toHaveLength(500);
    expect(reader.kept("scrape", { url: "u16" })).toBeDefined();
    reader.read("scrape", { url: "big" }, { body: "y".repeat(3_993_000) }, 0, true); // with u1..u16: 4,001,000
    expect(reader.kept("scrape", { url: "u2" })).toBeUndefined(); // the two oldest make room
    expect(reader.kept("scrape", { url: "u3" })).toBeDefined();
    expect(reader.kept("scrape", { url: "big" })).toBeDefined();
    reader.read("scrape", { url: "huge" }, { body: "z".repeat(5_000_000) }, 0, true);
    expect(reader.kept("scrape", { url: "big" })).toBeUndefined();
    expect(reader.kept("scrape", { url: "huge" })).toBeDefined();
  });

  it("arguments in another key order are the same call", () => {
    const reader = new Reader(100, ["scrape"]);
    reader.read("scrape", { url: "a", formats: ["markdown"] }, { body: "x".repeat(500) }, 0, true);
    expect(reader.kept("scrape", { formats: ["markdown"], url: "a" })).toBeDefined();
  });
});

describe("a result with nowhere to read on", () => {
  it("a tool that takes no offset says to ask for less", () => {
    const r = new Reader(100, ["scrape"]).read("usage", {}, { body: "x".repeat(500) }, 0, false);
    expect(r.content.length).toBeLessThanOrEqual(100);
    expect(r.content).toMatch(/\[cut: characters 0-\d+ of 500 shown; ask for less \(fewer pages, formats or results\)\]$/);
  });

  it("a read-on tool left out of the set is not named: the note says to ask for less", () => {
    const r = new Reader(100, ["batch_scrape"]).read("batch_scrape", { urls: [] }, { head: "h", body: "y".repeat(500), readOn: { tool: "batch_status", args: { id: "j" } } }, 0, false);
    expect(r.content).not.toMatch(/batch_status/);
    expect(r.content).toMatch(/ask for less/);
  });
});
