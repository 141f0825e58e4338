/**
 * The official client's watcher events, recognised so that code written for
 * it fails loudly instead of never hearing from the watcher.
 */
import { ValidationError } from "../core/errors.js";

const EVENT_TYPES: readonly string[] = ["document", "status", "done", "error"];

/**
 * Throws a `ValidationError` for an event type a watcher never emits (`on("snapshot")`,
 * a typo), so a listener is never silently left waiting.
 */
export function checkEventType(type: unknown): void {
  if (typeof type === "string" && EVENT_TYPES.includes(type)) return;
  const message =
    type === "snapshot"
      ? '"snapshot" is the official client\'s event; webdata\'s is "status" (or import Firecrawl from "webdata/firecrawl")'
      : `must be "document", "status", "done" or "error", got ${JSON.stringify(type)}`;
  throw new ValidationError([{ path: "type", message }], "watcher event");
}
