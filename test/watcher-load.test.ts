/**
 * The watcher's transports are modules loaded on first use. One that cannot be
 * loaded (a browser chunk that fails to download, simulated here by a module
 * whose evaluation throws) makes that transport unavailable: the watcher says
 * so in a non-fatal error event and falls back to the next transport.
 */
import { describe, expect, it, vi } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService, fakeJobs } from "../src/testing/index.js";
import { FAST_WATCH } from "./support/fast-poll.js";

vi.mock("../src/jobs/watch-sse.js", () => {
  throw new Error("Failed to fetch dynamically imported module: watch-sse.js");
});

describe("watcher transport that cannot be loaded", () => {
  it("falls back to polling and still delivers every document and done", async () => {
    const fake = createFakeService({ sse: true });
    fakeJobs(fake);
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const job = await client.startCrawl("https://acme.test/", { limit: 3 });
    const events: { type: string; fatal?: boolean; error?: { message: string } }[] = [];
    for await (const ev of client.watcher(job.id, { transports: ["sse", "poll"], ...FAST_WATCH })) events.push(ev as never);
    const errors = events.filter((e) => e.type === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ fatal: false, error: { message: expect.stringContaining("Could not load a watcher transport") } });
    expect(events.filter((e) => e.type === "document").length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: "done", status: "completed" });
  });
});
