/**
 * Runs examples/jobs.ts (crawl, iterate, watch, batch, cancel) against the
 * fake service over both transports, so the README's job flows cannot rot. The
 * example's poll pauses pass on fake time, driven (paced) between real loopback round trips.
 */
import { describe, expect, it, vi } from "vitest";
import { jobs } from "../examples/jobs.js";
import { fakeJobs } from "../src/testing/index.js";
import { setup, TRANSPORTS } from "./helpers.js";
import { drivePaced, useJobTimers } from "./jobs-helpers.js";

describe.each(TRANSPORTS)("examples/jobs over %s", (kind) => {
  it("crawls, iterates pages, watches, batch scrapes and reports a cancelled crawl", async () => {
    const s = await setup(kind);
    fakeJobs(s.fake).configure({ pagesPerPoll: 2, defaultPageSize: 2 });
    const lines: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    useJobTimers();
    try {
      const out = await drivePaced(jobs(s.client, "https://acme.test", 20));
      expect(out.crawled).toBe(5);
      expect(out.iterated).toBe(4);
      expect(out.watched).toEqual({ documents: 3, done: "completed" });
      // No error event on the way: fake time did not outrun the real WebSocket handshake (as drive's fixed steps could).
      expect(lines.filter((l) => l.startsWith("watch    (recovered)"))).toEqual([]);
      expect(out.batched).toBe(2);
      expect(out.cancelled).toBe("cancelled");
      // Iteration followed `next` across pages of two documents.
      expect(s.fake.requests.some((r) => r.method === "GET" && /[?&]skip=2/.test(r.path))).toBe(true);
    } finally {
      vi.useRealTimers();
      log.mockRestore();
      await s.close();
    }
  });
});
