/**
 * The default logger (no `logger` option) prints a message without data as the
 * message alone: an empty second argument made every such line end in a space
 * under `WEBDATA_LOG=debug` / `logLevel: "debug"`.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";

afterEach(() => vi.restoreAllMocks());

describe("the default console logger", () => {
  it("prints a debug line without data with no trailing argument, and one with data with it", async () => {
    const calls: unknown[][] = [];
    vi.spyOn(console, "debug").mockImplementation((...args: unknown[]) => void calls.push(args));
    const fake = createFakeService();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "debug" });
    await client.scrape("https://acme.test/");
    expect(calls.length).toBeGreaterThan(0);
    for (const args of calls) {
      expect(args.length === 1 || (args.length === 2 && args[1] !== undefined && args[1] !== ""), JSON.stringify(args)).toBe(true);
      expect(String(args[0])).not.toMatch(/\s$/);
    }
  });
});
