/**
 * `npm run bench` works: the client benchmark runs once at tiny sizes and prints
 * every measure for every contender. No figure is asserted (a benchmark never
 * fails a test for being slow); only that each measure produced numbers.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("bench/clients.ts", () => {
  it("runs every measure at tiny sizes and prints ratios", async () => {
    const args = ["tsx", "bench/clients.ts", "--runs", "1", "--call-runs", "1", "--seq", "20", "--conc", "8", "--conc-total", "40", "--crawl-docs", "400", "--burst", "3", "--retry-after-s", "0.02", "--json"];
    const { stdout } = await promisify(execFile)("npx", args, { cwd: ROOT, encoding: "utf8", timeout: 240_000 });
    const { rows, goals } = JSON.parse(stdout) as { rows: { measure: string; contender: string; value: { median: number }; ratio: number }[]; goals: unknown[] };
    const measures = new Set(rows.map((r) => r.measure.split(",")[0]!.split(" ")[0]));
    expect([...measures].sort()).toEqual(["3", "SDK", "browser", "cold", "heap", "peak", "per", "status", "throughput", "time"].sort());
    for (const r of rows) {
      expect(Number.isFinite(r.value.median), `${r.measure} / ${r.contender}`).toBe(true);
      expect(Number.isFinite(r.ratio), `${r.measure} / ${r.contender}`).toBe(true);
    }
    // Cold start: import() alone, with the first scrape, and in a process that has its zod already.
    expect(rows.filter((r) => r.measure.startsWith("cold")).map((r) => r.measure)).toEqual(
      expect.arrayContaining(["cold import(), fresh process", "cold import() + first scrape, fresh process", "cold import(), fresh process that has loaded its zod (an app using zod)"]),
    );
    const contenders = new Set(rows.map((r) => r.contender));
    for (const c of ["node:http keep-alive (floor)", "raw undici.request", "raw global fetch", "official 4.42.0", "webdata (Node entry, undici)", "webdata (fetch)", "raw page-by-page loop"]) expect(contenders).toContain(c);
    // The browser bundles beside the official client's (built with "events" and "undici" stubbed), and the ramped polls on the fake clock.
    for (const c of ["webdata everything inlined", "webdata import { WebData }, initial", "webdata import { scrape }, initial", "webdata default (ramped polls)", "zod/v4/mini alone (webdata's peer)"]) expect(contenders).toContain(c);
    expect(rows.find((r) => r.measure.startsWith("time to the first document") && r.contender.startsWith("webdata"))?.value.median).toBe(1250);
    expect(goals.length).toBeGreaterThanOrEqual(11);
    // Per call and throughput as an app meets the client: the server and each contender in processes of their own, against undici.request,
    // with the p99 of the single calls and the CPU time a call beside the mean.
    for (const m of ["per call,", "per call p99,", "per call CPU time,", "throughput,"]) {
      const measured = rows.filter((r) => r.measure.startsWith(m));
      expect(measured.map((r) => r.contender).sort(), m).toEqual(["node:http keep-alive (floor)", "official 4.42.0", "raw global fetch", "raw undici.request", "webdata (Node entry, undici)", "webdata (fetch)"]);
      expect(measured[0]!.measure, m).toContain("in a process of their own");
      expect(measured.find((r) => r.contender === "raw undici.request")?.ratio, m).toBe(1);
    }
    expect((goals as { goal: string }[]).map((g) => g.goal)).toEqual(expect.arrayContaining(["per call <= 1.2x undici.request", "p99 above undici.request's by <= the per-call gap"]));
    // Every third scrape of the burst is a 429 with a wait: webdata retries it, so all succeed.
    const burst = rows.find((r) => r.measure.includes("429") && r.contender.startsWith("webdata"));
    expect(burst?.value.median).toBe(3);
  }, 270_000);
});

describe("bench/tail.mjs", () => {
  it("times each call for raw undici and webdata, with the slowest calls' CPU and GC overlap", async () => {
    const { startBenchServer } = await import("../bench/server.js");
    const server = await startBenchServer({ docBytes: 2048 });
    try {
      for (const who of ["undici", "webdata"]) {
        const { stdout } = await promisify(execFile)("node", ["bench/tail.mjs", server.url, who, "100", "10"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
        const out = JSON.parse(stdout) as Record<string, unknown>;
        expect(out).toMatchObject({ who, calls: 100, warm: 10, slowest: 2 });
        for (const k of ["medianUs", "p99Us", "p995Us", "slowWallMs", "slowCpuMs", "allCpuMs", "slowOverlappingOwnGc"]) expect(Number.isFinite(out[k]), k).toBe(true);
      }
      expect(server.counts.scrape).toBe(2 * 110);
    } finally {
      await server.close();
    }
  });
});
