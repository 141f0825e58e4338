/**
 * Account endpoints beyond current usage: historical credit/token usage,
 * queue status and concurrency, over both transports. Figures come from what
 * the fake has really charged; snake_case answers are normalised; recorded
 * team exchanges parse into the right result or typed error.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, InternalServerError } from "../src/index.js";
import { TOKENS_PER_CREDIT } from "../src/testing/index.js";
import { setup, recorded, TRANSPORTS, type Setup } from "./helpers.js";

const DAY = 86_400_000;

describe.each(TRANSPORTS)("account endpoints over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("historical credit usage sums what the fake charged, per period and per key name (never the key)", async () => {
    s = await setup(kind, { apiKeys: ["fc-test-key", "fc-second-key"] });
    await s.client.scrape("https://acme.test/");
    await s.client.map("https://acme.test/");
    s.fake.advanceClock(31 * DAY);
    await s.client.scrape("https://acme.test/about");
    const { WebData } = await import("../src/index.js");
    const second = new WebData({ apiKey: "fc-second-key", apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
    await second.scrape("https://acme.test/contact");

    const periods = await s.client.getCreditUsageHistorical();
    expect(periods).toEqual([
      { startDate: expect.any(String), endDate: expect.any(String), creditsUsed: 2 },
      { startDate: expect.any(String), endDate: expect.any(String), creditsUsed: 2 },
    ]);
    expect(Date.parse(periods[1]!.startDate!)).toBeGreaterThan(Date.parse(periods[0]!.startDate!));
    expect(s.fake.requests.at(-1)?.path).toBe("/v2/team/credit-usage/historical");

    const byKey = await s.client.getCreditUsageHistorical({ byApiKey: true });
    expect(s.fake.requests.at(-1)?.path).toBe("/v2/team/credit-usage/historical?byApiKey=true");
    expect(byKey.map((p) => [p.apiKey, p.creditsUsed])).toEqual([["Default", 2], ["Default", 1], ["Key 2", 1]]);
    expect(JSON.stringify(byKey)).not.toContain("fc-");

    const tokens = await s.client.getTokenUsageHistorical();
    expect(tokens.map((p) => p.tokensUsed)).toEqual([2 * TOKENS_PER_CREDIT, 2 * TOKENS_PER_CREDIT]);
  });

  it("no usage yet: empty periods", async () => {
    s = await setup(kind);
    expect(await s.client.getCreditUsageHistorical()).toEqual([]);
    expect(await s.client.getTokenUsageHistorical({ byApiKey: false })).toEqual([]);
    expect(s.fake.requests.at(-1)?.path).toBe("/v2/team/token-usage/historical");
  });

  it("normalises snake_case periods and the docs' totalCredits to creditsUsed", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/team/credit-usage/historical", status: 200, body: { success: true, periods: [{ start_date: "2026-01-01", end_date: null, api_key: "ci", total_credits: 7 }] } });
    expect(await s.client.getCreditUsageHistorical({ byApiKey: true })).toEqual([{ startDate: "2026-01-01", endDate: null, apiKey: "ci", creditsUsed: 7 }]);
  });

  it("rejects a non-boolean byApiKey before sending", async () => {
    s = await setup(kind);
    await expect(s.client.getCreditUsageHistorical({ byApiKey: "yes" } as never)).rejects.toThrow(/byApiKey/);
    expect(s.fake.requests.length).toBe(0);
  });

  it("queue status and concurrency reflect the fake's state (active browser sessions, last charge)", async () => {
    s = await setup(kind);
    const empty = await s.client.getQueueStatus();
    expect(empty).toEqual({ jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 2, mostRecentSuccess: null });
    expect(await s.client.getConcurrency()).toEqual({ concurrency: 0, maxConcurrency: 2 });
    await s.client.scrape("https://acme.test/");
    const chargedAt = new Date(s.fake.team.ledger.at(-1)!.at).toISOString();
    await s.client.browser();
    expect(await s.client.getConcurrency()).toEqual({ concurrency: 1, maxConcurrency: 2 });
    expect(await s.client.getQueueStatus()).toMatchObject({ activeJobsInQueue: 1, mostRecentSuccess: chargedAt });
  });

  it("parses the recorded v2 queue status (top level, no data wrapper)", async () => {
    s = await setup(kind);
    const rec = await recorded("team-v2-queue-status.json");
    s.fake.inject({ match: "/v2/team/queue-status", status: rec.response.status, body: rec.response.body });
    expect(await s.client.getQueueStatus()).toEqual({ jobsInQueue: 0, activeJobsInQueue: 0, waitingJobsInQueue: 0, maxConcurrency: 99999999, mostRecentSuccess: "2026-11-22T01:44:00.716Z" });
  });

  it("reads concurrency at the top level, and also under a data wrapper or in snake_case", async () => {
    s = await setup(kind);
    s.fake.inject({ match: "/v2/concurrency-check", status: 200, body: { success: true, data: { concurrency: 3, max_concurrency: 9 } } });
    expect(await s.client.getConcurrency()).toEqual({ concurrency: 3, maxConcurrency: 9 });
  });

  it("the recorded v2 concurrency-check 401 is an AuthenticationError", async () => {
    s = await setup(kind);
    const rec = await recorded("team-v2-concurrency-check.json");
    s.fake.inject({ match: "/v2/concurrency-check", status: rec.response.status, body: rec.response.body });
    const err = await s.client.getConcurrency().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as AuthenticationError).serverMessage).toBe("Unauthorized");
  });

  it.each(["team-v2-credit-usage-historical.json", "team-v2-credit-usage-historical-by-api-key.json", "team-v2-token-usage-historical.json"])(
    "the recorded %s (500 UNKNOWN_ERROR) is an InternalServerError with the code",
    async (name) => {
      s = await setup(kind, {}, { maxRetries: 0 });
      const rec = await recorded(name);
      s.fake.inject({ match: /historical/, status: rec.response.status, body: rec.response.body });
      const call = name.includes("token") ? s.client.getTokenUsageHistorical() : s.client.getCreditUsageHistorical({ byApiKey: name.includes("by-api-key") });
      const err = (await call.catch((e: unknown) => e)) as InternalServerError;
      expect(err).toBeInstanceOf(InternalServerError);
      expect(err.code).toBe("UNKNOWN_ERROR");
      expect(err.serverMessage).toMatch(/^An error occurred/);
      expect(s.fake.requests.at(-1)?.path).toBe(rec.request.path);
    },
  );

  it("an unauthenticated client gets 401 from every account endpoint", async () => {
    s = await setup(kind);
    const { WebData } = await import("../src/index.js");
    const bad = new WebData({ apiKey: "fc-wrong", apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
    for (const call of [() => bad.getCreditUsageHistorical(), () => bad.getTokenUsageHistorical(), () => bad.getQueueStatus(), () => bad.getConcurrency()]) {
      await expect(call()).rejects.toBeInstanceOf(AuthenticationError);
    }
  });
});
