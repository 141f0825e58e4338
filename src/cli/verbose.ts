/**
 * `--verbose` (or `WEBDATA_LOG=debug`): the client's debug lines on stderr,
 * above the progress line, each request's answer with how long it took
 * (`<- POST /v2/scrape 200 in 212 ms`), a retry with how long the failed
 * attempt ran. Data is appended as compact JSON only when there is some: a
 * line never ends in a space. The durations come from the client's lifecycle
 * hooks (`onResponse`, `onRetry`: each attempt's `durationMs`), which run just
 * before the request path writes the line they belong to.
 */
import type { Logger } from "../core/config.js";
import type { Hooks } from "../core/hooks.js";

/** The `--verbose` client options: a logger writing through `write` (the screen's stderr), and the hooks that time each attempt for it. */
export interface Verbose {
  /** Writes each log line, with the attempt's duration on an answer's and a retry's line. */
  logger: Logger;
  /** Record each attempt's duration for the line that follows. */
  hooks: Hooks;
}

/** The logger and hooks of `--verbose`, writing through `write`. */
export function verbose(write: (text: string) => void): Verbose {
  /** Durations of attempts whose line is not written yet, by `METHOD /path` (the path under apiUrl), oldest first. */
  const timed = new Map<string, number[]>();
  const note = (method: string, path: string, ms: number) => timed.set(`${method} ${path}`, [...(timed.get(`${method} ${path}`) ?? []), ms]);
  /** The duration noted for `endpoint` (`METHOD /full/path`: it ends with the path under apiUrl). */
  const took = (endpoint: string): string => {
    const [method = "", pathname = ""] = endpoint.split(" ");
    for (const [key, list] of timed) {
      const [m = "", path = ""] = key.split(" ");
      if (m !== method || !pathname.endsWith(path)) continue;
      const ms = list.shift();
      if (!list.length) timed.delete(key);
      return ms === undefined ? "" : ` in ${Math.round(ms)} ms`;
    }
    return "";
  };
  const emit = (level: string, message: string, data?: Record<string, unknown>) => {
    let text = message;
    const answered = /^<- (\S+ \S+) \d{3}$/.exec(message);
    const retry = /^Retrying (\S+ \S+) /.exec(message);
    if (answered) text += took(answered[1]!);
    else if (retry) {
      const t = took(retry[1]!);
      if (t) text += ` (the failed attempt ran${t})`;
    }
    const extra = data && Object.keys(data).length ? ` ${JSON.stringify(data)}` : "";
    write(`webdata ${level}: ${text}${extra}`.trimEnd() + "\n");
  };
  return {
    logger: {
      debug: (m, d) => emit("debug", m, d),
      info: (m, d) => emit("info", m, d),
      warn: (m, d) => emit("warn", m, d),
      error: (m, d) => emit("error", m, d),
    },
    hooks: {
      onResponse: (e) => void note(e.method, e.path, e.durationMs),
      onRetry: (e) => void note(e.method, e.path, e.durationMs),
    },
  };
}
