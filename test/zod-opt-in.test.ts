/**
 * zod's JSON Schema converters are opt-in: a schema that cannot convert itself
 * (zod mini, zod before 4.2, zod 3.25's `zod/v4`: zod 4's converter; zod 3: zod
 * 3's) is refused before anything is sent, with an error naming the import that
 * registers its converter, until the app imports `webdata/zod4` (or `webdata/zod3`).
 * Classic zod 4.2+ schemas carry their own (`~standard.jsonSchema`) and need nothing.
 * This file imports neither entry up front: its last case imports `webdata/zod4`.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as z4 from "zod";
import * as zm from "zod/mini";
import { z as z3 } from "zod3";
import * as z325 from "zod3/v4";
import { toWireSchema, ValidationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const sent = (s: Setup) => s.fake.requests.filter((r) => r.method === "POST").length;

describe.each(TRANSPORTS)("before an import registers a converter (%s)", (kind) => {
  let s: Setup | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it.each([
    ["zod mini", "zod4", () => zm.object({ title: zm.string() })],
    ["zod 3.25's zod/v4", "zod4", () => z325.object({ title: z325.string() })],
    ["zod 3", "zod3", () => z3.object({ title: z3.string() })],
  ] as const)("a %s schema is a ValidationError naming webdata/%s, in every place a schema goes; nothing is sent", async (_name, entry, make) => {
    s = await setup(kind);
    const calls = [
      () => s!.client.scrape("https://acme.test/", { formats: [{ type: "json", schema: make() }] }),
      () => s!.client.extract({ urls: ["https://acme.test/"], schema: make() }),
      () => s!.client.startAgent("find it", { schema: make() }),
      () => s!.client.startCrawl("https://acme.test/", { scrapeOptions: { formats: [{ type: "json", schema: make() }] } }),
    ];
    for (const call of calls) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(String((err as Error).message)).toContain(`add import "webdata/${entry}" once in your app`);
    }
    expect(sent(s)).toBe(0);
  });

  it("a classic zod 4 schema needs no import: it converts itself", async () => {
    s = await setup(kind);
    await s.client.scrape("https://acme.test/", { formats: [{ type: "json", schema: z4.object({ title: z4.string().min(2) }) }] });
    const body = s.fake.requests.find((r) => r.pathname === "/v2/scrape")?.body as { formats: { schema: unknown }[] };
    expect(body.formats[0]!.schema).toEqual({ type: "object", properties: { title: { type: "string", minLength: 2 } }, required: ["title"] });
  });
});

describe('import "webdata/zod4"', () => {
  it("registers zod's toJSONSchema: a zod mini schema converts, constraints kept", async () => {
    const schema = zm.object({ n: zm.number().check(zm.maximum(5)) });
    await expect(toWireSchema(schema)).rejects.toThrow('add import "webdata/zod4"');
    await import("../src/zod4.js");
    expect(await toWireSchema(schema)).toEqual({ type: "object", properties: { n: { type: "number", maximum: 5 } }, required: ["n"] });
    // zod 3 still needs its own entry.
    await expect(toWireSchema(z3.object({ n: z3.number() }))).rejects.toThrow('add import "webdata/zod3"');
  });
});
