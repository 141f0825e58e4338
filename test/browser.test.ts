/**
 * Browser sessions against the fake service over both transports: create,
 * list, execute (non-zero exits are results), delete, TTL expiry on the
 * fake's clock (410 -> GoneError), checks before sending, and
 * each documented error status.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ConflictError,
  GoneError,
  InternalServerError,
  NotFoundError,
  PaymentRequiredError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
} from "../src/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

type Rec = Record<string, unknown>;

describe.each(TRANSPORTS)("browser sessions over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());
  const lastBody = () => s.fake.requests.at(-1)?.body as Rec;

  it("creates a session with the documented fields and sends the options as given", async () => {
    s = await setup(kind);
    const session = await s.client.browser({ ttl: 120, activityTtl: 60, streamWebView: false, profile: { name: "shop", saveChanges: false } });
    expect(session).toEqual({ id: expect.any(String), cdpUrl: expect.stringMatching(/^wss:\/\//), liveViewUrl: expect.any(String), interactiveLiveViewUrl: expect.any(String), expiresAt: expect.any(String) });
    expect("success" in session).toBe(false); // WebData's own shape: no success flag (webdata/firecrawl adds the official one)
    expect(lastBody()).toEqual({ ttl: 120, activityTtl: 60, streamWebView: false, profile: { name: "shop", saveChanges: false } });
    expect(Date.parse(session.expiresAt) - s.fake.now()).toBeLessThanOrEqual(120_000);
  });

  it("executes code: stdout and result, and a non-zero exit is a typed result, not an error", async () => {
    s = await setup(kind);
    const { id } = await s.client.browser();
    const ok = await s.client.browserExecute(id, { code: 'console.log("hi")\nreturn {"n":1}' });
    expect(ok).toEqual({ stdout: "hi\n", stderr: "", result: { n: 1 }, exitCode: 0, killed: false });
    const bad = await s.client.browserExecute(id, { code: "exit 3", language: "bash" });
    expect(bad.exitCode).toBe(3);
    expect(bad.error).toBe("exit 3");
    const thrown = await s.client.browserExecute(id, { code: "throw boom", language: "python" });
    expect(thrown).toMatchObject({ exitCode: 1, stderr: "Error: boom", error: "Error: boom" });
    const killed = await s.client.browserExecute(id, { code: "sleep 10", timeout: 2 });
    expect(killed).toMatchObject({ killed: true, error: "Execution failed" });
    expect(lastBody()).toEqual({ code: "sleep 10", timeout: 2 });
  });

  it("lists sessions, filtered by status", async () => {
    s = await setup(kind);
    const a = await s.client.browser();
    const b = await s.client.browser();
    await s.client.deleteBrowser(a.id);
    const all = await s.client.listBrowsers();
    expect(all.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    const active = await s.client.listBrowsers({ status: "active" });
    expect(active.map((x) => x.id)).toEqual([b.id]);
    expect(active[0]).toMatchObject({ status: "active", streamWebView: true, createdAt: expect.any(String), lastActivity: expect.any(String) });
    expect(s.fake.requests.at(-1)?.path).toBe("/v2/browser?status=active");
    expect((await s.client.listBrowsers({ status: "destroyed" })).map((x) => x.id)).toEqual([a.id]);
  });

  it("a deleted session answers 410 as GoneError", async () => {
    s = await setup(kind);
    const { id } = await s.client.browser();
    expect(await s.client.deleteBrowser(id)).toEqual({});
    const err = await s.client.browserExecute(id, { code: "return 1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GoneError);
    expect((err as GoneError).status).toBe(410);
  });

  it("sessions expire by ttl and by activityTtl on the fake's clock, and are billed by duration", async () => {
    s = await setup(kind);
    const hard = await s.client.browser({ ttl: 60, activityTtl: 3600 });
    const idle = await s.client.browser({ ttl: 3600, activityTtl: 30 });
    s.fake.advanceClock(20_000);
    await s.client.browserExecute(hard.id, { code: "return 1" });
    s.fake.advanceClock(20_000);
    // idle: 40 s without activity > 30 s
    await expect(s.client.browserExecute(idle.id, { code: "return 1" })).rejects.toBeInstanceOf(GoneError);
    s.fake.advanceClock(25_000);
    await expect(s.client.browserExecute(hard.id, { code: "return 1" })).rejects.toBeInstanceOf(GoneError);
    // 60 s and 30 s of session time at 120 credits/hour: 2 + 1
    expect(s.fake.team.creditsUsed).toBe(3);
  });

  it.each([
    ["ttl below 30", { ttl: 29 }, /ttl/],
    ["ttl above 3600", { ttl: 3601 }, /ttl/],
    ["activityTtl below 10", { activityTtl: 5 }, /activityTtl/],
    ["an empty profile name", { profile: { name: "" } }, /profile\.name/],
    ["a 129-character profile name", { profile: { name: "x".repeat(129) } }, /profile\.name/],
  ])("rejects %s before sending", async (_n, options, message) => {
    s = await setup(kind);
    const err = await s.client.browser(options as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(message);
    expect(s.fake.requests.length).toBe(0);
  });

  it.each([
    ["empty code", { code: "" }, /code/],
    ["an unknown language", { code: "x", language: "ruby" }, /language/],
    ["timeout 0", { code: "x", timeout: 0 }, /timeout/],
    ["timeout above 300", { code: "x", timeout: 301 }, /timeout/],
  ])("rejects execute with %s before sending", async (_n, options, message) => {
    s = await setup(kind);
    const err = await s.client.browserExecute("abc", options as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(message);
    expect(s.fake.requests.length).toBe(0);
  });

  it("rejects an empty session id and a bad status filter before sending", async () => {
    s = await setup(kind);
    await expect(s.client.browserExecute("", { code: "x" })).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.deleteBrowser("..")).rejects.toBeInstanceOf(ValidationError);
    await expect(s.client.listBrowsers({ status: "gone" } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests.length).toBe(0);
  });

  it("unknown sessions are 404 for execute and delete; another team's are 403", async () => {
    s = await setup(kind, { apiKeys: ["fc-test-key", "fc-other-key"] });
    await expect(s.client.browserExecute("nope", { code: "x" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.client.deleteBrowser("nope")).rejects.toBeInstanceOf(NotFoundError);
    const { id } = await s.client.browser();
    const other = { id: "team-other", planCredits: 1000, creditsUsed: 0, ledger: [] };
    s.fake.teams.set("fc-other-key", other);
    const { WebData } = await import("../src/index.js");
    const intruder = new WebData({ apiKey: "fc-other-key", apiUrl: s.url, fetch: s.fake.fetch, logLevel: "off" });
    await expect(intruder.browserExecute(id, { code: "x" })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(intruder.deleteBrowser(id)).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it("the 21st active session is 429; a locked profile is 409; too few credits for the TTL is 402", async () => {
    s = await setup(kind, { planCredits: 1000 }, { maxRetries: 0 });
    for (let i = 0; i < 20; i++) await s.client.browser({ ttl: 30 });
    await expect(s.client.browser({ ttl: 30 })).rejects.toBeInstanceOf(RateLimitError);
    s.fake.state.delete("browserSessions");
    await s.client.browser({ profile: { name: "p" } });
    await expect(s.client.browser({ profile: { name: "p" } })).rejects.toBeInstanceOf(ConflictError);
    await expect(s.client.browser({ profile: { name: "p", saveChanges: false } })).resolves.toHaveProperty("id");
    s.fake.team.planCredits = 10;
    await expect(s.client.browser({ ttl: 3600 })).rejects.toBeInstanceOf(PaymentRequiredError);
  });

  it("creation is not retried after a 502 (it may have created a billed session), but is after a 429", async () => {
    s = await setup(kind, {}, { maxRetries: 2 });
    s.fake.inject({ match: "/v2/browser", status: 502, body: { success: false, error: "Failed to create browser session." } });
    await expect(s.client.browser()).rejects.toBeInstanceOf(InternalServerError);
    expect(s.fake.requests.length).toBe(1);
    s.fake.rateLimit({ match: "/v2/browser", retryAfterSeconds: 0 });
    await expect(s.client.browser()).resolves.toHaveProperty("id");
    expect(s.fake.requests.length).toBe(3);
  });

  it.each([
    [503, InternalServerError, "Browser service is not configured."],
    [500, InternalServerError, "Failed to persist browser session."],
  ])("maps create HTTP %i", async (status, Ctor, error) => {
    s = await setup(kind, {}, { maxRetries: 0 });
    s.fake.inject({ match: "/v2/browser", status, body: { success: false, error } });
    const err = await s.client.browser().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Ctor);
    expect((err as InternalServerError).serverMessage).toBe(error);
  });

  it("maps execute 502 (exec failed) without retrying", async () => {
    s = await setup(kind);
    const { id } = await s.client.browser();
    s.fake.inject({ match: /execute/, status: 502, body: { success: false, error: "Failed to execute code." } });
    await expect(s.client.browserExecute(id, { code: "x" })).rejects.toBeInstanceOf(InternalServerError);
    expect(s.fake.requests.filter((r) => r.pathname.endsWith("/execute")).length).toBe(1);
  });
});
