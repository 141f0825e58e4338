/**
 * `webdata/firecrawl` on Node: the drop-in classes sending through undici (as
 * `WebData` from the Node entry does).
 */
import { WebData } from "../node.js";
import type { ClientOptions } from "../core/config.js";
import { Firecrawl as PortableFirecrawl } from "./client.js";
import { FirecrawlAppV1 as PortableFirecrawlAppV1 } from "./v1.js";

/** The official client's v2 class, over webdata's Node client: `new Firecrawl({ apiKey })`. */
export class Firecrawl extends PortableFirecrawl {
  /** @internal The Node client (undici, proxies, `dispatcher`). */
  static override makeClient(options: ClientOptions): WebData {
    return new WebData(options);
  }
}

/** The official client's v1 class, over webdata's Node client: `new FirecrawlAppV1({ apiKey })`. */
export class FirecrawlAppV1 extends PortableFirecrawlAppV1 {
  /** @internal The Node client (undici, proxies, `dispatcher`). */
  static override makeClient(options: ClientOptions): WebData {
    return new WebData(options);
  }
}

/** The official client's other name for the class. */
export const FirecrawlClient = Firecrawl;
/** The official client's other name for the class. */
export type FirecrawlClient = Firecrawl;

// Everything else of the portable entry (this module's `Firecrawl`, `FirecrawlAppV1` and `FirecrawlClient` shadow its own).
export * from "./index.js";
export default Firecrawl;
