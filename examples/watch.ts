/**
 * Watch a crawl live: documents, counters and the confirmed end, over the
 * service's WebSocket where the runtime has one, else server-sent events or
 * polling. No document is delivered twice.
 *
 *   npm run build && npx tsx examples/watch.ts
 */
import type { WebSocketConstructor } from "webdata/types";
import { runIfMain, type Connection } from "./connect.js";

/** Starts a crawl and watches it to the end. */
export async function main({ client, site, pollIntervalMs }: Connection): Promise<{ documents: number; done: string }> {
  // Node 20 has no global WebSocket: pass the `ws` package's (optional), or let the watcher poll.
  const webSocket = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? (await import("ws").then((m) => m.WebSocket as unknown as WebSocketConstructor, () => undefined));
  const job = await client.startCrawl(site, { limit: 5 });
  let documents = 0;
  let done = "";
  for await (const event of client.watcher(job.id, { webSocket, pollIntervalMs })) {
    if (event.type === "document") console.log(`document ${++documents}: ${event.document.metadata.sourceURL}`);
    if (event.type === "status") console.log(`status   ${event.status}: ${event.completed}/${event.total}`);
    if (event.type === "error") console.log(`error    (recovered: ${!event.fatal}) ${event.error.message}`);
    if (event.type === "done") done = event.status;
  }
  console.log(`done     ${done}, ${documents} documents`);
  return { documents, done };
}

runIfMain(import.meta.url, main);
