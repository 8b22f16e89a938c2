-- wrk script for bench/bench_http.py: 50 players (one per wrk thread, one connection each),
-- each playing its own attempts with a simple strategy: draw (or resign when the stock is out),
-- then discard a random card from hand, after a random think time (uniform 0 … 2 × think ms).
-- seq comes from each response (API.md), so no move is stale. The file's lines are
-- "id token seq move",
-- the first move computed by the benchmark from each attempt's creation response. Script
-- arguments: <attempts file> <think ms> <wrk threads>.

local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  nthreads = tonumber(args[3])
  think = tonumber(args[2]) or 0
  attempts = {}
  local i = 0
  for line in io.lines(args[1]) do
    if i % nthreads == tid then
      local id, token, seq, move = line:match("^(%S+) (%S+) (%d+) (.+)$")
      table.insert(attempts, {id = id, token = token, seq = tonumber(seq), move = move})
    end
    i = i + 1
  end
  current = 1
  finished_games = 0
  failures = 0
  spent = 0
  math.randomseed(1000 + tid)
end

local function json_headers(a)
  return {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. a.token}
end

function request()
  local a = attempts[current]
  if a == nil then
    -- out of attempts: read the last one (counted apart: the benchmark reports it as a failure)
    spent = spent + 1
    a = attempts[#attempts]
    return wrk.format("GET", "/api/attempts/" .. a.id, json_headers(a))
  end
  local body = string.format('{"move":"%s","seq":%d}', a.move, a.seq)
  return wrk.format("POST", "/api/attempts/" .. a.id .. "/moves", json_headers(a), body)
end

function delay()
  -- wrk delays a connection's first request too; a new connection that sends nothing holds a
  -- gunicorn gthread thread for up to 5 s (its wait for a first request), so the players would
  -- measure gunicorn's start-up stall rather than their moves: no pause before the first move.
  if think <= 0 or first_request_sent == nil then
    first_request_sent = true
    return 0
  end
  return math.random(0, 2 * think)
end

local function next_move(body)
  local phase = body:match('"phase":"(%a+)"')
  if phase == "draw" then
    if body:match('"can_draw":true') then
      return "draw"
    end
    return "resign"
  end
  local hand = body:match('"hand":%[(.-)%]')
  local cards = {}
  for card in hand:gmatch('"([^"]+)"') do
    table.insert(cards, card)
  end
  return "discard " .. cards[math.random(1, #cards)]
end

function response(status, headers, body)
  local a = attempts[current]
  if a == nil then
    return
  end
  if status ~= 200 then
    failures = failures + 1
    current = current + 1
    return
  end
  local state = body:match('"status":"(%a+)"')
  if state ~= "playing" then
    finished_games = finished_games + 1
    current = current + 1
    return
  end
  a.seq = tonumber(body:match('"seq":(%d+)'))
  a.move = next_move(body)
end

function done(summary, latency, requests)
  local games, failed, past = 0, 0, 0
  for _, thread in ipairs(threads) do
    games = games + thread:get("finished_games")
    failed = failed + thread:get("failures")
    past = past + thread:get("spent")
  end
  io.write(string.format("games finished: %d\nmove failures: %d\n", games, failed))
  io.write(string.format("reads past the last attempt: %d\n", past))
end
