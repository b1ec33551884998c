"""Time `manage.py import_battlescribe` as a user runs it: wall time, CPU time and peak memory (RSS).

    python bench/import_battlescribe_command.py [--rounds 5] [--code NAME=DIR ...]

Each import is its own process, into a fresh migrated SQLite database, in interleaved rounds (floor,
the Old World, the 2nd edition, the floor again...), so every figure sees the same machine:
- New Recruit's Old World data (../shared/external/battlescribe/the-old-world-nr: 47 files, 21 MB of XML);
- The 9th Age 2nd edition (../shared/external/battlescribe/the-9th-age-2nd: 24 files, 5 MB);
- the floor: a process that sets Django up and parses every file of the Old World data with defusedxml
  (what any import of it must do), storing nothing.
`--code NAME=DIR` runs the command of another checkout (an unpacked `git archive` of an older commit, say)
in the same rounds, so before and after are measured side by side; the default is this checkout alone.
Prints the medians of each (wall, CPU = user + system of the child, peak RSS from wait4), the ratio
of each import's wall time to the floor's, and whether each target is met (median wall time and peak
RSS under it); docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTERNAL = ROOT.parent / "shared" / "external" / "battlescribe"
SETS = {"the-old-world-nr": EXTERNAL / "the-old-world-nr", "the-9th-age-2nd": EXTERNAL / "the-9th-age-2nd"}
TARGETS = {"the-old-world-nr": (10.0, 300), "the-9th-age-2nd": (5.0, None)}  # seconds, MB (issue 21, item 5)


def floor(folder: str) -> None:
    """The floor's child: Django set up, every file parsed with defusedxml, nothing kept or stored."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armylists.settings")
    import django

    django.setup()
    from defusedxml.ElementTree import fromstring

    for path in sorted(Path(folder).glob("*.[cg]*")):
        fromstring(path.read_bytes(), forbid_dtd=True, forbid_entities=True, forbid_external=True)


def run(args: list[str], cwd: Path, env: dict) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one child process, which must succeed."""
    start = time.perf_counter()
    child = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({child.returncode}): {child.stderr.read().decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--code", action="append", default=[], help="NAME=DIR: another checkout's command too")
    parser.add_argument("--floor", help=argparse.SUPPRESS)  # the floor's child process
    args = parser.parse_args()
    if args.floor:
        return floor(args.floor)
    for folder in SETS.values():
        if not folder.is_dir():
            sys.exit(f"{folder} is not here")
    codes = {"this": ROOT} if not args.code else {n: Path(d).resolve() for n, d in (c.split("=", 1) for c in args.code)}
    work = Path(tempfile.mkdtemp(prefix="armylists-bench-import-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(SECRET_KEY="bench-import-not-secret", DEBUG="false", DJANGO_SETTINGS_MODULE="armylists.settings")
    try:
        empty = work / "empty.sqlite3"
        run([sys.executable, "manage.py", "migrate", "-v0"], ROOT, {**env, "DATABASE_URL": f"sqlite:///{empty}"})
        jobs = {"floor (parse the Old World files)": ([sys.executable, str(Path(__file__).resolve()), "--floor",
                                                       str(SETS["the-old-world-nr"])], ROOT)}
        for name, code in codes.items():
            for data, folder in SETS.items():
                jobs[f"{name}: {data}"] = ([sys.executable, "manage.py", "import_battlescribe", str(folder), "-v0"], code)
        for cmd, cwd in jobs.values():  # one untimed run of each writes the bytecode caches
            shutil.copy(empty, work / "db.sqlite3")
            run(cmd, cwd, {**env, "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}"})
        figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in jobs}
        for _ in range(args.rounds):
            for name, (cmd, cwd) in jobs.items():
                shutil.copy(empty, work / "db.sqlite3")  # a fresh database: everything is stored anew
                figures[name].append(run(cmd, cwd, {**env, "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}"}))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floor_wall = statistics.median(w for w, _, _ in next(iter(figures.values())))
    print(f"{args.rounds} interleaved rounds, medians; load average {os.getloadavg()[0]:.1f} at the end")
    for name, runs in figures.items():
        wall, cpu, rss = (statistics.median(r[i] for r in runs) for i in range(3))
        target = next((t for d, t in TARGETS.items() if name.endswith(d)), None)
        said = ""
        if target:  # met: the median wall time under the target's seconds, and the peak RSS under its MB
            missed = [w for w, bad in (("wall", wall >= target[0]), ("memory", target[1] and rss >= target[1])) if bad]
            said = (f"; target {target[0]:g} s" + (f", {target[1]} MB" if target[1] else "")
                    + (f": not met ({', '.join(missed)})" if missed else ": met"))
        print(f"{name}: wall {wall:.2f} s (from {min(r[0] for r in runs):.2f} to {max(r[0] for r in runs):.2f}), "
              f"CPU {cpu:.2f} s, peak RSS {rss:.0f} MB, ratio to the floor {wall / floor_wall:.2f}{said}")


if __name__ == "__main__":
    main()
