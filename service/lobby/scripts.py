"""The quick match's Lua scripts, kept together (docs/LOBBY.md "The matcher").

Each runs atomically in Redis, so any number of web processes, stream processes and workers
share one queue: joining, leaving and a matching step never interleave, and a ticket leaves its
pool in the same script that puts it into a group, so no player is seated twice. Every key
carries the hash tag ``{m}`` (service.common.keys): on a Redis Cluster they share one slot, and
the step may touch the tickets it finds in a pool (keys it cannot declare beforehand: allowed,
as they are in the script's slot).

A ticket (``pd:{m}:ticket:<id>``, a hash): ``player``, ``name``, ``account``, ``rating``,
``address``, ``pool``, ``since`` (ms joined), ``alive`` (ms until which its player is known to
wait: renewed by every poll and stream heartbeat), ``bots_after`` (ms of waiting after which
bots fill the free seats; -1: keep waiting), ``status`` (``waiting`` | ``matched`` | ``left`` |
``expired``), ``match`` (the group), and, once built, ``table`` and ``token``.
A pool (``<game>.<seats>.<timer>.<rated|casual>``): two sorted sets of its waiting tickets,
``rating`` (ticket -> rating) and ``since`` (ticket -> ms joined), and a ``cursor``.
"""

from __future__ import annotations

from typing import Final

# KEYS: the player's pointer, the ticket, the pools' set, the pool's rating and since sets.
# ARGV: ticket id, pool, now (ms), the pointer's lifetime (s), the matched ticket the caller
# found over (its table finished or left: '' for none), then field/value pairs.
# Returns {1, id} when queued, {0, the live ticket's id} when the player waits already or holds
# a matched ticket not let go (issue 38: a join asked again never seats a player twice; only the
# caller, which can read the table on its own slot, knows the matched table is over).
JOIN: Final = """
local current = redis.call('GET', KEYS[1])
if current then
  local status = redis.call('HGET', '{prefix}:ticket:' .. current, 'status')
  if status == 'waiting' or (status == 'matched' and current ~= ARGV[5]) then
    return {0, current}
  end
end
local fields = {}
for i = 6, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[2], 'status', 'waiting', 'pool', ARGV[2], 'since', ARGV[3], unpack(fields))
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[4])
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[4], redis.call('HGET', KEYS[2], 'rating'), ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[3], ARGV[1])
return {1, ARGV[1]}
"""

# KEYS: the player's pointer. ARGV: none.
# Returns {'left', id}, {'matched', id} (too late: seated), or {'none', ''}.
LEAVE: Final = """
local current = redis.call('GET', KEYS[1])
if not current then
  return {'none', ''}
end
local ticket = '{prefix}:ticket:' .. current
local status = redis.call('HGET', ticket, 'status')
if status == 'waiting' then
  local pool = redis.call('HGET', ticket, 'pool')
  redis.call('ZREM', '{prefix}:pool:' .. pool .. ':rating', current)
  redis.call('ZREM', '{prefix}:pool:' .. pool .. ':since', current)
  redis.call('HSET', ticket, 'status', 'left')
  return {'left', current}
end
if status == 'matched' then
  return {'matched', current}
end
return {'none', current}
"""

# KEYS: the ticket. ARGV: alive until (ms), the ticket's lifetime (s). Renews a waiting ticket.
# Returns its status (false when gone).
ALIVE: Final = """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'waiting' then
  redis.call('HSET', KEYS[1], 'alive', ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return status
"""

