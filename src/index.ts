/**
 * webdata: a typed client for the web data API. Portable entry, for browsers
 * and any runtime without a condition of its own; Deno, Bun and Workers get
 * `server.ts` (the same); Node gets `node.ts`, which adds the undici transport.
 * Everything `WebData` can do is imported statically: the client loads no
 * module on demand. What an app does not import is not loaded: `webdata/v1`,
 * `webdata/firecrawl`, `webdata/zod3`, `webdata/zod4`, `webdata/ai`,
 * `webdata/testing` and `webdata/webhooks` are entries of their own.
 */
export { WebData } from "./client.js";
export * from "./exports.js";
