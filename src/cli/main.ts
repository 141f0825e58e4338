#!/usr/bin/env node
/**
 * `webdata`: the command-line face of the client (`npx webdata scrape|map|
 * crawl|search|batch|usage ...`). Key and URL come from flags or the
 * environment, as for `new WebData()`. Not reachable from `import "webdata"`.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEFAULT_API_URL, isPublicDeployment } from "../core/config.js";
import { ValidationError, WebDataError } from "../core/errors.js";
import { VERSION } from "../core/version.js";
import { WebData } from "../node.js";
import { COMMANDS, COMMON_OPTIONS, commandHelp, mainHelp, type CommandContext } from "./commands.js";
import { EXIT, exitCodeOf, STDOUT_CLOSED } from "./exit.js";

/** Streams and signal of one run (the process's, or a test's stand-ins). */
export interface CliIO {
  /** Writes results. */
  out(text: string): void;
  /** Writes progress and messages. */
  err: { write(text: string): void; isTTY: boolean };
  /** Aborts the run (Ctrl-C). */
  signal: AbortSignal;
  /** Environment for the client (key, URL). */
  env?: Record<string, string | undefined>;
}

function message(err: unknown): string {
  if (err instanceof ValidationError) return err.message;
  if (err instanceof WebDataError) return `${err.name}: ${err.message}`;
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Runs `webdata` with `argv` (without `node` and the script); resolves to the exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" && rest[0] !== undefined && COMMANDS[rest[0]]) {
    io.out(commandHelp(rest[0]));
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.out(mainHelp(VERSION));
    return name === undefined ? EXIT.usage : 0;
  }
  if (name === "--version" || name === "-v") {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err.write(`webdata: unknown command "${name}"\n\n${mainHelp(VERSION)}`);
    return EXIT.usage;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...COMMON_OPTIONS, ...command.options }, allowPositionals: true, allowNegative: true, strict: true });
  } catch (err) {
    io.err.write(`webdata ${name}: ${err instanceof Error ? err.message : String(err)}\n\nRun "webdata ${name} --help" for its options.\n`);
    return EXIT.usage;
  }
  const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
  if (values.help) {
    io.out(commandHelp(name));
    return 0;
  }
  const env = io.env ?? process.env;
  // An empty variable counts as unset (as `new WebData()` reads the environment).
  const apiKey = (values["api-key"] as string | undefined) ?? (env.WEBDATA_API_KEY || env.FIRECRAWL_API_KEY || undefined);
  const apiUrl = (values["api-url"] as string | undefined) ?? (env.WEBDATA_API_URL || env.FIRECRAWL_API_URL || undefined);
  if (!apiKey?.trim() && isPublicDeployment(apiUrl ?? DEFAULT_API_URL)) {
    io.err.write(`webdata ${name}: no API key: pass --api-key <key> or set WEBDATA_API_KEY (FIRECRAWL_API_KEY also works). A self-hosted server needs none: pass --api-url <url>.\n`);
    return EXIT.auth;
  }
  try {
    const client = new WebData({ apiKey, apiUrl, logLevel: "off" });
    const ctx: CommandContext = { client, out: io.out, err: io.err, signal: io.signal };
    return await command.run(ctx, parsed.positionals, values);
  } catch (err) {
    if (io.signal.aborted) {
      if (io.signal.reason === STDOUT_CLOSED) return EXIT.pipeClosed;
      io.err.write("Interrupted.\n");
      return EXIT.interrupted;
    }
    io.err.write(`webdata ${name}: ${message(err)}\n`);
    return exitCodeOf(err);
  }
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

if (isMain()) {
  const ctl = new AbortController();
  let interrupts = 0;
  process.on("SIGINT", () => {
    // First Ctrl-C: stop and cancel the job on the server; a second one exits at once.
    if (++interrupts > 1) process.exit(EXIT.interrupted);
    ctl.abort();
  });
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
    err: { write: (t) => process.stderr.write(t), isTTY: Boolean(process.stderr.isTTY) },
    signal: ctl.signal,
  }).then((code) => {
    process.exitCode = stdoutClosed ? EXIT.pipeClosed : code;
  });
}
