/**
 * What the CLI writes under `--out <dir>` ({@link PageWriter}): a page's whole
 * document as JSON unless markdown alone is asked for, so no format asked for is dropped.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { shownUrl, type Document } from "../api/document.js";

/** The page's URL (final, else requested). */
export const documentUrl = shownUrl;

/**
 * A file name for a page's URL: host and path, `/` turned into `_`, other
 * unsafe characters dropped, `index` for the root, never longer than 150
 * characters, made unique with `-2`, `-3`, ... within one run.
 */
export function fileNameFor(url: string, used: Set<string>, ext: string): string {
  let base: string;
  try {
    const u = new URL(url);
    const path = u.pathname.replace(/\/+$/, "");
    base = `${u.host}${path}${u.search}`;
  } catch {
    base = url || "page";
  }
  base = base.replace(/[/?&=#:]+/g, "_").replace(/[^A-Za-z0-9._-]+/g, "").replace(/^[._-]+/, "").slice(0, 150) || "index";
  let name = `${base}.${ext}`;
  for (let i = 2; used.has(name); i++) name = `${base}-${i}.${ext}`;
  used.add(name);
  return name;
}

/** Writes pages into a folder, one file each (`.md` when markdown is the only format, else `.json`). */
export class PageWriter {
  readonly #dir: string;
  readonly #markdownOnly: boolean;
  readonly #used = new Set<string>();
  #ready: Promise<unknown> | undefined;
  /** Files written so far. */
  readonly files: string[] = [];

  /**
   * @param dir the `--out` folder (created when missing)
   * @param names the formats asked for (default markdown alone)
   */
  constructor(dir: string, names: readonly string[] = ["markdown"]) {
    this.#dir = dir;
    this.#markdownOnly = names.length === 1 && names[0] === "markdown";
  }

  /** Writes one page and returns its path. */
  async write(doc: Document): Promise<string> {
    this.#ready ??= mkdir(this.#dir, { recursive: true });
    await this.#ready;
    const md = this.#markdownOnly && typeof doc.markdown === "string";
    const file = join(this.#dir, fileNameFor(documentUrl(doc), this.#used, md ? "md" : "json"));
    await writeFile(file, md ? doc.markdown! : `${JSON.stringify(doc, null, 2)}\n`);
    this.files.push(file);
    return file;
  }
}
