/**
 * A call's URL: `apiUrl` and the endpoint's path joined as `URL` joins them, whatever the form of `apiUrl` (a base
 * path, an upper-case scheme or host, a default port, a trailing slash), on every call (a fixed route's URL is
 * kept per client after its first call: `HttpClient.#routes`), and the `METHOD /path` that errors name is the path
 * the server got.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { TimeoutError, WebData as PortableWebData } from "../src/index.js";
import { WebData } from "../src/node.js";
import { TRANSPORTS } from "./helpers.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A loopback server answering a scrape, a crawl status (the id's path) and a slow usage read; `seen` lists the paths it got. */
async function serve() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url?.includes("credit-usage")) return void setTimeout(() => res.end("{}"), 300);
      if (req.url?.includes("/crawl/")) return void res.end(JSON.stringify({ success: true, status: "scraping", total: 0, completed: 0, creditsUsed: 0, expiresAt: "2099-01-01T00:00:00.000Z", data: [] }));
      res.end(JSON.stringify({ success: true, data: { markdown: "# hi", metadata: { sourceURL: "https://acme.test", statusCode: 200 } } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, seen };
}

const ID = "01a200de-0266-76d8-8503-80a52f44f4b3";

describe.each(TRANSPORTS)("a call's URL over %s", (kind) => {
  it.each([
    ["a base path", (p: number) => `http://127.0.0.1:${p}/api`, "/api"],
    ["a base path and a trailing slash", (p: number) => `http://127.0.0.1:${p}/api/`, "/api"],
    ["an upper-case scheme and host", (p: number) => `HTTP://LOCALHOST:${p}`, ""],
    ["the root", (p: number) => `http://127.0.0.1:${p}`, ""],
  ])("%s: every call goes to the joined path, the first and the next alike, and errors name it", async (_name, apiUrl, base) => {
    const { port, seen } = await serve();
    const opts = { apiKey: "fc-test", apiUrl: apiUrl(port), logLevel: "off" as const, maxRetries: 0 };
    const client = kind === "undici" ? new WebData(opts) : new PortableWebData(opts);
    await client.scrape("https://acme.test/a");
    await client.scrape("https://acme.test/b");
    await client.getCrawlStatus(ID);
    const err = await client.getCreditUsage({ timeoutMs: 50 }).catch((e: unknown) => e);
    expect(seen).toEqual([`POST ${base}/v2/scrape`, `POST ${base}/v2/scrape`, `GET ${base}/v2/crawl/${ID}`, `GET ${base}/v2/team/credit-usage`]);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toContain(`GET ${base}/v2/team/credit-usage`);
  });
});
