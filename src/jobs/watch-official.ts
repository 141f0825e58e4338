/**
 * The official client's watcher events, recognised so that code written for
 * it fails loudly instead of never hearing from the watcher.
 */
import { ValidationError } from "../core/errors.js";

const EVENT_TYPES: readonly string[] = ["document", "status", "done", "error"];

/** What the official client's event names are called here. */
const OFFICIAL_EVENTS: Readonly<Record<string, string>> = {
  snapshot: 'is the official client\'s event; webdata\'s is "status" (counters only: status, completed, total, creditsUsed; documents arrive as "document" events)',
};

/**
 * Throws a `ValidationError` for an event type a watcher never emits (`on("snapshot")`,
 * a typo), so a listener is never silently left waiting.
 */
export function checkEventType(type: unknown): void {
  if (typeof type === "string" && EVENT_TYPES.includes(type)) return;
  const hint = typeof type === "string" ? OFFICIAL_EVENTS[type] : undefined;
  throw new ValidationError([{ path: "type", message: hint ? `"${type}" ${hint}` : `must be "document", "status", "done" or "error", got ${JSON.stringify(type)}` }], "watcher event");
}
