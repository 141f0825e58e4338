/**
 * `npm run demo` (examples/demo.ts) walks the main flows against the built-in
 * fake, with readable output and no v1 deprecation warning: the demo shows the
 * recommended v2 API. Its waits (the crawl streamed a page every 100 ms, a
 * 429's one-second Retry-After, poll pauses) pass on fake time here, driven
 * between real loopback round trips; `npm run demo` keeps its pace.
 */
import { describe, expect, it, vi } from "vitest";
import { drivePaced, useJobTimers } from "./jobs-helpers.js";

describe("examples/demo.ts", () => {
  it("prints usage, scrape, map, crawl progress, watcher, signup, a retried 429, typed errors and usage again", async () => {
    vi.stubEnv("WEBDATA_API_KEY", "");
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
    const warn = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void lines.push(args.join(" ")));
    useJobTimers();
    try {
      await drivePaced(import("../examples/demo.js"));
    } finally {
      vi.useRealTimers();
      log.mockRestore();
      write.mockRestore();
      warn.mockRestore();
      vi.unstubAllEnvs();
    }
    const text = lines.join("\n");
    for (const label of ["usage", "scrape", "map", "crawl", "watch", "signup", "retry", "429", "error", "done"]) {
      expect(lines.some((l) => l.trimStart().startsWith(label)), label).toBe(true);
    }
    expect(text).toMatch(/crawl {4}\[#+\] 8\/8 pages, done: completed/);
    expect(text).toContain("8 documents delivered live");
    expect(text).toContain("JobFailedError");
    expect(text).toContain("ValidationError");
    expect(text).toContain("NotFoundError 404");
    expect(text).toMatch(/usage {4}\d+ of 100000 credits left \(\d+ spent by this demo\)/);
    // The recommended API only: no legacy-method warning.
    expect(text).not.toMatch(/legacy|deprecat|v1/i);
  });
});
