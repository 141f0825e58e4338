/**
 * `webdata/v1`: the legacy client for code written against the service's v1
 * client library. Portable entry.
 */
import { WebData } from "../client.js";
import type { ClientOptions } from "../core/config.js";
import { V1Client } from "./client.js";

/** The v1 client: legacy names and shapes over the shared request layer. `new WebDataV1({ apiKey })`. */
export class WebDataV1 extends V1Client {
  /** @param options Same options as `WebData`. */
  constructor(options: ClientOptions = {}) {
    super(new WebData(options).http);
  }
}

export default WebDataV1;
export { v1 } from "./plugin.js";
export type * from "./types.js";
export type * from "./compat-types.js";
export type { ClientOptions } from "../core/config.js";
export type { RequestOptions } from "../core/request.js";
