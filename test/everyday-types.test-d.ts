/**
 * Type tests: the names the README calls everyday ("Where names live": the options
 * and result types of each method) compile as written, with no type argument, and
 * type what the methods resolve to.
 */
import { describe, expectTypeOf, test } from "vitest";
import type { CrawlOptions, Document, JobStatus, ScrapeParams, ScrapeResult, WebData } from "webdata";

declare const client: WebData;

describe("README: everyday names", () => {
  test("ScrapeResult needs no type argument and is what scrape() resolves to without a schema", async () => {
    const doc: ScrapeResult = await client.scrape("https://example.com", { formats: ["markdown", "links"] });
    expectTypeOf(doc).toEqualTypeOf<Document<unknown>>();
  });

  test("ScrapeParams, CrawlOptions and JobStatus need no type argument", () => {
    const params: ScrapeParams = { formats: ["markdown"] };
    const crawl: CrawlOptions = { limit: 10 };
    expectTypeOf(params).not.toBeAny();
    expectTypeOf(crawl).not.toBeAny();
    expectTypeOf<JobStatus>().not.toBeAny();
  });
});
