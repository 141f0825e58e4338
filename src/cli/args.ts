/**
 * What every command shares: its shape, its context, and the argument checks
 * that refuse bad input (exit 2) before anything is sent.
 */
import { readFile } from "node:fs/promises";
import type { ParseArgsConfig } from "node:util";
import { ValidationError } from "../core/errors.js";
import type { RequestOptions } from "../core/request.js";
import type { WebData } from "../node.js";
import { EXIT, STDOUT_CLOSED } from "./exit.js";
import type { Screen } from "./terminal.js";

/** What a command may use: the client, the screen, the interrupt signal. */
export interface CommandContext {
  /** The client (key and URL from flags or the environment). */
  client: WebData;
  /** Both streams (the progress line is cleared before stdout is written on a shared terminal). */
  screen: Screen;
  /** Writes results to stdout. */
  out: (text: string) => void;
  /** Writes a message to stderr. */
  err: (text: string) => void;
  /** Aborts on Ctrl-C (or SIGTERM). */
  signal: AbortSignal;
  /** `--json`: results, errors and the interrupt as JSON lines on stdout. */
  json: boolean;
  /** The key in use (flag or environment), if any: `doctor` reports whether one was given, never its value. */
  apiKey: string | undefined;
  /** The environment. */
  env: Record<string, string | undefined>;
}

/** The parsed flags of a command. */
export type Values = Record<string, string | boolean | string[] | undefined>;

/** A command: its help text, its flags and what it does. */
export interface Command {
  /** One line for `webdata --help`. */
  summary: string;
  /** `webdata <name> --help`. */
  usage: string;
  /** Its own flags (the common ones are added). */
  options: NonNullable<ParseArgsConfig["options"]>;
  /** False for a command that talks to no service (`fake`): no client is made, so no key is asked for. */
  needsClient?: boolean;
  /** What to do about an error of this command, when the command can tell (printed as the error's `hint:` line). */
  hint?(err: unknown, values: Values): string | undefined;
  /** Runs it; resolves to the exit code. */
  run(ctx: CommandContext, positionals: string[], values: Values): Promise<number>;
}

/** A bad argument: a `ValidationError` (exit 2), raised before anything is sent. */
export function badArgument(path: string, message: string): ValidationError {
  return new ValidationError([{ path, message }], "arguments");
}

/** The whole number >= `min` given as `--<name>`, if given (else a `ValidationError`: exit 2, nothing sent). */
export function positiveInt(values: Record<string, unknown>, name: string, min = 1): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw === "" || !Number.isInteger(n) || n < min) throw badArgument(name, `--${name} must be a whole number >= ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

/** The whole number >= 0 given as `--<name>`, if given. */
export function nonNegativeInt(values: Record<string, unknown>, name: string): number | undefined {
  return positiveInt(values, name, 0);
}

/** Refuses a command given fewer than `min` positionals. */
export function needPositionals(positionals: string[], min: number, what: string): void {
  if (positionals.length < min) throw badArgument(what, `${what} is required`);
}

/** The string given as `--<name>`, if given (an empty one is a bad argument). */
export function stringFlag(values: Record<string, unknown>, name: string): string | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== "string" || raw.trim() === "") throw badArgument(name, `--${name} needs a value`);
  return raw;
}

/** The JSON Schema in the file given as `--schema <file>`, if given: unreadable, not JSON or not an object is a bad argument. */
export async function schemaFile(values: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  const file = stringFlag(values, "schema");
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw badArgument("schema", `--schema ${file}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    throw badArgument("schema", `--schema ${file}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw badArgument("schema", `--schema ${file}: a JSON Schema is an object, such as {"type":"object","properties":{...}}`);
  return schema as Record<string, unknown>;
}

/** Helps a person read a list of links or results. */
export function line(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== "").join("  ");
}

/** A result as one JSON line for `--json`: `{"type":..., ...}`. */
export function record(type: string, fields: object): string {
  return `${JSON.stringify({ type, ...fields })}\n`;
}

/**
 * Ctrl-C (or a closed output) while a job runs: the job is cancelled on the server before the command ends
 * (`cancel`; none for a job that cannot be cancelled), and said so, `received` after its id; with `--json` a
 * last `interrupted` line. The exit code.
 */
export async function cancelInterrupted(ctx: CommandContext, kind: string, id: string, cancel: ((req: RequestOptions) => Promise<unknown>) | undefined, pages?: number, received = ""): Promise<number> {
  const closed = ctx.signal.reason === STDOUT_CLOSED;
  let cancelled = false;
  if (cancel) {
    ctx.screen.endStatus(`${closed ? "Output closed" : "Interrupted"}: cancelling ${kind} ${id} on the server...\n`);
    cancelled = await cancel({ timeoutMs: 10_000, maxRetries: 1 }).then(
      () => (ctx.err(`Cancelled ${kind} ${id}${received}.\n`), true),
      (e: unknown) => (ctx.err(`Could not cancel ${kind} ${id}: ${e instanceof Error ? e.message : String(e)}\n`), false),
    );
  }
  if (ctx.json && !closed) ctx.out(record("interrupted", { exitCode: EXIT.interrupted, kind, id, cancelled, ...(pages === undefined ? {} : { pages }) }));
  return closed ? EXIT.pipeClosed : EXIT.interrupted;
}
