-- wrk script for `Scripts/bench serve`: POSTs batches of op-log lines to many sessions of
-- `focal serve`, round-robin, so that every session is live at once and each session's
-- batches go out in order (a session's next batch is sent only after every other session
-- of the thread got one, long after its previous batch was answered).
--
--   wrk -tT -c64 -d20s -s Scripts/lib/serve-sessions.lua URL -- BATCHES_FILE SESSIONS T PREFIX [HEADER]
--
-- BATCHES_FILE holds one session's op log as batches separated by lines '---'; its last
-- batch ends with an 'end' op, so the session starts over with the first batch.
-- Sessions are named PREFIX-N and split between wrk's T threads (thread t owns sessions
-- t, t+T, t+2T, …). HEADER, 'Name: value', is sent with every request (e.g. an
-- 'Authorization: Bearer KEY').
--
-- With SERVE_CYCLES=N in the environment, a thread stops once N cycles of its sessions were
-- answered (every session sent every batch N times, so each ended N times), rather than at the
-- end of -d; the few requests already sent on its other connections then go unread. With
-- SERVE_CYCLES_DONE=DIR too, it then creates the file DIR/thread-T (wrk itself sleeps out -d:
-- whoever runs it interrupts it once every thread's file is there).

local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end

function init(args)
  bodies = {}
  local current = {}
  for line in io.lines(args[1]) do
    if line == "---" then
      table.insert(bodies, table.concat(current, "\n") .. "\n")
      current = {}
    else
      table.insert(current, line)
    end
  end
  if #current > 0 then table.insert(bodies, table.concat(current, "\n") .. "\n") end
  paths = {}
  for s = id, tonumber(args[2]) - 1, tonumber(args[3]) do
    table.insert(paths, "/v1/sessions/" .. args[4] .. "-" .. s .. "/ops")
  end
  cursor, batch = 1, 1
  local cycles = tonumber(os.getenv("SERVE_CYCLES") or "")
  answers_to_stop = cycles and cycles * #paths * #bodies
  answered = 0
  headers = { ["Content-Type"] = "application/x-ndjson" }
  if args[5] then
    local name, value = args[5]:match("^([^:]+):%s*(.*)$")
    headers[name] = value
  end
end

function request()
  local path, body = paths[cursor], bodies[batch]
  cursor = cursor + 1
  if cursor > #paths then
    cursor = 1
    batch = batch % #bodies + 1
  end
  return wrk.format("POST", path, headers, body)
end

-- Defined only with SERVE_CYCLES: wrk hands every answer to a script that has it.
if os.getenv("SERVE_CYCLES") then
  function response(status, headers, body)
    answered = answered + 1
    if answered == answers_to_stop then
      local done = os.getenv("SERVE_CYCLES_DONE")
      if done then io.open(done .. "/thread-" .. id, "w"):close() end
      wrk.thread:stop()
    end
  end
end
