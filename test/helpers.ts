/**
 * Shared test setup: a fake service and a client over either transport.
 * `fetch`: the portable client with the fake injected as `fetch` (msw-free, in-process).
 * `undici`: the Node client over real HTTP to the fake served on loopback.
 */
import { WebData as PortableWebData, type ClientOptions } from "../src/index.js";
import { WebData as NodeWebData } from "../src/node.js";
import { createFakeService, serveFake, type FakeService, type FakeServiceOptions, type ServeFakeOptions, type ServedFake } from "../src/testing/node.js";
import { v1 } from "../src/v1/index.js";
import { sse } from "../src/sse.js";
import { websocket } from "../src/websocket.js";

/** The two transports every behaviour test runs over. */
export const TRANSPORTS = ["fetch", "undici"] as const;
/** A transport name. */
export type TransportKind = (typeof TRANSPORTS)[number];

/** A fake, a client talking to it, and a cleanup. */
export interface Setup {
  fake: FakeService;
  client: PortableWebData;
  url: string;
  served?: ServedFake;
  close(): Promise<void>;
}

/** Builds a fake and a client over `kind`. */
export async function setup(kind: TransportKind, fakeOptions: FakeServiceOptions = {}, clientOptions: ClientOptions = {}, serveOptions: ServeFakeOptions = {}): Promise<Setup> {
  const fake = createFakeService(fakeOptions);
  // The legacy v1 face (`client.v1`) and the watcher's event-stream transport are plugins; the shared setups carry them, as an app that uses them does.
  const quiet: ClientOptions = { logLevel: "off", ...clientOptions, plugins: [v1, sse, websocket, ...(clientOptions.plugins ?? [])] };
  if (kind === "fetch") {
    const url = "https://fake.webdata.test";
    const client = new PortableWebData({ apiKey: fake.apiKey, apiUrl: url, fetch: fake.fetch, ...quiet });
    return { fake, client, url, close: async () => undefined };
  }
  const served = await serveFake(fake, serveOptions);
  const client = new NodeWebData({ apiKey: fake.apiKey, apiUrl: served.url, ...quiet });
  return { fake, client, url: served.url, served, close: () => served.close() };
}

/** Loads a recorded exchange from `test/fixtures/recorded/` (copied from the service spec; see its README). */
export async function recorded(name: string): Promise<{ request: { method: string; path: string; body: unknown }; response: { status: number; headers: Record<string, string>; body: unknown }; note: string }> {
  const { readFile } = await import("node:fs/promises");
  const { fileURLToPath } = await import("node:url");
  const file = fileURLToPath(new URL(`./fixtures/recorded/${name}`, import.meta.url));
  return JSON.parse(await readFile(file, "utf8"));
}
