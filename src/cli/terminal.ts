/**
 * The CLI's two streams, kept apart as `gh` and `git` keep them: results on
 * stdout, progress and messages on stderr. On a terminal the progress line is
 * redrawn in place and cleared before anything else is written to the same
 * terminal, so page text never runs into it; anywhere else (a pipe, a file, a
 * CI log) stderr gets plain lines without escape codes.
 */

/** Where the CLI writes, and what each stream is. */
export interface Streams {
  /** Writes to stdout (results). */
  out(text: string): void;
  /** Writes to stderr (progress, messages). */
  err(text: string): void;
  /** stdout is a terminal. */
  outIsTTY: boolean;
  /** stderr is a terminal. */
  errIsTTY: boolean;
  /** stdout and stderr are the same terminal (a progress line on stderr must be cleared before stdout is written). */
  sameTerminal: boolean;
  /** Width of the stderr terminal, when known. */
  columns?: number | undefined;
  /** The environment (`NO_COLOR`, `TERM`). */
  env: Record<string, string | undefined>;
}

/** Erases the current terminal line and returns to its start. */
const CLEAR_LINE = "\r\x1b[2K";

const COLORS = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
/** A colour (or weight) the CLI uses. */
export type Color = keyof typeof COLORS;

/** True when colour is allowed on a terminal stream: `NO_COLOR` (https://no-color.org) unset or empty, and `TERM` not `dumb`. */
export function colorAllowed(env: Record<string, string | undefined>): boolean {
  return !env.NO_COLOR && env.TERM !== "dumb";
}

/** `1 page`, `2 pages`: the count and the word, singular for exactly one. */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}

/** The screen of one run: the only writer of both streams while a command runs. */
export class Screen {
  readonly #s: Streams;
  /** The live status line on stderr (drawn on a terminal), if any. */
  #status: string | undefined;
  #shown = false;

  /** @param streams the process's streams, or a test's stand-ins */
  constructor(streams: Streams) {
    this.#s = streams;
  }

  /** stderr is a terminal that can redraw a line in place (not `TERM=dumb`). */
  get live(): boolean {
    return this.#s.errIsTTY && this.#s.env.TERM !== "dumb";
  }

  /** Width to fit a status line into (0 when unknown). */
  get columns(): number {
    return this.#s.columns ?? 0;
  }

  /** `text` in `color` when stderr is a terminal that allows colour; else `text` as is. */
  paintErr(text: string, color: Color): string {
    return this.#s.errIsTTY && colorAllowed(this.#s.env) ? paint(text, color) : text;
  }

  /** `text` in `color` when stdout is a terminal that allows colour; else `text` as is. */
  paintOut(text: string, color: Color): string {
    return this.#s.outIsTTY && colorAllowed(this.#s.env) ? paint(text, color) : text;
  }

  /** Writes results to stdout; on a shared terminal the status line is cleared first and drawn again after. */
  out(text: string): void {
    const shared = this.#s.sameTerminal;
    if (this.#shown && shared) this.#clear();
    this.#s.out(text);
    // Drawn again once the text ends a line (a status line drawn after a partial line would run into it).
    if (shared && this.#status !== undefined && text.endsWith("\n")) this.#draw(this.#status);
  }

  /** Writes a message to stderr, above the status line (which is drawn again after it). */
  message(text: string): void {
    const shown = this.#shown;
    if (shown) this.#clear();
    this.#s.err(text);
    if (shown && this.#status !== undefined && text.endsWith("\n")) this.#draw(this.#status);
  }

  /** Shows `line` as the status line (a terminal only: drawn in place). */
  status(line: string): void {
    this.#status = line;
    this.#draw(line);
  }

  /** Removes the status line and writes `message` (a whole line) in its place. */
  endStatus(message: string): void {
    if (this.#shown) this.#clear();
    this.#status = undefined;
    this.#s.err(message);
  }

  #draw(line: string): void {
    if (!this.live) return;
    const cols = this.columns;
    // A line longer than the terminal wraps, and `\r` then redraws only its last row.
    const fitted = cols > 1 && line.length >= cols ? `${line.slice(0, cols - 2)}…` : line;
    this.#s.err(`${CLEAR_LINE}${fitted}`);
    this.#shown = true;
  }

  #clear(): void {
    this.#s.err(CLEAR_LINE);
    this.#shown = false;
  }
}

/** `text` wrapped in the ANSI codes of `color`. */
export function paint(text: string, color: Color): string {
  return `\x1b[${COLORS[color]}m${text}\x1b[0m`;
}
