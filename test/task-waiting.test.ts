/**
 * The one task waiting (`waitForTask` in `src/jobs/polling.ts`) behind the v2
 * `extract` / `agent` waiters and the v1 `extract`, `generateLLMsText` and
 * `deepResearch` waiters: `completed` returns, `failed` / `cancelled` (and a
 * `completed` the server marks `success:false`) throw `JobFailedError` with
 * the job id and the server's text, for every one of them.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobFailedError } from "../src/index.js";
import { FIXTURE_ORIGIN, v1FakeState } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";
import { rejection } from "./support/rejection.js";

describe.each(TRANSPORTS)("task waiting over %s", (kind) => {
  let s: Setup;
  beforeEach(async () => {
    s = await setup(kind);
  });
  afterEach(() => s.close());

  const failure = (p: Promise<unknown>) => rejection(p, JobFailedError);

  it("v1 generateLLMsText: a failed job throws JobFailedError with the server's text", async () => {
    v1FakeState(s.fake).failNext = "site unreachable";
    const err = await failure(s.client.v1.generateLLMsText(`${FIXTURE_ORIGIN}/`));
    expect(err).toMatchObject({ status: "failed", serverError: "site unreachable" });
  });

  it("v1 deepResearch: a failed job throws JobFailedError with the server's text", async () => {
    v1FakeState(s.fake).failNext = "research budget exceeded";
    const err = await failure(s.client.v1.deepResearch("widgets"));
    expect(err).toMatchObject({ status: "failed", serverError: "research budget exceeded" });
  });

  it("v1 extract: a `completed` status sent with success:false is a failure", async () => {
    s.fake.inject({ match: /^GET \/v1\/extract\//, status: 200, body: { success: false, status: "completed", data: [], error: "partial failure" } });
    const err = await failure(s.client.v1.extract([`${FIXTURE_ORIGIN}/products`], { prompt: "title" }));
    expect(err).toMatchObject({ status: "failed", serverError: "partial failure" });
  });

  it("v1 extract and v2 extract: a cancelled job throws JobFailedError (cancelled) with the job id", async () => {
    s.fake.inject({ match: /^GET \/v1\/extract\//, status: 200, body: { success: false, status: "cancelled", data: [] } });
    const v1 = await failure(s.client.v1.extract([`${FIXTURE_ORIGIN}/products`], { prompt: "title" }));
    expect(v1.status).toBe("cancelled");
    expect(v1.jobId).toBe(s.fake.requests.find((r) => r.pathname.startsWith("/v1/extract/"))?.pathname.split("/").pop());

    s.fake.inject({ match: /^GET \/v2\/extract\//, status: 200, body: { success: false, status: "cancelled", data: [] } });
    const v2 = await failure(s.client.extract({ urls: [`${FIXTURE_ORIGIN}/products`], prompt: "title", pollIntervalMs: 500 }));
    expect(v2.status).toBe("cancelled");
    expect(v2.jobId).toBe(s.fake.requests.find((r) => r.pathname.startsWith("/v2/extract/"))?.pathname.split("/").pop());
  });
});
