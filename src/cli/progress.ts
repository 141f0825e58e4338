/**
 * The live progress of `webdata crawl` and `webdata batch` on stderr: on a
 * terminal, one line redrawn in place, with a bar, counts, rate and ETA when
 * the total is known. The rate (and so the ETA) shows only once a second has
 * passed: a rate over a few milliseconds says nothing.
 */
import { plural, type Screen } from "./terminal.js";

/** Time before a rate is shown, ms. */
const RATE_AFTER_MS = 1000;
/** Widest bar, in cells. */
const BAR_CELLS = 20;

/** A progress display for one job. */
export class Progress {
  readonly #screen: Screen;
  readonly #label: string;
  readonly #started: number;
  readonly #now: () => number;
  #lastPlain = -Infinity;
  #lastCounts = "";
  #waitingSaid = false;

  /**
   * @param screen the run's screen (stderr)
   * @param label what is running (`crawl 01a2...`)
   * @param now clock (ms), for tests
   */
  constructor(screen: Screen, label: string, now: () => number = Date.now) {
    this.#screen = screen;
    this.#label = label;
    this.#now = now;
    this.#started = now();
  }

  /** Seconds since the job was followed. */
  #elapsed(): number {
    return (this.#now() - this.#started) / 1000;
  }

  /** Pages a second, once a second has passed (else undefined). */
  #rate(done: number): number | undefined {
    const ms = this.#now() - this.#started;
    return ms >= RATE_AFTER_MS ? done / (ms / 1000) : undefined;
  }

  /**
   * The counters as words: `4/10 pages (40%), 2.0 pages/s, 5s, ETA 3s` (a plain line, or the part after the bar).
   * Never past the total: a server's total can lag behind the pages it has sent (`30/29`), and then the
   * pages received are the total.
   */
  counts(done: number, total: number, ended = false): string {
    total = known(done, total);
    const secs = this.#elapsed();
    const rate = this.#rate(done);
    const parts = [total > 0 ? `${done}/${plural(total, "page")} (${percent(done, total, ended)}%)` : plural(done, "page")];
    if (rate !== undefined) parts.push(`${rate.toFixed(1)} pages/s`);
    parts.push(formatElapsed(secs));
    if (rate !== undefined && rate > 0 && total > done) parts.push(`ETA ${formatElapsed((total - done) / rate)}`);
    return parts.join(", ");
  }

  /** The line for `done` of `total` pages (`total` 0: unknown): with a bar on a terminal when the total is known. `ended`: the job's status is terminal. */
  text(done: number, total: number, ended = false): string {
    total = known(done, total);
    const counts = this.counts(done, total, ended);
    if (!this.#screen.live || total <= 0) return `${this.#label}: ${counts}`;
    const rest = `${this.#label} [] ${counts}`;
    const room = this.#screen.columns > 0 ? this.#screen.columns - rest.length - 2 : BAR_CELLS;
    const cells = Math.min(BAR_CELLS, room);
    return cells >= 5 ? `${this.#label} ${bar(done, total, cells, ended)} ${counts}` : `${this.#label}: ${counts}`;
  }

  /**
   * Shows the counters (redrawn on a terminal; a plain line when they changed, at most once a second, otherwise).
   * `ended`: the job's status is terminal; until then it never shows 100% (its total may still grow).
   */
  update(done: number, total: number, ended = false): void {
    if (this.#screen.live) {
      this.#screen.status(this.text(done, total, ended));
      return;
    }
    const t = this.#now();
    const key = `${done}/${total}`;
    if (key === this.#lastCounts || t - this.#lastPlain < 1000) return;
    this.#lastCounts = key;
    this.#lastPlain = t;
    this.#screen.message(`${this.text(done, total, ended)}\n`);
  }

  /** Every page counted so far has arrived but the server has not finished the job yet: says so (once, as a plain line off a terminal). */
  waiting(received: number): void {
    const line = `${this.#label}: ${plural(received, "page")} received; waiting for the server to finish the job...`;
    if (this.#screen.live) this.#screen.status(line);
    else if (!this.#waitingSaid) this.#screen.message(`${line}\n`);
    this.#waitingSaid = true;
  }

  /** Ends the display with a final line. */
  finish(message: string): void {
    this.#screen.endStatus(`${message}\n`);
  }
}

/** The total to show: 0 when unknown, else at least the pages done. */
function known(done: number, total: number): number {
  return total > 0 ? Math.max(total, done) : 0;
}

/**
 * The percent shown: at most 99 while the job runs (`ended` false), since its total may still grow (a crawl
 * finds links as it goes, so 5 of 5 can become 5 of 12); 100 once its status is terminal.
 */
function percent(done: number, total: number, ended: boolean): number {
  return Math.min(ended ? 100 : 99, Math.floor((done / total) * 100));
}

/** `[█████░░░░░]`: `done` of `total` in `cells` cells; never full while the job runs (`ended` false, see {@link percent}). */
export function bar(done: number, total: number, cells: number, ended = false): string {
  const full = Math.min(ended ? cells : cells - 1, Math.floor((done / total) * cells));
  return `[${"█".repeat(full)}${"░".repeat(cells - full)}]`;
}

/** `75` seconds as `1m15s`; `3725` as `1h02m05s`. */
export function formatElapsed(secs: number): string {
  const s = Math.floor(secs);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m${String(s % 60).padStart(2, "0")}s`;
}
