/**
 * Typed JSON extraction with a zod schema, and search, against the built-in
 * fake service (no key, no network), or the service when WEBDATA_API_KEY is set.
 *
 *   npm run build && npx tsx examples/typed-extraction.ts
 */
import { ResultValidationError, type WebData } from "webdata";
import * as z from "zod";
import { runIfMain } from "./connect.js";

/** What the example prints, returned so the test suite can check it. */
export interface ExampleOutput {
  /** The typed product from `scrape`. */
  product: { name: string; tags: string[]; inStock: boolean };
  /** Titles of the scraped search results. */
  titles: string[];
  /** The path named by the validation error. */
  failedPath: string;
}

/** Runs the example with a client (the fake's, by default). */
export async function typedExtraction(client: WebData, site: string): Promise<ExampleOutput> {
  // 1. A zod schema: the wire gets its JSON Schema, `doc.json` gets its type.
  const Product = z.object({
    name: z.string().describe("Product name"),
    tags: z.array(z.string()),
    inStock: z.boolean(),
  });
  const doc = await client.scrape(`${site}/products`, { formats: [{ type: "json", schema: Product, validate: true }] });
  const product = doc.json!; // { name: string; tags: string[]; inStock: boolean }
  console.log(`scrape   ${product.name} (${product.tags.join(", ")}), in stock: ${product.inStock}`);

  // 2. Search, scraping each result into markdown and typed JSON.
  const results = await client.search("widgets", {
    limit: 3,
    scrapeOptions: { formats: ["markdown", { type: "json", schema: z.object({ title: z.string() }) }] },
  });
  const titles = (results.web ?? []).map((item) => item.json?.title ?? item.url);
  console.log(`search   ${titles.length} results for "widgets", ${results.creditsUsed} credits: ${titles.join(" | ")}`);

  // 3. `validate: true` checks what came back and names the failing path.
  let failedPath = "";
  try {
    // A rule JSON Schema cannot express (the service never sees it); the result is checked against it.
    const Item = z.object({ name: z.string(), sku: z.string().refine((v) => v.startsWith("SKU-"), "must start with SKU-") });
    await client.scrape(`${site}/products`, { formats: [{ type: "json", schema: z.object({ item: Item }), prompt: "the first product", validate: true }] });
  } catch (err) {
    if (!(err instanceof ResultValidationError)) throw err;
    failedPath = err.issues[0]?.path ?? "";
    console.log(`validate ${err.name} at "${failedPath}": ${err.issues[0]?.message}`);
  }
  return { product, titles, failedPath };
}

runIfMain(import.meta.url, (c) => typedExtraction(c.client, c.site));
