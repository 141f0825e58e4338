/**
 * How the Node entry reads an answer (the CPU it saves: bench/README.md). Its headers come from undici's own object
 * (`AnswerHeaders` in src/node.ts, no `Headers` built per answer): what a caller gets from
 * `withResponse().response.headers` must be a `Headers` that answers exactly as the runtime's own
 * `Headers` of the same answer does (the `fetch` transport's), for every method, before and after a
 * change to it. Its body is decoded in the step that ends it (`read`): a byte order mark, a body cut
 * short and an answer that fails its checks must come out as over the `fetch` transport.
 */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebData as NodeWebData } from "../src/node.js";
import { ConnectionError, InvalidResponseError, WebData } from "../src/index.js";

const BODY = JSON.stringify({ success: true, data: { markdown: "# hi", metadata: { sourceURL: "https://a.test", statusCode: 200 } } });
// Written byte for byte: repeated headers, names in mixed case, a value with spaces around it.
const ANSWER = [
  "HTTP/1.1 200 OK",
  "Content-Type: application/json",
  `Content-Length: ${Buffer.byteLength(BODY)}`,
  "X-Multi: a",
  "x-multi: b",
  "Set-Cookie: one=1; Path=/",
  "Set-Cookie: two=2; Path=/",
  "X-Request-Id: server-side-id",
  "X-Padded:   padded value  ",
  "Connection: keep-alive",
  "",
  BODY,
].join("\r\n");

let server: Server;
let apiUrl: string;
const sockets = new Set<import("node:net").Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on("data", (chunk) => {
      if (chunk.includes("\r\n\r\n")) socket.write(ANSWER);
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  apiUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
});

afterAll(() => {
  for (const s of sockets) s.destroy(); // the clients' keep-alive connections
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

async function headersOf(client: NodeWebData | WebData): Promise<Headers> {
  const { response } = await client.scrape("https://a.test").withResponse();
  return response.headers;
}

const options = () => ({ apiKey: "fc-answer-headers", apiUrl, maxRetries: 0, logLevel: "off" as const });

describe("the Node entry's answer headers (read from undici's object)", () => {
  it("answer get, has, iteration, forEach and getSetCookie as the runtime's Headers of the same answer", async () => {
    const ours = await headersOf(new NodeWebData(options()));
    // The runtime's fetch keeps a value's trailing spaces as the parser left them; a Headers made of its
    // entries strips them, as `append` does (and as the Node entry always has): that is the reference.
    const runtime = new Headers([...(await headersOf(new WebData({ ...options(), fetch: globalThis.fetch })))]);
    expect(ours).toBeInstanceOf(Headers);
    for (const name of ["content-type", "Content-Type", "X-MULTI", "set-cookie", "x-request-id", "x-padded", "absent"]) {
      expect(ours.get(name), name).toBe(runtime.get(name));
      expect(ours.has(name), name).toBe(runtime.has(name));
    }
    expect(ours.get("x-multi")).toBe("a, b");
    expect(ours.get("x-padded")).toBe("padded value");
    // Each method on a fresh answer, as the first use (the copy into the Headers happens there).
    expect([...(await headersOf(new NodeWebData(options())))]).toEqual([...runtime]);
    expect([...(await headersOf(new NodeWebData(options()))).entries()]).toEqual([...runtime.entries()]);
    expect([...(await headersOf(new NodeWebData(options()))).keys()]).toEqual([...runtime.keys()]);
    expect([...(await headersOf(new NodeWebData(options()))).values()]).toEqual([...runtime.values()]);
    expect((await headersOf(new NodeWebData(options()))).getSetCookie()).toEqual(["one=1; Path=/", "two=2; Path=/"]);
    const seen: [string, string][] = [];
    (await headersOf(new NodeWebData(options()))).forEach((v, k) => seen.push([k, v]));
    expect(seen).toEqual([...runtime]);
    // A Headers made from ours holds the same (the runtime reads ours through its iterator).
    expect([...new Headers(await headersOf(new NodeWebData(options())))]).toEqual([...runtime]);
  });

  it("a bad name throws as Headers does; a change is kept and read back", async () => {
    const ours = await headersOf(new NodeWebData(options()));
    expect(() => ours.get("bad name")).toThrow(TypeError);
    expect(() => new Headers().get("bad name")).toThrow(TypeError);
    ours.set("X-Multi", "c");
    ours.append("x-new", "n");
    ours.delete("set-cookie");
    expect(ours.get("x-multi")).toBe("c");
    expect(ours.get("X-New")).toBe("n");
    expect(ours.has("set-cookie")).toBe(false);
    expect(ours.get("content-type")).toBe("application/json");
  });

  it("the server's own request id is read from them (serverRequestId)", async () => {
    const { response } = await new NodeWebData(options()).scrape("https://a.test").withResponse();
    expect(response.serverRequestId).toBe("server-side-id");
    expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** A one-answer server writing `raw` (then, with `cut`, dropping the connection). */
async function rawServer(raw: Buffer, cut = false): Promise<{ url: string; close: () => Promise<void> }> {
  const open = new Set<import("node:net").Socket>();
  const srv = createServer((socket) => {
    open.add(socket);
    socket.on("error", () => undefined);
    socket.on("data", (chunk) => {
      if (!chunk.includes("\r\n\r\n")) return;
      socket.write(raw);
      if (cut) socket.destroy();
    });
  });
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const addr = srv.address();
  return {
    url: `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`,
    close: () => {
      for (const s of open) s.destroy();
      return new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}

function answer(body: Buffer | string, length = Buffer.byteLength(body)): Buffer {
  return Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`), Buffer.from(body)]);
}

describe.each(["undici", "fetch"] as const)("the Node entry's answer body, decoded where it ends (%s)", (kind) => {
  const client = (url: string) => (kind === "undici" ? new NodeWebData({ ...options(), apiUrl: url }) : new WebData({ ...options(), apiUrl: url, fetch: globalThis.fetch }));

  it("a leading byte order mark is left out, as Response.text() leaves it", async () => {
    const srv = await rawServer(answer(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(BODY)])));
    try {
      await expect(client(srv.url).scrape("https://a.test")).resolves.toMatchObject({ markdown: "# hi" });
    } finally {
      await srv.close();
    }
  });

  it("a body cut short is a ConnectionError, never a hang", async () => {
    const srv = await rawServer(answer(BODY.slice(0, 10), BODY.length), true);
    try {
      await expect(client(srv.url).scrape("https://a.test")).rejects.toBeInstanceOf(ConnectionError);
    } finally {
      await srv.close();
    }
  });

  it("an answer that fails its checks rejects with InvalidResponseError (a throw where the body ends)", async () => {
    const srv = await rawServer(answer('{"success":true,"data":"not an object"}'));
    try {
      await expect(client(srv.url).scrape("https://a.test")).rejects.toBeInstanceOf(InvalidResponseError);
    } finally {
      await srv.close();
    }
  });
});
