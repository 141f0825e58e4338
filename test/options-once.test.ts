/**
 * Each option checked once: a public call checks its request options once, and
 * each of its other option families (wait/polling, pagination, the job's own options) once, at the
 * public method; the internal functions (a waiter's polls, each page of the walk, the start inside a
 * waiter, the watcher's reads) take the checked values and never check again. Counted by V8 precise
 * coverage of one call against the fake, in a child process (`test/support/check-counts.mts`): no
 * function of ours is stubbed. Before this, one `crawl()` ran `checkRequestOptions` 10 times,
 * `optionsArg` 16 times and zod's `check` 15 times.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** Per call: the option objects it is given (request options included), and the schemas they hold (a family each; the watcher's job id too). */
const BUDGET: Record<string, { objects: number; schemas: number }> = {
  scrape: { objects: 2, schemas: 2 },
  startCrawl: { objects: 2, schemas: 2 },
  crawl: { objects: 2, schemas: 3 }, // request; wait + crawl options in one object
  getCrawlStatus: { objects: 2, schemas: 2 },
  crawlDocuments: { objects: 2, schemas: 2 },
  startBatchScrape: { objects: 2, schemas: 2 },
  batchScrape: { objects: 2, schemas: 3 },
  extract: { objects: 2, schemas: 3 },
  agent: { objects: 2, schemas: 3 },
  watcher: { objects: 2, schemas: 3 }, // the job id, the watcher's options, the request options
  "v1.crawlUrl": { objects: 2, schemas: 2 },
  "v1.checkCrawlStatus": { objects: 1, schemas: 2 }, // request options; skip/limit as arguments
};

function counts(): Promise<Record<string, Record<string, number>>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--import", "tsx", "test/support/check-counts.mts"], { cwd: REPO, encoding: "utf8", timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, Record<string, number>>);
    });
  });
}

describe("each option checked once per public call", () => {
  let measured: Record<string, Record<string, number>>;
  beforeAll(async () => {
    measured = await counts();
  }, 60_000);

  it("measures every call of the budget", () => {
    expect(Object.keys(measured).sort()).toEqual(Object.keys(BUDGET).sort());
  });

  it.each(Object.keys(BUDGET))("%s checks its request options once, and no family twice", (call) => {
    const c = measured[call]!;
    const n = (fn: string) => Object.entries(c).filter(([k]) => k.endsWith(`:${fn}`)).reduce((sum, [, v]) => sum + v, 0);
    expect(n("checkRequestOptions"), "checkRequestOptions").toBe(1);
    expect(n("checkWaitOptions"), "checkWaitOptions").toBeLessThanOrEqual(1);
    expect(n("checkDocumentsOptions"), "checkDocumentsOptions").toBeLessThanOrEqual(1);
    expect(n("checkPageOptions"), "checkPageOptions").toBeLessThanOrEqual(1);
    expect(n("optionsArg"), "optionsArg: each options object once").toBeLessThanOrEqual(BUDGET[call]!.objects);
    expect(n("check"), "check: each schema once").toBeLessThanOrEqual(BUDGET[call]!.schemas);
  });
});
