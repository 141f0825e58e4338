/**
 * `webdata/v1` on Node: the legacy client sending through undici.
 */
import { WebData, type NodeClientOptions } from "../node.js";
import { V1Client } from "./client.js";

/** The v1 client: legacy names and shapes over the shared request layer. `new WebDataV1({ apiKey })`. */
export class WebDataV1 extends V1Client {
  /** @param options Same options as `WebData` on Node. */
  constructor(options: NodeClientOptions = {}) {
    super(new WebData(options).http);
  }
}

export default WebDataV1;
// Everything else of the portable entry (this module's `WebDataV1` and `ClientOptions` shadow its own).
export * from "./index.js";
export type { NodeClientOptions as ClientOptions } from "../node.js";
