// `npm run test:timers`, second half: reads the log of test/support/timer-audit.ts and lists the tests that
// waited on a real timer of their own over 100 ms (exit 1 when any did). The other timers it saw are counted.
import { existsSync, readFileSync } from "node:fs";

const log = process.env.WEBDATA_TIMER_LOG;
if (!log) throw new Error("WEBDATA_TIMER_LOG is not set");
const rows = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
const NOT_WAITS = new Set(["undici-tick", "http-date-cache"]);
const waits = [];
const other = {};
for (const { test, timers } of rows) {
  const own = timers.filter((t) => t.own && !NOT_WAITS.has(t.where));
  if (own.length) waits.push(`  ${test}\n    ${own.map((t) => `${t.ms} ms from ${t.where}`).join(", ")}`);
  for (const t of timers.filter((x) => !own.includes(x))) {
    const kind = NOT_WAITS.has(t.where) ? t.where : "started by an earlier test";
    other[kind] = (other[kind] ?? 0) + 1;
  }
}
console.log(`real timers over 100 ms that fired during a test, not its own wait: ${JSON.stringify(other)}`);
if (waits.length === 0) {
  console.log("no test waited on a real timer of its own over 100 ms");
} else {
  console.log(`${waits.length} test(s) waited on a real timer of their own over 100 ms (use fake timers: test/jobs-helpers.ts):\n${waits.join("\n")}`);
  process.exitCode = 1;
}
