/**
 * Two homes `test/architecture.test.ts` cannot see by imports, read from the parsed source of `src/`:
 *
 * - One home for time: `core/time.ts` owns every timer of the library (sleeps, attempt timeouts,
 *   deadlines, handshake and idle timers), clamps their delays and is what tests drive; no other
 *   module names `setTimeout`, `clearTimeout`, `setInterval` or `setImmediate`. The fake service
 *   (`testing/`) and the CLI (`cli/`) are not the library and keep their own.
 * - The client's memory on the client: what a client remembers between calls is in its
 *   `ClientState` (`core/client-state.ts`, `http.state`), never in module scope, so two clients in one
 *   process never change each other's results. A module-level `let`/`var`, or a module-level `Map`,
 *   `WeakMap`, `Set` or `WeakSet` that the module writes, is state; each one allowed is listed below
 *   with its reason (caches of pure values, and what is shared on purpose).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** `src/**\/*.ts` of the library (not `testing/`, not `cli/`), relative to `src/`, with `/` separators. */
function libraryFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? libraryFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [relative(SRC, join(dir, e.name)).split("\\").join("/")] : []))
    .filter((f) => !f.startsWith("testing/") && !f.startsWith("cli/"));
}

const parse = (file: string, code: string) => ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

const TIMER_NAMES = new Set(["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate"]);

