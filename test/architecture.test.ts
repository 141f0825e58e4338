/**
 * `ARCHITECTURE.md` is checked: every import of every module in `src/` must be
 * allowed by its "What may import what" table (layers such as `core/` never
 * importing `api/` or `jobs/`, `api/` never importing `jobs/`, `testing/`
 * importing nothing of the client, `node:*` and undici only in the Node
 * modules), and there is no import cycle, type imports included. Rules with
 * one home that the source can show: v1 sends no request itself, and only
 * `jobs/pages.ts` walks a job's status pages.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycles, importsOf, pageReadsOf, parseRules, violations, type ModuleImports } from "./support/architecture.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "src");
const rules = parseRules(readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8"));

/** `src/**\/*.ts`, relative to `src/`, with `/` separators. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [relative(SRC, join(dir, e.name)).split("\\").join("/")] : [],
  );
}

/** The import graph of `src/`: relative imports resolved to files, packages as written. */
function srcGraph(): { graph: Map<string, ModuleImports>; unresolved: string[] } {
  const graph = new Map<string, ModuleImports>();
  const unresolved: string[] = [];
  for (const file of sourceFiles()) {
    const entry: ModuleImports = { files: [], packages: [] };
    for (const ref of importsOf(file, readFileSync(join(SRC, file), "utf8"))) {
      if (!ref.spec.startsWith(".")) {
        entry.packages.push(ref);
        continue;
      }
      const base = resolve(SRC, dirname(file), ref.spec);
      const target = [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
      if (target) entry.files.push({ file: relative(SRC, target).split("\\").join("/"), typeOnly: ref.typeOnly });
      else unresolved.push(`${file} -> ${ref.spec}`);
    }
    graph.set(file, entry);
  }
  return { graph, unresolved };
}

/** A graph from `from -> to` lines (a `to` with no `/` and no `.ts` is a package; a trailing ` type` marks a type-only import). */
function graphOf(lines: string[]): Map<string, ModuleImports> {
  const graph = new Map<string, ModuleImports>();
  for (const line of lines) {
    const [from = "", rest = ""] = line.split(" -> ");
    const typeOnly = rest.endsWith(" type");
    const to = rest.replace(/ type$/, "");
    const entry = graph.get(from) ?? { files: [], packages: [] };
    if (to.endsWith(".ts")) entry.files.push({ file: to, typeOnly });
    else entry.packages.push({ spec: to, typeOnly });
    graph.set(from, entry);
  }
  return graph;
}

describe("the checker", () => {
  it("reads every import form, and no comment", () => {
    const code = [
      'import { request } from "undici";',
      'import type { Server } from "node:http";',
      'import { type A, type B } from "./types.js";',
      'export { Agent } from "undici/agent";',
      'export type { X } from "./x.js";',
      'export * from "./all.js";',
      'const fs = await import("node:fs");',
      'const os = require("os");',
      "type T = import('./t.js').T;",
      "import {\n  Readable,\n} from 'node:stream';",
      '// import { x } from "node:commented";',
      '/* export * from "./commented.js"; */',
    ].join("\n");
    expect(importsOf("x.ts", code)).toEqual([
      { spec: "undici", typeOnly: false },
      { spec: "node:http", typeOnly: true },
      { spec: "./types.js", typeOnly: true },
      { spec: "undici/agent", typeOnly: false },
      { spec: "./x.js", typeOnly: true },
      { spec: "./all.js", typeOnly: false },
      { spec: "node:fs", typeOnly: false },
      { spec: "os", typeOnly: false },
      { spec: "./t.js", typeOnly: true },
      { spec: "node:stream", typeOnly: false },
    ]);
  });

  it("reports each kind of forbidden import the note names", () => {
    const bad = [
      "core/request.ts -> api/scrape.ts",
      "core/retry.ts -> jobs/polling.ts",
      "api/crawl.ts -> jobs/waiters.ts",
      "testing/service.ts -> core/errors.ts",
      "client.ts -> testing/index.ts",
      "v1/extract.ts -> client.ts",
      "core/transport.ts -> undici",
      "api/scrape.ts -> node:fs",
      "testing/service.ts -> node:http",
      "node.ts -> fs",
    ];
    expect(violations(graphOf(bad), rules).sort()).toEqual([...bad].sort());
    const good = [
      "api/crawl.ts -> core/request.ts",
      "jobs/waiters.ts -> api/crawl.ts",
      "v1/index.ts -> client.ts",
      "node.ts -> undici type",
      "node.ts -> undici",
      "node.ts -> node:stream",
      "testing/ws.ts -> node:http type",
      "testing/node.ts -> node:http",
      "testing/ws.ts -> ws",
      "core/validate.ts -> zod/v4/mini",
    ];
    expect(violations(graphOf(good), rules)).toEqual([]);
  });

  it("finds a cycle, type imports included", () => {
    expect(cycles(graphOf(["a.ts -> b.ts", "b.ts -> c.ts type", "c.ts -> a.ts", "c.ts -> d.ts"]))).toEqual(["a.ts -> b.ts -> c.ts -> a.ts"]);
    expect(cycles(graphOf(["a.ts -> b.ts", "a.ts -> c.ts", "b.ts -> c.ts"]))).toEqual([]);
  });
});

describe("src/ follows ARCHITECTURE.md", () => {
  const { graph, unresolved } = srcGraph();

  it("reads the note's table and every module", () => {
    expect(rules.map((r) => r.module)).toEqual(expect.arrayContaining(["core/", "api/", "jobs/", "v1/", "client.ts", "node.ts", "testing/"]));
    expect(graph.size).toBeGreaterThan(50);
    expect(unresolved).toEqual([]);
  });

  it("no module imports across a line the note forbids", () => {
    expect(violations(graph, rules)).toEqual([]);
  });

  it("no import cycles", () => {
    expect(cycles(graph)).toEqual([]);
  });
});

describe("ARCHITECTURE.md's table of homes names files that exist", () => {
  const note = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  const table = note.slice(note.indexOf("## Where each rule lives"), note.indexOf("\n## ", note.indexOf("## Where each rule lives") + 5));
  /** Every `folder/file.ts` (or `file.ts`) in the home column of the table. */
  const homes = [...new Set(table.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| rule") && !l.startsWith("| ---")).flatMap((l) => [...(l.split(" | ")[1] ?? "").matchAll(/`([\w-]+\/)?[\w-]+\.ts`/g)].map((m) => m[0].slice(1, -1))))];

  it("reads the table", () => {
    expect(homes.length).toBeGreaterThan(15);
    expect(homes).toEqual(expect.arrayContaining(["core/request.ts", "core/retry.ts", "core/redact.ts", "jobs/identity.ts"]));
  });

  it.each(homes)("%s exists in src/", (home) => {
    expect(existsSync(join(SRC, home))).toBe(true);
  });
});

describe("v1 maps, it does not send (ARCHITECTURE.md: v1 only maps names and shapes onto api/ and jobs/)", () => {
  const v1 = sourceFiles().filter((f) => f.startsWith("v1/"));
  const { graph } = srcGraph();
  /** Homes of rules the v1 layer gets through the shared api/ and jobs/ calls and never applies itself: retries, the sleep, the server-timeout table, redaction, document identity (and the 404 grace: the start is noted by the shared job start). */
  const HOMES = ["core/retry.ts", "core/abort.ts", "core/server-timeout.ts", "core/redact.ts", "jobs/identity.ts"];

  it("reads the v1 modules", () => {
    expect(v1).toEqual(expect.arrayContaining(["v1/client.ts", "v1/scrape.ts", "v1/crawl.ts", "v1/jobs.ts", "v1/usage.ts"]));
  });

  it.each(v1)("%s sends no request itself (no `.request(` call: it calls the shared api/ and jobs/ functions)", (file) => {
    const code = readFileSync(join(SRC, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
    expect(code).not.toMatch(/\.request\b\s*[<(]/);
  });

  it("no v1 module applies those rules itself: it imports nothing from their homes, and notes no job start (api/job-starts.ts startJob does)", () => {
    const direct = v1.flatMap((f) => readFileSync(join(SRC, f), "utf8").includes("noteStart") ? [`${f} notes a start itself`] : (graph.get(f)?.files ?? []).filter((i) => !i.typeOnly && HOMES.includes(i.file)).map((i) => `${f} -> ${i.file}`));
    expect(direct).toEqual([]);
  });
});

describe("one page walk (ARCHITECTURE.md: the pagination walk lives in jobs/pages.ts)", () => {
  /** Modules that may read a status page outside the walk, one page at a time and never in a loop: `v1/jobs.ts` reads the one page a caller's `nextURL` names (`checkCrawlStatus` without `getAllData`). */
  const ONE_PAGE = ["v1/jobs.ts"];
  const reads = sourceFiles().flatMap((file) => pageReadsOf(file, readFileSync(join(SRC, file), "utf8")).map((r) => ({ file, ...r })));

  it("the checker finds the walk of a loop (the watcher's poll loop before it used the walk) and not a single read", () => {
    const ownLoop = [
      "let cursor = 0; let next: string | undefined;",
      "for (;;) {",
      "  const url = next;",
      "  const page = await read(ctx, max, () =>",
      "    url ? getJobPage<Document>(ctx.http, ctx.kind, ctx.id, url, req) : getJobStatus<Document>(ctx.http, ctx.kind, ctx.id, { skip: cursor }, req),",
      "  );",
      "  cursor += page.data.length;",
      "}",
    ].join("\n");
    expect(pageReadsOf("jobs/watch-poll.ts", ownLoop)).toEqual([
      { callee: "getJobPage", line: 5, inLoop: true },
      { callee: "getJobStatus", line: 5, inLoop: true },
    ]);
    const single = ['if (nextURL) return getJobPage(http, kind, id, nextURL, req, V1);', "return getJobStatus(http, kind, id, { skip, limit }, req, V1);", "for (;;) await getJobStatus(http, kind, id, { limit: 1 }, req);"].join("\n");
    expect(pageReadsOf("v1/jobs.ts", single)).toEqual([
      { callee: "getJobPage", line: 1, inLoop: false },
      { callee: "getJobStatus", line: 2, inLoop: false },
    ]);
  });

  it("jobs/pages.ts walks the pages: it follows next and reads on from skip in its loop", () => {
    const own = reads.filter((r) => r.file === "jobs/pages.ts" && r.inLoop).map((r) => r.callee);
    expect(own).toEqual(expect.arrayContaining(["getJobPage", "getJobStatus"]));
  });

  it("no other module reads status pages in a loop (getJobPage, or getJobStatus with a skip): waiters, iterators, v1 and the watcher go through the walk", () => {
    expect(reads.filter((r) => r.inLoop && r.file !== "jobs/pages.ts").map((r) => `${r.file}:${r.line} ${r.callee}`)).toEqual([]);
  });

  it("no module counts a skip for a client's public status read (the AI tools' status read did, up to 20 pages, without the loop rules): it walks with jobPages", () => {
    expect(reads.filter((r) => (r.callee === "getCrawlStatus" || r.callee === "getBatchScrapeStatus") && r.file !== "jobs/pages.ts").map((r) => `${r.file}:${r.line} ${r.callee}`)).toEqual([]);
  });

  it("the checker finds a public status read given a skip, in a loop or not, and not one without", () => {
    const code = [
      "const read = (skip?: number) => client.getCrawlStatus(id, skip ? { skip } : undefined, { signal });",
      "for (let n = 1; n < 20; n++) await client.getBatchScrapeStatus(id, { skip: n * 100 });",
      "await client.getCrawlStatus(id, undefined, req);",
    ].join("\n");
    expect(pageReadsOf("ai/tools-jobs.ts", code)).toEqual([
      { callee: "getCrawlStatus", line: 1, inLoop: false },
      { callee: "getBatchScrapeStatus", line: 2, inLoop: true },
    ]);
  });

  it("only jobs/pages.ts follows next links (calls getJobPage), but for the one page a caller names in v1/jobs.ts", () => {
    expect(reads.filter((r) => r.callee === "getJobPage" && r.file !== "jobs/pages.ts" && !ONE_PAGE.includes(r.file)).map((r) => `${r.file}:${r.line}`)).toEqual([]);
  });
});

describe("one function sends (ARCHITECTURE.md: every endpoint is `Endpoint` data, sent by api/endpoint.ts)", () => {
  /**
   * The modules that may call `.request(` or `.raw(` themselves, each with its reason: the request
   * function itself is not a call of it, and `node.ts`'s `u.request` is undici's, the transport under
   * the request path. Everything else sends through `send` / `open` of `api/endpoint.ts`.
   */
  const EXCEPTIONS: Record<string, string> = {
    "api/endpoint.ts": "the one sender",
    "node.ts": "undici.request: the Node transport, under the request path",
  };
  /** A call of a method named `request` or `raw` (`http.request<T>(`, `client.http.raw(`, a chained `\n  .request(`), comments left out. */
  const SENDS = /\.\s*(?:request|raw)\s*[<(]/;
  const sends = (code: string): boolean => SENDS.test(code.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""));

  it("the check finds every form of a send", () => {
    for (const code of ["http.request<T>(() => spec, req)", "return http\n    .request<X>(() => ({}), req)", "ctx.http.raw({ method: \"GET\" }, opts)", "client.http.request({ method: \"GET\", path })"]) expect(sends(code)).toBe(true);
    for (const code of ["send(http, EP, req, id)", "open(http, EP, req, ctx)", "// http.request(spec)", "/** `http.raw(spec)` */", "reader.read()"]) expect(sends(code)).toBe(false);
  });

  it("no module of src/ but api/endpoint.ts calls HttpClient.request or .raw (the fake service, testing/, is not the client)", () => {
    const offenders = sourceFiles().filter((f) => !f.startsWith("testing/") && !(f in EXCEPTIONS) && sends(readFileSync(join(SRC, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("each exception still sends (a stale exception is removed)", () => {
    for (const f of Object.keys(EXCEPTIONS)) expect(sends(readFileSync(join(SRC, f), "utf8")), f).toBe(true);
  });
});

describe("official compatibility lives in webdata/firecrawl (issue 33: WebData returns its own shapes)", () => {
  /**
   * Where a `success` flag or an official-shape helper may appear: the drop-in (`firecrawl/`), which adapts
   * WebData's results to the official client's; the v1 face (`v1/`), whose answers are the v1 API's own
   * `{ success, ... }`; the fake service (`testing/`), which answers as the server does; and the webhook
   * deliveries' types (`api/webhooks.ts`), where `success` is the wire's field of each event.
   * `api/official-keys.ts` only refuses official keys with a hint naming the drop-in: it adapts nothing.
   */
  const ALLOWED_DIRS = ["firecrawl/", "v1/", "testing/"];
  const EXCEPTIONS: Record<string, string> = { "api/webhooks.ts": "the webhook deliveries' own `success` field (the wire's)" };
  /** Each rule, and whether it reads string literals (an import path, a property name) or code with the strings blanked (messages may say `success: false`). */
  const RULES: [string, RegExp, "strings" | "bare"][] = [
    ["imports the official-shape helpers", /from\s+["'][./]*(?:firecrawl\/|api\/)?official-shapes(?:\.js)?["']/, "strings"],
    ["uses an official-shape helper", /\b(?:withSuccess|listWithAlias|flattenBatchOptions|historicalOptions|agentArgs|SuccessFlag|ListWithAlias)\b/, "bare"],
    ["defines a success property", /definePropert(?:y|ies)\s*\([^;]*["']success["']/, "strings"],
    ["sets a success flag", /\bsuccess\s*:\s*(?:true|false)\b/, "bare"],
    ["declares a success field on a result", /\breadonly\s+success\b/, "bare"],
  ];
  const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
  const bare = (text: string): string => code(text).replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  const breaches = (text: string): string[] => RULES.filter(([, re, on]) => re.test(on === "bare" ? bare(text) : code(text))).map(([what]) => what);

  it("the check finds each form and not a comment or a read of the wire's success", () => {
    expect(breaches('import { withSuccess } from "../firecrawl/official-shapes.js";')).toEqual(["imports the official-shape helpers", "uses an official-shape helper"]);
    expect(breaches('import { x } from "./official-shapes.js";')).toEqual(["imports the official-shape helpers"]);
    expect(breaches("return listWithAlias(r, \"periods\");")).toEqual(["uses an official-shape helper"]);
    expect(breaches('Object.defineProperty(value, "success", { value: true, enumerable: false });')).toEqual(["defines a success property"]);
    expect(breaches("return { ...r, success: true };")).toEqual(["sets a success flag"]);
    expect(breaches("export interface R { readonly success?: boolean }")).toEqual(["declares a success field on a result"]);
    expect(breaches("/** answers `{ success: true }` */\nconst ok = (r: { success?: boolean }) => r.success !== false; // success: true")).toEqual([]);
    expect(breaches('z.refine(check, { error: "expected a string (or success: false)" });')).toEqual([]);
  });

  it("no module outside src/firecrawl/ (and the v1 face, the fake, the webhook types) adds success flags, list aliases or official overloads", () => {
    const offenders = sourceFiles()
      .filter((f) => !ALLOWED_DIRS.some((d) => f.startsWith(d)) && !(f in EXCEPTIONS))
      .flatMap((f) => breaches(readFileSync(join(SRC, f), "utf8")).map((what) => `${f}: ${what}`));
    expect(offenders).toEqual([]);
  });

  it("the helpers live in src/firecrawl/official-shapes.ts, and each exception still needs its exception", () => {
    expect(existsSync(join(SRC, "api/official-shapes.ts"))).toBe(false);
    expect(breaches(readFileSync(join(SRC, "firecrawl/official-shapes.ts"), "utf8"))).toContain("defines a success property");
    for (const f of Object.keys(EXCEPTIONS)) expect(breaches(readFileSync(join(SRC, f), "utf8")), f).not.toEqual([]);
  });
});
