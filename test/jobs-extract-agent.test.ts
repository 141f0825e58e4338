import { describe, expect, it } from "vitest";
import { AbortError, ConflictError, InternalServerError, JobFailedError, JobTimeoutError, NotFoundError, ValidationError } from "../src/index.js";
import { fakeTasks } from "../src/testing/index.js";
import { TRANSPORTS, type Setup } from "./helpers.js";
import { drive, tick, jobTestSetups } from "./jobs-helpers.js";

const { open } = jobTestSetups();
let s: Setup | undefined;

const schema = { type: "object", properties: { title: { type: "string" }, price: { type: "number" } }, required: ["title"] };

describe.each(TRANSPORTS)("extract and agent over %s", (kind) => {
  it("startExtract sends the schema on the wire and getExtractStatus reads processing then completed", async () => {
    s = await open(kind);
    const input = { ...schema, $schema: "https://json-schema.org/draft/2020-12/schema" };
    const started = await s.client.startExtract({ urls: ["https://acme.test/products"], prompt: "Products", schema: input });
    expect(started.id).toMatch(/-/);
    expect("success" in started).toBe(false); // WebData's own shape: no success flag (webdata/firecrawl adds the official one)
    expect(s.fake.requests[0]?.body).toEqual({ urls: ["https://acme.test/products"], prompt: "Products", schema });
    expect(input.$schema).toBeDefined(); // the caller's object is not mutated
    expect(s.fake.requests[0]?.headers["x-idempotency-key"]).toBeUndefined();
    const first = await s.client.getExtractStatus(started.id);
    expect(first).toMatchObject({ id: started.id, status: "processing", data: [] });
    const done = await s.client.getExtractStatus<{ title: string; price: number }>(started.id);
    expect(done.status).toBe("completed");
    expect(done.data).toEqual({ title: "Acme Products", price: 13.5 });
  });

  it("extract waits for the result", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    fakeTasks(s.fake).configure({ pollsToFinish: 3 });
    const res = await drive(s.client.extract({ urls: ["https://acme.test/about"], schema, pollIntervalMs: 500 }));
    expect(res).toMatchObject({ status: "completed", data: { title: "About Acme" } });
    expect(s.fake.requests.filter((r) => r.method === "GET")).toHaveLength(4);
  });

  it("a failed extract is returned by getExtractStatus and thrown by the waiter", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    fakeTasks(s.fake).configure({ pollsToFinish: 0, outcome: "failed", error: "No AI key configured" });
    const { id } = await s.client.startExtract({ prompt: "anything" });
    const status = await s.client.getExtractStatus(id);
    expect(status).toMatchObject({ status: "failed", error: "No AI key configured" });
    const err = await drive(s.client.extract({ prompt: "anything", pollIntervalMs: 500 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ status: "failed", serverError: "No AI key configured" });
    const lastRead = s.fake.requests.filter((r) => r.method === "GET").at(-1)!;
    expect((err as JobFailedError).requestId).toBe(lastRead.headers["x-request-id"]); // the status read that learned it failed
  });

  it("the extract waiter stops at its deadline and on abort", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    fakeTasks(s.fake).configure({ pollsToFinish: 1000 });
    const timeout = await drive(s.client.extract({ prompt: "x", pollIntervalMs: 500, timeoutMs: 3000 }).catch((e: unknown) => e));
    expect(timeout).toBeInstanceOf(JobTimeoutError);
    expect((timeout as JobTimeoutError).lastStatus).toMatchObject({ status: "processing" });
    const ctl = new AbortController();
    const p = s.client.extract({ prompt: "x", pollIntervalMs: 30_000, signal: ctl.signal }).catch((e: unknown) => e);
    const gets = () => s!.fake.requests.filter((r) => r.method === "GET").length;
    const before = gets();
    while (gets() === before) await tick();
    ctl.abort();
    expect(await drive(p, 1)).toBeInstanceOf(AbortError);
  });

  it("startExtract is not retried after a 5xx", async () => {
    s = await open(kind, {}, { maxRetries: 3 });
    s.fake.inject({ match: "/v2/extract", status: 500 });
    await expect(s.client.startExtract({ prompt: "x" })).rejects.toBeInstanceOf(InternalServerError);
    expect(s.fake.requests).toHaveLength(1);
  });

  it("agent: start, status, wait, cancel", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const res = await drive(s.client.agent<{ title: string }>("Find the title", { urls: ["https://acme.test/contact"], schema, model: "spark-1-mini", pollIntervalMs: 500 }));
    expect(res).toMatchObject({ status: "completed", model: "spark-1-mini", data: { title: "Contact Acme" } });
    expect(s.fake.requests[0]?.body).toEqual({ prompt: "Find the title", urls: ["https://acme.test/contact"], schema, model: "spark-1-mini" });

    fakeTasks(s.fake).configure({ pollsToFinish: 100 });
    const { id } = await s.client.startAgent("Long task");
    expect((await s.client.getAgentStatus(id)).status).toBe("processing");
    expect(await s.client.cancelAgent(id)).toBe(true);
    await expect(s.client.cancelAgent(id)).rejects.toMatchObject({ name: "ConflictError", serverMessage: "Agent is already cancelled" });
    await expect(s.client.getAgentStatus("00000000-0000-4000-8000-000000000000")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("an agent cancelled mid-wait throws JobFailedError (cancelled)", async () => {
    s = await open(kind, {}, { timeoutMs: 1e9 });
    const tasks = fakeTasks(s.fake);
    tasks.configure({ pollsToFinish: 100 });
    const p = s.client.agent("Long task", { pollIntervalMs: 500 }).catch((e: unknown) => e);
    while (tasks.all.size === 0) await tick();
    const id = [...tasks.all.keys()][0] as string;
    await s.client.cancelAgent(id);
    const err = await drive(p);
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ jobId: id, status: "cancelled" });
    await expect(s.client.cancelAgent(id)).rejects.toBeInstanceOf(ConflictError);
  });
});

describe("extract and agent input checks (nothing sent)", () => {
  it.each([
    ["neither urls nor prompt", {}],
    ["more than 10 urls", { urls: Array.from({ length: 11 }, (_, i) => `https://acme.test/${i}`) }],
    ["a bad url", { urls: ["not a url"] }],
    ["a short timeout", { prompt: "x", timeout: 10 }],
    ["a long prompt", { prompt: "x".repeat(10001) }],
  ])("extract rejects %s", async (_name, opts) => {
    s = await open("fetch");
    await expect(s.client.startExtract(opts as never)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });

  it.each([
    ["an empty prompt", "", {}],
    ["a bad url", "x", { urls: ["nope nope"] }],
    ["a negative maxCredits", "x", { maxCredits: -5 }],
    ["an unknown webhook event", "x", { webhook: { url: "https://hooks.test/", events: ["page"] } }],
  ])("agent rejects %s", async (_name, prompt, opts) => {
    s = await open("fetch");
    await expect(s.client.startAgent(prompt, opts as never)).rejects.toBeInstanceOf(ValidationError);
    expect(s.fake.requests).toHaveLength(0);
  });
});
