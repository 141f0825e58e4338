/**
 * The entry of Deno, Bun and Workers (`server.ts`) under fake timers, from a test
 * file's first use of each part of the client: nothing is loaded between a call and
 * its timers (the same tests as fake-timers-first-call.test.ts). Imports no other entry.
 */
import { WebData } from "../src/server.js";
import "../src/zod4.js"; // zod mini schemas need the opt-in converter (webdata/zod4), registered at import
import { firstUsesOnTheFakeClock } from "./support/fake-clock.js";

firstUsesOnTheFakeClock(WebData);
