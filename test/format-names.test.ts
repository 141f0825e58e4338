/**
 * Format names: a name within a small edit distance of a known one is a misspelling, refused before
 * anything is sent with a "did you mean" and the valid names, on every face (WebData's scrape, crawl,
 * batch and search `scrapeOptions`, the object form's `type`, `client.v1`, the drop-in); a name the SDK
 * does not know at all is sent as given (a format the service adds later works before the SDK knows it).
 * The server's 400 for such a name is explained in test/server-reason.test.ts; the CLI's `--format` in
 * test/cli-commands.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ValidationError, WebData, type Format } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { createFakeService } from "../src/testing/index.js";

function client() {
  const fake = createFakeService();
  return { fake, client: new WebData({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logLevel: "off", maxRetries: 0 }) };
}

const f = (...names: unknown[]) => names as Format[];

describe("a misspelt format name is refused before sending, with a did-you-mean and the valid names", () => {
  it.each([
    ["markdwn", "markdown"],
    ["rawhtml", "rawHtml"],
    ["scrennshot", "screenshot"],
    ["linsk", "links"],
    ["htm", "html"],
    ["summery", "summary"],
    ["changetracking", "changeTracking"],
    ["atributes", "attributes"],
  ])("scrape: %s -> %s", async (typo, near) => {
    const { fake, client: c } = client();
    const err = await c.scrape("https://acme.test/", { formats: f(typo) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toContain(`formats.0: unknown format "${typo}": did you mean "${near}"?`);
    expect((err as Error).message).toMatch(/The formats: markdown, html, rawHtml, links, summary, images, branding, screenshot, json, changeTracking, product, menu, audio, video; as objects only: attributes, query, question, highlights/);
    expect(fake.requests).toHaveLength(0);
  });

  it("the object form's type, and scrapeOptions of crawl, batch and search, the same", async () => {
    const { fake, client: c } = client();
    const calls: [string, Promise<unknown>][] = [
      ["formats.1.type", c.scrape("https://acme.test/", { formats: f("markdown", { type: "screenshto", fullPage: true }) })],
      ["scrapeOptions.formats.0", c.startCrawl("https://acme.test/", { scrapeOptions: { formats: f("markdwn") } })],
      ["formats.0", c.startBatchScrape(["https://acme.test/"], { formats: f("markdwn") })],
      ["scrapeOptions.formats.0", c.search("acme", { scrapeOptions: { formats: f("markdwn") as never } })],
    ];
    for (const [path, call] of calls) {
      const err = await call.catch((e: unknown) => e);
      expect(err, path).toBeInstanceOf(ValidationError);
      expect((err as Error).message, path).toMatch(new RegExp(`${path.replace(/\./g, "\\.")}: unknown format "\\w+": did you mean`));
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("client.v1 (fixed v1 names: a misspelling gets the did-you-mean, any other unknown name the list) and the drop-in", async () => {
    const { fake, client: c } = client();
    const typo = await c.v1.scrapeUrl("https://acme.test/", { formats: ["markdwn" as "markdown"] }).catch((e: unknown) => e);
    expect(typo).toBeInstanceOf(ValidationError);
    expect((typo as Error).message).toContain('formats.0: unknown format "markdwn": did you mean "markdown"? The formats: markdown, html, rawHtml, links, screenshot, screenshot@fullPage, extract');
    const far = await c.v1.scrapeUrl("https://acme.test/", { formats: ["bogus" as "markdown"] }).catch((e: unknown) => e);
    expect((far as Error).message).toContain('formats.0: unknown format "bogus". The formats: markdown, html');
    const app = new Firecrawl({ apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch });
    const dropIn = await app.scrape("https://acme.test/", { formats: ["markdwn" as "markdown"] }).catch((e: unknown) => e);
    expect((dropIn as Error).message).toContain('did you mean "markdown"?');
    expect(fake.requests).toHaveLength(0);
  });
});

describe("a name the SDK does not know at all, or knows, is sent as given", () => {
  it("deterministicJson (added by the service after this SDK's list) and every known name reach the server", async () => {
    const { fake, client: c } = client();
    await c.scrape("https://acme.test/", { formats: f("deterministicJson") }).catch(() => undefined); // the fake's 400 is the server's word
    expect(fake.requests[0]!.body).toMatchObject({ formats: ["deterministicJson"] });
    const doc = await c.scrape("https://acme.test/", { formats: ["markdown", "html", "rawHtml", "links", "summary", "images", "audio", "video"] });
    expect(doc.markdown).toContain("Acme");
    expect(fake.requests).toHaveLength(2);
  });
});
