"""Time the one-shot commands a user runs: `manage.py validate_list` on one list, and `manage.py check`.

    python bench/commands.py [--runs 7]

Each command in its own process, in turns (validate_list, check, validate_list, ...), as a user's
installation runs them: with Python's bytecode cache (PYTHONDONTWRITEBYTECODE is dropped from the
environment, and one untimed run of each writes the cache first). Prints the median wall time and the
median CPU time (user + system of the child) of each; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "validate_list, one list": ["validate_list", "docs/examples/ogre-khans-2400-legal.json"],
    "check (Django's system checks)": ["check"],
}


def timed(args: list[str], env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for command in COMMANDS.values():
        timed(command, env)  # writes the bytecode cache
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs):
        for name, command in COMMANDS.items():
            times[name].append(timed(command, env))
    for name, runs in times.items():
        print(f"{name}: median {statistics.median(w for w, _ in runs):.2f} s wall, "
              f"{statistics.median(c for _, c in runs):.2f} s CPU ({args.runs} runs; "
              f"wall from {min(w for w, _ in runs):.2f} to {max(w for w, _ in runs):.2f} s)")


if __name__ == "__main__":
    main()
