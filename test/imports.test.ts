/**
 * The portable core stays portable: only the Node entries (and the fake's
 * loopback adapter) may import `node:*` or undici. Scans every source file's
 * import, export-from, dynamic import() and require() specifiers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

/** Modules allowed to import Node built-ins or undici at run time. */
const ALLOWED = new Set(["src/node.ts", "src/testing/node.ts"]);

/** Node-only specifiers: `node:*`, undici, and bare built-in names. */
const NODE_ONLY = /^(node:|undici($|\/)|(fs|http|https|net|tls|stream|events|os|path|url|util|zlib|crypto|child_process|worker_threads|buffer)(\/|$))/;

/** Every module specifier in `code`, with whether it is type-only (erased at build). */
export function specifiers(code: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  const stripped = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const staticRe = /^\s*(import|export)\s+(type\s+)?([\s\S]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const m of stripped.matchAll(staticRe)) out.push({ spec: m[4] ?? "", typeOnly: Boolean(m[2]) });
  for (const m of stripped.matchAll(/\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[1] ?? "", typeOnly: false });
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Forbidden imports of the file at `rel` (a repo-relative path). */
export function violations(rel: string, code: string): string[] {
  // The CLI (src/cli/) is a Node program of its own (the `webdata` bin), never imported by the library.
  if (ALLOWED.has(rel) || rel.startsWith("src/cli/")) return [];
  return specifiers(code)
    .filter(({ spec }) => NODE_ONLY.test(spec))
    // Type-only imports are erased from the JavaScript; the fake (src/testing) may type its loopback helpers with them.
    .filter(({ typeOnly }) => !(typeOnly && rel.startsWith("src/testing/")))
    .map(({ spec }) => `${rel} imports ${spec}`);
}

describe("node-only imports", () => {
  it("the scanner sees every import form", () => {
    const code = [
      'import { request } from "undici";',
      'import type { Server } from "node:http";',
      'export { Agent } from "undici/agent";',
      'const fs = await import("node:fs");',
      'const os = require("os");',
      "import {\n  Readable,\n} from 'node:stream';",
      '// import { x } from "node:commented";',
      'import { z } from "zod/mini";',
    ].join("\n");
    expect(violations("src/core/x.ts", code)).toEqual([
      "src/core/x.ts imports undici",
      "src/core/x.ts imports node:http",
      "src/core/x.ts imports undici/agent",
      "src/core/x.ts imports node:stream",
      "src/core/x.ts imports node:fs",
      "src/core/x.ts imports os",
    ]);
    expect(violations("src/node.ts", code)).toEqual([]);
    expect(violations("src/testing/ws.ts", 'import type { Duplex } from "node:stream";')).toEqual([]);
    expect(violations("src/testing/ws.ts", 'import { Duplex } from "node:stream";')).toEqual(["src/testing/ws.ts imports node:stream"]);
  });

  it("only src/node.ts, src/v1/node.ts, src/testing/node.ts and the CLI import node:* or undici", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((f) => violations(relative(join(SRC, ".."), f).split("\\").join("/"), readFileSync(f, "utf8")));
    expect(found).toEqual([]);
  });
});
