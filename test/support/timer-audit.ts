/**
 * A vitest setup file for `npm run test:timers` (`vitest.timers.config.ts`): it records, test by test,
 * every real Node timer of more than 100 ms that fires while the test runs, with the line of our code
 * (or the package) that started it, in the file named by `WEBDATA_TIMER_LOG`. `test/support/timer-report.mjs`
 * then lists the tests that waited on such a timer of their own: the house rule is fake timers, no real
 * sleeps over 100 ms. Timers that are not a test's wait are told apart and left out of the verdict:
 * undici's housekeeping tick, the HTTP server's cached `Date` header, and timers an earlier test started.
 */
import { createHook } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import { afterEach, beforeEach, expect } from "vitest";

const LOG = process.env.WEBDATA_TIMER_LOG;
const timers = new Map<number, { ms: number; test: string; where: string }>();
let current = "";
const fired = new Map<string, { ms: number; where: string; own: boolean }[]>();

/** Where a timer was started: undici's tick, the HTTP date cache, a line of src/ or test/, or a package. */
function origin(stack: string): string {
  if (stack.includes("FastTimer")) return "undici-tick";
  if (stack.includes("utcDate")) return "http-date-cache";
  const own = /\/((?:src|test|examples)\/[^:)]+:\d+)/.exec(stack.split("\n").filter((l) => !l.includes("timer-audit")).join("\n"));
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(stack);
  return own?.[1] ?? pkg?.[1] ?? "?";
}

if (LOG) {
  createHook({
    init(id, type, _trigger, resource) {
      if (type !== "Timeout") return;
      const ms = (resource as { _idleTimeout?: number })._idleTimeout ?? 0;
      if (ms > 100) timers.set(id, { ms, test: current, where: origin(new Error().stack ?? "") });
    },
    before(id) {
      const t = timers.get(id);
      if (t && current) fired.set(current, [...(fired.get(current) ?? []), { ms: t.ms, where: t.where, own: t.test === current }]);
    },
    destroy(id) {
      timers.delete(id);
    },
  }).enable();
  beforeEach(() => {
    current = `${(expect.getState().testPath ?? "").replace(/.*\/(test|examples)\//, "$1/")} > ${expect.getState().currentTestName}`;
  });
  afterEach(() => {
    const f = fired.get(current);
    if (f?.length) appendFileSync(LOG, `${JSON.stringify({ test: current, timers: f })}\n`);
    fired.delete(current);
    current = "";
  });
}
