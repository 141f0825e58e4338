#!/usr/bin/env node
/**
 * `webdata`: the command-line face of the client (`npx webdata scrape|map|
 * crawl|search|batch|usage ...`). Key and URL come from flags or the
 * environment, as for `new WebData()`. Not reachable from `import "webdata"`.
 */
import { fstatSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_API_URL, isPublicDeployment } from "../core/config.js";
import { VERSION } from "../core/version.js";
import { WebData } from "../node.js";
import { COMMANDS, COMMON_OPTIONS, commandHelp, mainHelp, nonNegativeInt, positiveInt, type CommandContext } from "./commands.js";
import { verbose as verboseOptions } from "./verbose.js";
import { EXIT, exitCodeOf, STDOUT_CLOSED } from "./exit.js";
import { errorRecord, errorText, jsonLine } from "./report.js";
import { Screen } from "./terminal.js";

/** Streams and signal of one run (the process's, or a test's stand-ins). */
export interface CliIO {
  /** Writes results. */
  out(text: string): void;
  /** Writes progress and messages; `isTTY` when it is a terminal, `columns` its width. */
  err: { write(text: string): void; isTTY: boolean; columns?: number | undefined };
  /** stdout is a terminal (default false). */
  outIsTTY?: boolean | undefined;
  /** stdout and stderr are the same terminal (default: both are terminals). */
  sameTerminal?: boolean | undefined;
  /** Aborts the run (Ctrl-C). */
  signal: AbortSignal;
  /** Environment for the client (key, URL) and the terminal (`NO_COLOR`, `TERM`). */
  env?: Record<string, string | undefined>;
}

/** Runs `webdata` with `argv` (without `node` and the script); resolves to the exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const env = io.env ?? process.env;
  const screen = screenOf(io, env);
  const [name, ...rest] = argv;
  // Known before the flags are parsed, for a usage error's record; `--no-json` after it turns it off.
  let json = rest.includes("--json");
  /** A usage problem (no key, unknown command or flag): the message on stderr, and with --json its record on stdout. */
  const usage = (exitCode: number, code: string, text: string): number => {
    if (json) screen.out(jsonLine({ type: "error", exitCode, error: { name: "UsageError", code, message: text.trim().split("\n")[0] ?? text } }));
    screen.message(text);
    return exitCode;
  };
  const shown = helpOrVersion(screen, name, rest[0]);
  if (shown !== undefined) return shown;
  const command = COMMANDS[name!];
  if (!command) return usage(EXIT.usage, "UNKNOWN_COMMAND", `webdata: unknown command "${name}"\n\n${mainHelp(VERSION)}`);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true, allowNegative: true, strict: true });
  } catch (err) {
    return usage(EXIT.usage, "BAD_ARGUMENTS", `webdata ${name}: ${err instanceof Error ? err.message : String(err)}\n\nRun "webdata ${name} --help" for its options.\n`);
  }
  const values = parsed.values as Values;
  json = values.json === true;
  if (values.help) {
    screen.out(commandHelp(name!));
    return 0;
  }
  // An empty variable counts as unset (as `new WebData()` reads the environment).
  const apiKey = (values["api-key"] as string | undefined) ?? (env.WEBDATA_API_KEY || env.FIRECRAWL_API_KEY || undefined);
  const apiUrl = (values["api-url"] as string | undefined) ?? (env.WEBDATA_API_URL || env.FIRECRAWL_API_URL || undefined);
  if (command.needsClient !== false && !apiKey?.trim() && isPublicDeployment(apiUrl ?? DEFAULT_API_URL)) {
    return usage(EXIT.auth, "NO_API_KEY", `webdata ${name}: no API key: pass --api-key <key> or set WEBDATA_API_KEY (FIRECRAWL_API_KEY also works). A self-hosted server needs none: pass --api-url <url>.\n`);
  }
  try {
    const ctx = commandContext({ screen, signal: io.signal, json, apiKey, apiUrl, env }, values);
    if (command.needsClient !== false) void ctx.client; // a bad --api-url fails here, before the command reads its arguments
    return await command.run(ctx, parsed.positionals, values);
  } catch (err) {
    return failed(screen, { signal: io.signal, json }, `webdata ${name}`, err, () => command.hint?.(err, values));
  }
}

/** A command's flags, as `parseArgs` reads them. */
type Values = Record<string, string | boolean | string[] | undefined>;

