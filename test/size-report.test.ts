/**
 * `npm run size` works (`bench/size.ts`): for each budgeted bundle it prints every
 * group of modules with its minified bytes and what the gzipped bundle loses
 * without it. Needs dist/ (`npm test` builds it first). No figure is held to a
 * budget here: `test/size.test.ts` does that.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appDir, bundle, CLIENT_APP, REPO, type SizeFigure } from "../bench/bundles.js";

describe("bench/size.ts", () => {
  let dir = "";
  let remove = (): void => undefined;
  beforeAll(() => {
    if (!existsSync(join(REPO, "dist", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
    ({ dir, remove } = appDir());
  });
  afterAll(() => remove());

  it("leaving a group out of a bundle takes its modules, and only those, out", async () => {
    const whole = await bundle(dir, CLIENT_APP, { split: true });
    const without = await bundle(dir, CLIENT_APP, { split: true, without: (name) => /^(p-retry|is-network-error)(\/|$)/.test(name) });
    const names = (b: typeof whole) => b.inputs.map(([n]) => n);
    expect(names(whole)).toContain("p-retry/index.js");
    expect(names(without).filter((n) => /p-retry|is-network-error/.test(n))).toEqual([]);
    expect(names(without).sort()).toEqual(names(whole).filter((n) => !/^(p-retry|is-network-error)\//.test(n)).sort());
    expect(without.gzipped).toBeLessThan(whole.gzipped);
  });

  it("prints each budgeted bundle by group; the groups' minified bytes add up to the bundle's modules", async () => {
    const { stdout } = await promisify(execFile)("npx", ["tsx", "bench/size.ts", "--json"], { cwd: REPO, encoding: "utf8", timeout: 120_000 });
    const figures = JSON.parse(stdout) as SizeFigure[];
    expect(figures.map((f) => [f.name, f.budget / 1024])).toEqual([
      ["import { WebData }, initial", 45.4],
      ["import { WebData }, everything inlined", 45.4],
      ["import { scrape }, initial", 28.8],
    ]);
    for (const f of figures) {
      const rest = f.rows.at(-1)!;
      expect(rest.gzipCost).toBeUndefined();
      for (const r of f.rows.slice(0, -1)) {
        expect(r.minified, `${f.name}: ${r.group}`).toBeGreaterThan(0);
        // Leaving a group out makes the bundle smaller, by less than the whole (a group of a few
        // hundred bytes can be lost in gzip's noise).
        if (r.minified > 1024) expect(r.gzipCost, `${f.name}: ${r.group}`).toBeGreaterThan(0);
        expect(r.gzipCost!).toBeLessThan(f.gzipped);
      }
      // Module bytes add up to the bundle, less esbuild's glue between modules.
      const sum = f.rows.reduce((s, r) => s + r.minified, 0);
      expect(sum).toBeLessThanOrEqual(f.minified);
      expect(sum).toBeGreaterThan(f.minified * 0.95);
    }
    const inlined = figures[1]!.rows.map((r) => r.group);
    for (const g of ["zod", "p-retry", "watcher", "job waiters", "endpoints"]) expect(inlined.some((x) => x.startsWith(g))).toBe(true);
  }, 150_000);
});
