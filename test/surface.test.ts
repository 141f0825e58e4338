/**
 * Properties of the whole public surface: no method throws synchronously on
 * bad input (errors always arrive through the returned promise or iterator),
 * and bad input never sends a request.
 */
import { describe, expect, it } from "vitest";
import { ValidationError, WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";
import WebDataV1 from "../src/v1/index.js";
import { v1 as v1Face } from "../src/v1/index.js";

function methodNames(obj: object): string[] {
  const names = new Set<string>();
  for (let p = obj as object | null; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (name !== "constructor" && typeof d?.value === "function") names.add(name);
    }
  }
  return [...names].filter((n) => n !== "toJSON");
}

const JUNK: unknown[][] = [
  [12345, { limit: -5, formats: [42] }, { signal: "nope" }],
  ["", null, undefined],
  [["not", "urls"], { pollIntervalMs: -1, timeoutMs: "soon" }],
];

describe("public surface", () => {
  const fake = createFakeService();
  const client = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0, silenceDeprecationWarnings: true });
  const targets: [string, object][] = [
    ["client", client],
    ["client.v1", client.v1],
    ["WebDataV1", new WebDataV1({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0, silenceDeprecationWarnings: true })],
  ];

  it("client.v1 (loaded on first call) has every method of WebDataV1", () => {
    expect(methodNames(client.v1).sort()).toEqual(methodNames(targets[2]![1]).sort());
    expect(methodNames(client.v1)).toHaveLength(28);
  });

  for (const [label, target] of targets) {
    for (const name of methodNames(target)) {
      it(`${label}.${name} reports bad input through its result, never by a synchronous throw`, async () => {
        const fn = (target as Record<string, (...args: unknown[]) => unknown>)[name]!;
        for (const args of JUNK) {
          let result: unknown;
          expect(() => {
            result = fn.apply(target, args);
          }, `${name}(${JSON.stringify(args)})`).not.toThrow();
          if (result && typeof (result as PromiseLike<unknown>).then === "function") {
            await Promise.resolve(result).catch(() => undefined);
          } else if (result && typeof (result as { close?: unknown }).close === "function") {
            await (result as { close(): unknown }).close();
          }
        }
      });
    }
  }

  it("sends nothing for input that fails validation", async () => {
    const before = fake.requests.length;
    const err = await client.scrape("not a url at all", { formats: ["nope" as never] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(fake.requests.length).toBe(before);
  });
});
