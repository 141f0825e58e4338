/**
 * The portable entry loads the job waiters on first use (`jobs/waiting.ts`, a
 * chunk of its own in a browser bundle). When that chunk cannot be loaded (a
 * browser offline, a deploy that removed it; simulated by a module whose
 * evaluation throws), a waiting call rejects with a `WebDataError` that says
 * so, and nothing is sent: no job is started that nobody would wait for.
 */
import { describe, expect, it, vi } from "vitest";
import { WebData, WebDataError } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";

vi.mock("../src/jobs/waiting.js", () => {
  throw new Error("Failed to fetch dynamically imported module: waiting.js");
});

describe("job waiters that cannot be loaded", () => {
  it("crawl() and crawlDocuments() reject with a WebDataError naming the part, before anything is sent", async () => {
    const fake = createFakeService();
    const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off" });
    const err = (await client.crawl("https://acme.test/", { limit: 2 }).catch((e: unknown) => e)) as WebDataError;
    expect(err).toBeInstanceOf(WebDataError);
    expect(err.message).toMatch(/^Could not load the job waiters: /);
    const iterate = async () => {
      for await (const _doc of client.crawlDocuments("01a200de-0266-76d8-8503-80a52f44f4b3")) void _doc;
    };
    await expect(iterate()).rejects.toThrow(/Could not load the job waiters/);
    expect(fake.requests).toHaveLength(0);
  });
});
