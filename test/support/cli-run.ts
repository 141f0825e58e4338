/**
 * Runs the built `webdata` bin (`dist/node/cli.js`, so `npm run build` first) as
 * a separate process, as users run it: with pipes, or on a pseudo-terminal
 * (util-linux `script`), against a served fake or a loopback server.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach } from "vitest";
import { createFakeService, serveFake, type FakeService, type ServedFake } from "../../src/testing/node.js";

/**
 * The built bin; `WEBDATA_CLI_BIN` points the tests at another build of it (a copy of `dist/`
 * inside the repository, so its imports resolve), when others rebuild `dist/` while they run.
 */
export const BIN = process.env.WEBDATA_CLI_BIN ?? fileURLToPath(new URL("../../dist/node/cli.js", import.meta.url));

/** What a run of the bin produced. */
export interface BinRun {
  /** Exit code. */
  code: number | null;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/** Options of {@link runBin}. */
export interface RunOptions {
  /** The whole environment of the child (PATH is added). */
  env: Record<string, string>;
  /** Called with stderr so far; may signal the child (e.g. SIGINT once a job started). */
  onStderr?: (text: string, kill: (sig: NodeJS.Signals) => void) => void;
  /** Called once the child is spawned, with a way to signal it. */
  onStart?: (kill: (sig: NodeJS.Signals) => void) => void;
}

/** Runs the bin with pipes for stdout and stderr. */
export function runBin(args: string[], options: RunOptions): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    options.onStart?.((sig) => child.kill(sig));
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      options.onStderr?.(stderr, (sig) => child.kill(sig));
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** True when util-linux `script` (a pseudo-terminal for a command) is on this machine. */
export function hasScript(): boolean {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** What a run on a pseudo-terminal produced: everything the terminal showed (stdout and stderr, as written). */
export interface PtyRun {
  /** Exit code. */
  code: number | null;
  /** The terminal's output (`\n` arrives as `\r\n`). */
  output: string;
}

/**
 * Runs the bin on a pseudo-terminal of `columns` columns (`script -qfec`): stdout and
 * stderr are the same terminal, unless `stdoutFile` sends stdout to that file.
 */
export function runPty(args: string[], options: { env: Record<string, string>; columns?: number; stdoutFile?: string }): Promise<PtyRun> {
  const command = [
    `stty cols ${options.columns ?? 120} rows 40 2>/dev/null;`,
    "exec",
    quote(process.execPath),
    quote(BIN),
    ...args.map(quote),
    ...(options.stdoutFile ? [">", quote(options.stdoutFile)] : []),
  ].join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", command, "/dev/null"], { env: { PATH: process.env.PATH ?? "", TERM: "xterm", ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** What {@link servedFakeEach} makes for each test: a fresh fake, served on loopback, and a scratch folder. */
export interface ServedCase {
  /** The fake service of this test. */
  fake: FakeService;
  /** The fake served on a loopback port. */
  served: ServedFake;
  /** A scratch folder, removed after the test. */
  dir: string;
}

/**
 * Registers the CLI suites' per-test setup: a fresh fake served on loopback and a scratch folder named
 * `prefix...`, closed and removed after each test; `take` receives each test's case.
 */
export function servedFakeEach(prefix: string, take: (c: ServedCase) => void): void {
  let current: ServedCase | undefined;
  beforeEach(async () => {
    const fake = createFakeService();
    current = { fake, served: await serveFake(fake), dir: await mkdtemp(join(tmpdir(), prefix)) };
    take(current);
  });
  afterEach(async () => {
    if (!current) return;
    await current.served.close();
    await rm(current.dir, { recursive: true, force: true });
    current = undefined;
  });
}
