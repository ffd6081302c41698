-- wrk script for `npm run bench` (driven by bench/lib/wrk.mjs): random aliases, uniform or Zipf (s = 1),
-- with browser headers, as bench/load.mjs sends them through autocannon. Arguments after `--` are
-- key=value: host, prefix + count + zipf=1 (aliases) or path, method, body ("[<id>]" made unique),
-- header (repeatable, "Name: value"), and the browser lists ua, lang, ref, ip (repeatable).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

-- A global of each thread, read back by done(): requests built, of which `requests` were answered.
sent = 0
local opts, blocks, cumulative, total, bodyHead, bodyTail

local function parse(args)
  local o = { method = "GET", header = {}, ua = {}, lang = {}, ref = {}, ip = {} }
  for _, arg in ipairs(args) do
    local key, value = arg:match("^(%w+)=(.*)$")
    if type(o[key]) == "table" then table.insert(o[key], value) elseif key then o[key] = value end
  end
  o.count, o.scramble = tonumber(o.count), tonumber(o.scramble)
  return o
end

-- Every combination of the browser lists, pre-rendered: picking one uniformly picks each header
-- uniformly and independently, and request() only concatenates.
local function renderBlocks()
  local fixed = "Host: " .. opts.host .. "\r\n"
  for _, h in ipairs(opts.header) do fixed = fixed .. h .. "\r\n" end
  blocks = {}
  for _, ua in ipairs(opts.ua) do
    for _, lang in ipairs(opts.lang) do
      for _, ref in ipairs(opts.ref) do
        for _, ip in ipairs(opts.ip) do
          local block = fixed .. "User-Agent: " .. ua .. "\r\nAccept-Language: " .. lang .. "\r\nX-Forwarded-For: " .. ip .. "\r\n"
          if ref ~= "" then block = block .. "Referer: " .. ref .. "\r\n" end
          table.insert(blocks, block)
        end
      end
    end
  end
end

function init(args)
  opts = parse(args)
  math.randomseed(os.time() * 64 + id)
  renderBlocks()
  if opts.zipf == "1" then
    cumulative, total = {}, 0
    for k = 1, opts.count do
      total = total + 1 / k
      cumulative[k] = total
    end
  end
  if opts.body then bodyHead, bodyTail = opts.body:match("^(.-)%[<id>%](.*)$") end
end

-- Same draw and rank-to-alias map as zipf() in bench/lib/browser.mjs.
local function zipfAlias()
  local u = math.random() * total
  local lo, hi = 1, opts.count
  while lo < hi do
    local mid = math.floor((lo + hi) / 2)
    if cumulative[mid] < u then lo = mid + 1 else hi = mid end
  end
  return ((lo - 1) * opts.scramble) % opts.count
end

function request()
  sent = sent + 1
  local path = opts.path
  if opts.prefix then
    path = "/" .. opts.prefix .. (cumulative and zipfAlias() or math.random(0, opts.count - 1))
  end
  local head = opts.method .. " " .. path .. " HTTP/1.1\r\n" .. blocks[math.random(#blocks)]
  if not opts.body then return head .. "\r\n" end
  local body = bodyHead and (bodyHead .. id .. "-" .. sent .. bodyTail) or opts.body
  return head .. "Content-Length: " .. #body .. "\r\n\r\n" .. body
end

function done(summary, latency)
  -- wrk builds one request in its first thread before the run, to check it, and never sends it.
  local unanswered = -summary.requests - 1
  for _, thread in ipairs(threads) do unanswered = unanswered + thread:get("sent") end
  local e = summary.errors
  io.write(string.format(
    '\n{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"status":%d,"socket":%d,"timeout":%d,"unanswered":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write, e.timeout, unanswered))
end
