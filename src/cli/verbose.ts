/**
 * `--verbose` (or `WEBDATA_LOG=debug`): the client's debug lines on stderr,
 * above the progress line, each request's answer with how long it took
 * (`<- POST /v2/scrape 200 in 212 ms`), a retry with how long the failed
 * attempt ran, each with the call's request id (`x-request-id`, for the
 * service's support). Data is appended as compact JSON only when there is
 * some: a line never ends in a space. The durations and ids come from the
 * client's lifecycle hooks, which run just before the request path writes
 * the line they belong to.
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
  /** What the hooks told of attempts whose line is not written yet, by `METHOD /path` (the path under apiUrl), oldest first. */
  const sent = new Map<string, string[]>(); // `onRequest`: the request id, for the `->` line
  const timed = new Map<string, { ms: number; id: string }[]>(); // `onResponse`, `onRetry`: duration and request id, for the `<-` and retry lines
  const note = <T>(map: Map<string, T[]>, method: string, path: string, value: T) => map.set(`${method} ${path}`, [...(map.get(`${method} ${path}`) ?? []), value]);
  /** The oldest value noted for `endpoint` (`METHOD /full/path`: it ends with the path under apiUrl), taken. */
  const take = <T>(map: Map<string, T[]>, endpoint: string): T | undefined => {
    const [method = "", pathname = ""] = endpoint.split(" ");
    for (const [key, list] of map) {
      const [m = "", path = ""] = key.split(" ");
      if (m !== method || !pathname.endsWith(path)) continue;
      const value = list.shift();
      if (!list.length) map.delete(key);
      return value;
    }
    return undefined;
  };
  const emit = (level: string, message: string, data?: Record<string, unknown>) => {
    let text = message;
    const request = /^-> (\S+ \S+)/.exec(message);
    const answered = /^<- (\S+ \S+) \d{3}$/.exec(message);
    const retry = /^Retrying (\S+ \S+) /.exec(message);
    if (request) {
      const id = take(sent, request[1]!);
      if (id) text += ` (request id ${id})`;
    } else if (answered) {
      const t = take(timed, answered[1]!);
      if (t) text += ` in ${Math.round(t.ms)} ms (request id ${t.id})`;
    } else if (retry) {
      const t = take(timed, retry[1]!);
      if (t) text += ` (the failed attempt ran in ${Math.round(t.ms)} ms, request id ${t.id})`;
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
      onRequest: (e) => void note(sent, e.method, e.path, e.requestId),
      onResponse: (e) => void note(timed, e.method, e.path, { ms: e.durationMs, id: e.requestId }),
      onRetry: (e) => void note(timed, e.method, e.path, { ms: e.durationMs, id: e.requestId }),
    },
  };
}
