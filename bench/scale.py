"""Two app servers sharing PostgreSQL and Redis: no errors, no lost updates, shared counts, throughput.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/scale.py [--seconds 10] [--workers 1]

What CI's `scale` stage runs (.ci/run). Starts two gunicorn instances (the repository's gunicorn.conf.py)
on two loopback ports against the same database and Redis, then checks, and exits 1 if one fails:
1. start-up: the first instance builds the compiled rules and stores them in the books cache (Redis);
   the second reads them from there (both times printed);
2. a mixed load (pages, API reads, validation, /healthz) spread over both: every answer a 2xx;
3. no lost updates: clients on both instances edit the same list at once through the API, each edit
   read-modify-write with If-Match; a stale edit gets 412 and is redone. At the end the list's
   revision is 1 + the number of accepted edits and its notes hold every accepted edit's mark once;
4. one shared count: /healthz counts its answers in the books cache, and the last answer's count is
   the number of /healthz requests this script made to both instances together;
5. one shared rate limit: with VALIDATE_RATE=30/minute on both, 40 validations spread over both get
   exactly 30 answers and 10 refusals (429), when CACHES["default"] is a shared cache (Redis); when it
   is each process's memory, the script says so and prints what it saw;
6. throughput (wrk, POST /api/v1/validate/): the same total connections against one instance, then
   spread over both, in interleaved rounds; prints requests per second and the ratio, two over one.
`--workers` is gunicorn workers per instance (default 1: on a 2-core machine each instance stands for
a one-core machine; with 2 workers one instance already uses both cores).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_load import wrk  # noqa: E402
from live_server import PYTHON, ROOT, free_port, manage  # noqa: E402

EXAMPLE = json.loads((ROOT / "docs" / "examples" / "empire-2400-legal.json").read_text())
FAILURES: list[str] = []
HEALTH_CALLS = 0
HEALTH_LOCK = threading.Lock()


def check(ok: bool, what: str) -> None:
    print(f"  {'ok' if ok else 'FAILED'}: {what}", flush=True)
    if not ok:
        FAILURES.append(what)


def call(url: str, method: str = "GET", body: dict | None = None, headers: dict | None = None) -> tuple[int, dict, dict]:
    """(status, headers, JSON body or {}) of one request; never raises for an HTTP status."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            raw, status, found = response.read(), response.status, dict(response.headers)
    except urllib.error.HTTPError as exc:
        raw, status, found = exc.read(), exc.code, dict(exc.headers)
    try:
        payload = json.loads(raw) if raw and found.get("Content-Type", "").startswith("application/json") else {}
    except ValueError:
        payload = {}
    return status, found, payload


def health(url: str) -> dict:
    global HEALTH_CALLS
    status, _, payload = call(f"{url}/healthz")
    with HEALTH_LOCK:
        HEALTH_CALLS += 1
    if status != 200:
        raise RuntimeError(f"{url}/healthz answered {status}")
    return payload


