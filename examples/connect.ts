/**
 * Shared by the examples: a client for the real service when WEBDATA_API_KEY
 * is set, else for the built-in fake service served on loopback (no key, no
 * network). Each example exports its steps as a function taking a
 * {@link Connection}, so the test suite can run it against an in-process fake.
 */
import { pathToFileURL } from "node:url";
import { WebData, type ClientOptions } from "webdata";
import { createFakeService, serveFake, type FakeService, type FakeServiceOptions } from "webdata/testing";

/** What an example runs against. */
export interface Connection {
  /** The client. */
  client: WebData;
  /** A site to scrape, map and crawl: the fake's fixture web, or example.com. */
  site: string;
  /** The fake service, or undefined against the real service (examples skip fault injection then). */
  fake: FakeService | undefined;
  /** Poll interval for waiters: short against the fake, the default (undefined) against the service. */
  pollIntervalMs: number | undefined;
}

/** Connects to the real service (WEBDATA_API_KEY set) or to a fake on loopback; `close` stops the fake. */
export async function connect(options: ClientOptions = {}, fakeOptions: FakeServiceOptions = {}): Promise<Connection & { close(): Promise<void> }> {
  if (process.env.WEBDATA_API_KEY) {
    return { client: new WebData(options), site: "https://example.com", fake: undefined, pollIntervalMs: undefined, close: async () => undefined };
  }
  const fake = createFakeService(fakeOptions);
  const served = await serveFake(fake);
  const client = new WebData({ apiKey: fake.apiKey, apiUrl: served.url, ...options });
  return { client, site: "https://acme.test", fake, pollIntervalMs: 500, close: () => served.close() };
}

/** Runs `main` when the file is executed directly (`npx tsx examples/<name>.ts`), not when a test imports it. */
export function runIfMain(moduleUrl: string, main: (c: Connection) => Promise<unknown>, options: ClientOptions = {}, fakeOptions: FakeServiceOptions = {}): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  void (async () => {
    const c = await connect(options, fakeOptions);
    try {
      await main(c);
    } finally {
      await c.close();
    }
  })().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
