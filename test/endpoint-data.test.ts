/**
 * Every endpoint is data (`api/endpoint.ts`): a route template whose `{name}`
 * placeholders are filled, in order, by the call's ids, each checked and
 * percent-encoded as one segment before anything is sent; GET, PATCH and
 * DELETE endpoints go through the same sender as the POSTs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { NotFoundError, ValidationError } from "../src/index.js";
import { setup, type Setup } from "./helpers.js";

describe("endpoints as data", () => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("fills a route's placeholders in order, each id encoded as one segment", async () => {
    s = await setup("fetch");
    await s.client.getMonitorCheck("mon 1", "check/2", { limit: 5 }).catch((e: unknown) => e);
    await s.client.updateMonitor("mon?3", { name: "x" }).catch((e: unknown) => e);
    await s.client.getAgentSnapshot("run#4", "snap 5").catch((e: unknown) => e);
    expect(s.fake.requests.map((r) => `${r.method} ${r.pathname}`)).toEqual([
      "GET /v2/monitor/mon%201/checks/check%2F2",
      "PATCH /v2/monitor/mon%3F3",
      "GET /v2/agent/run%234/snapshots/snap%205",
    ]);
  });

  it("a route's id that is not a usable segment rejects with ValidationError, and nothing is sent", async () => {
    s = await setup("fetch");
    for (const call of [
      () => s.client.getMonitorCheck("m", 7 as never),
      () => s.client.deleteMonitor(".."),
      () => s.client.getAgentSnapshot(" ", "x"),
      () => s.client.cancelAgent(null as never),
      () => s.client.getCrawlStatus(["a"] as never),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(ValidationError);
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("a GET endpoint goes through the same error mapping as a POST (a 404 is NotFoundError), on its filled route", async () => {
    s = await setup("fetch");
    await expect(s.client.getMonitor("00000000-0000-4000-8000-000000000001")).rejects.toBeInstanceOf(NotFoundError);
    expect(s.fake.requests.at(-1)).toMatchObject({ method: "GET", pathname: "/v2/monitor/00000000-0000-4000-8000-000000000001" });
  });
});
