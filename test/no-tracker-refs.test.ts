/**
 * Comments, names and strings state the rule, not a tracker number: no code file of `src/`, `test/`,
 * `bench/`, `examples/` or `scripts/`, and no guide (README, MIGRATION, TESTING, ARCHITECTURE,
 * bench/README, examples/README), cites "issue <n>", "issues <n>" or "item <n> of". A reader of the code
 * has no tracker: "(issue <n>)" after a comment says nothing the rule itself would not. CHANGELOG.md
 * keeps its history as written. The pattern below is spelt so that this file does not match it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CODE_DIRS = ["src", "test", "bench", "examples", "scripts"];
const CODE = /\.(?:[cm]?ts|tsx|[cm]?js)$/;
const SKIP = new Set(["node_modules", "dist", "official-client"]);
const DOCS = ["README.md", "MIGRATION.md", "TESTING.md", "ARCHITECTURE.md", "bench/README.md", "examples/README.md"];
/** "issue" or "issues" then a number (or "#" and a number), "item" then a number then "of": a tracker number where a rule should be. */
const TRACKER = /\bissues?\s+#?\d+|\bitem\s+\d+\s+of\b/gi;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? codeFiles(path) : CODE.test(e.name) ? [path] : [];
  });
}

/** `file:line: text` of every line that cites a tracker number. */
function citations(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .flatMap((line, i) => (line.match(TRACKER) ? [`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`] : []));
}

describe("no tracker numbers in code or guides", () => {
  it("the pattern finds what it is for, and this file does not match it", () => {
    const found = (s: string) => s.match(TRACKER) ?? [];
    // Each example is split inside its citation, so that this file's own text cites nothing.
    expect(found(["// Stalled jobs (iss", "ue 35): ..."].join(""))).toHaveLength(1);
    expect(found(["goals (iss", "ues 26 and 36)"].join(""))).toHaveLength(1);
    expect(found(["(Iss", "ue #12)"].join(""))).toHaveLength(1);
    expect(found(["the CLI half of it", "em 3 of it"].join(""))).toHaveLength(1);
    // A zod issue or a count is no citation.
    expect(found("a positive integer, or the issue that says it is not; issues: [] ; 3 items of 4")).toEqual([]);
    expect(citations(fileURLToPath(import.meta.url))).toEqual([]);
  });

  it.each(CODE_DIRS)("%s/: every comment, name and string states the rule", (dir) => {
    const files = codeFiles(join(ROOT, dir));
    expect(files.length, `${dir}/ has code files`).toBeGreaterThan(0);
    expect(files.flatMap(citations)).toEqual([]);
  });

  it.each(DOCS)("%s states the rule, not a tracker number", (doc) => {
    expect(citations(join(ROOT, doc))).toEqual([]);
  });
});
