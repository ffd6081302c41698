-- wrk script for a background load that keeps the server busy without saturating it (bench/lib/stats-lag.mjs):
-- wrk.lua's requests, each connection waiting pace=N milliseconds before each of them.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "wrk.lua")

local parseAll = init
function init(args)
  for _, arg in ipairs(args) do
    local value = arg:match("^pace=(%d+)$")
    if value then pace = tonumber(value) end
  end
  parseAll(args)
end

function delay()
  return pace
end
