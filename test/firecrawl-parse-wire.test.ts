/**
 * `parse` sends the official multipart body, part for part (the official client's for the same file and
 * options). Both clients post the same file and options to one capturing server; each body is split
 * into its parts (headers and bytes, in order). The parts are the same: `options` (JSON text, no
 * filename, no content type) then `file` (the filename trimmed, the content type given, else the
 * Blob's, else `text/plain; charset=utf-8` for text and `application/octet-stream` for bytes), which is
 * what the server reads (`controllers/v2/parse.ts`: part `file`, part `options`). The byte counts
 * differ by two things only, both left out of the comparison and named here: the boundary (axios's is
 * 47 characters, the runtime's FormData 32 or 34, and it appears three times: about 45 bytes) and the
 * `origin` tag the official client adds to the options (`"origin":"js-sdk@<its version>"`, 25 bytes
 * and more), its own name, which webdata sends on no call (MIGRATION.md).
 */
import OfficialFirecrawl from "@mendable/firecrawl-js";
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { Firecrawl } from "../src/firecrawl/index.js";
import { Firecrawl as NodeFirecrawl } from "../src/firecrawl/node.js";

interface Captured {
  contentType: string;
  body: Buffer;
}
let server: Server | undefined;
afterEach(async () => {
  await new Promise((r) => server?.close(r));
  server = undefined;
});

/** A server that records each request's body and answers a parsed document. */
async function capture(): Promise<{ url: string; seen: Captured[] }> {
  const seen: Captured[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ contentType: String(req.headers["content-type"]), body: Buffer.concat(chunks) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ success: true, data: { markdown: "# Hi", metadata: { sourceURL: "page.html" } } }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server!.address() as { port: number }).port}`, seen };
}

/** The parts of a multipart body, in order: each part's header lines and its bytes (the `options` part's JSON less the official `origin` tag). */
function parts({ contentType, body }: Captured): { headers: string[]; content: string }[] {
  const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
  const text = body.toString("latin1");
  expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
  return text
    .slice(0, -`--${boundary}--\r\n`.length)
    .split(`--${boundary}\r\n`)
    .slice(1)
    .map((part) => {
      const at = part.indexOf("\r\n\r\n");
      const headers = part.slice(0, at).split("\r\n");
      let content = part.slice(at + 4, -2);
      if (headers[0] === 'Content-Disposition: form-data; name="options"') {
        const { origin, ...options } = JSON.parse(content) as { origin?: string };
        expect(origin ?? "js-sdk@").toMatch(/^js-sdk@/); // the official tag: present on its request only
        content = JSON.stringify(options);
      }
      return { headers, content };
    });
}

const FILES = {
  "text with a content type": () => ({ data: "<html><body><h1>Hi</h1></body></html>", filename: " page.html ", contentType: "text/html" }),
  "text without one": () => ({ data: "a,b\n1,2\n", filename: "t.csv" }),
  "bytes": () => ({ data: new Uint8Array([37, 80, 68, 70, 0, 255]), filename: "a.pdf" }),
  "an ArrayBuffer with a type": () => ({ data: new Uint8Array([1, 2, 3]).buffer, filename: "b.docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }),
  "a Blob with its own type": () => ({ data: new Blob(["<p>x</p>"], { type: "text/html" }), filename: "c.html" }),
  "a Blob whose type the content type replaces": () => ({ data: new Blob(["x"], { type: "text/plain" }), filename: "d.md", contentType: "text/markdown" }),
  "a Node Buffer": () => ({ data: Buffer.from("héllo"), filename: "e.txt" }),
};
const OPTIONS = [undefined, { formats: ["markdown" as const, "links" as const], onlyMainContent: false, timeout: 30000 }];

describe.each([
  ["the Node entry", (o: { apiKey: string; apiUrl: string }) => new NodeFirecrawl({ ...o, logLevel: "off" })],
  ["the portable entry (fetch)", (o: { apiKey: string; apiUrl: string }) => new Firecrawl({ ...o, logLevel: "off" })],
])("parse over %s sends the official client's parts", (_entry, make) => {
  it.each(Object.entries(FILES))("%s: the same parts, names, filename, content types and bytes, with and without options", async (_name, file) => {
    const { url, seen } = await capture();
    const official = new OfficialFirecrawl({ apiKey: "fc-test", apiUrl: url });
    const ours = make({ apiKey: "fc-test", apiUrl: url });
    for (const options of OPTIONS) {
      const want = await official.parse(file() as never, options);
      const got = await ours.parse(file(), options);
      expect(got.markdown).toBe(want.markdown);
    }
    expect(seen).toHaveLength(4);
    for (const i of [0, 1]) {
      const [o, w] = [parts(seen[2 * i]!), parts(seen[2 * i + 1]!)];
      expect(o.map((p) => p.headers[0])).toEqual(['Content-Disposition: form-data; name="options"', expect.stringMatching(/^Content-Disposition: form-data; name="file"; filename="[^ "]+"$/)]);
      expect(w).toEqual(o);
      // Byte for byte, the two bodies differ by the boundary (three times) and the official origin tag only.
      const [theirs, mine] = [seen[2 * i]!, seen[2 * i + 1]!];
      const boundary = (c: Captured) => /boundary=(.+)$/.exec(c.contentType)![1]!.length;
      const optionsText = (c: Captured) => /name="options"\r\n\r\n(.*?)\r\n/s.exec(c.body.toString("latin1"))![1]!;
      const origin = optionsText(theirs).length - optionsText(mine).length;
      expect(origin).toBeGreaterThanOrEqual('"origin":"js-sdk@"'.length);
      expect(theirs.body.length - mine.body.length).toBe(3 * (boundary(theirs) - boundary(mine)) + origin);
    }
  });
});
