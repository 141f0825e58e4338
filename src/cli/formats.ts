/**
 * What `--format` and the flags beside it ask for ({@link scrapeOptionsOf}), or a reason,
 * before anything is sent, why it cannot be; and how the CLI prints a document ({@link documentBody}).
 */
import type { Document } from "../api/document.js";
import type { Format, JsonFormat, ScrapeOptions } from "../api/scrape.js";
import { badArgument, nonNegativeInt, schemaFile, stringFlag } from "./args.js";
import type { Screen } from "./terminal.js";

/** The flags of the commands that scrape pages (scrape, crawl, batch). */
export const FORMAT_OPTIONS = {
  format: { type: "string", short: "f", multiple: true },
  "only-main-content": { type: "boolean" },
  "wait-for": { type: "string" },
  schema: { type: "string" },
  prompt: { type: "string" },
  out: { type: "string", short: "o" },
} as const;

/** Their help. */
export const FORMAT_HELP = `  -f, --format <name>        output format, repeatable or comma-separated (markdown, html, rawHtml, links, images,
                             summary, screenshot, json, branding, ...; default markdown). Each one asked for is
                             printed: alone, as it is; several, each under a "==> name <==" heading
  --schema <file>            JSON extraction: the json format with this JSON Schema (a .json file)
  --prompt <text>            JSON extraction: the json format with this prompt (with or without --schema)
  --wait-for <ms>            wait this long after the page loads before capturing it (0-60000)
  --only-main-content        main content only (--no-only-main-content: the whole page)
  -o, --out <dir>            write one file per page into <dir> (.md when markdown is the only format, else .json
                             with every format)`;

/** Where a format's result is in a document, when not under its own name. */
const FIELD: Record<string, string> = { query: "answer", question: "answer" };

/** The name of one `formats` entry. */
export function formatName(f: Format): string {
  return typeof f === "string" ? f : f.type;
}

/** The scrape options the flags ask for (formats, JSON extraction, wait, main content); a bad one refuses before anything is sent. */
export async function scrapeOptionsOf(values: Record<string, unknown>): Promise<ScrapeOptions & { formats?: Format[] }> {
  const raw = values.format as string[] | undefined;
  let formats: Format[] | undefined = raw?.flatMap((f) => f.split(",")).map((f) => f.trim()).filter(Boolean) as Format[] | undefined;
  if (raw && formats!.length === 0) throw badArgument("format", "--format needs a format name, such as markdown");
  const schema = await schemaFile(values);
  const prompt = stringFlag(values, "prompt");
  if (schema !== undefined || prompt !== undefined) {
    const json: JsonFormat = { type: "json", ...(prompt !== undefined ? { prompt } : {}), ...(schema !== undefined ? { schema } : {}) };
    // The json format carries them: a bare `json` name is replaced; without one, it is added (alone when no format was named).
    const at = formats?.indexOf("json") ?? -1;
    if (formats && at >= 0) formats[at] = json;
    else formats = [...(formats ?? []), json];
  }
  if (formats) {
    const seen = new Set<string>();
    for (const f of formats) {
      const name = formatName(f);
      if (seen.has(name)) throw badArgument("format", `--format names ${name} twice`);
      seen.add(name);
    }
  }
  const waitFor = nonNegativeInt(values, "wait-for");
  const main = values["only-main-content"] as boolean | undefined;
  return { ...(formats ? { formats } : {}), ...(waitFor === undefined ? {} : { waitFor }), ...(main === undefined ? {} : { onlyMainContent: main }) };
}

/** The format names printed for a document: those asked for, else markdown (the server's default). */
export function namesOf(formats: readonly Format[] | undefined): string[] {
  return formats?.length ? formats.map(formatName) : ["markdown"];
}

/** A format's value as text: a string as it is, a list of strings one a line, anything else as indented JSON. */
function valueText(value: unknown): string {
  if (typeof value === "string") return value.replace(/\n+$/, "");
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value.join("\n");
  return JSON.stringify(value, null, 2);
}

/** The value of format `name` in `doc` (undefined when the server sent none). */
export function formatValue(doc: Document, name: string): unknown {
  return (doc as unknown as Record<string, unknown>)[FIELD[name] ?? name];
}

/** The formats asked for that `doc` lacks. */
export function missingFormats(doc: Document, names: string[]): string[] {
  return names.filter((n) => formatValue(doc, n) === undefined);
}

/**
 * A document as text: the one format asked for as it is, or each of several under a `==> name <==`
 * heading (as `head` heads files; bold on a terminal), in the order asked. A format the server did
 * not return is left out (the caller warns).
 */
export function documentBody(doc: Document, names: string[], screen: Screen): string {
  const present = names.filter((n) => formatValue(doc, n) !== undefined);
  if (names.length === 1) return present.length ? `${valueText(formatValue(doc, names[0]!))}\n` : "";
  return present.map((n) => `${screen.paintOut(`==> ${n} <==`, "bold")}\n${valueText(formatValue(doc, n))}\n`).join("\n");
}
