/**
 * `--verbose` (or `WEBDATA_LOG=debug`): the client's debug lines on stderr,
 * above the progress line, each request's answer with how long it took
 * (`<- POST /v2/scrape 200 in 212 ms`), a retry with how long the failed
 * attempt ran. Data is appended as compact JSON only when there is some: a
 * line never ends in a space.
 */
import type { Logger } from "../core/config.js";

/** A logger for the client that writes through `write` (the screen's stderr), timing each request from its `->` line to its `<-` line. */
export function verboseLogger(write: (text: string) => void, now: () => number = () => performance.now()): Logger {
  /** Start times of the attempts in flight, by `METHOD /path`, oldest first. */
  const started = new Map<string, number[]>();
  const took = (endpoint: string): string => {
    const t0 = started.get(endpoint)?.shift();
    return t0 === undefined ? "" : ` in ${Math.round(now() - t0)} ms`;
  };
  const emit = (level: string, message: string, data?: Record<string, unknown>) => {
    let text = message;
    const sent = /^-> (\S+ \S+)/.exec(message);
    const answered = /^<- (\S+ \S+) \d{3}$/.exec(message);
    const retry = /^Retrying (\S+ \S+) /.exec(message);
    if (sent) started.set(sent[1]!, [...(started.get(sent[1]!) ?? []), now()]);
    else if (answered) text += took(answered[1]!);
    else if (retry) {
      const t = took(retry[1]!);
      if (t) text += ` (the failed attempt ran${t})`;
    }
    const extra = data && Object.keys(data).length ? ` ${JSON.stringify(data)}` : "";
    write(`webdata ${level}: ${text}${extra}`.trimEnd() + "\n");
  };
  return {
    debug: (m, d) => emit("debug", m, d),
    info: (m, d) => emit("info", m, d),
    warn: (m, d) => emit("warn", m, d),
    error: (m, d) => emit("error", m, d),
  };
}
