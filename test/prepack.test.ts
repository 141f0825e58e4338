/**
 * `npm pack` from a fresh clone ships dist/: the package's `prepack` script
 * builds when dist/ is missing or older than the sources, and packs a fresh
 * dist/ as it is. Run through npm's own lifecycle, in a scratch project that
 * has the real `prepack` script and a stand-in `build` script (it writes the
 * one file the check reads, or fails when it must not run).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "..");
const realPkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> };

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function project(build: string): void {
  dir = mkdtempSync(join(tmpdir(), "webdata-prepack-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/index.ts"), "export {};\n");
  writeFileSync(join(dir, "tsup.config.ts"), "export default {};\n");
  cpSync(join(repo, "scripts"), join(dir, "scripts"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "prepack-probe", version: "1.0.0", files: ["dist"], scripts: { build: build, prepack: realPkg.scripts.prepack } }));
}

function packedFiles(): string[] {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
}

describe("npm pack (the prepack script)", () => {
  it("builds dist/ when a clone has none, so the tarball holds it", () => {
    project(`node -e "require('fs').mkdirSync('dist/node',{recursive:true});require('fs').writeFileSync('dist/node/index.js','built')"`);
    expect(packedFiles()).toContain("dist/node/index.js");
  });

  it("rebuilds a dist/ older than the sources", () => {
    project(`node -e "require('fs').writeFileSync('dist/node/index.js','rebuilt')"`);
    mkdirSync(join(dir, "dist/node"), { recursive: true });
    writeFileSync(join(dir, "dist/node/index.js"), "stale");
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, "dist/node/index.js"), old, old);
    packedFiles();
    expect(readFileSync(join(dir, "dist/node/index.js"), "utf8")).toBe("rebuilt");
  });

  it("packs a dist/ newer than every source as it is, without building", () => {
    project(`node -e "process.exit(3)"`);
    mkdirSync(join(dir, "dist/node"), { recursive: true });
    writeFileSync(join(dir, "dist/node/index.js"), "fresh");
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "dist/node/index.js"), later, later);
    expect(packedFiles()).toContain("dist/node/index.js");
  });
});
