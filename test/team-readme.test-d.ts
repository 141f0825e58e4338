/**
 * Type tests: the README's snippets of the plugins ("The team features: one import" and "Migrating from v1") compile as
 * written under strict TypeScript and NodeNext; test/readme-snippets.test.ts checks that every line of them is here.
 */
import { describe, expectTypeOf, test } from "vitest";
import { WebData } from "webdata";
import { team } from "webdata/team";
import { v1 } from "webdata/v1";
import { sse } from "webdata/sse";
import { websocket } from "webdata/websocket";

describe("README: the team features, one import", () => {
  test("the snippet compiles as written", () => {
    const client = new WebData({ plugins: [team], budget: { credits: 500 }, maxConcurrency: 4 });
    console.log(client.credits.total);
    expectTypeOf(client.credits.total).toEqualTypeOf<number>();
  });
});

describe("README: client.v1 with the v1 plugin", () => {
  test("the snippet compiles as written", async () => {
    const client = new WebData({ plugins: [v1] });
    const mapped = await client.v1.mapUrl("https://example.com", { limit: 100 });
    if (mapped.success) console.log(mapped.links); // links: string[]
    const usage = await client.v1.getTokenUsage(); // { remaining_tokens, plan_tokens, ... }
    if (mapped.success) expectTypeOf(mapped.links).toEqualTypeOf<string[]>();
    expectTypeOf(usage).not.toBeAny();
  });
});

describe("README: the watcher's WebSocket with the websocket plugin", () => {
  test("the snippet compiles as written", () => {
    const apiKey = "fc-x";
    const client = new WebData({ apiKey, plugins: [websocket] });
    expectTypeOf(client.watcher("id", { transports: ["websocket", "poll"] })).not.toBeAny();
  });
});

describe("README: the watcher's server-sent events with the sse plugin", () => {
  test("the snippet compiles as written", () => {
    const apiKey = "fc-x";
    const client = new WebData({ apiKey, apiUrl: "https://my-gateway.example", plugins: [sse] });
    expectTypeOf(client.watcher("id", { transports: ["sse", "poll"] })).not.toBeAny();
  });
});
