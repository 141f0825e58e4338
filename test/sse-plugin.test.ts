/**
 * The watcher's server-sent-events transport is a plugin (`webdata/sse`): the service offers no event stream, so a plain
 * client's watcher never asks for one (no request with `accept: text/event-stream`) and goes from the WebSocket to polling;
 * with `plugins: [sse]` the same watcher streams from a server that offers one; `transports: ["sse"]` without it is refused.
 */
import { describe, expect, it } from "vitest";
import { ValidationError, WebData } from "../src/index.js";
import { sse, type ClientPlugin } from "../src/sse.js";
import { createFakeService, fakeJobs, type FakeService } from "../src/testing/index.js";

let fake: FakeService;

/** A finished crawl of three pages on a fake that serves event streams. */
async function finishedCrawl(): Promise<string> {
  fake = createFakeService({ sse: true });
  const jobs = fakeJobs(fake);
  const res = await fake.fetch("https://fake.webdata.test/v2/crawl", { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test/", limit: 3 }) });
  const { id } = (await res.json()) as { id: string };
  jobs.configure({ pagesPerPoll: 3 });
  return id;
}

const client = (plugins: ClientPlugin[] = []) => new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", plugins });

const streamed = () => fake.requests.filter((r) => r.headers.accept === "text/event-stream").length;

describe("webdata/sse", () => {
  it("without the plugin the watcher asks for no event stream and polls: every document, once", async () => {
    const id = await finishedCrawl();
    const docs: string[] = [];
    for await (const e of client().watcher(id)) if (e.type === "document") docs.push(String(e.document.metadata?.sourceURL));
    expect(new Set(docs).size).toBe(3);
    expect(docs).toHaveLength(3);
    expect(streamed()).toBe(0);
  });

  it("with the plugin the same watcher streams from a server that offers events", async () => {
    const id = await finishedCrawl();
    const docs: string[] = [];
    for await (const e of client([sse]).watcher(id)) if (e.type === "document") docs.push(String(e.document.metadata?.sourceURL));
    expect(docs).toHaveLength(3);
    expect(streamed()).toBeGreaterThan(0);
  });

  it('transports: ["sse"] without the plugin is a ValidationError naming the import, before anything is sent', async () => {
    const id = await finishedCrawl();
    const before = fake.requests.length;
    const err = await (async () => {
      for await (const _ of client().watcher(id, { transports: ["sse", "poll"] })) void _;
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain('import { sse } from "webdata/sse"');
    expect(fake.requests.length).toBe(before);
  });
});
