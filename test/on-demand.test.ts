/**
 * Code is split at entry points only (DESIGN.md, "Size"): the client loads no
 * module of its own on demand, on any entry. What an app does not import
 * (`webdata/v1`, `webdata/firecrawl`, `webdata/zod3`, `webdata/zod4`,
 * `webdata/ai`, `webdata/testing`, ...) is not loaded; what it imports is
 * loaded with the entry, so nothing can be loaded between a call and its
 * timers (fake-timers-first-call*.test.ts run the TESTING.md pattern on each
 * entry). The only `import()` left in `src/` loads an optional package, where
 * it is needed.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(REPO, "src");

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [relative(SRC, join(dir, e.name)).split("\\").join("/")] : [],
  );
}

/** Every `import("...")` call in `source` (not `typeof import(...)`, a type), comments left out, as `file -> specifier`. */
function dynamicImports(file: string, source = readFileSync(join(SRC, file), "utf8")): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:\\])\/\/.*$/gm, "$1");
  return [...code.matchAll(/(typeof\s+)?\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].filter((m) => !m[1]).map((m) => `${file} -> ${m[2]}`);
}

describe("the client loads no module of its own on demand", () => {
  it("no module of src/ imports one of ours with import(); optional packages are loaded where they are needed", () => {
    const found = sourceFiles().flatMap((f) => dynamicImports(f)).sort();
    // The one split of our own code is at an entry point: the `webdata` bin's `fake` command loads the fake
    // service (webdata/testing), which no other command and no entry of the client reaches.
    expect(found.filter((f) => / -> \./.test(f))).toEqual(["cli/fake.ts -> ../testing/node.js"]);
    expect(found).toEqual([
      // webdata/ai: the AI SDK and the MCP SDK, optional peers.
      "ai/adapters.ts -> ai",
      "ai/mcp.ts -> @modelcontextprotocol/sdk/server/index.js",
      "ai/mcp.ts -> @modelcontextprotocol/sdk/types.js",
      // The CLI's `mcp` command.
      "cli/commands.ts -> @modelcontextprotocol/sdk/server/stdio.js",
      // The CLI's `fake` command (above).
      "cli/fake.ts -> ../testing/node.js",
      // The Node client's undici, loaded when a client that sends through it is made (test/lazy-undici.test.ts).
      "node.ts -> undici",
      // webdata/testing's WebSocket server, an optional peer.
      "testing/ws.ts -> ws",
    ]);
  });

  it("the checker reads the forms it must tell apart", () => {
    const code = 'const a = await import("./a.js");\ntype B = typeof import("./b.js");\n// import("./c.js")\n/* import("./d.js") */\nconst e = import(\'e\');';
    expect(dynamicImports("x.ts", code)).toEqual(["x.ts -> ./a.js", "x.ts -> e"]);
  });
});

function run(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO, env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(stdout.trim());
    });
  });
}

/** Each entry of the built package, with the zod 4 and testing modules of the same build. */
const ENTRIES = [
  ["the portable entry (browsers)", "./dist/index.js", "./dist/zod4.js", "./dist/testing/index.js", "./dist/v1/index.js", "./dist/sse.js", "./dist/websocket.js"],
  ["the server entry (Deno, Bun, Workers)", "./dist/server.js", "./dist/zod4.js", "./dist/testing/index.js", "./dist/v1/index.js", "./dist/sse.js", "./dist/websocket.js"],
  ["the Node entry", "webdata", "webdata/zod4", "webdata/testing", "webdata/v1", "webdata/sse", "webdata/websocket"],
] as const;

describe.skipIf(!existsSync(`${REPO}dist/node/index.js`))("the built entries load every module of the client at import", () => {
  it.each(ENTRIES)("%s: a client's first scrape with a schema, crawl, document walk, client.v1 call and watcher load no module", async (_name, entry, zod4, testing, v1Entry, sseEntry, wsEntry) => {
    // Logs every module URL the loader resolves.
    const hook = `import { appendFileSync } from "node:fs"; export async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(process.env.MODULE_LOG, r.url + "\\n"); return r; }`;
    const script = `
      import { register } from "node:module";
      import { readFileSync, writeFileSync } from "node:fs";
      writeFileSync(process.env.MODULE_LOG, "");
      register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
      const seen = () => readFileSync(process.env.MODULE_LOG, "utf8").split("\\n").filter((u) => u.startsWith("file:"));
      const { WebData, toWireSchema } = await import(${JSON.stringify(entry)});
      await import(${JSON.stringify(zod4)});
      const { v1: v1Face } = await import(${JSON.stringify(v1Entry)});
      const { sse } = await import(${JSON.stringify(sseEntry)});
      const { websocket } = await import(${JSON.stringify(wsEntry)});
      const { createFakeService, fakeJobs } = await import(${JSON.stringify(testing)});
      const zm = await import("zod/v4/mini");
      await new Promise((r) => setTimeout(r, 50));
      const atImport = new Set(seen());
      const fast = { pollIntervalMs: 20, [Symbol.for("webdata.internal.minPollIntervalMs")]: 20 };
      const fake = createFakeService({ sse: true });
      fakeJobs(fake);
      const client = new WebData({ plugins: [v1Face, sse, websocket], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
      const schema = zm.object({ title: zm.string() });
      const scraped = await client.scrape("https://acme.test/", { formats: [{ type: "json", schema, validate: true }] });
      await toWireSchema(schema);
      const crawled = await client.crawl("https://acme.test/", { limit: 2, ...fast });
      let docs = 0;
      for await (const _ of client.crawlDocuments(crawled.id ?? (await client.startCrawl("https://acme.test/", { limit: 2 })).id)) docs++;
      const mapped = await client.v1.mapUrl("https://acme.test/");
      const { id } = await client.startCrawl("https://acme.test/", { limit: 2 });
      const events = [];
      for await (const ev of client.watcher(id, { transports: ["sse", "poll"], ...fast })) events.push(ev.type);
      await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ loaded: seen().filter((u) => !atImport.has(u)), json: typeof scraped.json, crawl: crawled.status, docs, mapped: mapped.success, last: events.at(-1) }));`;
    const log = join(tmpdir(), `webdata-on-demand-${process.pid}-${ENTRIES.findIndex((e) => e[1] === entry)}`);
    const out = JSON.parse((await run(script, { MODULE_LOG: log }).finally(() => rmSync(log, { force: true }))).split("\n").pop()!) as Record<string, unknown>;
    expect(out).toMatchObject({ json: "object", crawl: "completed", mapped: true, last: "done" });
    expect(out.docs).toBeGreaterThan(0);
    expect(out.loaded).toEqual([]);
  }, 60_000);
});
