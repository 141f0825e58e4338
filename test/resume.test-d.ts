/** Types of resumable document streams: `position` is a string on the stream, `resumeFrom` takes one, and the stream is still an async generator of documents. */
import { describe, expectTypeOf, it } from "vitest";
import type { Document, DocumentStream, JobDocumentsOptions } from "../src/index.js";
import { WebData } from "../src/index.js";

describe("document streams", () => {
  it("position, resumeFrom, and the documents' type", () => {
    const client = new WebData({ apiKey: "fc-x" });
    const stream = client.crawlDocuments("id");
    expectTypeOf(stream.position).toEqualTypeOf<string>();
    expectTypeOf(stream).toEqualTypeOf<DocumentStream<Document<unknown>>>();
    expectTypeOf(stream).toMatchTypeOf<AsyncGenerator<Document<unknown>, void, undefined>>();
    expectTypeOf(client.batchScrapeDocuments<{ a: string }>("id", { resumeFrom: stream.position }).position).toEqualTypeOf<string>();
    expectTypeOf<JobDocumentsOptions["resumeFrom"]>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error a position is a string, not an object
    client.crawlDocuments("id", { resumeFrom: { skip: 1 } });
  });
});
