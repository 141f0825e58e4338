/**
 * The shipped declarations (`dist/**\/*.d.ts`, `.d.cts`) show what users use and nothing else,
 * and say what the JavaScript beside them exports:
 * - for every entry and condition of the `exports` map, the values of its declaration file are
 *   exactly the names its JavaScript exports (a class exported as a type only, such as `Watcher`,
 *   would otherwise type-check `new Watcher()` and fail at run time);
 * - no internal member, argument or helper (`WebData.http`, `ClientOptions.transport`, the Node
 *   transport, `@internal` text) is in them;
 * - `webdata/types` resolves, types only, for ESM and CommonJS consumers under `moduleResolution`
 *   node16, nodenext and bundler (a consumer project whose `node_modules/webdata` is this package).
 * Reads `dist/`: run `npm run build` first (`npm run test:builds` runs it after the build).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(REPO, "dist");
if (!existsSync(join(DIST, "types.d.ts"))) throw new Error("dist/ is missing or stale: run `npm run build` first");

type Target = { types: string; js: string };
type Conditions = { [condition: string]: string | Conditions };

/** Every (declaration file, JavaScript file) pair the `exports` map can hand a consumer, by subpath. */
function targets(): Map<string, Target[]> {
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { exports: Record<string, string | Conditions> };
  const out = new Map<string, Target[]>();
  const walk = (subpath: string, node: string | Conditions): void => {
    if (typeof node === "string") return;
    if (typeof node.types === "string" && typeof node.default === "string") {
      const list = out.get(subpath) ?? [];
      if (!list.some((t) => t.types === node.types && t.js === node.default)) list.push({ types: node.types, js: node.default as string });
      out.set(subpath, list);
      return;
    }
    for (const child of Object.values(node)) walk(subpath, child);
  };
  for (const [subpath, node] of Object.entries(pkg.exports)) walk(subpath, node);
  return out;
}

/** The value exports of a declaration file, as TypeScript sees them. */
function declaredValues(program: ts.Program, file: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module at ${file}`);
  const values: string[] = [];
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const typeOnly = symbol.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d) || (ts.isExportSpecifier(d) && d.parent.parent.isTypeOnly)) ?? false;
    if (target.flags & ts.SymbolFlags.Value && !typeOnly) values.push(symbol.name);
  }
  return values.sort();
}

/** What the JavaScript file exports at run time (`import()` for ESM, `require()` for CommonJS). */
async function runtimeExports(file: string): Promise<string[]> {
  const mod = file.endsWith(".cjs") ? (createRequire(import.meta.url)(file) as Record<string, unknown>) : ((await import(pathToFileURL(file).href)) as Record<string, unknown>);
  return Object.keys(mod).sort();
}

function declarationFiles(dir = DIST): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarationFiles(join(dir, e.name)) : /\.d\.c?ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

describe("the shipped declarations", () => {
  it("say exactly what the JavaScript exports, for every entry and condition", async () => {
    const all = targets();
    expect([...all.keys()]).toContain("./types");
    const files = [...all.values()].flat().map((t) => join(REPO, t.types));
    const program = ts.createProgram(files, { strict: true, skipLibCheck: true, noEmit: true, types: ["node"], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
    const mismatches: string[] = [];
    for (const [subpath, list] of all) {
      for (const { types, js } of list) {
        const declared = declaredValues(program, join(REPO, types));
        const actual = await runtimeExports(join(REPO, js));
        const onlyDeclared = declared.filter((n) => !actual.includes(n));
        const onlyActual = actual.filter((n) => !declared.includes(n));
        if (onlyDeclared.length || onlyActual.length) mismatches.push(`${subpath} ${types} / ${js}: declared only ${onlyDeclared.join(",")}; exported only ${onlyActual.join(",")}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("carry no internal member, argument or helper", () => {
    const leaks: string[] = [];
    for (const file of declarationFiles()) {
      const text = readFileSync(file, "utf8");
      // The members themselves (`WebData.http`, `ClientOptions.transport`) are refused by the consumer compile below.
      for (const pattern of [/@internal/, /\bundiciTransport\b/, /\bAttemptSignal\b/, /\bHttpClient\b/, /\bdeclare function cut\b/]) {
        if (pattern.test(text)) leaks.push(`${file.slice(DIST.length + 1)}: ${pattern}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});

describe("a consumer project compiles against the package", () => {
  const dir = mkdtempSync(join(tmpdir(), "webdata-types-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(REPO, join(dir, "node_modules", "webdata"), "dir");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // ESM (and bundler) consumer: moved types from webdata/types, the internals refused.
  const esm = `
import * as root from "webdata";
import { WebData, type ClientOptions, type Document } from "webdata";
import type { CreditUsagePeriod, Document as TypesDocument, JsonFormat, RetryEvent, WatchDocumentEvent, Watcher } from "webdata/types";
import * as types from "webdata/types";
import * as ai from "webdata/ai";

export const format: JsonFormat = { type: "json", prompt: "the price" };
export const period = (p: CreditUsagePeriod): string | null => p.startDate;
export const onRetry = (e: RetryEvent): number => e.attempt;
export const url = (e: WatchDocumentEvent): string | undefined => e.document.metadata?.sourceURL;
export const same = (d: Document): TypesDocument => d;
export const watch = (c: WebData, id: string): Watcher => c.watcher(id);
// @ts-expect-error webdata/types has no values
void types.WebData;
// @ts-expect-error Watcher is a type: the client makes watchers
void root.Watcher;
// @ts-expect-error the request layer is no public member
export const leak = (c: WebData) => c.http;
// @ts-expect-error the transport is the entry's choice, not a client option
export const options: ClientOptions = { transport: undefined };
// @ts-expect-error the undici transport is no public name
void root.undiciTransport;
// @ts-expect-error webdata/ai cuts its own results; no cut helper
void ai.cut;
// @ts-expect-error the MCP server's missing-SDK message is its error's text, not a public name
void ai.MCP_SDK_HINT;
`;
  // CommonJS consumer: the require condition's declarations.
  const cjs = `
import webdata = require("webdata");
import type { JsonFormat, WatchEvent } from "webdata/types";
export const format: JsonFormat = { type: "json", prompt: "the price" };
export const kind = (e: WatchEvent): string => e.type;
export const client = (): webdata.WebData => new webdata.WebData({ apiUrl: "http://127.0.0.1:1" });
`;

  const compile = (files: Record<string, string>, options: ts.CompilerOptions): string[] => {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const program = ts.createProgram(
      Object.keys(files).map((f) => join(dir, f)),
      { strict: true, skipLibCheck: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: ["node"], typeRoots: [join(REPO, "node_modules", "@types")], ...options },
    );
    return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? d.file.fileName.slice(dir.length + 1) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  };

  it.each([
    ["node16", ts.ModuleKind.Node16, ts.ModuleResolutionKind.Node16],
    ["nodenext", ts.ModuleKind.NodeNext, ts.ModuleResolutionKind.NodeNext],
  ] as const)("moduleResolution %s: ESM (.mts) and CommonJS (.cts)", (_name, module, moduleResolution) => {
    expect(compile({ "esm.mts": esm, "cjs.cts": cjs }, { module, moduleResolution })).toEqual([]);
  }, 60_000);

  it("moduleResolution bundler", () => {
    expect(compile({ "bundler.ts": esm }, { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler })).toEqual([]);
  }, 60_000);
});
