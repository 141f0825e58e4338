/**
 * Starts the bench server alone and prints its URL (for `bench/profile-loop.mjs`, and for `bench/clients.ts`, which
 * runs it in a process of its own for the per-call and throughput measures); stop it with Ctrl-C or SIGTERM.
 *   npx tsx bench/serve.ts [docKB]     # the scrape answer's markdown size in KB (default 20)
 */
import { startBenchServer } from "./server.js";

const kb = Number(process.argv[2] ?? 20);
const server = await startBenchServer({ docBytes: kb * 1024 });
console.log(server.url);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
