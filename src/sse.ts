/**
 * `webdata/sse`: the watcher's server-sent-events transport, a plugin of the client, for a server that streams a job's
 * status as `text/event-stream` (the service itself offers no event stream: its watchers use the WebSocket, then
 * polling). With it, `client.watcher()` tries the event stream after the WebSocket and before polling (or where
 * `transports` names `"sse"`); without it the watcher bundles none of its code, and `transports: ["sse"]` is a
 * `ValidationError` naming this import.
 *
 * @example
 * import { WebData } from "webdata";
 * import { sse } from "webdata/sse";
 * const client = new WebData({ apiKey, apiUrl: "https://my-gateway.example", plugins: [sse] });
 * for await (const event of client.watcher(id, { transports: ["sse", "poll"] })) if (event.type === "document") save(event.document);
 */
import type { ClientPlugin } from "./core/client-state.js";
import type { HttpClient } from "./core/request.js";
import { runSse } from "./jobs/watch-sse.js";

export type { ClientPlugin } from "./core/client-state.js";

/** The watcher's server-sent-events transport as a plugin of the client: `new WebData({ plugins: [sse] })`. */
export const sse: ClientPlugin = {
  name: "sse",
  install(http: unknown): void {
    (http as HttpClient).state.sse = runSse;
  },
};
