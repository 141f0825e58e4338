/**
 * webdata: a typed client for the web data API. Portable entry, for browsers
 * and any runtime without a condition of its own: a few parts load on first use
 * (`core/on-demand.ts`). Deno, Bun and Workers get `server.ts` (the same, with
 * those parts up front); Node gets `node.ts`, which adds the undici transport.
 */
export { WebData, type AgentSignupResult } from "./client.js";
export * from "./exports.js";
