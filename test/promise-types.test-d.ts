/**
 * The promises of `WebData`, `webdata/v1` and `webdata/firecrawl` type `then` / `catch` / `finally`
 * exactly as `Promise` does, as the official client's do: the rejection is `any`, so official-client code such as
 * `.catch((err) => err.message)` (TS18046 with `unknown`) and `.catch((e: Error) => ...)` (TS2345)
 * compiles under strict TypeScript. Compiled by `tsc -p test/tsconfig.json` and vitest's typecheck.
 */
import { expectTypeOf, test } from "vitest";
import { WebData, type APIPromise, type Document } from "webdata";
import FirecrawlApp from "webdata/v1";
import Firecrawl from "webdata/firecrawl";

type Same<P> = P extends Promise<infer T> ? { then: Promise<T>["then"]; catch: Promise<T>["catch"]; finally: Promise<T>["finally"] } : never;

test("then, catch and finally are Promise's, to the type", () => {
  expectTypeOf<APIPromise<Document>["then"]>().toEqualTypeOf<Promise<Document>["then"]>();
  expectTypeOf<APIPromise<Document>["catch"]>().toEqualTypeOf<Promise<Document>["catch"]>();
  expectTypeOf<APIPromise<Document>["finally"]>().toEqualTypeOf<Promise<Document>["finally"]>();
  expectTypeOf<Pick<ReturnType<WebData["scrape"]>, "then" | "catch" | "finally">>().toEqualTypeOf<Same<ReturnType<WebData["scrape"]>>>();
});

async function officialStyle(): Promise<void> {
  const client = new WebData({ apiKey: "fc-YOUR_API_KEY" });
  const app = new Firecrawl({ apiKey: "fc-YOUR_API_KEY" });
  const v1 = new FirecrawlApp({ apiKey: "fc-YOUR_API_KEY" });
  const a: string = await client.scrape("https://example.com").then((d) => d.markdown ?? "").catch((err) => err.message);
  const b = await app.scrape("https://example.com").catch((err) => err.message);
  const c = await app.scrape("https://example.com").catch((e: Error) => e.message);
  const d = await client.map("https://example.com").then(undefined, (e: Error) => e.name);
  const e = await v1.scrapeUrl("https://example.com").catch((err) => String(err.status));
  const f = await v1.mapUrl("https://example.com").catch((e: Error) => e.message);
  const g = await app.getCrawlStatus("id").catch((e: Error) => e.message);
  console.log(a, b, c, d, e, f, g);
}
void officialStyle;
