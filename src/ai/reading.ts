/**
 * Reading a long result in parts. A result longer than the character budget is
 * cut with a note naming the call that reads on (the same tool, or the job's
 * status tool, with `offset` set to where this part ended). The text of the
 * last results is kept (a few, by their arguments), so a read-on call reads
 * the same text without a second request or a second charge: the parts join
 * with no gap and no overlap. Private to `webdata/ai`.
 */
import type { ToolName } from "./names.js";
import { failure, type ToolResult } from "./result.js";
import type { Reply } from "./spec.js";

/** How many results are kept for reading on, and how many characters they may hold together. */
const KEPT = 16;
const KEPT_CHARS = 4_000_000;

/** JSON with object keys sorted, so the same arguments give the same key. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** Where this part may end: never between the two halves of a surrogate pair. */
function endAt(text: string, from: number, end: number): number {
  if (end >= text.length || end - 1 <= from) return end;
  const c = text.charCodeAt(end - 1);
  return c >= 0xd800 && c <= 0xdbff ? end - 1 : end;
}

/** The results kept for reading on, and the cutting of one result into the part asked for. */
export class Reader {
  readonly #kept = new Map<string, Reply>();
  #keptChars = 0;

  constructor(
    readonly maxChars: number,
    readonly names: readonly ToolName[],
  ) {}

  #key(tool: string, args: Record<string, unknown>): string {
    return `${tool} ${stableJson(args)}`;
  }

  /** The kept result of `tool` with `args` (without `offset`), if any. */
  kept(tool: string, args: Record<string, unknown>): Reply | undefined {
    return this.#kept.get(this.#key(tool, args));
  }

  #keep(tool: string, args: Record<string, unknown>, reply: Reply): void {
    const key = this.#key(tool, args);
    this.#drop(key);
    this.#kept.set(key, reply);
    this.#keptChars += reply.body.length;
    while (this.#kept.size > 1 && (this.#kept.size > KEPT || this.#keptChars > KEPT_CHARS)) this.#drop(this.#kept.keys().next().value as string);
  }

  #drop(key: string): void {
    const old = this.#kept.get(key);
    if (!old) return;
    this.#keptChars -= old.body.length;
    this.#kept.delete(key);
  }

  /**
   * The part of `reply` from `offset` that fits the budget, with a note naming the
   * call that reads on when more is left. `tool` and `args` (without `offset`) are
   * the call made; a cut result is kept under its read-on call.
   */
  read(tool: ToolName, args: Record<string, unknown>, reply: Reply, offset: number, readable: boolean): ToolResult {
    const on = reply.readOn && this.names.includes(reply.readOn.tool) ? reply.readOn : readable ? { tool, args } : undefined;
    const { body } = reply;
    const total = body.length;
    if (offset > 0 && offset >= total) return failure(`offset ${offset} is at or past the end of the text (${total} characters): there is nothing more to read`);
    const head = reply.head ? (total > 0 ? `${reply.head}\n\n` : reply.head) : "";
    const isError = reply.failed === true;
    const prefix = offset > 0 ? `[continued from character ${offset} of ${total}]\n\n` : "";
    if (offset === 0 && head.length + total <= this.maxChars) return { content: head + body, isError };
    if (head.length + prefix.length + total - offset <= this.maxChars) return { content: head + prefix + body.slice(offset), isError };
    const note = (end: number) =>
      on ? `\n\n[cut: characters ${offset}-${end} of ${total} shown. To read on, call ${on.tool} with ${JSON.stringify({ ...on.args, offset: end })}]`
      : `\n\n[cut: characters ${offset}-${end} of ${total} shown; ask for less (fewer pages, formats or results)]`;
    if (on) this.#keep(on.tool, on.args, reply);
    const room = Math.max(1, this.maxChars - head.length - prefix.length - note(total).length);
    const end = endAt(body, offset, Math.min(total, offset + room));
    return { content: head + prefix + body.slice(offset, end) + note(end), isError };
  }
}
