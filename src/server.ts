/**
 * The entry for Deno, Bun and Workers: the portable entry, with every part it
 * loads on first use for the sake of browser bundles handed over up front
 * (`hand-over.ts`). Chosen by the `deno`, `bun` and `workerd` conditions of the
 * `exports` map; browsers get `index.ts`, Node gets `node.ts`.
 */
import { handOverOnDemandParts } from "./hand-over.js";

handOverOnDemandParts();

export * from "./index.js";