@contextmanager
def instance(env: dict, workers: int, name: str):
    """A gunicorn on a free loopback port; yields (url, seconds until its first /healthz answer)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    server = subprocess.Popen([PYTHON, "-m", "gunicorn", "--log-level", "warning"], cwd=ROOT,
                              env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(workers)})
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                health(url)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"{name} did not start") from None
                time.sleep(0.05)
        yield url, time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=30)


def start_pair(stack: ExitStack, env: dict, workers: int) -> list[str]:
    """Start instance A, then B (B finds the compiled rules in the books cache)."""
    urls = []
    for name in ("A", "B"):
        url, took = stack.enter_context(instance(env, workers, name))
        answer = health(url)
        print(f"  instance {name} at {url}: answered after {took:.2f} s (rules in memory: "
              f"{answer['rules_in_memory']}, caches: {answer['caches']})", flush=True)
        urls.append(url)
    return urls


# --- the checks --------------------------------------------------------------------------------------

def mixed_load(urls: list[str], token: str, list_id: int, requests: int) -> None:
    auth = {"Authorization": f"Token {token}"}
    kinds = [("GET", "/", None, {}), ("GET", f"/api/v1/lists/{list_id}/", None, auth),
             ("POST", "/api/v1/validate/", EXAMPLE, {}), ("GET", "/healthz", None, {}),
             ("GET", "/api/v1/systems/", None, {})]

    def one(i: int) -> tuple[str, int]:
        method, path, body, headers = kinds[i % len(kinds)]
        url = urls[i % len(urls)]
        if path == "/healthz":
            try:
                health(url)
                return url, 200
            except RuntimeError:
                return url, 500
        return url, call(url + path, method, body, headers)[0]

    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(one, range(requests)))
    bad = [(u, s) for u, s in answers if not 200 <= s < 300]
    per = {u: sum(1 for a, _ in answers if a == u) for u in urls}
    check(not bad, f"mixed load: {len(answers)} requests ({', '.join(f'{n} to {u}' for u, n in per.items())}), "
                   f"{len(bad)} not 2xx {bad[:5]}")


def concurrent_edits(urls: list[str], token: str, list_id: int, clients: int, edits: int) -> None:
    auth = {"Authorization": f"Token {token}"}
    stale = [0] * clients

    def client(c: int) -> list[str]:
        url = f"{urls[c % len(urls)]}/api/v1/lists/{list_id}/"
        marks = []
        for e in range(edits):
            mark = f"[c{c}e{e}]"
            while True:
                status, headers, body = call(url, headers=auth)
                assert status == 200, status
                document = body["document"]
                document["notes"] = document.get("notes", "") + mark
                status, _, _ = call(url, "PUT", {"document": document}, {**auth, "If-Match": headers["ETag"]})
                if status == 200:
                    marks.append(mark)
                    break
                assert status == 412, f"PUT answered {status}"
                stale[c] += 1
        return marks

    with ThreadPoolExecutor(clients) as pool:
        accepted = [m for marks in pool.map(client, range(clients)) for m in marks]
    status, headers, final = call(f"{urls[0]}/api/v1/lists/{list_id}/", headers=auth)
    notes = final["document"].get("notes", "")
    missing = [m for m in accepted if notes.count(m) != 1]
    check(final["revision"] == 1 + len(accepted) == 1 + clients * edits and not missing,
          f"no lost update: {clients} clients on {len(urls)} instances, {len(accepted)} edits accepted, "
          f"{sum(stale)} stale edits refused (412) and redone; revision {final['revision']}, "
          f"every accepted edit's mark in the notes once ({len(missing)} missing)")


def shared_count(urls: list[str]) -> None:
    last = health(urls[1])["answered_by_all"]
    check(last == HEALTH_CALLS, f"one count in the shared books cache: /healthz says {last} answers by all "
                                f"instances; this script asked {HEALTH_CALLS} times, over both instances")


def shared_rate_limit(urls: list[str], limit: int) -> None:
    statuses = [call(f"{urls[i % 2]}/api/v1/validate/", "POST", EXAMPLE)[0] for i in range(limit + 10)]
    ok, refused = statuses.count(200), statuses.count(429)
    default_cache = health(urls[0])["caches"]["default"]
    seen = f"{limit + 10} validations over both instances at {limit}/minute: {ok} answered, {refused} refused (429)"
    if "Redis" in default_cache:
        check((ok, refused) == (limit, 10), f"one shared rate limit: {seen}")
    else:
        print(f"  not checked: the rate limit is not shared on this branch, CACHES['default'] is "
              f"{default_cache} (each process counts alone; a shared default cache is issue 15's). {seen}")


def throughput(urls: list[str], seconds: int, connections: int, rounds: int) -> None:
    script = (f'wrk.method = "POST"\nwrk.body = {json.dumps(json.dumps(EXAMPLE))}\n'
              'wrk.headers["Content-Type"] = "application/json"\n')
    figures: dict[str, list[float]] = {"one": [], "two": []}
    errors = 0
    for _ in range(rounds):
        for name, targets in (("one", [urls[0], urls[0]]), ("two", urls)):
            with ThreadPoolExecutor(2) as pool:  # two wrk processes at once, half the connections each
                results = list(pool.map(lambda u: wrk(f"{u}/api/v1/validate/", seconds, connections // 2, script),
                                        targets))
            figures[name].append(sum(r["requests"] / r["seconds"] for r in results))
            errors += int(sum(r["non2xx"] + r["socket_errors"] for r in results))
    one, two = statistics.median(figures["one"]), statistics.median(figures["two"])
    print(f"  throughput, POST /api/v1/validate/, {connections} connections, {seconds} s x {rounds} rounds: "
          f"one instance {one:,.0f} requests/s {[round(f) for f in figures['one']]}, "
          f"two instances {two:,.0f} requests/s {[round(f) for f in figures['two']]}")
    print(f"ratio two_vs_one_instance {two / one:.2f}")
    check(errors == 0, f"throughput runs: {errors} errors (non-2xx or socket)")
    check(two > one, "two instances answer more requests per second than one")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10, help="per wrk run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers per instance")
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    database, redis = os.getenv("DATABASE_URL", ""), os.getenv("REDIS_URL", "")
    if not database.startswith("postgres") or not redis.startswith("redis"):
        print("needs DATABASE_URL (PostgreSQL) and REDIS_URL: app servers share those, not a SQLite file",
              file=sys.stderr)
        return 2
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "scale-test-key", "ALLOWED_HOSTS": "127.0.0.1",
           "RATE_LIMITS": "false"}  # the load and the racing edits come from one address and one user
    print("setting up the shared database; emptying the books cache", flush=True)
    manage(env, "migrate", "--verbosity", "0")
    manage(env, "load_rules")
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")
    manage(env, "shell", "-c", "from django.core.cache import caches; caches['books'].clear()")
    token = manage(env, "shell", "-c", (
        "from django.contrib.auth.models import User; from armylists.accounts.tokens import create_token; "
        "u, _ = User.objects.get_or_create(username='scale'); u.set_password('scale-password-1'); u.save(); "
        "print(create_token(u, 'scale', None)[1])")).strip().splitlines()[-1]
    print(f"two instances, {args.workers} gunicorn worker(s) each, rate limit off", flush=True)
    with ExitStack() as stack:
        urls = start_pair(stack, env, args.workers)
        status, _, created = call(f"{urls[0]}/api/v1/lists/", "POST", {"document": {**EXAMPLE, "notes": ""}},
                                  {"Authorization": f"Token {token}"})
        if status != 201:
            print(f"could not create the list to edit: {status} {created}", file=sys.stderr)
            return 1
        mixed_load(urls, token, created["id"], 400)
        concurrent_edits(urls, token, created["id"], clients=8, edits=10)
        shared_count(urls)
        throughput(urls, args.seconds, args.connections, args.rounds)
    limit = 30
    print(f"two instances again, rate limit {limit}/minute", flush=True)
    with ExitStack() as stack:
        urls = start_pair(stack, {**env, "RATE_LIMITS": "true", "VALIDATE_RATE": f"{limit}/minute"}, args.workers)
        shared_rate_limit(urls, limit)
    print(f"scale: {'FAILED: ' + '; '.join(FAILURES) if FAILURES else 'every check passed'}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
