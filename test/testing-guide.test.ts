/**
 * TESTING.md cannot drift from the code the suite runs: every code block
 * marked `file=<path>` equals that file byte for byte, and every file under
 * examples/testing/ is shown in the guide (the suite runs those files:
 * vitest.config.ts includes examples/**\/*.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const guide = readFileSync(`${ROOT}TESTING.md`, "utf8");
const blocks = [...guide.matchAll(/^```(\w+) file=(\S+)\n([\s\S]*?)^```$/gm)].map((m) => ({ file: m[2] as string, code: m[3] as string }));

describe("TESTING.md", () => {
  it("shows every file of examples/testing/ and nothing else as code", () => {
    const files = readdirSync(`${ROOT}examples/testing`).filter((f) => f.endsWith(".ts")).map((f) => `examples/testing/${f}`);
    expect(blocks.map((b) => b.file).sort()).toEqual(files.sort());
    // TypeScript appears only in file blocks (shell commands are fine).
    expect(guide.match(/^```(ts|typescript|js)\s*$/gm)).toBeNull();
  });

  for (const { file, code } of blocks) {
    it(`${file} is shown exactly as the suite runs it`, () => {
      expect(code).toBe(readFileSync(`${ROOT}${file}`, "utf8"));
    });
  }

  it("is linked from the README", () => {
    expect(readFileSync(`${ROOT}README.md`, "utf8")).toContain("(TESTING.md)");
  });
});
