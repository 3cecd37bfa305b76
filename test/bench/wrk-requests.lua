-- wrk script for `pnpm bench cold`: cycles through a file of requests, one a
-- line, `METHOD<TAB>PATH` or `METHOD<TAB>PATH<TAB>BODY` (a POST's JSON body),
-- from a random line on, so every run meets different requests. Headers given
-- to wrk with -H go on every request. wrk never decodes a body it receives.
-- At the end it writes its figures as one JSON line after `wrk-figures `.
local requests = {}

function init(args)
  local file = os.getenv("WRK_REQUESTS")
  if not file then error("WRK_REQUESTS must name the file of requests") end
  for line in io.lines(file) do
    local method, path, body = line:match("^(%u+)\t([^\t]+)\t?(.*)$")
    if not method then error("bad request line: " .. line) end
    local headers = {}
    for name, value in pairs(wrk.headers) do headers[name] = value end
    if body == "" then
      body = nil
    else
      headers["Content-Type"] = "application/json"
    end
    requests[#requests + 1] = wrk.format(method, path, headers, body)
  end
  if #requests == 0 then error("no requests in " .. file) end
  math.randomseed(os.time())
  position = math.random(#requests)
end

function request()
  position = position % #requests + 1
  return requests[position]
end

function done(summary, latency, _requests)
  local errors = summary.errors
  io.write(string.format(
    'wrk-figures {"requests":%d,"durationMicros":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,"timeouts":%d,"non2xx":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d,"mean":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, errors.connect, errors.read, errors.write, errors.timeout, errors.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9), latency.max, latency.mean))
end
