/**
 * The entries for runtimes where bundle size is no concern (Node, Deno, Bun,
 * Workers) hand every on-demand part its module up front (`core/on-demand.ts`),
 * so nothing is loaded between a call and its timers: a test under fake timers
 * that advances the clock would otherwise run before the timer exists
 * (TESTING.md). Browsers get the portable entry, which loads them on first use.
 * zod's schema converters are not among them: an app registers the one its
 * schemas need with `webdata/zod4` or `webdata/zod3` (`api/zod-converters.ts`).
 */
import * as schemaConvert from "./api/schema-convert.js";
import { schemaTools } from "./api/schema.js";
import { jobWaiters } from "./client.js";
import * as waiting from "./jobs/waiting.js";
import * as watchPoll from "./jobs/watch-poll.js";
import * as watchSse from "./jobs/watch-sse.js";
import * as watchWs from "./jobs/watch-ws.js";
import { watchTransports } from "./jobs/watcher.js";
import * as v1Module from "./v1/client.js";
import { v1Layer } from "./v1/lazy.js";

/** Hands over every on-demand part (zod's converters are the app's to register). Called once by an entry, at its import. */
export function handOverOnDemandParts(): void {
  v1Layer.provide(v1Module);
  jobWaiters.provide(waiting);
  watchTransports.websocket.provide(watchWs);
  watchTransports.sse.provide(watchSse);
  watchTransports.poll.provide(watchPoll);
  schemaTools.provide(schemaConvert);
}
