/**
 * A real `redis-server` for the tests of `webdata/redis`, on a free loopback port, with nothing saved to
 * disk (`--save '' --appendonly no`; `persist`: an append-only file in a temporary folder, removed at the end), started by a suite's setup and killed after it. Without
 * `redis-server` the suite FAILS (never skips) and says how to install it: CI installs it
 * (`node scripts/redis-server.mjs`, Debian's package).
 */
import { afterAll, beforeAll } from "vitest";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";

/** A running `redis-server`. */
export interface RedisServer {
  /** Its port on 127.0.0.1. */
  port: number;
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  /** A new ioredis client of it (closed by {@link RedisServer.stop}); `reconnecting`: ioredis's own defaults (it reconnects after an outage), not the tests' fail-fast ones. */
  client(options?: { reconnecting?: boolean }): Redis;
  /** Closes every client made and kills the server. */
  stop(): Promise<void>;
  /** Kills the server (SIGKILL: its data goes with it, nothing is saved) and leaves it down; clients stay open. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after {@link kill}) and waits until it answers PING. */
  restart(): Promise<void>;
}

/** The command that installs redis-server, for the failure message. */
export const INSTALL_HINT =
  "redis-server is not installed: the webdata/redis tests run against a real one. Install it with `node scripts/redis-server.mjs` (as root: apt-get install -y redis-server), or `sudo apt-get install redis-server` (Debian/Ubuntu), `brew install redis` (macOS).";

/** A free TCP port on loopback (the OS picks it; redis-server needs an explicit one). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts redis-server; throws {@link INSTALL_HINT} when it is missing. */
export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisServer> {
  const probe = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) throw new Error(INSTALL_HINT);
  const port = await freePort();
  let proc!: ChildProcess;
  const dir = options.persist ? mkdtempSync(join(tmpdir(), "webdata-redis-")) : undefined;
  let output = "";
  const spawnServer = () => {
    // `persist`: every write in an append-only file (fsync each), so a restart (even after SIGKILL) keeps the data, as a budget's Redis must.
    const keep = dir ? ["--appendonly", "yes", "--appendfsync", "always", "--dir", dir] : ["--appendonly", "no"];
    proc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", ...keep, "--protected-mode", "no"], { stdio: ["ignore", "pipe", "pipe"] });
    proc.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    proc.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  };
  spawnServer();
  const clients: Redis[] = [];
  const client = (options: { reconnecting?: boolean } = {}): Redis => {
    const c = options.reconnecting
      ? new Redis({ host: "127.0.0.1", port, retryStrategy: () => 50 })
      : new Redis({ host: "127.0.0.1", port, lazyConnect: false, maxRetriesPerRequest: 2, retryStrategy: () => null });
    c.on("error", () => undefined); // a client left open while the server stops must not fail the run
    clients.push(c);
    return c;
  };
  const kill = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGKILL");
      await exited;
    }
  };
  const stop = async (): Promise<void> => {
    await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    await kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
  const answers = async (): Promise<void> => {
    // Wait until it answers PING (at most 10 s).
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited (${proc.exitCode}) before answering: ${output}`);
      const probeClient = new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probeClient.on("error", () => undefined);
      const pong = await probeClient
        .connect()
        .then(() => probeClient.ping())
        .catch(() => undefined);
      probeClient.disconnect();
      if (pong === "PONG") return;
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`redis-server on port ${port} did not answer PING in 10 s: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await answers();
  const restart = async (): Promise<void> => {
    await kill();
    spawnServer();
    await answers();
  };
  return { port, url: `redis://127.0.0.1:${port}`, client, stop, kill, restart };
}

/** A redis-server for the test file that calls it: started before its tests, stopped after them. Read it with the function returned. */
export function redisForFile(): () => RedisServer {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedis();
  }, 15_000);
  afterAll(async () => {
    await server?.stop();
  });
  return () => server!;
}