/** The run's screen: stdout for results, stderr for progress and messages. */
function screenOf(io: CliIO, env: Record<string, string | undefined>): Screen {
  return new Screen({
    out: io.out,
    err: (t) => io.err.write(t),
    outIsTTY: io.outIsTTY ?? false,
    errIsTTY: io.err.isTTY,
    sameTerminal: io.sameTerminal ?? (Boolean(io.outIsTTY) && io.err.isTTY),
    columns: io.err.columns,
    env,
  });
}

/** `webdata`, `webdata help [command]`, `--help` and `--version`: the exit code once shown, else undefined (a command runs). */
function helpOrVersion(screen: Screen, name: string | undefined, topic: string | undefined): number | undefined {
  if (name === "help" && topic !== undefined && COMMANDS[topic]) {
    screen.out(commandHelp(topic));
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    screen.out(mainHelp(VERSION));
    return name === undefined ? EXIT.usage : 0;
  }
  if (name !== "--version" && name !== "-v") return undefined;
  screen.out(`${VERSION}\n`);
  return 0;
}

/** What a command runs with: the client is made on first use (a command that talks to no service, `fake`, needs no key). */
function commandContext(run: Omit<CommandContext, "client" | "out" | "err"> & { apiUrl: string | undefined }, values: Values): CommandContext {
  const { screen, env, apiKey, apiUrl } = run;
  const timeoutMs = positiveInt(values, "timeout-ms");
  const maxRetries = nonNegativeInt(values, "max-retries");
  const verbose = values.verbose === true || env.WEBDATA_LOG?.trim().toLowerCase() === "debug";
  const logging = verbose ? ({ logLevel: "debug", ...verboseOptions((t) => screen.message(t)) } as const) : ({ logLevel: "off" } as const);
  let client: WebData | undefined;
  return {
    get client() {
      return (client ??= new WebData({ apiKey, apiUrl, ...logging, ...(timeoutMs ? { timeoutMs } : {}), ...(maxRetries === undefined ? {} : { maxRetries }) }));
    },
    screen,
    out: (t) => screen.out(t),
    err: (t) => screen.message(t),
    signal: run.signal,
    json: run.json,
    apiKey,
    env,
  };
}

/** A command that failed: interrupted (Ctrl-C, or its reader closed stdout), else its error and hint; the exit code. */
function failed(screen: Screen, run: { signal: AbortSignal; json: boolean }, who: string, err: unknown, hintOf: () => string | undefined): number {
  if (run.signal.aborted) {
    if (run.signal.reason === STDOUT_CLOSED) return EXIT.pipeClosed;
    if (run.json) screen.out(jsonLine({ type: "interrupted", exitCode: EXIT.interrupted }));
    screen.message("Interrupted.\n");
    return EXIT.interrupted;
  }
  const code = exitCodeOf(err);
  if (run.json) screen.out(jsonLine(errorRecord(err, code)));
  const hint = hintOf();
  const [head = "", ...more] = [...errorText(err).split("\n"), ...(hint ? [`  hint: ${hint}`] : [])];
  screen.message(`${who}: ${screen.paintErr(head, "red")}${more.map((l) => `\n${l}`).join("")}\n`);
  return code;
}

/** True when this module is the process's entry (run as the `webdata` bin, not imported). */
function isMain(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/** stdout and stderr are the same terminal device (a progress line on stderr would run into page text on stdout). */
function sameTerminal(): boolean {
  if (!process.stdout.isTTY || !process.stderr.isTTY) return false;
  try {
    return fstatSync(1).rdev === fstatSync(2).rdev;
  } catch {
    return true;
  }
}

if (isMain()) {
  const ctl = new AbortController();
  let interrupts = 0;
  // First Ctrl-C (or SIGTERM): stop, and cancel the job on the server; a second one exits at once.
  const interrupt = () => {
    if (++interrupts > 1) process.exit(EXIT.interrupted);
    ctl.abort();
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  // A reader that closes standard output (`| head -1`) ends the command quietly, as git and gh do: no
  // unhandled EPIPE and stack, no more output, and a job the command started is cancelled on the server.
  let stdoutClosed = false;
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    stdoutClosed = true;
    ctl.abort(STDOUT_CLOSED);
  });
  void runCli(process.argv.slice(2), {
    out: (t) => void (stdoutClosed || process.stdout.write(t)),
    err: { write: (t) => process.stderr.write(t), isTTY: Boolean(process.stderr.isTTY), columns: process.stderr.columns },
    outIsTTY: Boolean(process.stdout.isTTY),
    sameTerminal: sameTerminal(),
    signal: ctl.signal,
  }).then((code) => {
    process.exitCode = stdoutClosed ? EXIT.pipeClosed : code;
  });
}
