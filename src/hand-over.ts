/**
 * The entries for runtimes where bundle size is no concern (Node, Deno, Bun,
 * Workers) hand every on-demand part its module up front (`core/on-demand.ts`),
 * so nothing is loaded between a call and its timers: a test under fake timers
 * that advances the clock would otherwise run before the timer exists
 * (TESTING.md). Browsers get the portable entry, which loads them on first use.
 * The zod 3 schema converter stays on demand everywhere: zod-to-json-schema and
 * zod 3 would be a third of a Node cold start, for apps that pass zod 3 schemas only.
 */
import * as schemaConvert from "./api/schema-convert.js";
import { schemaTools } from "./api/schema.js";
import { zodConverters } from "./api/zod-converters.js";
import { zod4ToJsonSchema } from "./api/zod4-json.js";
import { jobWaiters } from "./client.js";
import * as waiting from "./jobs/waiting.js";
import * as watchPoll from "./jobs/watch-poll.js";
import * as watchSse from "./jobs/watch-sse.js";
import * as watchWs from "./jobs/watch-ws.js";
import { watchTransports } from "./jobs/watcher.js";
import * as v1Module from "./v1/client.js";
import { v1Layer } from "./v1/lazy.js";

/** Hands over every on-demand part but the zod 3 converter. Called once by an entry, at its import. */
export function handOverOnDemandParts(): void {
  v1Layer.provide(v1Module);
  jobWaiters.provide(waiting);
  watchTransports.websocket.provide(watchWs);
  watchTransports.sse.provide(watchSse);
  watchTransports.poll.provide(watchPoll);
  schemaTools.provide(schemaConvert);
  zodConverters.zod4.provide(zod4ToJsonSchema);
}
