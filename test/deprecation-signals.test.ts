/**
 * The server's deprecation signals (since 2026-05 the service flags `/v1/extract`, `/v2/extract`,
 * `/v1/deep-research`, `/v1/llmstxt` and their status reads: RFC 9745 `Deprecation`, RFC 8594 `Sunset`, `Link`
 * to the successor, `Warning: 299`, and `warnings[]` plus `replacement` in the JSON body): logged once per
 * process and endpoint with the replacement, on the result's `withResponse()`, and with `strictDeprecations`
 * a `DeprecatedEndpointError` that carries the answer.
 */
import { describe, expect, it } from "vitest";
import { DeprecatedEndpointError, WebData, type Logger } from "../src/index.js";
import { createFakeService, fakeTasks } from "../src/testing/index.js";
import { setup, TRANSPORTS } from "./helpers.js";
import { v1 as v1Face } from "../src/v1/index.js";

function capture(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, logger: { debug: () => undefined, info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined } };
}

// First in the file: the notices are once per process (module state of the library), so this test must be the first to meet them.
describe("the server's deprecation in the log", () => {
  it("is logged once per process and endpoint, with the server's text and the replacement, through any client", async () => {
    const fake = createFakeService();
    const { logger, warnings } = capture();
    const a = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logger });
    const b = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logger });
    const started = await a.startExtract({ urls: ["https://acme.test/"], prompt: "name" });
    await b.startExtract({ urls: ["https://acme.test/"], prompt: "name" });
    expect(warnings).toEqual(["webdata: the server says: /v2/extract is deprecated. Use /v2/scrape with formats including a 'json' format object. Replacement: /v2/scrape."]);
    // The status read is the same deprecated capability (its text names the route with `:jobId`): no line more,
    // whatever the job id, so one extract() call (a start and its polls) logs one line.
    await a.getExtractStatus(started.id);
    await b.getExtractStatus(started.id);
    expect(warnings).toHaveLength(1);
    fakeTasks(fake).configure({ pollsToFinish: 0 });
    await a.extract({ urls: ["https://acme.test/"], prompt: "name" });
    expect(warnings).toHaveLength(1);
    // Another deprecated capability has its own line: v1 extract (start and status, one line).
    const server = () => warnings.filter((w) => w.startsWith("webdata: the server says"));
    const v1 = (await a.v1.asyncExtract(["https://acme.test/"], { prompt: "name" })) as { id: string };
    await a.v1.getExtractStatus(v1.id);
    expect(server()).toHaveLength(2);
    expect(server()[1]).toContain("/v1/extract is deprecated");
    // An endpoint the server does not flag says nothing.
    await a.scrape("https://acme.test/");
    expect(server()).toHaveLength(2);
  });

  it("silenceDeprecationWarnings keeps the log quiet; the signal stays on withResponse()", async () => {
    const fake = createFakeService();
    const { logger, warnings } = capture();
    const client = new WebData({ plugins: [v1Face], apiKey: fake.apiKey, apiUrl: "https://fake.webdata.test", fetch: fake.fetch, logger, silenceDeprecationWarnings: true });
    const r = await client.startExtract({ urls: ["https://acme.test/"], prompt: "x" }).withResponse();
    expect(r.response.deprecation?.replacement).toBe("/v2/scrape");
    expect(warnings).toEqual([]);
  });
});

describe.each(TRANSPORTS)("deprecation signals over %s", (kind) => {
  it("are on withResponse(): replacement, the server's texts; a result without the signal has none", async () => {
    const s = await setup(kind);
    try {
      const r = await s.client.startExtract({ urls: ["https://acme.test/"], prompt: "name" }).withResponse();
      expect(r.response.deprecation).toEqual({
        deprecatedAt: undefined,
        sunset: undefined,
        replacement: "/v2/scrape",
        docs: undefined,
        warnings: ["/v2/extract is deprecated. Use /v2/scrape with formats including a 'json' format object."],
      });
      expect(typeof r.data.id).toBe("string");
      const plain = await s.client.scrape("https://acme.test/").withResponse();
      expect(plain.response.deprecation).toBeUndefined();
    } finally {
      await s.close();
    }
  });

  it("are read from the headers alone (RFC 9745 date, Sunset, Link relations, Warning 299)", async () => {
    const s = await setup(kind);
    try {
      s.fake.inject({
        match: "/v2/search",
        status: 200,
        headers: {
          deprecation: "@1788393600",
          sunset: "Tue, 03 Nov 2026 23:59:59 GMT",
          link: '<https://docs.example/developer>; rel="deprecation", </v2/search/developer>; rel="successor-version"',
          warning: '299 - "GET /v2/search/research/github is deprecated: use \\"developer\\" search"',
        },
        body: { success: true, id: "search-1", data: { web: [] }, creditsUsed: 1 },
      });
      const r = await s.client.search("x").withResponse();
      expect(r.response.deprecation).toEqual({
        deprecatedAt: new Date(1788393600 * 1000),
        sunset: "Tue, 03 Nov 2026 23:59:59 GMT",
        replacement: "/v2/search/developer",
        docs: "https://docs.example/developer",
        warnings: ['GET /v2/search/research/github is deprecated: use "developer" search'],
      });
    } finally {
      await s.close();
    }
  });

  it("strictDeprecations: a DeprecatedEndpointError that carries the answer (the started job's id is not lost), not retried", async () => {
    const s = await setup(kind, {}, { strictDeprecations: true });
    try {
      const err = await s.client.startExtract({ urls: ["https://acme.test/"], prompt: "name" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DeprecatedEndpointError);
      const e = err as DeprecatedEndpointError;
      expect(e.endpoint).toBe("POST /v2/extract");
      expect(e.replacement).toBe("/v2/scrape");
      expect(e.message).toMatch(/\/v2\/extract is deprecated.*replacement: \/v2\/scrape.*strictDeprecations/);
      expect(typeof (e.body as { id?: unknown }).id).toBe("string");
      expect(s.fake.requests.filter((r) => r.pathname === "/v2/extract")).toHaveLength(1);
      // The v1 face meets the same rule.
      const v1 = await s.client.v1.asyncExtract(["https://acme.test/"], { prompt: "name" }).catch((x: unknown) => x);
      expect(v1).toBeInstanceOf(DeprecatedEndpointError);
      // An endpoint the server does not flag is unaffected.
      await expect(s.client.scrape("https://acme.test/")).resolves.toBeDefined();
    } finally {
      await s.close();
    }
  });
});

describe("the fake flags what the service flags", () => {
  it("v1 extract, deep research and llms.txt carry the signal; deprecations: false turns it off", async () => {
    const fake = createFakeService();
    const res = await fake.fetch("https://fake.webdata.test/v1/llmstxt", { method: "POST", headers: { authorization: `Bearer ${fake.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ url: "https://acme.test/" }) });
    expect(res.headers.get("deprecation")).toBe("true");
    expect(((await res.json()) as { warnings: string[] }).warnings).toEqual(["/v1/llmstxt is deprecated and will not be replaced."]);
    const off = createFakeService({ deprecations: false });
    const plain = await off.fetch("https://fake.webdata.test/v2/extract", { method: "POST", headers: { authorization: `Bearer ${off.apiKey}`, "content-type": "application/json" }, body: JSON.stringify({ urls: ["https://acme.test/"], prompt: "x" }) });
    expect(plain.headers.get("deprecation")).toBeNull();
    expect((await plain.json()) as object).not.toHaveProperty("warnings");
  });
});
