"""The test suite's time on SQLite, the code at a base commit against the code at HEAD, in the same run.

    python bench/test_suite.py --base cc30b35 [--head HEAD] [--keep]

Both commits are cloned beside this repository (so `../shared` is beside each, as it is beside the
checkout) and run with this checkout's virtual environment at the same time, one process each on the
machine's two cores: whatever else the machine does weighs on both alike. Prints, for each, the wall time
and the CPU time of pytest and everything it started, the tests' outcome line, then the ratio head/base.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def clone(ref: str, where: Path) -> str:
    if where.exists():
        shutil.rmtree(where)
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(where)], check=True)
    subprocess.run(["git", "-C", str(where), "checkout", "--quiet", ref], check=True)
    return subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the commit before the change")
    parser.add_argument("--head", default="HEAD")
    parser.add_argument("--keep", action="store_true", help="keep the two clones")
    args = parser.parse_args()
    python = ROOT / ".venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    runs = {}
    for label, ref in (("base", args.base), ("head", args.head)):
        where = ROOT.parent / f".bench-suite-{label}"
        sha = clone(subprocess.run(["git", "rev-parse", ref], cwd=ROOT, check=True, capture_output=True,
                                   text=True).stdout.strip(), where)
        log = open(where / "pytest.log", "w")
        process = subprocess.Popen([str(python), "-m", "pytest", "-p", "no:cacheprovider"], cwd=where, env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
        runs[process.pid] = {"label": label, "sha": sha, "where": where, "start": time.monotonic(), "log": log}
    while any("wall" not in r for r in runs.values()):
        pid, status, usage = os.wait4(-1, 0)
        if pid in runs:
            run = runs[pid]
            run["wall"] = time.monotonic() - run["start"]
            run["cpu"] = usage.ru_utime + usage.ru_stime
            run["status"] = os.waitstatus_to_exitcode(status)
            run["log"].close()
    by_label = {r["label"]: r for r in runs.values()}
    for label in ("base", "head"):
        r = by_label[label]
        lines = (r["where"] / "pytest.log").read_text().strip().splitlines()
        print(f"{label} {r['sha']}: wall {r['wall']:.0f} s, CPU {r['cpu']:.0f} s, exit {r['status']}: {lines[-1]}")
    base, head = by_label["base"], by_label["head"]
    print(f"head/base: wall {head['wall'] / base['wall']:.2f}, CPU {head['cpu'] / base['cpu']:.2f}")
    if not args.keep:
        for r in runs.values():
            shutil.rmtree(r["where"])
    sys.exit(max(r["status"] for r in runs.values()))


if __name__ == "__main__":
    main()
