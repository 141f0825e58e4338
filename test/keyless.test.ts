/**
 * Keyless on request (the public service answers search, scrape, parse and interact without a key, under a
 * rate-limited free allowance, since 2026-06): `apiKey: null` or `WEBDATA_API_KEY` set empty sends no
 * `Authorization` header to any URL; a configured key is never dropped silently; a keyless 401, 402 or 429
 * says where it came from and how to add a key; without either, the public URL still fails before sending.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthenticationError, RateLimitError, ValidationError, WebData, WebDataError, type Logger } from "../src/index.js";
import { Firecrawl } from "../src/firecrawl/index.js";
import { createFakeService } from "../src/testing/index.js";
import { setup, TRANSPORTS, type Setup } from "./helpers.js";

const PUBLIC = "https://api.firecrawl.dev";

/** Every key variable unset, then `env` set. */
function env(vars: Record<string, string> = {}): void {
  for (const k of ["WEBDATA_API_KEY", "FIRECRAWL_API_KEY", "WEBDATA_API_URL", "FIRECRAWL_API_URL"]) vi.stubEnv(k, undefined);
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v);
}

afterEach(() => vi.unstubAllEnvs());

describe.each(TRANSPORTS)("keyless over %s", (kind) => {
  let s: Setup;
  afterEach(async () => s?.close());

  it("apiKey: null sends no Authorization header, and the allowance answers scrape and search", async () => {
    env({ WEBDATA_API_KEY: "fc-in-the-environment" });
    s = await setup(kind, { keyless: 5 }, { apiKey: null });
    const page = await s.client.scrape("https://acme.test/");
    expect(page.markdown).toContain("Acme");
    await s.client.search("acme", { limit: 1 });
    expect(s.fake.requests).toHaveLength(2);
    for (const r of s.fake.requests) expect(r.headers.authorization).toBeUndefined();
  });

  it("a keyless 429 and 401 say they came from the free allowance and how to add a key", async () => {
    env();
    s = await setup(kind, { keyless: 1 }, { apiKey: null, maxRetries: 0 });
    await s.client.scrape("https://acme.test/");
    const limited = await s.client.scrape("https://acme.test/").catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as Error).message).toMatch(/No API key was sent.*free keyless allowance.*WEBDATA_API_KEY/);
    const crawl = await s.client.startCrawl("https://acme.test/").catch((e: unknown) => e); // not in the allowance: 401
    expect(crawl).toBeInstanceOf(AuthenticationError);
    expect((crawl as Error).message).toMatch(/free keyless allowance.*search, scrape, parse and interact/);
  });

  it("a client with a key says nothing of the allowance on its 401", async () => {
    env();
    s = await setup(kind, {}, { apiKey: "fc-not-a-key-of-the-fake", maxRetries: 0 });
    const err = await s.client.scrape("https://acme.test/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect((err as Error).message).not.toMatch(/keyless/);
  });

  it("an authorization header on a keyless call is refused before anything is sent", async () => {
    env();
    s = await setup(kind, { keyless: 5 }, { apiKey: null });
    const err = await s.client.scrape("https://acme.test/", {}, { headers: { Authorization: "Bearer fc-x" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(String((err as Error).message)).not.toContain("fc-x");
    expect(s.fake.requests).toHaveLength(0);
  });
});

describe("keyless: how it is asked for", () => {
  it("the public URL without a key and without apiKey: null still fails before sending, naming apiKey: null", () => {
    env();
    expect(() => new WebData()).toThrow(WebDataError);
    expect(() => new WebData()).toThrow(/apiKey: null/);
  });

  it("the public URL with apiKey: null constructs and sends no Authorization", async () => {
    env();
    const fake = createFakeService({ keyless: 3 });
    const client = new WebData({ apiKey: null, apiUrl: PUBLIC, fetch: fake.fetch, logLevel: "off" });
    await client.search("acme", { limit: 1 });
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("the fake's keyless: n answers exactly n keyless requests, whatever they cost, then 429", async () => {
    env();
    const fake = createFakeService({ keyless: 3 });
    const client = new WebData({ apiKey: null, apiUrl: PUBLIC, fetch: fake.fetch, logLevel: "off", maxRetries: 0 });
    await client.scrape("https://acme.test/"); // 1 credit
    await client.search("acme", { limit: 1 }); // 2 credits
    await client.scrape("https://acme.test/");
    const fourth = await client.scrape("https://acme.test/").catch((e: unknown) => e);
    expect(fourth).toBeInstanceOf(RateLimitError);
    expect(fake.requests).toHaveLength(4);
  });

  it("WEBDATA_API_KEY set empty is keyless; unset is not", async () => {
    env({ WEBDATA_API_KEY: "" });
    const fake = createFakeService({ keyless: 3 });
    const client = new WebData({ fetch: fake.fetch, logLevel: "off" });
    expect(client.apiUrl).toBe(PUBLIC);
    await client.search("acme", { limit: 1 });
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    env();
    expect(() => new WebData({ fetch: fake.fetch })).toThrow(/API key is required/);
  });

  it("a configured key is never dropped silently", () => {
    // An empty WEBDATA_API_KEY beside a FIRECRAWL_API_KEY with a key says two things: refused.
    env({ WEBDATA_API_KEY: "", FIRECRAWL_API_KEY: "fc-firecrawl-key" });
    const both = (() => new WebData())as () => WebData;
    expect(both).toThrow(ValidationError);
    expect(both).toThrow(/FIRECRAWL_API_KEY holds a key/);
    // An authorization header on a keyless client.
    env();
    expect(() => new WebData({ apiKey: null, headers: { Authorization: "Bearer fc-x" } })).toThrow(ValidationError);
    // apiKey: null beside a key in the environment: keyless, and the log says the key is not sent.
    env({ WEBDATA_API_KEY: "fc-env-key" });
    const info: string[] = [];
    const logger: Logger = { debug: () => undefined, info: (m) => void info.push(m), warn: () => undefined, error: () => undefined };
    new WebData({ apiKey: null, logger, logLevel: "info" });
    expect(info.join("\n")).toMatch(/keyless.*environment.*not sent/);
    expect(info.join("\n")).not.toContain("fc-env-key");
  });

  it("a key that is not a string is a ValidationError, not a fall back to the environment", () => {
    env({ WEBDATA_API_KEY: "fc-env-key" });
    expect(() => new WebData({ apiKey: 42 as unknown as string })).toThrow(ValidationError);
  });

  it("the drop-in keeps the official meaning of apiKey: null (the environment's key)", async () => {
    env({ FIRECRAWL_API_KEY: "fc-test-key" });
    const fake = createFakeService();
    const app = new Firecrawl({ apiKey: null, apiUrl: "https://fake.webdata.test", fetch: fake.fetch } as ConstructorParameters<typeof Firecrawl>[0]);
    await app.scrape("https://acme.test/");
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer [redacted]");
  });
});
