/** Starts the bench server alone and prints its URL (for `bench/profile-loop.mjs`); stop it with Ctrl-C. */
import { startBenchServer } from "./server.js";

const server = await startBenchServer();
console.log(server.url);
