/**
 * webdata: a typed client for the web data API. Portable entry (browsers,
 * Workers, Deno, Bun); Node gets `node.ts`, which adds the undici transport.
 */
export { WebData, type AgentSignupResult } from "./client.js";
/** The official client's class name (`import { Firecrawl } from "webdata"`): the same class as `WebData`. */
export { WebData as Firecrawl } from "./client.js";
export * from "./exports.js";
