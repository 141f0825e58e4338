/**
 * Regression tests: response bodies have a size limit
 * (`maxResponseBytes`, enforced while reading, on both transports), and the
 * Node transport decodes the gzip, deflate and br bodies a server sends
 * without being asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { ResponseTooLargeError, WebData as PortableWebData, type ClientOptions } from "../src/index.js";
import { WebData } from "../src/node.js";
import { TRANSPORTS, type TransportKind } from "./helpers.js";

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A loopback server answering every request with `answer`; `closed` counts connections the client dropped. */
async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function client(kind: TransportKind, apiUrl: string, extra: ClientOptions = {}) {
  const opts: ClientOptions = { apiKey: "fc-body-test", apiUrl, logLevel: "off", maxRetries: 0, ...extra };
  return kind === "undici" ? new WebData(opts) : new PortableWebData(opts);
}

const usage = { success: true, data: { remainingCredits: 42, planCredits: 100, billingPeriodStart: null, billingPeriodEnd: null } };

describe.each(TRANSPORTS)("response bodies over %s", (kind) => {
  it.each([
    ["gzip", (b: Buffer) => gzipSync(b)],
    ["deflate", (b: Buffer) => deflateSync(b)],
    ["br", (b: Buffer) => brotliCompressSync(b)],
  ] as const)("decodes an unrequested %s body", async (coding, compress) => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": coding }).end(compress(Buffer.from(JSON.stringify(usage))));
    });
    await expect(client(kind, url).getCreditUsage()).resolves.toMatchObject({ remainingCredits: 42 });
  });

  it("a body over maxResponseBytes (declared length) is ResponseTooLargeError", async () => {
    const big = JSON.stringify({ success: true, data: { remainingCredits: 1, pad: "x".repeat(10_000) } });
    const url = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(big)) }).end(big));
    const err = await client(kind, url, { maxResponseBytes: 1_000 }).getCreditUsage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err).toMatchObject({ limitBytes: 1_000, endpoint: "GET /v2/team/credit-usage" });
  });

  it("an endless chunked body stops at the limit instead of filling memory", async () => {
    let written = 0;
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"success":true,"pad":"');
      const chunk = "y".repeat(64 * 1024);
      const pump = () => {
        while (written < 200 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (written < 200 * 1024 * 1024 && !res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => (written = Number.POSITIVE_INFINITY));
      pump();
    });
    const err = await client(kind, url, { maxResponseBytes: 256 * 1024 }).getCreditUsage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
  });

  it("a small gzip body that decodes past the limit is ResponseTooLargeError (the decoded size counts)", async () => {
    const bomb = gzipSync(Buffer.from(JSON.stringify({ success: true, pad: "z".repeat(5_000_000) })));
    expect(bomb.byteLength).toBeLessThan(50_000);
    const url = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(bomb.byteLength) }).end(bomb));
    const err = await client(kind, url, { maxResponseBytes: 1_000_000 }).getCreditUsage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
  });

  it("a body within the limit is read as before, chunked or not", async () => {
    const text = JSON.stringify(usage);
    const url = await serve((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(text.slice(0, 10));
      res.end(text.slice(10));
    });
    await expect(client(kind, url, { maxResponseBytes: text.length }).getCreditUsage()).resolves.toMatchObject({ remainingCredits: 42 });
  });
});

describe("maxResponseBytes option", () => {
  it("must be a positive integer (or Infinity)", () => {
    expect(() => new PortableWebData({ apiKey: "k", apiUrl: "http://127.0.0.1:1", maxResponseBytes: 0 })).toThrow(/maxResponseBytes/);
    expect(() => new PortableWebData({ apiKey: "k", apiUrl: "http://127.0.0.1:1", maxResponseBytes: Number.NaN })).toThrow(/maxResponseBytes/);
    expect(() => new PortableWebData({ apiKey: "k", apiUrl: "http://127.0.0.1:1", maxResponseBytes: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});
