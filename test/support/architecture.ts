/**
 * The checker behind `test/architecture.test.ts`: reads every module's imports
 * with the TypeScript parser, reads the import table of `ARCHITECTURE.md`, and
 * lists the imports the table does not allow and the import cycles.
 */
import ts from "typescript";

/** One import of a module. */
export interface ImportRef {
  /** The specifier as written (`./errors.js`, `undici`, `node:stream`). */
  spec: string;
  /** `import type` / `export type` (or only type-only names): erased by the build. */
  typeOnly: boolean;
}

/** Every `import`, `export ... from`, `import()`, `require()` and `import("x").T` of a module (comments ignored). */
export function importsOf(fileName: string, code: string): ImportRef[] {
  const sf = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: ImportRef[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const clause = n.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = Boolean(clause?.isTypeOnly || (clause && !clause.name && named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      out.push({ spec: n.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      const named = n.exportClause && ts.isNamedExports(n.exportClause) ? n.exportClause.elements : undefined;
      out.push({ spec: n.moduleSpecifier.text, typeOnly: n.isTypeOnly || Boolean(named && named.length > 0 && named.every((e) => e.isTypeOnly)) });
    } else if (ts.isCallExpression(n) && n.arguments.length >= 1 && ts.isStringLiteralLike(n.arguments[0] as ts.Expression)) {
      const callee = n.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) out.push({ spec: (n.arguments[0] as ts.StringLiteralLike).text, typeOnly: false });
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      out.push({ spec: n.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** One row of the import table: which modules it is about, what they may import. */
export interface Rule {
  /** A folder (`core/`) or a file (`client.ts`), relative to `src/`. */
  module: string;
  /** Folders and files they may import. */
  modules: string[];
  /** Packages they may import (`zod`, `node:*`), and whether only as types. */
  packages: { name: string; typesOnly: boolean }[];
}

/** The rows of the "What may import what" table in `ARCHITECTURE.md`. */
export function parseRules(markdown: string): Rule[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith("What may import what"));
  if (!section) throw new Error("ARCHITECTURE.md has no 'What may import what' section");
  const rows = section.split("\n").filter((l) => /^\|\s*`/.test(l));
  return rows.map((row) => {
    const [module = "", may = "", pkgs = ""] = row.split("|").slice(1).map((c) => c.trim());
    const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const packages = pkgs
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean)
      .flatMap((p) => ticks(p).map((name) => ({ name, typesOnly: /\(types only\)/.test(p) })));
    return { module: ticks(module)[0] ?? "", modules: ticks(may), packages };
  });
}

/** True when `file` (relative to `src/`) is the module or in the folder a table cell names. */
function within(file: string, name: string): boolean {
  return name.endsWith("/") ? file.startsWith(name) : file === name;
}

function folderOf(file: string): string | undefined {
  const i = file.indexOf("/");
  return i < 0 ? undefined : file.slice(0, i + 1);
}

function packageAllowed(spec: string, allowed: { name: string; typesOnly: boolean }[], typeOnly: boolean): boolean {
  return allowed.some((p) => {
    const hit = p.name === "node:*" ? spec.startsWith("node:") : spec === p.name || spec.startsWith(`${p.name}/`);
    return hit && (typeOnly || !p.typesOnly);
  });
}

/** A module's imports, resolved: `files` relative to `src/`, `packages` as written. */
export interface ModuleImports {
  files: { file: string; typeOnly: boolean }[];
  packages: ImportRef[];
}

/** The imports the table does not allow, as `from -> to` lines. A module no row names may import nothing. */
export function violations(graph: Map<string, ModuleImports>, rules: Rule[]): string[] {
  const out: string[] = [];
  for (const [from, imports] of graph) {
    const rows = rules.filter((r) => within(from, r.module));
    const own = folderOf(from);
    for (const { file } of imports.files) {
      const ok = (own !== undefined && file.startsWith(own)) || rows.some((r) => r.modules.some((m) => within(file, m)));
      if (!ok) out.push(`${from} -> ${file}`);
    }
    for (const { spec, typeOnly } of imports.packages) {
      if (!rows.some((r) => packageAllowed(spec, r.packages, typeOnly))) out.push(`${from} -> ${spec}${typeOnly ? " (type)" : ""}`);
    }
  }
  return out;
}

/** Import cycles (each once, as `a -> b -> a`), type imports and `import()` included; empty exactly when the graph has none. */
export function cycles(graph: Map<string, ModuleImports>): string[] {
  const found = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const { file } of graph.get(node)?.files ?? []) {
      if (state.get(file) === "open") {
        const loop = stack.slice(stack.indexOf(file));
        // Rotate so each cycle prints once, from its smallest name.
        const start = loop.indexOf([...loop].sort()[0] as string);
        const canon = [...loop.slice(start), ...loop.slice(0, start)];
        found.add([...canon, canon[0]].join(" -> "));
      } else if (!state.has(file)) visit(file);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return [...found];
}

/** A read of a job's status pages in a module: `getJobPage(...)` (a `next` link followed) or `getJobStatus(...)` given a `skip`. */
export interface PageRead {
  /** `getJobPage`, or `getJobStatus` with a `skip` key in its page options, or a client's public status read (`x.getCrawlStatus(...)`, `x.getBatchScrapeStatus(...)`) given a `skip`. */
  callee: "getJobPage" | "getJobStatus" | "readJobStatus" | "getCrawlStatus" | "getBatchScrapeStatus";
  /** 1-based line of the call. */
  line: number;
  /** The call sits inside a loop statement (`for`, `while`, `do`, `for...of`, `for...in`), a function defined in the loop included: a walk of the pages. */
  inLoop: boolean;
}

/**
 * The page reads of a module ({@link PageRead}): every `getJobPage` call, every `getJobStatus` or
 * `readJobStatus` call whose page options (its 4th argument) are an object literal with a `skip` key
 * (or a call given one: `ownPage({ skip })`), and every call of a client's
 * public `getCrawlStatus` / `getBatchScrapeStatus` method whose arguments hold an object literal with a
 * `skip` key (`skip ? { skip } : undefined` included): a module that counts the skip itself walks the pages,
 * in a loop or not. One in a loop is a walk of the pages; `ARCHITECTURE.md` gives the walk one home.
 */
export function pageReadsOf(fileName: string, code: string): PageRead[] {
  const sf = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: PageRead[] = [];
  // Page options as an object literal, or wrapped in a call (`ownPage({ skip })`, options the SDK makes itself).
  const hasSkip = (arg: ts.Expression | undefined): boolean =>
    !!arg &&
    ((ts.isObjectLiteralExpression(arg) && arg.properties.some((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText(sf) === "skip")) ||
      (ts.isCallExpression(arg) && hasSkip(arg.arguments[0])));
  const inLoop = (n: ts.Node): boolean => {
    for (let p = n.parent; p && !ts.isSourceFile(p); p = p.parent) if (ts.isIterationStatement(p, false)) return true;
    return false;
  };
  const holdsSkip = (arg: ts.Node): boolean => (ts.isExpression(arg) && hasSkip(arg)) || (ts.forEachChild(arg, (c) => holdsSkip(c) || undefined) ?? false);
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) {
      const name = n.expression.text;
      // `readJobStatus` is `getJobStatus` with its options checked already (the walk's and the polls' read).
      if (name === "getJobPage" || ((name === "getJobStatus" || name === "readJobStatus") && hasSkip(n.arguments[3]))) {
        out.push({ callee: name, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, inLoop: inLoop(n) });
      }
    } else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const name = n.expression.name.text;
      if ((name === "getCrawlStatus" || name === "getBatchScrapeStatus") && n.arguments.some(holdsSkip)) {
        out.push({ callee: name, line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, inLoop: inLoop(n) });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}