# One matching step of one pool.
# KEYS: the pool's rating set, since set, cursor; the set of groups made; the pools' set; the
#       pool's last step (ms).
# ARGV: pool, seats, now (ms), base range, widening per second (x1000), widest range,
#       tickets to scan, candidates to look at per side, the least gap after the pool's last
#       step (ms; 0: step anyway, as a join does), then fresh group ids (at most that many
#       groups are made by this step).
# A step asked within the gap of the pool's last one does nothing: however many polls and
# streams wait in a pool, it is stepped a few times a second (and at each join).
# Scans up to `scan` tickets by wait (oldest first, going on from the cursor, wrapping). For each
# still free ticket T (an anchor), its range is base + widening x seconds waited, at most the
# widest; the candidates are the nearest free tickets by rating within it that also accept T
# (each by its own range: the acceptance is mutual); the nearest seats-1 make a group with T.
# A ticket whose player stopped waiting (`alive` passed) is dropped (`expired`). An anchor
# without enough candidates that has waited its `bots_after` takes those it has: bots fill the
# rest. Returns a flat list: per group its id, its bots, its count of tickets, the tickets.
STEP: Final = """
local pool = ARGV[1]
local seats = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local base = tonumber(ARGV[4])
local per_ms = tonumber(ARGV[5]) / 1000000
local widest = tonumber(ARGV[6])
local scan = tonumber(ARGV[7])
local side = tonumber(ARGV[8])
local gap = tonumber(ARGV[9])
local ids = {}
for i = 10, #ARGV do ids[#ids + 1] = ARGV[i] end
local prefix = '{prefix}'
if gap > 0 then
  local last = tonumber(redis.call('GET', KEYS[6]) or '-1')
  if last >= 0 and now >= last and now - last < gap then
    return {}
  end
end
redis.call('SET', KEYS[6], ARGV[3], 'EX', 3600)
local size = redis.call('ZCARD', KEYS[2])
if size == 0 then
  redis.call('SREM', KEYS[5], pool)
  return {}
end
local cursor = tonumber(redis.call('GET', KEYS[3]) or '0')
if cursor >= size then cursor = 0 end
local order = redis.call('ZRANGE', KEYS[2], cursor, cursor + scan - 1, 'WITHSCORES')
if #order < 2 * scan and cursor > 0 then
  local more = redis.call('ZRANGE', KEYS[2], 0, scan - 1 - #order / 2, 'WITHSCORES')
  for i = 1, #more do order[#order + 1] = more[i] end
end
redis.call('SET', KEYS[3], tostring(cursor + scan))
local taken = {}
local facts = {}
local function fact(t)
  local f = facts[t]
  if f == nil then
    local h = redis.call('HMGET', prefix .. ':ticket:' .. t, 'status', 'alive', 'bots_after')
    local since = redis.call('ZSCORE', KEYS[2], t)
    local rating = redis.call('ZSCORE', KEYS[1], t)
    if h[1] ~= 'waiting' or not since or not rating then
      f = false
    else
      f = {alive = tonumber(h[2]), bots = tonumber(h[3]), since = tonumber(since),
           rating = tonumber(rating)}
    end
    facts[t] = f
  end
  return f
end
local function drop(t, status)
  redis.call('ZREM', KEYS[1], t)
  redis.call('ZREM', KEYS[2], t)
  redis.call('HSET', prefix .. ':ticket:' .. t, 'status', status)
  taken[t] = true
end
local function range(f)
  return math.min(widest, base + per_ms * (now - f.since))
end
local out = {}
local made = 0
local seen = {}
for i = 1, #order, 2 do
  if made >= #ids then break end
  local t = order[i]
  if not taken[t] and not seen[t] then
    seen[t] = true
    local f = fact(t)
    if f and f.alive < now then
      drop(t, 'expired')
    elseif f then
      local r = range(f)
      local near = {}
      local lists = {
        redis.call('ZRANGEBYSCORE', KEYS[1], f.rating, f.rating + r, 'LIMIT', 0, side),
        redis.call('ZREVRANGEBYSCORE', KEYS[1], f.rating, f.rating - r, 'LIMIT', 0, side)
      }
      local listed = {}
      for _, list in ipairs(lists) do
        for _, c in ipairs(list) do
          if c ~= t and not taken[c] and not listed[c] then
            listed[c] = true
            local g = fact(c)
            if g and g.alive < now then
              drop(c, 'expired')
            elseif g and math.abs(g.rating - f.rating) <= range(g) then
              near[#near + 1] = {c, math.abs(g.rating - f.rating), g.since}
            end
          end
        end
      end
      table.sort(near, function(a, b)
        if a[2] ~= b[2] then return a[2] < b[2] end
        if a[3] ~= b[3] then return a[3] < b[3] end
        return a[1] < b[1]
      end)
      local group = {t}
      for j = 1, math.min(#near, seats - 1) do group[#group + 1] = near[j][1] end
      local full = #group == seats
      local fill = f.bots >= 0 and now - f.since >= f.bots
      if full or fill then
        made = made + 1
        local id = ids[made]
        for _, m in ipairs(group) do
          redis.call('ZREM', KEYS[1], m)
          redis.call('ZREM', KEYS[2], m)
          redis.call('HSET', prefix .. ':ticket:' .. m, 'status', 'matched', 'match', id)
          taken[m] = true
        end
        local bots = seats - #group
        redis.call('HSET', prefix .. ':match:' .. id, 'pool', pool, 'bots', bots,
                   'tickets', table.concat(group, ','), 'made', now)
        redis.call('EXPIRE', prefix .. ':match:' .. id, 3600)
        redis.call('ZADD', KEYS[4], now, id)
        out[#out + 1] = id
        out[#out + 1] = bots
        out[#out + 1] = #group
        for _, m in ipairs(group) do out[#out + 1] = m end
      end
    end
  end
end
if redis.call('ZCARD', KEYS[2]) == 0 then
  redis.call('SREM', KEYS[5], pool)
end
return out
"""


def with_prefix(script: str, prefix: str) -> str:
    """A script with the matcher's key prefix (``pd:{m}``) written in."""
    return script.replace("{prefix}", prefix)
