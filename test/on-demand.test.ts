/**
 * The one loader of what the portable entry loads on first use (`core/on-demand.ts`):
 * one load however many callers, a failed load reported as a `WebDataError` and tried
 * again, and a module handed over up front used with no load at all.
 */
import { describe, expect, it } from "vitest";
import { OnDemand, runWith } from "../src/core/on-demand.js";
import { WebDataError } from "../src/index.js";

describe("OnDemand", () => {
  it("loads once, however many callers wait", async () => {
    let loads = 0;
    const part = new OnDemand("the part", async () => ({ n: ++loads }));
    expect(part.now).toBeUndefined();
    const [a, b] = await Promise.all([part.load(), part.load()]);
    expect(a).toBe(b);
    expect(await part.load()).toBe(a);
    expect(part.now).toBe(a);
    expect(loads).toBe(1);
  });

  it("a failed load rejects with a WebDataError naming the part, and the next call tries again", async () => {
    let calls = 0;
    const part = new OnDemand("the part", async () => {
      if (++calls === 1) throw new TypeError("Failed to fetch dynamically imported module");
      return { ok: true };
    });
    const err = (await part.load().catch((e: unknown) => e)) as WebDataError;
    expect(err).toBeInstanceOf(WebDataError);
    expect(err.message).toBe("Could not load the part: Failed to fetch dynamically imported module");
    expect(err.cause).toBeInstanceOf(TypeError);
    expect(part.now).toBeUndefined();
    await expect(part.load()).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
  });

  it("a module handed over is used at once, and nothing is loaded", async () => {
    let loads = 0;
    const part = new OnDemand("the part", async () => ({ from: "load", n: ++loads }));
    const given = { from: "provide", n: 0 };
    part.provide(given);
    expect(part.now).toBe(given);
    expect(await part.load()).toBe(given);
    expect(loads).toBe(0);
  });

  it("runWith(): before the load, calls with plain-object arguments as they were at the call; once loaded, with the arguments themselves", async () => {
    const part = new OnDemand("the part", async () => ({ read: (o: { n: number }) => o }));
    const options = { n: 1 };
    const first = runWith(part, (m, o) => m.read(o), options);
    options.n = 2;
    const seen = await first;
    expect(seen).toEqual({ n: 1 });
    expect(seen).not.toBe(options);
    expect(await runWith(part, (m, o) => m.read(o), options)).toBe(options);
  });
});
