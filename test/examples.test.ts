/**
 * Every task example in examples/ runs against the fake service, as
 * `npx tsx examples/<name>.ts` runs it without WEBDATA_API_KEY (the fake on
 * loopback), and examples/README.md lists every one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connect, type Connection } from "../examples/connect.js";
import type { ClientOptions } from "../src/index.js";
import { drivePaced, useJobTimers } from "./jobs-helpers.js";

const DIR = fileURLToPath(new URL("../examples/", import.meta.url));

/** Each example's module and what its run must show. */
const EXAMPLES: Record<string, (out: unknown) => void> = {
  "scrape.ts": (out) => expect(out).toMatchObject({ title: "Acme Test Site", links: 6, markdown: expect.stringContaining("widgets") }),
  "map.ts": (out) => expect(out).toMatchObject({ all: 30, matching: ["https://acme.test/blog/first-post", "https://acme.test/blog/second-post"] }),
  "crawl-progress.ts": (out) => expect(out).toEqual({ documents: 10, status: "completed" }),
  "watch.ts": (out) => expect(out).toEqual({ documents: 5, done: "completed" }),
  "batch-scrape.ts": (out) => expect(out).toEqual({ documents: 3, errors: 0 }),
  "search.ts": (out) => expect(out).toMatchObject({ web: expect.any(Number), news: expect.any(Number), images: expect.any(Number) }),
  "extract-agent.ts": (out) => expect(out).toEqual({ extracted: "About Acme", agentStatus: "completed" }),
  "agent-signup.ts": (out) => expect(out).toEqual({ status: "pending", title: "About Acme" }),
  "errors.ts": (out) =>
    expect(out).toEqual({
      validation: "ValidationError", badRequest: "BadRequestError", notFound: "NotFoundError", auth: "AuthenticationError", retried: "ok",
      rateLimit: "RateLimitError", server: "InternalServerError", connection: "ConnectionError", timeout: "TimeoutError", abort: "AbortError",
      payment: "PaymentRequiredError", conflict: "ConflictError", jobFailed: "JobFailedError",
      corrupt: "InvalidResponseError",
    }),
  "abort-timeouts.ts": (out) => expect(out).toEqual(["TimeoutError", "AbortError", "JobTimeoutError"]),
  "v1-to-v2.ts": (out) => expect(out).toEqual({ v1: ["About Acme", "5", "2"], v2: ["About Acme", "5", "2"] }),
  "official-client.ts": (out) => expect(out).toMatchObject({ title: "Acme Test Site", links: 10, pages: 3, status: "completed" }),
  "agent-tools.ts": (out) =>
    expect(out).toMatchObject({
      toolNames: ["scrape", "search", "map"],
      answers: [expect.stringMatching(/^## About Acme/), expect.stringMatching(/^Error: invalid arguments: url: https:\/\/elsewhere\.example\/ is not on an allowed domain \(acme\.test\)/)],
    }),
  "files-and-monitors.ts": (out) => expect(out).toEqual({ heading: "# Quarterly report", pages: ["https://acme.test/products new"] }),
  "webhooks.ts": (out) => expect(out).toEqual({ accepted: ["crawl.completed"], acknowledged: [200, 200], rejected: 1 }),
  "observe.ts": (out) => expect(out).toMatchObject({ spans: expect.any(Number), traces: 1, requests: expect.any(Number), everyRequestSeen: true, credits: 5, crawlCredits: 5 }),
};

describe("examples/", () => {
  beforeAll(() => void vi.stubEnv("WEBDATA_API_KEY", ""));
  afterAll(() => void vi.unstubAllEnvs());

  // The examples wait as a user's run does (poll pauses, a deadline, the fake's delays): on fake time here, driven
  // between real loopback round trips (paced, so real work between the waits cannot pass for a client timeout), so
  // the suite does not sleep through them.
  for (const [file, check] of Object.entries(EXAMPLES)) {
    it(`${file} runs against the fake`, async () => {
      const mod = (await import(`../examples/${file}`)) as { main: (c: Connection) => Promise<unknown>; options?: ClientOptions };
      const c = await connect({ logLevel: "off", ...mod.options });
      const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
      useJobTimers();
      try {
        check(await drivePaced(mod.main(c)));
        expect(log).toHaveBeenCalled();
      } finally {
        vi.useRealTimers();
        log.mockRestore();
        await c.close();
      }
    });
  }

  it("has a runnable example for every task, and examples/README.md lists every file", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".ts"));
    const readme = readFileSync(`${DIR}README.md`, "utf8");
    for (const f of files) expect(readme, f).toContain(`(${f})`);
    expect(readme).toContain("(testing/)");
    // Each task file runs on its own, against the fake or (WEBDATA_API_KEY) the service.
    for (const f of files.filter((name) => name !== "connect.ts" && name !== "demo.ts")) expect(readFileSync(`${DIR}${f}`, "utf8"), f).toContain("runIfMain(import.meta.url, ");
  });
});
