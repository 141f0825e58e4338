/**
 * Runs examples/typed-extraction.ts against the fake service, so the README's
 * example cannot rot.
 */
import { describe, expect, it, vi } from "vitest";
import { typedExtraction } from "../examples/typed-extraction.js";
import { setup, TRANSPORTS } from "./helpers.js";

describe.each(TRANSPORTS)("examples/typed-extraction over %s", (kind) => {
  it("prints a typed product, scraped search titles and the failing validation path", async () => {
    const s = await setup(kind);
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      const out = await typedExtraction(s.client, "https://acme.test");
      expect(out.product).toEqual({ name: "Acme Products", tags: ["Acme Products"], inStock: true });
      expect(out.titles.length).toBeGreaterThan(0);
      expect(out.titles.every((t) => typeof t === "string")).toBe(true);
      expect(out.failedPath).toBe("item.sku");
      expect(log).toHaveBeenCalledTimes(3);
    } finally {
      log.mockRestore();
      await s.close();
    }
  });
});
