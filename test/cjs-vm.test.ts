/**
 * The CommonJS build in a `vm`-based CommonJS host without a dynamic-import
 * hook (Jest's default mode), where `import()` fails: `client.v1`, the zod
 * converters (`require("webdata/zod3")`, `"webdata/zod4"`) and the watcher's
 * transports all work through `require`. Runs the built dist/ (`npm test` builds it first).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileFunction } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { z as z3 } from "zod3";
import * as zm from "zod/mini";
import { createFakeService, fakeJobs } from "../src/testing/index.js";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const nodeRequire = createRequire(import.meta.url);

/** Loads a CommonJS file the way Jest does by default: compiled by vm, no `importModuleDynamically`. */
function vmRequire(file: string, cache = new Map<string, { exports: unknown }>()): unknown {
  const hit = cache.get(file);
  if (hit) return hit.exports;
  const mod = { exports: {} as unknown };
  cache.set(file, mod);
  const fn = compileFunction(readFileSync(file, "utf8"), ["exports", "require", "module", "__filename", "__dirname"], { filename: file });
  const req = (id: string) => (id.startsWith(".") ? vmRequire(nodeRequire.resolve(resolve(dirname(file), id)), cache) : nodeRequire(id));
  fn(mod.exports, req, mod, file, dirname(file));
  return mod.exports;
}

type Api = typeof import("../src/index.js");

describe("CommonJS build under a vm host without import()", () => {
  let api: Api;
  let v1Plugin: unknown;
  const modules = new Map<string, { exports: unknown }>(); // one module cache, as one app's
  beforeAll(() => {
    if (!existsSync(`${DIST}index.cjs`)) throw new Error("dist/ is missing: run `npm run build` first");
    api = vmRequire(`${DIST}index.cjs`, modules) as Api;
    v1Plugin = (vmRequire(`${DIST}v1/index.cjs`, modules) as { v1: unknown }).v1;
  });

  function client() {
    const fake = createFakeService();
    return { fake, client: new api.WebData({ plugins: [v1Plugin as never], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true }) };
  }

  it("client.v1 works", async () => {
    const res = await client().client.v1.mapUrl("https://acme.test/");
    expect(res).toMatchObject({ success: true });
  });

  it("a zod 3 schema is refused until require(\"webdata/zod3\"), then converted", async () => {
    const refused = await client().client.scrape("https://acme.test/", { formats: [{ type: "json", schema: z3.object({ title: z3.string() }) }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(api.ValidationError);
    expect(String(refused)).toMatch(/import "webdata\/zod3"/);
    vmRequire(`${DIST}zod3.cjs`, modules);
    const doc = await client().client.scrape("https://acme.test/", { formats: [{ type: "json", schema: z3.object({ title: z3.string() }) }] });
    expect(typeof doc.json?.title).toBe("string");
  });

  it("a zod mini schema is refused until require(\"webdata/zod4\"), then converted", async () => {
    const refused = await client().client.scrape("https://acme.test/", { formats: [{ type: "json", schema: zm.object({ title: zm.string() }) }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(api.ValidationError);
    expect(String(refused)).toMatch(/import "webdata\/zod4"/);
    vmRequire(`${DIST}zod4.cjs`, modules);
    const doc = await client().client.scrape("https://acme.test/", { formats: [{ type: "json", schema: zm.object({ title: zm.string() }) }] });
    expect(typeof doc.json?.title).toBe("string");
  });

  it("the watcher polls", async () => {
    const { fake, client: c } = client();
    fakeJobs(fake);
    const job = await c.startCrawl("https://acme.test/", { limit: 3 });
    // The internal test-only poll floor (src/jobs/pages.ts): the public floor is 500 ms.
    const types: string[] = [];
    for await (const ev of c.watcher(job.id, { transports: ["poll"], pollIntervalMs: 50, [Symbol.for("webdata.internal.minPollIntervalMs")]: 50 } as never)) {
      types.push(ev.type);
      expect(ev.type).not.toBe("error");
    }
    expect(types).toContain("document");
    expect(types.at(-1)).toBe("done");
  });
});
