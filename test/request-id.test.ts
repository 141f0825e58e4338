/**
 * A request id on every request, over both transports: `x-request-id` sent on
 * every request, one per call and the same on its retries; the caller's (`requestId` option, else an
 * `x-request-id` header); kept on the result (`withResponse()`, `_requestId`) and on every error,
 * answered or not, though the server never echoes it (the recordings: "The server sent none of the
 * latter [request-id headers] in any exchange", test/fixtures/recorded/README.md; the fake does not
 * echo either); the exception id of a 5xx body in `err.exceptionId`.
 */
import { describe, expect, it } from "vitest";
import { APIError, ConnectionError, InternalServerError, TimeoutError, WebDataError } from "../src/index.js";
import { setup, recorded, TRANSPORTS, type Setup } from "./helpers.js";
import { drive, jobTestSetups } from "./jobs-helpers.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A 0-second hint keeps retry tests fast without touching the backoff code. */
const NOW = { "retry-after": "0" };

describe.each(TRANSPORTS)("x-request-id over %s", (kind) => {
  const { open } = jobTestSetups();
  let s: Setup;

  it("every request carries one: a new UUID per call, kept on withResponse() and _requestId though the server does not echo it", async () => {
    s = await open(kind);
    const a = await s.client.scrape("https://acme.test/about").withResponse();
    const b = await s.client.map("https://acme.test/").withResponse();
    const [ra, rb] = s.fake.requests;
    expect(ra!.headers["x-request-id"]).toMatch(UUID);
    expect(rb!.headers["x-request-id"]).toMatch(UUID);
    expect(ra!.headers["x-request-id"]).not.toBe(rb!.headers["x-request-id"]);
    expect(a.response.headers.get("x-request-id")).toBeNull(); // the fake, as the server, echoes none
    expect(a.response.requestId).toBe(ra!.headers["x-request-id"]);
    expect(a.response.serverRequestId).toBeUndefined();
    expect((a.data as { _requestId?: string })._requestId).toBe(ra!.headers["x-request-id"]);
    expect(b.response.requestId).toBe(rb!.headers["x-request-id"]);
  });

  it("the same id on every retry of a call; the error of the last attempt carries it", async () => {
    s = await open(kind);
    s.fake.failNext(503, { match: "/v2/scrape", headers: NOW, times: 3 });
    const err = await drive(s.client.scrape("https://acme.test/about", {}, { maxRetries: 2 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(InternalServerError);
    const ids = s.fake.requests.map((r) => r.headers["x-request-id"]);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toMatch(UUID);
    expect(new Set(ids).size).toBe(1);
    expect((err as APIError).requestId).toBe(ids[0]);
    expect((err as APIError).serverRequestId).toBeUndefined();
  });

  it("the caller's id: the requestId option, else an x-request-id header (call, then client); the option wins", async () => {
    s = await open(kind, {}, { headers: { "X-Request-Id": "client-wide" } });
    const r1 = await s.client.scrape("https://acme.test/about", {}, { requestId: "trace-1" }).withResponse();
    const r2 = await s.client.scrape("https://acme.test/about", {}, { headers: { "x-request-id": "hdr-2" } }).withResponse();
    const r3 = await s.client.scrape("https://acme.test/about").withResponse();
    const r4 = await s.client.scrape("https://acme.test/about", {}, { requestId: "opt-4", headers: { "x-request-id": "hdr-4" } }).withResponse();
    expect(s.fake.requests.map((r) => r.headers["x-request-id"])).toEqual(["trace-1", "hdr-2", "client-wide", "opt-4"]);
    expect([r1, r2, r3, r4].map((r) => r.response.requestId)).toEqual(["trace-1", "hdr-2", "client-wide", "opt-4"]);
  });

  it("a requestId that cannot be a header is a ValidationError, nothing sent", async () => {
    s = await open(kind);
    for (const bad of ["", "a b", "line\nbreak", "x".repeat(201)]) {
      const err = await s.client.scrape("https://acme.test/about", {}, { requestId: bad }).catch((e: unknown) => e);
      expect(err, JSON.stringify(bad)).toMatchObject({ name: "ValidationError" });
    }
    expect(s.fake.requests).toHaveLength(0);
  });

  it("an error without an answer carries the id too: a network failure", async () => {
    s = await open(kind, {}, { maxRetries: 1 });
    s.fake.refuseConnection({ times: 2 });
    const err = await drive(s.client.scrape("https://acme.test/about", {}, { requestId: "net-1" }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as WebDataError).requestId).toBe("net-1");
  });

  it("an error without an answer carries the id too: a timeout", async () => {
    s = await open(kind, {}, { maxRetries: 0 });
    s.fake.delay(5_000, { match: "/v2/scrape" });
    let sent = "";
    const err = await drive(s.client.scrape("https://acme.test/about", {}, { timeoutMs: 1_000, hooks: { onRequest: (e) => void (sent = e.headers["x-request-id"] ?? "") } }).catch((e: unknown) => e), 250);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(sent).toMatch(UUID);
    expect((err as TimeoutError).requestId).toBe(sent);
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ name: "TimeoutError", requestId: (err as TimeoutError).requestId });
  });

  it("a request id the server does send, different from ours, is serverRequestId; ours stays requestId", async () => {
    s = await open(kind);
    s.fake.inject({ match: "/v2/scrape", status: 500, headers: { ...NOW, "x-request-id": "srv-9" }, times: 3, body: { success: false, code: "UNKNOWN_ERROR", error: "boom" } });
    const err = (await s.client.scrape("https://acme.test/about", {}, { requestId: "mine-9", maxRetries: 0 }).catch((e: unknown) => e)) as APIError;
    expect(err).toMatchObject({ requestId: "mine-9", serverRequestId: "srv-9" });
  });
});

describe.each(TRANSPORTS)("exceptionId of a 5xx over %s", (kind) => {
  let s: Setup | undefined;

  it("a self-hosted server's 500 UNKNOWN_ERROR 'Error ID: <32 hex>' (recorded: crawl-v1-status-500-non-uuid.json)", async () => {
    const rec = await recorded("crawl-v1-status-500-non-uuid.json");
    s = await setup(kind);
    try {
      s.fake.inject({ match: /\/v2\/crawl\//, status: rec.response.status, body: rec.response.body, times: 3 });
      const err = (await s.client.getCrawlStatus("0190f2a4-0000-7000-8000-00000000000a", {}, { maxRetries: 0 }).catch((e: unknown) => e)) as APIError;
      expect(err).toBeInstanceOf(InternalServerError);
      expect(err.exceptionId).toBe("d799c3bca30845a48df07451f9b61911");
      expect(err.requestId).toMatch(UUID);
    } finally {
      await s.close();
    }
  });

  it("the service's 'Your exception ID is <uuid>' (api-reference.md §errors, 500 unhandled exception); none on a 4xx or a 5xx without one", async () => {
    s = await setup(kind);
    try {
      const id = "7c0d4a8e-2b1f-4c3a-9d5e-6f7a8b9c0d1e";
      s.fake.inject({ match: "/v2/scrape", status: 500, times: 1, body: { success: false, code: "UNKNOWN_ERROR", error: `An unexpected error occurred. Please contact help@firecrawl.com for help. Your exception ID is ${id}` } });
      const err = (await s.client.scrape("https://acme.test/about", {}, { maxRetries: 0 }).catch((e: unknown) => e)) as APIError;
      expect(err.exceptionId).toBe(id);
      for (const [text, want] of [
        ["Your exception ID is abc123 (quote it to support)", "abc123"],
        ["Your exception ID is abc123.", "abc123"],
        ["Error ID: 4f2a, see the logs", "4f2a"],
        ["The error ID is required", undefined], // a word, not an id: ids carry a digit
      ] as const) {
        s.fake.inject({ match: "/v2/scrape", status: 500, times: 1, body: { success: false, code: "UNKNOWN_ERROR", error: text } });
        const e = (await s.client.scrape("https://acme.test/about", {}, { maxRetries: 0 }).catch((x: unknown) => x)) as APIError;
        expect(e.exceptionId, text).toBe(want);
      }
      s.fake.inject({ match: "/v2/scrape", status: 500, times: 1, body: { success: false, error: "plain failure" } });
      const plain = (await s.client.scrape("https://acme.test/about", {}, { maxRetries: 0 }).catch((e: unknown) => e)) as APIError;
      expect(plain.status).toBe(500);
      expect(plain.exceptionId).toBeUndefined();
      s.fake.inject({ match: "/v2/scrape", status: 400, times: 1, body: { success: false, error: `Bad. Error ID: ${"a".repeat(32)}` } });
      const bad = (await s.client.scrape("https://acme.test/about", {}, { maxRetries: 0 }).catch((e: unknown) => e)) as APIError;
      expect(bad.exceptionId).toBeUndefined();
    } finally {
      await s.close();
    }
  });
});
