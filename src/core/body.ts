/**
 * Reading a response body with a size limit, for both transports: bytes are
 * counted as they arrive (after any content decoding), and reading stops at
 * the client's `maxResponseBytes` with a `ResponseTooLargeError`, so a huge
 * or endless answer never sits whole in memory. The fetch transport reads
 * through it unless a body's declared length is within the limit.
 */
import { ResponseTooLargeError } from "./errors.js";

/** `METHOD /path` of a request, for the error (the URL was parsed before sending). */
const endpointOf = (method: string, url: string) => `${method} ${new URL(url).pathname}`;

/** The declared `content-length` of a body as it is read: `NaN` when none is declared or a content coding changes it once decoded. */
export function declaredLength(headers: Headers): number {
  const coding = headers.get("content-encoding")?.trim().toLowerCase();
  return coding && coding !== "identity" ? Number.NaN : Number(headers.get("content-length") ?? Number.NaN);
}

/** Throws {@link ResponseTooLargeError} at once when the declared length is over the limit. */
export function checkDeclared(headers: Headers, limit: number, method: string, url: string): void {
  if (declaredLength(headers) > limit) throw new ResponseTooLargeError(limit, endpointOf(method, url));
}

/**
 * Decodes chunks of bytes as UTF-8 text, stopping with {@link ResponseTooLargeError} once more than
 * `limit` bytes arrived. `stop` releases the source (cancels the stream, destroys the socket) when it does.
 */
export async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number, method: string, url: string, stop: () => void): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.byteLength;
    if (bytes > limit) {
      stop();
      throw new ResponseTooLargeError(limit, endpointOf(method, url));
    }
    parts.push(decoder.decode(chunk, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/** The chunks of a web `ReadableStream` (which not every runtime makes async-iterable); leaving early cancels the stream. */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void, undefined> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
