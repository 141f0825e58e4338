/**
 * Request checks run on zod (`zod/v4/mini`, a peer dependency): bad input is a
 * `ValidationError` with readable messages and zod's own issues, nothing is
 * sent, and an application's global zod locale does not replace our messages.
 * Also: zod is imported only through `zod/v4/mini` / `zod/v4/core` (no copy of it
 * in src/), and is external in every build.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { z as zc } from "zod";
import { ValidationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

/** The module specifiers of `code` (static imports, export-from, import(), require()). */
function specifiers(code: string): string[] {
  const stripped = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  return [
    ...[...stripped.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[\s\S]*?\sfrom\s+)?["']([^"']+)["']/gm)].map((m) => m[1] ?? ""),
    ...[...stripped.matchAll(/\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? ""),
  ];
}

const REPO = fileURLToPath(new URL("..", import.meta.url));

describe.each(TRANSPORTS)("request checks with zod (%s)", (kind) => {
  let s: Setup | undefined;
  afterEach(async () => {
    zc.config(zc.locales.en());
    await s?.close();
    s = undefined;
  });

  it("bad input: readable messages plus zod's issues, and nothing is sent", async () => {
    s = await setup(kind);
    const err = await s.client.map("https://acme.test/", { limit: 100001, sitemap: "never" as never, timeout: 1.5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    const v = err as ValidationError;
    expect(v.issues).toEqual([
      { path: "sitemap", message: 'must be "include" or "only" or "skip", got "never"' },
      { path: "limit", message: "must be <= 100000, got number 100001" },
      { path: "timeout", message: "expected int, got the number 1.5" },
    ]);
    // zod's issues, as zod reported them, with our words as their message.
    expect(v.zodIssues.map((i) => [i.code, i.path.join(".")])).toEqual([
      ["invalid_value", "sitemap"],
      ["too_big", "limit"],
      ["invalid_type", "timeout"],
    ]);
    expect(v.zodIssues[1]).toMatchObject({ code: "too_big", maximum: 100000, origin: "number", message: "must be <= 100000, got number 100001" });
    expect(s.fake.requests).toHaveLength(0);
  });

  it("zod's issues carry no input: the key in a rejected option stays out of toJSON() and util.inspect", async () => {
    s = await setup(kind);
    const key = s.fake.apiKey;
    const err = (await s.client.scrape("https://acme.test/", { headers: { authorization: 5 as never, "x-key": key }, timeout: 1000, waitFor: 900 }).catch((e: unknown) => e)) as ValidationError;
    expect(err.zodIssues.map((i) => i.code)).toEqual(["invalid_type", "custom"]);
    for (const i of err.zodIssues) expect(i).not.toHaveProperty("input");
    expect(JSON.stringify(err)).not.toContain(key);
    expect(inspect(err)).not.toContain(key);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("an application's zod locale (set globally by classic zod) does not replace our messages", async () => {
    s = await setup(kind);
    zc.config(zc.locales.de());
    // Classic zod in German, to show the locale is in force for the app's own schemas.
    expect(zc.string().safeParse(1).error?.issues[0]?.message).toMatch(/Ungültige Eingabe/);
    const err = (await s.client.scrape("https://acme.test/", { formats: "markdown" as never, timeout: -5 }).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues).toEqual([
      { path: "formats", message: "expected array, got a string" },
      { path: "timeout", message: "must be >= 1000, got number -5" },
    ]);
    expect(err.message).not.toMatch(/Ungültig|Invalid input/);
    // Our own messages given to a check are kept as written.
    const bad = (await s.client.scrape("not a url").catch((e: unknown) => e)) as ValidationError;
    expect(bad.issues).toEqual([{ path: "url", message: "must be an http(s) URL such as https://example.com" }]);
    expect(s.fake.requests).toHaveLength(0);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

describe("zod is the application's (a peer dependency)", () => {
  it("no request check is a z.union: a value of several forms goes through oneOf (core/validate.ts), which names the field at fault on every zod of the peer range", () => {
    // zod's union reports "no form matched" (zod 3.25's zod/v4 always; zod 4 unless exactly one form was not aborted):
    // test/zod-peers.test.ts pins the messages oneOf gives instead, on both ends of the range.
    const unions = sourceFiles(join(REPO, "src")).flatMap((f) => {
      const code = readFileSync(f, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
      return /\bz\.(?:union|xor|discriminatedUnion)\(/.test(code) ? [relative(REPO, f)] : [];
    });
    expect(unions).toEqual([]);
  });

  it("src/ imports zod only as zod/v4/mini or zod/v4/core, and ships no zod look-alike", () => {
    const uses = sourceFiles(join(REPO, "src")).flatMap((f) =>
      specifiers(readFileSync(f, "utf8"))
        .filter((spec) => /^zod($|\/)/.test(spec))
        .map((spec) => `${relative(REPO, f)}: ${spec}`),
    );
    expect(uses.length).toBeGreaterThan(0);
    expect(uses.filter((u) => !/: zod\/v4\/(mini|core)$/.test(u))).toEqual([]);
    expect(existsSync(join(REPO, "src/core/mini.ts"))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    expect(pkg.peerDependencies?.zod).toBe("^3.25.0 || ^4.0.0");
    expect(pkg.dependencies?.zod).toBeUndefined();
    expect(pkg.devDependencies?.zod).toMatch(/^\^4\./);
  });

  it("the built ESM and CJS files import zod instead of bundling it", () => {
    if (!existsSync(join(REPO, "dist/index.cjs"))) throw new Error("dist/ is missing: run `npm run build` first");
    const cjs = readdirSync(join(REPO, "dist")).filter((f) => f.endsWith(".cjs"));
    expect(cjs.length).toBeGreaterThan(3);
    for (const file of cjs) {
      const code = readFileSync(join(REPO, "dist", file), "utf8");
      // zod's own source has these; a bundled copy would carry them.
      expect(code, file).not.toMatch(/"\$ZodString"|"ZodMiniString"|"\$ZodCheckMinLength"/);
    }
    const all = cjs.map((f) => readFileSync(join(REPO, "dist", f), "utf8")).join("\n");
    expect(all).toMatch(/require\(["']zod\/v4\/mini["']\)/);
    expect(readFileSync(join(REPO, "dist/core/validate.js"), "utf8")).toMatch(/from "zod\/v4\/mini"/);
  });
});
