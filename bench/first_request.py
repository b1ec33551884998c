"""First-request latency of a fresh gunicorn: the repository's gunicorn.conf.py (preload, warmed in the
master) against plain gunicorn (each worker loads the app itself and the rules on its first request).

    python bench/first_request.py [--rounds 5] [--workers 1]

One temporary SQLite database (migrated once); each round starts gunicorn twice on loopback, plain and
configured, alternately. Times, from the command start: when the port accepts a connection, then the
first POST /api/v1/validate/ (the legal Empire example) and a second one. Prints medians. With
REDIS_URL set, the configured server reads the compiled rules from Redis after the first round.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from live_server import PYTHON, ROOT, free_port, manage  # noqa: E402


def wait_for_port(port: int, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("gunicorn did not start")


def validate(url: str, body: bytes) -> float:
    start = time.perf_counter()
    request = urllib.request.Request(f"{url}/api/v1/validate/", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200 and json.load(response)["valid"] is True
    return time.perf_counter() - start


def one_start(env: dict, config: str, workers: int, body: bytes) -> dict[str, float]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    server = subprocess.Popen([PYTHON, "-m", "gunicorn", "-c", config, "--bind", f"127.0.0.1:{port}",
                               "--workers", str(workers), "--log-level", "warning", "armylists.wsgi:application"],
                              cwd=ROOT, env=env)
    try:
        wait_for_port(port, time.monotonic() + 60)
        listening = time.perf_counter() - start
        first = validate(url, body)
        second = validate(url, body)
        return {"listening": listening, "first": first, "answered": time.perf_counter() - start, "second": second}
    finally:
        server.terminate()
        server.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    body = (ROOT / "docs" / "examples" / "empire-2400-legal.json").read_bytes()
    with tempfile.TemporaryDirectory(prefix="armylists-first-") as tmp:
        env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "bench-key", "ALLOWED_HOSTS": "127.0.0.1",
               "VALIDATE_RATE": "off", "DATABASE_URL": os.getenv("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")}
        manage(env, "migrate", "--verbosity", "0")
        plain = Path(tmp) / "plain.conf.py"
        plain.write_text("# gunicorn's defaults: no preload, nothing warmed\n")
        configs = {"plain gunicorn": str(plain), "gunicorn.conf.py": str(ROOT / "gunicorn.conf.py")}
        results: dict[str, list[dict[str, float]]] = {name: [] for name in configs}
        for _ in range(args.rounds):
            for name, config in configs.items():
                results[name].append(one_start(env, config, args.workers, body))
    print(f"{args.rounds} rounds, {args.workers} worker(s), medians in seconds from the command's start "
          f"(books cache: {'Redis' if os.getenv('REDIS_URL') else 'local memory'})")
    for name, runs in results.items():
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(f"{name:>18}: listening {med['listening']:.2f}, first validate took {med['first'] * 1000:.0f} ms "
              f"(answered at {med['answered']:.2f}), second {med['second'] * 1000:.1f} ms")
    ratio = (statistics.median(r["first"] for r in results["plain gunicorn"])
             / statistics.median(r["first"] for r in results["gunicorn.conf.py"]))
    print(f"ratio first_request plain/configured {ratio:.0f}")


if __name__ == "__main__":
    main()
