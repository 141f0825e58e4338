/**
 * The Lua scripts of `redisBudget`, run by Redis atomically (ioredis `defineCommand`: EVALSHA, EVAL when the script is not
 * loaded yet). Every script reads Redis's own clock (`TIME`), so workers on machines whose clocks differ agree on leases.
 * The keys of one budget window (KEYS[1..4]): `spent` (credits settled, a number), `holds` (a hash: reservation id, or
 * `job:<id>`, to the credits it holds), `leases` (a sorted set: the same ids by the time their lease ends), `jobs` (a
 * hash: job id to the running total last reported, and `<id>:max` to what its start reserved); and KEYS[5], `settled`
 * (a sorted set: the reservation ids settled in the last hour, so a settle sent again after an outage counts once).
 */

/** What every script starts with: `now` (ms, Redis's clock), `purge()` (drops the holds whose lease ended), `touch(ttl)` (the window's expiry). */
const PRELUDE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function purge()
  local gone = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
  for _, id in ipairs(gone) do redis.call('HDEL', KEYS[2], id) end
  if #gone > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now) end
end
local function touch(ttl)
  if ttl > 0 then for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ttl) end end
end
`;

/** ARGV: id, credits, cap, leaseMs, ttlMs. Reserves `credits` unless settled + held leave too little: `{1|0, spent, held}`. */
export const RESERVE = `${PRELUDE}
purge()
local held = 0
for _, v in ipairs(redis.call('HVALS', KEYS[2])) do held = held + tonumber(v) end
local spent = tonumber(redis.call('GET', KEYS[1]) or '0')
local amount, cap = tonumber(ARGV[2]), tonumber(ARGV[3])
if spent + held >= cap or spent + held + amount > cap then return {0, tostring(spent), tostring(held)} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[4]), ARGV[1])
touch(tonumber(ARGV[5]))
return {1, tostring(spent), tostring(held + amount)}
`;

/** ARGV: id, credits, jobId ('' for none), leaseMs, ttlMs. Ends the reservation, adds the credits spent (once: a settle of an id settled already changes nothing); a job start's reservation stays, as the job's hold. Returns the credits spent. */
export const SETTLE = `${PRELUDE}
if redis.call('ZSCORE', KEYS[5], ARGV[1]) then return redis.call('GET', KEYS[1]) or '0' end
redis.call('ZADD', KEYS[5], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now - 3600000)
local held = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local spent = redis.call('INCRBYFLOAT', KEYS[1], ARGV[2])
if ARGV[3] ~= '' and held > 0 then
  redis.call('HSET', KEYS[4], ARGV[3] .. ':max', tostring(held))
  redis.call('HSET', KEYS[2], 'job:' .. ARGV[3], tostring(held))
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[4]), 'job:' .. ARGV[3])
end
touch(tonumber(ARGV[5]))
return spent
`;

/** ARGV: jobId, credits (its running total), done ('1' or '0'), leaseMs, ttlMs. Adds what the total grew by; the job holds what is left of its start's reservation (nothing once done). Returns the credits spent. */
export const REPORT = `${PRELUDE}
purge()
local prev = tonumber(redis.call('HGET', KEYS[4], ARGV[1]) or '0')
local c = tonumber(ARGV[2])
local spent
if c > prev then
  redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
  spent = redis.call('INCRBYFLOAT', KEYS[1], tostring(c - prev))
else
  spent = redis.call('GET', KEYS[1]) or '0'
end
local job = 'job:' .. ARGV[1]
local left = tonumber(redis.call('HGET', KEYS[4], ARGV[1] .. ':max') or '0') - math.max(c, prev)
if ARGV[3] == '1' or left <= 0 then
  redis.call('HDEL', KEYS[2], job)
  redis.call('ZREM', KEYS[3], job)
  if ARGV[3] == '1' then redis.call('HDEL', KEYS[4], ARGV[1] .. ':max') end
else
  redis.call('HSET', KEYS[2], job, tostring(left))
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[4]), job)
end
touch(tonumber(ARGV[5]))
return spent
`;

/** ARGV: id. Gives a reservation back. */
export const RELEASE = `
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`;

/** ARGV: id, leaseMs. Extends a reservation's lease while its call runs: 1, or 0 when it had lapsed already. */
export const REFRESH = `${PRELUDE}
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
return 1
`;
