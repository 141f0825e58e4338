/**
 * A request is made of the options as they were at the call: changing the
 * caller's options object afterwards (even in the same tick) changes nothing,
 * for a schema (converted at the call), the waiters and `client.v1`.
 */
import { describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService, fakeJobs, fakeTasks } from "../src/testing/index.js";
import * as z325 from "zod3/v4";
import { POLL_FLOOR_OPTION } from "../src/jobs/pages.js";
import "../src/zod4.js"; // zod 3.25's zod/v4 schemas need the opt-in converter (webdata/zod4)
import { v1 as v1Face } from "../src/v1/index.js";

function setup() {
  const fake = createFakeService();
  const client = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
  const bodies = () => fake.requests.map((r) => r.body as Record<string, unknown>);
  return { fake, client, bodies };
}

describe("options are read at call time", () => {
  it("scrape and batch scrape: a later change to the options object is not sent", async () => {
    const { client, bodies } = setup();
    const opts: { location: { country: string }; formats?: ["markdown"] } = { location: { country: "US" } };
    const first = client.scrape("https://acme.test/", opts);
    opts.location = { country: "DE" };
    opts.location.country = "FR";
    const second = client.scrape("https://acme.test/", opts);
    opts.location.country = "GB";
    await Promise.all([first, second]);
    expect(bodies().map((b) => (b.location as { country: string }).country)).toEqual(["US", "FR"]);
  });

  it("a schema is converted at the call: the first call sends the schema it was given, whatever the options become", async () => {
    const { client, bodies } = setup();
    const opts = { formats: [{ type: "json" as const, schema: z325.object({ title: z325.string() }) }] };
    const first = client.scrape("https://acme.test/", opts);
    opts.formats[0]!.schema = z325.object({ inPlace: z325.string() }) as never;
    opts.formats = [{ type: "json", schema: z325.object({ other: z325.string() }) }] as never;
    await first;
    const sent = (bodies()[0]!.formats as { schema: { properties: object } }[])[0]!.schema;
    expect(Object.keys(sent.properties)).toEqual(["title"]);
  });

  it("client.v1: arguments are kept as given, on the first call and the next", async () => {
    const { client, bodies } = setup();
    const params = { search: "first", limit: 5 };
    const before = client.v1.mapUrl("https://acme.test/", params);
    params.search = "second";
    await before;
    const after = client.v1.mapUrl("https://acme.test/", params);
    params.search = "third";
    await after;
    expect(bodies().map((b) => b.search)).toEqual(["first", "second"]);
  });

  it("crawl(), batchScrape(), extract() and agent(): the job starts with the options of the call", async () => {
    const { fake, client, bodies } = setup();
    fakeJobs(fake);
    fakeTasks(fake).configure({ pollsToFinish: 0 });
    const fast = { pollIntervalMs: 50, [POLL_FLOOR_OPTION]: 50 };
    const crawl = { limit: 2, scrapeOptions: { formats: ["markdown" as const] }, ...fast };
    const batch = { formats: ["markdown" as const], location: { country: "US" }, ...fast };
    const extract = { urls: ["https://acme.test/about"], prompt: "first", ...fast };
    const agent = { maxCredits: 10, ...fast };
    const done = Promise.all([
      client.crawl("https://acme.test/", crawl),
      client.batchScrape(["https://acme.test/about"], batch),
      client.extract(extract),
      client.agent("first", agent),
    ]);
    crawl.limit = 99;
    crawl.scrapeOptions.formats[0] = "html" as never;
    batch.location.country = "DE";
    extract.prompt = "changed";
    extract.urls[0] = "https://changed.test/";
    agent.maxCredits = 99;
    await done;
    const started = (path: string) => bodies()[fake.requests.findIndex((r) => r.method === "POST" && r.path === path)]!;
    expect(started("/v2/crawl")).toMatchObject({ limit: 2, scrapeOptions: { formats: ["markdown"] } });
    expect(started("/v2/batch/scrape")).toMatchObject({ location: { country: "US" } });
    expect(started("/v2/extract")).toMatchObject({ prompt: "first", urls: ["https://acme.test/about"] });
    expect(started("/v2/agent")).toMatchObject({ prompt: "first", maxCredits: 10 });
  });
});
