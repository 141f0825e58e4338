/**
 * The live progress line of `webdata crawl` and `webdata batch`: pages done /
 * total, rate and elapsed time, redrawn in place on a terminal; on anything
 * else (a pipe, a CI log) one plain line per change, at most once a second.
 */

/** Where the progress goes (stderr) and whether it is a terminal. */
export interface ProgressSink {
  /** Writes text as is. */
  write(text: string): void;
  /** True on a terminal: the line is redrawn in place. */
  isTTY: boolean;
}

/** A progress line for one job. */
export class Progress {
  readonly #sink: ProgressSink;
  readonly #label: string;
  readonly #started: number;
  readonly #now: () => number;
  #lastPlain = -Infinity;
  #lastText = "";
  #drawn = false;

  /**
   * @param sink stderr, or a stand-in in tests
   * @param label what is running (`crawl 01a2...`)
   * @param now clock (ms), for tests
   */
  constructor(sink: ProgressSink, label: string, now: () => number = Date.now) {
    this.#sink = sink;
    this.#label = label;
    this.#now = now;
    this.#started = now();
  }

  /** The line for `done` of `total` pages. */
  text(done: number, total: number): string {
    const secs = (this.#now() - this.#started) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    const of = total > 0 ? `${done}/${total} pages` : `${done} pages`;
    return `${this.#label}: ${of}, ${rate.toFixed(1)} pages/s, ${formatElapsed(secs)}`;
  }

  /** Shows the counters (redraws on a terminal; a plain line at most once a second otherwise). */
  update(done: number, total: number): void {
    const line = this.text(done, total);
    if (this.#sink.isTTY) {
      this.#sink.write(`\r\x1b[2K${line}`);
      this.#drawn = true;
      return;
    }
    const t = this.#now();
    const counts = line.slice(0, line.indexOf(" pages"));
    if (counts === this.#lastText || t - this.#lastPlain < 1000) return;
    this.#lastText = counts;
    this.#lastPlain = t;
    this.#sink.write(`${line}\n`);
  }

  /** Ends the line with a final message. */
  finish(message: string): void {
    this.#sink.write(this.#sink.isTTY && this.#drawn ? `\r\x1b[2K${message}\n` : `${message}\n`);
  }
}

/** `75s` as `1m15s`. */
export function formatElapsed(secs: number): string {
  const s = Math.floor(secs);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}