/** Every use of a timer global in `code` (an identifier, `globalThis.setTimeout` included; comments and strings are not code), as `name:line`. */
function timerUses(file: string, code: string): string[] {
  const sf = parse(file, code);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && TIMER_NAMES.has(n.text)) out.push(`${n.text}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const COLLECTIONS = new Set(["Map", "WeakMap", "Set", "WeakSet"]);
const WRITES = new Set(["set", "add", "delete", "clear"]);

/**
 * The module-level state of `code`: every top-level `let` or `var`, and every top-level `const` made by
 * `new Map|WeakMap|Set|WeakSet` that the module writes (`.set`, `.add`, `.delete`, `.clear` on it).
 * A collection only read (a constant table) is no state.
 */
function moduleState(file: string, code: string): string[] {
  const sf = parse(file, code);
  const written = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isIdentifier(n.expression.expression) && WRITES.has(n.expression.name.text)) {
      written.add(n.expression.expression.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const list = st.declarationList;
    const mutable = (list.flags & ts.NodeFlags.Const) === 0; // let or var
    for (const d of list.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      const name = d.name.text;
      const init = d.initializer;
      const collection = init !== undefined && ts.isNewExpression(init) && ts.isIdentifier(init.expression) && COLLECTIONS.has(init.expression.text);
      if (mutable || (collection && written.has(name))) out.push(`${file}:${name}`);
    }
  }
  return out;
}

/** Module-level state allowed in the library, each with its reason. Nothing here is keyed by a client. */
const ALLOWED_STATE: Record<string, string> = {
  "core/time.ts:fanouts": "the one `abort` listener per caller AbortSignal: process-wide because several clients may share a signal; it holds listeners, never a result",
  "core/time.ts:linked": "marks the signals this module made, so a call is linked once: a fact about a signal, not about a client",
  "core/validate.ts:cuts": "a cache of a pure value: a schema cut to a path is a function of the schema and the path",
  "core/validate.ts:verdicts": "a cache of a pure value: a schema's verdict on a value made of JSON alone is a function of the schema and the JSON text",
  "api/schema.ts:cache": "a cache of a pure value: a user's schema's JSON Schema is a function of the schema",
  "node.ts:undici": "the undici module once loaded: a cache of a pure value, the same whichever client loads it",
  "node.ts:loading": "the one load of undici in flight (the same module for every client)",
  "node.ts:AnswerHeaders": "the class of an answer's headers, made on the first answer (not at import: see its note): a class, the same for every client, never a result",
  "node.ts:shared": "the process-wide keep-alive pool of the clients without a dispatcher or maxConnections of their own: connections shared on purpose, never a result",
  "core/response.ts:noticed": "the server's deprecation notices, once per process and endpoint as documented (test/deprecation-signals.test.ts): a log line, never a result",
  "v1/deprecation.ts:warned": "the v1 deprecation notices, once per process as documented (test/v1-deprecation.test.ts): a log line, never a result",
};

describe("the checkers", () => {
  it("timerUses finds a timer global in every form, and none in a comment or a string", () => {
    const code = [
      "const t = setTimeout(fn, 10);",
      "clearTimeout(t);",
      "globalThis.setTimeout(fn, 1);",
      "let h: ReturnType<typeof setInterval>;",
      "setImmediate(fn);",
      "// setTimeout(fn, 0)",
      'const s = "setTimeout";',
      "after(0, fn);",
    ].join("\n");
    expect(timerUses("x.ts", code)).toEqual(["setTimeout:1", "clearTimeout:2", "setTimeout:3", "setInterval:4", "setImmediate:5"]);
  });

  it("moduleState finds a module-level let, var and written collection (the old job-starts and cancelled maps), and no constant table or local", () => {
    const code = [
      "const starts = new WeakMap<object, Map<string, number>>();",
      "export function noteStart(client: object, id: string) { starts.set(client, new Map([[id, Date.now()]])); }",
      "const cancelled = new WeakMap<HttpClient, Set<string>>();",
      "function cancel(http: HttpClient, id: string) { const set = cancelled.get(http) ?? new Set<string>(); set.add(id); cancelled.set(http, set); }",
      "let said = false;",
      "var count = 0;",
      "const CODES = new Set([1008, 3000]);",
      "const TABLE = new Map([['a', 1]]);",
      "export function f() { let local = 0; const m = new Map(); m.set(1, 2); return CODES.has(local) && TABLE.get('a'); }",
    ].join("\n");
    expect(moduleState("x.ts", code)).toEqual(["x.ts:starts", "x.ts:cancelled", "x.ts:said", "x.ts:count"]);
  });
});

describe("one home for time (core/time.ts)", () => {
  const files = libraryFiles();

  it("reads the library's modules", () => {
    expect(files).toEqual(expect.arrayContaining(["core/time.ts", "core/request.ts", "jobs/watcher.ts", "jobs/watch-ws.ts", "jobs/watch-sse.ts", "jobs/polling.ts", "v1/watcher.ts", "firecrawl/watcher.ts"]));
  });

  it("core/time.ts is where the timers are", () => {
    expect(timerUses("core/time.ts", readFileSync(join(SRC, "core/time.ts"), "utf8")).length).toBeGreaterThan(0);
  });

  it("no other module of the library calls setTimeout, clearTimeout, setInterval or setImmediate (they ask core/time.ts)", () => {
    const offenders = files.filter((f) => f !== "core/time.ts").flatMap((f) => timerUses(f, readFileSync(join(SRC, f), "utf8")).map((u) => `${f} ${u}`));
    expect(offenders).toEqual([]);
  });
});

describe("v1 sleeps through the shared jobs/ calls, never itself", () => {
  it("no v1 module calls delay() of core/time.ts (the sleep moved there from core/time.ts, which architecture.test.ts watches)", () => {
    const sleeps = libraryFiles()
      .filter((f) => f.startsWith("v1/"))
      .filter((f) => /\bdelay\s*\(/.test(readFileSync(join(SRC, f), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "")));
    expect(sleeps).toEqual([]);
  });
});

describe("the client's memory on the client (core/client-state.ts)", () => {
  const files = libraryFiles();
  const state = files.flatMap((f) => moduleState(f, readFileSync(join(SRC, f), "utf8")));

  it("no module-level state but the allowed (what a client remembers is in its ClientState, `http.state`)", () => {
    expect(state.filter((s) => !(s in ALLOWED_STATE))).toEqual([]);
  });

  it("each allowed entry is still there (a stale entry is removed), but for a module another change deletes", () => {
    const stale = Object.keys(ALLOWED_STATE).filter((key) => existsSync(join(SRC, key.split(":")[0] ?? "")) && !state.includes(key));
    expect(stale).toEqual([]);
  });

  it("started and cancelled jobs are on the client's state, read through the HttpClient every api/ and jobs/ function receives", () => {
    const code = readFileSync(join(SRC, "core/client-state.ts"), "utf8");
    expect(code).toMatch(/readonly starts = new Map<string, number>\(\)/);
    expect(code).toMatch(/readonly cancelled = new Set<string>\(\)/);
    expect(readFileSync(join(SRC, "core/request.ts"), "utf8")).toMatch(/readonly state = new ClientState\(\)/);
  });
});
