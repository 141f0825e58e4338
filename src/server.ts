/**
 * The entry for Deno, Bun and Workers, chosen by the `deno`, `bun` and `workerd`
 * conditions of the `exports` map: the portable entry as it is (`index.ts`, which
 * loads nothing on demand). Browsers get `index.ts`, Node gets `node.ts`.
 */
export * from "./index.js";
