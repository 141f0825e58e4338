/**
 * Endpoints the service added after the reference's baseline (§14), with the
 * wire the official client 4.x uses: scrape interaction and search feedback.
 */
import { afterEach, describe, expect, it } from "vitest";
import { InternalServerError, ValidationError } from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const SITE = "https://acme.test";

describe.each(TRANSPORTS)("post-baseline endpoints over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const posts = (path: RegExp) => s.fake.requests.filter((r) => r.method === "POST" && path.test(r.pathname));

  it("interact sends code, language and timeout (seconds) to POST /v2/scrape/<scrapeId>/interact; stopInteraction ends it", async () => {
    s = await setup(kind);
    const doc = await s.client.scrape(`${SITE}/`);
    const id = doc.metadata.scrapeId!;
    const run = await s.client.interact(id, { code: "console.log('hi')", language: "node", timeout: 60 });
    expect(posts(/\/interact$/).map((r) => [r.pathname, r.body])).toEqual([[`/v2/scrape/${id}/interact`, { code: "console.log('hi')", language: "node", timeout: 60 }]]);
    expect(run).toMatchObject({ stdout: "hi\n", exitCode: 0 });
    expect("success" in run).toBe(false);
    const answer = await s.client.interact(id, { prompt: "Open the products page" });
    expect(answer.output).toBe("Done: Open the products page");
    const stop = await s.client.stopInteraction(id);
    expect(stop).toEqual({ status: "destroyed" });
    expect(s.fake.requests.at(-1)).toMatchObject({ method: "DELETE", pathname: `/v2/scrape/${id}/interact` });
  });

  it("interact without code or prompt, or with a bad language, is a ValidationError and nothing is sent", async () => {
    s = await setup(kind);
    const id = "00000000-0000-4000-8000-000000000001";
    await expect(s.client.interact(id, {})).rejects.toThrow(/either code or prompt must be provided/);
    await expect(s.client.interact(id, { code: "1", language: "ruby" as never })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.interact("", { code: "1" })).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it("interact is not retried after a 5xx (the code may have run)", async () => {
    s = await setup(kind, {}, { maxRetries: 2 });
    s.fake.inject({ match: /interact/, status: 503 });
    await expect(s.client.interact("00000000-0000-4000-8000-000000000001", { code: "1" })).rejects.toBeInstanceOf(InternalServerError);
    expect(posts(/\/interact$/)).toHaveLength(1);
  });

  it("searchFeedback posts the rating to /v2/search/<id>/feedback; a second one is alreadySubmitted", async () => {
    s = await setup(kind);
    const results = await s.client.search("widgets", { limit: 2 });
    const body = { rating: "bad" as const, missingContent: [{ topic: "prices" }], querySuggestions: "widget price" };
    const first = await s.client.searchFeedback(results.id!, body);
    expect(posts(/\/feedback$/).map((r) => [r.pathname, r.body])).toEqual([[`/v2/search/${results.id}/feedback`, body]]);
    expect(first).toEqual({ feedbackId: expect.any(String), creditsRefunded: 0 });
    expect("success" in first).toBe(false);
    const again = await s.client.searchFeedback(results.id!, { rating: "good" });
    expect(again).toMatchObject({ feedbackId: first.feedbackId, alreadySubmitted: true });
    await expect(s.client.searchFeedback(results.id!, { rating: "great" as never })).rejects.toBeInstanceOf(ValidationError);
    expect(posts(/\/feedback$/)).toHaveLength(2);
  });

  it("listAgents reads GET /v2/agent newest first, 20 a page, and continues with before (ms) from next", async () => {
    s = await setup(kind, { now: (() => { let t = 1_700_000_000_000; return () => (t += 1000); })() });
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) ids.push((await s.client.startAgent(`task ${i}`)).id);
    const first = await s.client.listAgents();
    expect(first.agents.map((a) => a.id)).toEqual(ids.slice(1).reverse());
    expect("success" in first).toBe(false);
    const before = Number(new URL(first.next!).searchParams.get("before"));
    const second = await s.client.listAgents({ before });
    expect(s.fake.requests.at(-1)?.path).toBe(`/v2/agent?before=${before}`);
    expect(second.agents.map((a) => a.id)).toEqual([ids[0]]);
    expect(second.next).toBeUndefined();
    await expect(s.client.listAgents({ before: -1 })).rejects.toBeInstanceOf(ValidationError);
  });

  it("getAgentTrace (liveView query) and getAgentSnapshot read a run's events and an artifact's content", async () => {
    s = await setup(kind);
    const { id } = await s.client.startAgent("Find the price", { schema: { type: "object", properties: { price: { type: "number" } } } });
    const live = await s.client.getAgentTrace(id, { liveView: true });
    expect(s.fake.requests.at(-1)?.path).toBe(`/v2/agent/${id}/trace?liveView=true`);
    expect(live.events.map((e) => e.type)).toEqual(["run.started"]);
    expect(live.activeBrowserSessions).toHaveLength(1);
    while ((await s.client.getAgentStatus(id)).status === "processing");
    const trace = await s.client.getAgentTrace(id);
    expect(s.fake.requests.at(-1)?.path).toBe(`/v2/agent/${id}/trace`);
    const artifact = trace.events.find((e) => e.type === "artifact.updated")?.artifact as { snapshotId: string };
    const snap = await s.client.getAgentSnapshot(id, artifact.snapshotId);
    expect(JSON.parse(snap.snapshot!)).toEqual((await s.client.getAgentStatus(id)).data);
    await expect(s.client.getAgentSnapshot(id, "nope")).rejects.toMatchObject({ status: 404 });
  });
});
