import { mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

/**
 * `npm run test:timers`: the unit run with `test/support/timer-audit.ts`, which records the real timers over
 * 100 ms that fire in each test. Left out: the fault-injection suite (its stall and drip rows wait out a real
 * 1 s attempt timeout on a real socket, by design) and the CLI suites (they spawn processes, whose timers
 * are not seen here).
 */
export default mergeConfig(base, {
  test: { setupFiles: ["test/support/timer-audit.ts"], exclude: ["test/faults.test.ts", "test/cli*.test.ts"] },
});
