/**
 * Reading a response body with a size limit, for both transports: bytes are
 * counted as they arrive (after any content decoding), and reading stops at
 * the client's `maxResponseBytes` with a `ResponseTooLargeError`, so a huge
 * or endless answer never sits whole in memory.
 */
import { ResponseTooLargeError } from "./errors.js";

/** Default `maxResponseBytes`: 50 MiB (a status page is at most 10 MiB; a scrape with every format rarely passes a few MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** `METHOD /path` of a request, for the error. */
function endpointOf(method: string, url: string): string {
  try {
    return `${method} ${new URL(url).pathname}`;
  } catch {
    return method;
  }
}

/**
 * True when the declared `content-length` proves the body fits (and no content coding can make it
 * larger once decoded): then the body may be read whole by the runtime's own, faster, reader.
 */
export function fitsDeclared(headers: Headers, limit: number): boolean {
  const coding = headers.get("content-encoding");
  if (coding && coding.trim().toLowerCase() !== "identity") return false;
  const length = Number(headers.get("content-length") ?? Number.NaN);
  return Number.isFinite(length) && length <= limit;
}

/** Throws {@link ResponseTooLargeError} at once when the declared length is over the limit. */
export function checkDeclared(headers: Headers, limit: number, method: string, url: string): void {
  const coding = headers.get("content-encoding");
  const length = Number(headers.get("content-length") ?? Number.NaN);
  if ((!coding || coding.trim().toLowerCase() === "identity") && Number.isFinite(length) && length > limit) {
    throw new ResponseTooLargeError(limit, endpointOf(method, url));
  }
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
