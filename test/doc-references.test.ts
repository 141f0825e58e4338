/**
 * The repository's documents cite only files it has: every `NAME.md` (or `path/NAME.md`) named in the
 * documents a user reads (the ones the package ships: README, CHANGELOG, MIGRATION, TESTING) and in those
 * a maintainer reads (ARCHITECTURE, bench/README, examples/README) is a file of the repository. The
 * CHANGELOG cited a DESIGN.md that the repository does not have.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = ["README.md", "CHANGELOG.md", "MIGRATION.md", "TESTING.md", "ARCHITECTURE.md", "bench/README.md", "examples/README.md"];

describe("documents cite only files of the repository", () => {
  it.each(DOCS)("%s", (doc) => {
    const text = readFileSync(join(ROOT, doc), "utf8");
    const missing = [...new Set([...text.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)\b/g)].map((m) => m[1]!))].filter(
      (name) => !existsSync(join(ROOT, name)) && !existsSync(join(ROOT, dirname(doc), name)),
    );
    expect(missing, `${doc} names files the repository does not have`).toEqual([]);
  });
});
