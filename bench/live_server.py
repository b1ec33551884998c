"""Run the app under gunicorn on loopback with a fresh database, for contract and load tests.

    python bench/live_server.py -- schemathesis run {url}/api/schema/ -H "Authorization: Token {token}"

Makes a temporary SQLite database (or uses DATABASE_URL), migrates it, loads the rules, creates a
user with an API token, starts gunicorn on a free port of 127.0.0.1, runs the command given after
`--` with {url} and {token} filled in, then stops gunicorn and returns the command's exit status.
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def manage(env: dict, *args: str) -> str:
    return subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True).stdout


@contextmanager
def live_server(workers: int = 2, threads: int = 1):
    """Yield (url, token) of a running server; stop it afterwards."""
    with tempfile.TemporaryDirectory(prefix="armylists-live-") as tmp:
        env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "live-server-test-key",
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "VALIDATE_RATE": os.getenv("VALIDATE_RATE", "off"),
               "RATE_LIMITS": os.getenv("RATE_LIMITS", "off")}
        env.setdefault("DATABASE_URL", f"sqlite:///{tmp}/live.sqlite3")
        manage(env, "migrate", "--verbosity", "0")
        manage(env, "load_rules")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        token = manage(env, "shell", "-c", (
            "from django.contrib.auth.models import User; from armylists.accounts.tokens import create_token; "
            "u, _ = User.objects.get_or_create(username='live'); u.set_password('live-password-1'); u.save(); "
            "print(create_token(u, 'live server', None)[1])")).strip().splitlines()[-1]
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [PYTHON, "-m", "gunicorn", "armylists.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(workers), "--threads", str(threads), "--log-level", "warning"],
            cwd=ROOT, env=env)
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{url}/api/v1/systems/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                raise RuntimeError("gunicorn did not start")
            yield url, token
        finally:
            server.terminate()
            server.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = [c for c in args.command if c != "--"]
    with live_server(args.workers) as (url, token):
        print(f"serving {url}", flush=True)
        if not command:
            return 0
        filled = [c.replace("{url}", url).replace("{token}", token) for c in command]
        print("+ " + " ".join(filled), flush=True)
        return subprocess.run(filled, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
