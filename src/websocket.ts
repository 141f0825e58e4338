/**
 * `webdata/websocket`: the watcher's WebSocket transport, a plugin of the client. The service streams a crawl's or
 * batch scrape's events over its WebSocket; with the plugin, `client.watcher()` takes them live (and falls back to
 * polling when the socket is refused or drops for good); without it the watcher polls the status route, and bundles
 * none of the socket's code. The Node entry (`import "webdata"` on Node) and the drop-in (`webdata/firecrawl`) bring
 * it built in; a browser, Worker, Deno or Bun app adds it with this import. `transports: ["websocket"]` or a
 * `webSocket` class without it is a `ValidationError` naming this import.
 *
 * @example
 * import { WebData } from "webdata";
 * import { websocket } from "webdata/websocket";
 * const client = new WebData({ apiKey, plugins: [websocket] });
 * for await (const event of client.watcher(id)) if (event.type === "document") save(event.document);
 */
export { websocket } from "./jobs/watch-ws.js";
export type { ClientPlugin } from "./core/client-state.js";
