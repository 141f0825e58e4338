/**
 * A worker for test/redis.test.ts, run as its own process: takes one slot of a shared `redisLimiter`
 * (argv: Redis URL, key, lease ms), says "held" on stdout and keeps it (refreshing the lease) until it
 * is killed. The test kills it with SIGKILL: nothing gives the slot back but the lease running out.
 */
import { Redis } from "ioredis";
import { redisLimiter } from "../../src/redis.js";

const [url, key, lease] = process.argv.slice(2);
const limiter = redisLimiter({ redis: new Redis(url!), key: key!, limit: 1, leaseMs: Number(lease) });
await limiter.acquire();
process.stdout.write("held\n");
setInterval(() => undefined, 60_000); // stay alive, holding the slot
