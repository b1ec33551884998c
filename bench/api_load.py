"""Load test of the API: gunicorn on loopback, wrk driving it with 32 connections.

    python bench/api_load.py [--seconds 60] [--connections 32] [--workers 4]

Two runs: POST /api/v1/validate/ with the legal Empire example (stateless validation), and GET of a
saved list with a token. Prints requests per second, median and 95th percentile latency, and the
error count (non-2xx answers and socket errors). Needs wrk (Debian package `wrk`).
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import ROOT, live_server  # noqa: E402

REPORT_LUA = """
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT requests=%d seconds=%.3f p50_us=%d p95_us=%d non2xx=%d socket_errors=%d\\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(95),
    summary.errors.status, errors))
end
"""


def wrk(url: str, seconds: int, connections: int, script: str) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(script + REPORT_LUA)
    out = subprocess.run(["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "10s",
                          "-s", f.name, url], capture_output=True, text=True, check=True).stdout
    found = re.search(r"RESULT (.*)", out)
    if not found:
        raise RuntimeError(out)
    values = dict(part.split("=") for part in found.group(1).split())
    return {k: float(v) for k, v in values.items()}


def show(name: str, r: dict) -> None:
    rps = r["requests"] / r["seconds"]
    print(f"{name}: {rps:,.0f} requests/s, median {r['p50_us'] / 1000:.1f} ms, p95 {r['p95_us'] / 1000:.1f} ms, "
          f"errors {int(r['non2xx'] + r['socket_errors'])} ({int(r['requests'])} requests in {r['seconds']:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2)  # one per core: more only adds switching
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed (Debian: apt-get install wrk)")
    document = (ROOT / "docs" / "examples" / "empire-2400-legal.json").read_text()
    with live_server(workers=args.workers) as (url, token):
        request = urllib.request.Request(f"{url}/api/v1/lists/", method="POST",
                                         data=json.dumps({"document": json.loads(document)}).encode(),
                                         headers={"Content-Type": "application/json", "Authorization": f"Token {token}"})
        list_id = json.load(urllib.request.urlopen(request))["id"]
        print(f"gunicorn: {args.workers} workers on 127.0.0.1; wrk: {args.connections} connections, {args.seconds} s each")
        body = json.dumps(json.loads(document))
        validate = wrk(f"{url}/api/v1/validate/", args.seconds, args.connections,
                       f'wrk.method = "POST"\nwrk.body = {json.dumps(body)}\n'
                       'wrk.headers["Content-Type"] = "application/json"\n')
        show("POST /api/v1/validate/ (the 15-unit legal Empire list)", validate)
        read = wrk(f"{url}/api/v1/lists/{list_id}/", args.seconds, args.connections,
                   f'wrk.headers["Authorization"] = "Token {token}"\n')
        show(f"GET /api/v1/lists/{list_id}/ (token)", read)


if __name__ == "__main__":
    main()
