/**
 * The Node entry: everything of the portable entry, with requests sent by
 * `undici.request` over a keep-alive pool (about 2.5x the speed of global
 * `fetch` on Node, see DESIGN.md), `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`
 * support, and a `dispatcher` option (the transport is `node-transport.ts`,
 * with this entry the only module that may import `node:*` or undici; it is
 * no public name). undici is loaded when a client that sends through it is
 * made (the first request waits for it if need be), not at import:
 * it is most of what `import "webdata"` used to cost a short-lived process.
 */
import type { Dispatcher } from "undici";
import { WebData as PortableWebData } from "./client.js";
import type { ClientOptions } from "./core/config.js";
import type { RequestOptions } from "./core/request.js";
import type { Watcher } from "./jobs/watcher.js";
import type { WatcherOptions, WebSocketConstructor } from "./jobs/watch-types.js";
import { check, int } from "./core/validate.js";
import * as z from "zod/v4/mini";
import { handOverOnDemandParts } from "./hand-over.js";
import { loadedUndici, loadUndici, undiciTransport } from "./node-transport.js";

// Size is no concern on Node: what the portable entry loads on first use is handed over up front.
handOverOnDemandParts();

/** Options of the Node client: the portable ones plus connection control. */
export interface NodeClientOptions extends ClientOptions {
  /** An undici `Dispatcher` (Agent, Pool, ProxyAgent, MockAgent) to send through. */
  dispatcher?: Dispatcher | undefined;
  /** Most open sockets per origin for this client's own pool (default: the shared pool's 256). */
  maxConnections?: number | undefined;
}

/** The Node entry's own client options. */
const nodeOptions = z.object({
  maxConnections: z.optional(int(1)),
  dispatcher: z.optional(z.custom((d) => typeof (d as { dispatch?: unknown } | null)?.dispatch === "function", { message: "must be an undici Dispatcher (Agent, Pool, ProxyAgent, MockAgent)" })),
});

/** The clients that send through undici (a set, not a field: the class keeps the portable one's shape, so either is assignable to the other). */
const viaUndici = new WeakSet<object>();

/** The client, sending through undici on Node. A `fetch` option still selects the fetch path. */
export class WebData extends PortableWebData {
  /** @param options See {@link NodeClientOptions}; a string is the key (the official client's `new Firecrawl("fc-...")`). */
  constructor(options: NodeClientOptions | string = {}) {
    const { dispatcher, maxConnections, ...rest } = typeof options === "string" ? { apiKey: options } : options;
    // Checked here (a `ValidationError`, as every client option), as the pool they shape is made only on the first request.
    check(nodeOptions, { dispatcher, maxConnections }, "client options");
    super({ ...rest, transport: rest.transport ?? undiciTransport(dispatcher, maxConnections) });
    // Start loading undici now, so the first request rarely waits for it (a failure shows at that request).
    if (!rest.transport && !rest.fetch) {
      viaUndici.add(this);
      loadUndici().catch(() => undefined);
    }
  }

  /**
   * The watcher of the portable client; where the runtime has no global `WebSocket` (Node 20), a client that
   * sends through undici gives it undici's, so the job's events arrive live instead of by polling.
   */
  override watcher(jobId: string, options?: WatcherOptions, requestOptions?: RequestOptions): Watcher {
    const native = (globalThis as { WebSocket?: unknown }).WebSocket !== undefined;
    const plain = options === undefined || (typeof options === "object" && options !== null && !Array.isArray(options));
    const undici = loadedUndici();
    if (viaUndici.has(this) && !native && undici && plain && options?.webSocket === undefined) {
      return super.watcher(jobId, { ...options, webSocket: undici.WebSocket as unknown as WebSocketConstructor }, requestOptions);
    }
    return super.watcher(jobId, options, requestOptions);
  }
}

export { type AgentSignupResult } from "./client.js";
export * from "./exports.js";
