/**
 * The TESTING.md pattern (fake timers, the fake's 429 with a 2 s wait) as a test
 * file's first use of each part of the client, on the portable entry (browsers and
 * runtimes without a condition of their own): nothing may be loaded between a call
 * and its timers, or the test's `advanceTimersByTimeAsync` runs before the timer
 * exists and the call never ends. The client loads no module on demand, so this
 * holds on every entry: the same tests run on the server entry
 * (fake-timers-first-call-server.test.ts) and the Node entry
 * (fake-timers-first-call-node.test.ts). Each test file gets a fresh module graph:
 * this file imports only the portable entry.
 */
import { WebData } from "../src/index.js";
import "../src/zod4.js"; // zod mini schemas need the opt-in converter (webdata/zod4), registered at import
import { firstUsesOnTheFakeClock } from "./support/fake-clock.js";

firstUsesOnTheFakeClock(WebData);
