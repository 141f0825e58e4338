/**
 * A request is made of the options as they were at the call: changing the
 * caller's options object afterwards (even in the same tick) changes nothing,
 * also through `client.v1` before and after its layer has loaded.
 */
import { describe, expect, it } from "vitest";
import { WebData } from "../src/index.js";
import { createFakeService } from "../src/testing/index.js";
import * as z325 from "zod3/v4";
import { laterCount } from "../src/core/later.js";
import "../src/zod4.js"; // zod 3.25's zod/v4 schemas need the opt-in converter (webdata/zod4)

function setup() {
  const fake = createFakeService();
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.test", fetch: fake.fetch, logLevel: "off", silenceDeprecationWarnings: true });
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

  it("a schema sent before the schema conversion has loaded (the portable entry loads it on first use): the first call sends the schema it was given", async () => {
    const { client, bodies } = setup();
    const before = laterCount();
    const opts = { formats: [{ type: "json" as const, schema: z325.object({ title: z325.string() }) }] };
    const first = client.scrape("https://acme.test/", opts);
    // The portable entry has not loaded the schema conversion yet: the body is frozen at the call, the schema filled in later.
    expect(laterCount()).toBeGreaterThan(before);
    opts.formats = [{ type: "json", schema: z325.object({ other: z325.string() }) }] as never;
    await first;
    const sent = (bodies()[0]!.formats as { schema: { properties: object } }[])[0]!.schema;
    expect(Object.keys(sent.properties)).toEqual(["title"]);
  });

  it("client.v1: arguments are kept as given, before and after the v1 layer loads", async () => {
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
});
