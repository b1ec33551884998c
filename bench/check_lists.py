"""Time an event's check of 1,000 lists: parse each document, check it at the event, build its Report's dict.

    python bench/check_lists.py [--runs N]

What `manage.py check_lists` (and any tournament check) does per list, without the file reading and the
table: `parse_roster_json` from bytes, the Book it pins, `check_list` with the event's Ruleset (its
limit, and two event rules of its system), and `report.to_dict()`. The 1,000 documents are built here
from the example lists of docs/examples (11 books in 3 systems, a legal and an illegal list of each):
each is an example with the sizes of its units changed, so that no two documents are alike (some
changes leave the legal range, so a share of the legal examples' variants is illegal too). As in
bench/validate.py, units without a size (characters, war machines) repeat from list to list, as the
same character does among an event's players. "Cold" forgets every book's priced units first
(`forget_resolved_units`), so every unit is priced on the run (a unit shared by several lists once);
"warm" checks the same 1,000 again, every unit already priced. Prints
figures only; docs/benchmarks.md records them.

    python bench/check_lists.py --trees --site DB.sqlite3 [--tree-lists 100] [--command-runs 3]

Roster trees (issue 37's target: `check_lists` over 100 tree lists at most 10 ms of CPU a list, start-up at most
1.5 s and 250 MB): `manage.py check_lists --jobs 1` on a site's database (DB: one with New Recruit's Old World
data imported, e.g. bench/real_site.py --keep DIR's DIR/real.sqlite3, which holds every shared data set) over
folders of the .ros examples of docs/examples/battlescribe/the-old-world-nr (a legal roster and one over its
points for each of six books, repeated): one list (the start-up: CPU, wall and peak memory), N lists of one
book, and N lists of six books; a list's CPU is (N lists' CPU - one list's) / (N - 1), which for six books
includes building the five books more.
"""
from __future__ import annotations

import argparse
import copy
from itertools import product
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armylists.rules import load_tree, parse_roster_json  # noqa: E402
from armylists.rules.native.army import forget_resolved_units  # noqa: E402
from armylists.rules.event_rules.ruleset import Ruleset, check_list, parse_event_rules  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
LISTS = 1000

# Two rules of each system's event, in the event-rules/1 format (docs/rule-types.md).
EVENT_RULES = {
    "t9a-0.11": """
rules:
  - {id: three-of-each, type: each_entry_max, params: {max: 3}}
  - {id: war-machines, type: count, params: {label: War Machines, select: {troop_type: war-machine}, max: 3}}
""",
    "the-old-world": """
rules:
  - {id: three-of-each, type: each_entry_max, params: {max: 3}}
  - {id: characters, type: count, params: {label: Characters, select: {category: characters}, max: 6}}
""",
    "mordheim": """
rules:
  - {id: five-of-each, type: each_entry_max, params: {max: 5}}
  - {id: heroes, type: count, params: {label: Heroes, select: {category: heroes}, max: 6}}
""",
}


def size_changes(sizes: list[int], count: int) -> list[tuple[int, ...]]:
    """`count` different changes to the unit sizes `sizes`, the smallest first (no size under 1)."""
    reach = 1
    while True:
        changes = [d for d in product(range(-reach, reach + 1), repeat=len(sizes))
                   if all(size + delta >= 1 for size, delta in zip(sizes, d))]
        if len(changes) >= count:
            return sorted(changes, key=lambda d: (sum(map(abs, d)), d))[:count]
        reach += 1


def documents(lists: int = LISTS, pattern: str = "*.json") -> list[bytes]:
    """`lists` distinct list documents: document n is example n % 22 with the sizes of its sized units
    changed by its own small change (one model more or fewer in one unit, then in two, ...), so no two
    documents are alike; some changes take a legal list over or under the limit or out of a unit's
    size range."""
    examples = [json.loads(p.read_text()) for p in sorted(EXAMPLES.glob(pattern))]
    per_example = -(-lists // len(examples))
    changes = [size_changes([u["size"] for u in e["units"] if "size" in u], per_example) for e in examples]
    docs = []
    for n in range(lists):
        doc = copy.deepcopy(examples[n % len(examples)])
        sized = [u for u in doc["units"] if "size" in u]
        for unit, delta in zip(sized, changes[n % len(examples)][n // len(examples)]):
            unit["size"] += delta
        doc["name"] = f"{doc.get('name', '')} #{n}"
        docs.append(json.dumps(doc).encode())
    return docs


def command(lists: int, jobs: int) -> tuple[float, float, float, str]:
    """`manage.py check_lists` on a folder of `lists` files of The 9th Age (variants of the four Empire
    and Ogre Khans examples) at 2400 pts with the system's two event rules, in its own process:
    (wall seconds, CPU seconds of it and its workers, the main process's peak memory in MB, its summary line)."""
    with tempfile.TemporaryDirectory(prefix="check-lists-") as tmp:
        folder = Path(tmp) / "lists"
        folder.mkdir()
        for n, doc in enumerate(documents(lists, "*-2400-*.json")):
            (folder / f"list-{n:05d}.json").write_bytes(doc)
        rules = Path(tmp) / "event.yaml"
        rules.write_text(EVENT_RULES["t9a-0.11"])
        # As a user's installation runs it: with the bytecode cache (a first run writes it).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", sys.executable, "manage.py", "check_lists", str(folder),
                               "--system", "t9a-0.11", "--points", "2400", "--event-rules", str(rules),
                               "--jobs", str(jobs)], cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
    peak_kb, user, system = done.stderr.strip().splitlines()[-1].split()
    return wall, float(user) + float(system), int(peak_kb) / 1024, done.stdout.strip().splitlines()[-1]


TREE_EXAMPLES = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr"


def tree_command(site: Path, rosters: list[Path]) -> tuple[float, float, float, str]:
    """`manage.py check_lists --jobs 1` of `rosters` (copied into a folder) on the SQLite database `site`:
    (wall seconds, CPU seconds, peak memory in MB, its summary line)."""
    with tempfile.TemporaryDirectory(prefix="check-trees-") as tmp:
        folder = Path(tmp) / "lists"
        folder.mkdir()
        for n, path in enumerate(rosters):
            (folder / f"list-{n:05d}.ros").write_bytes(path.read_bytes())
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
               "DATABASE_URL": f"sqlite:///{site}", "DEBUG": "false", "SECRET_KEY": "bench-check-trees"}
        start = time.perf_counter()
        done = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", sys.executable, "manage.py", "check_lists", str(folder),
                               "--system", "bs-warhammer-the-old-world", "--points", "2000", "--jobs", "1"],
                              cwd=ROOT, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"check_lists failed ({done.returncode}): {done.stdout[-2000:]}{done.stderr[-2000:]}")
    peak_kb, user, system = done.stderr.strip().splitlines()[-1].split()
    return wall, float(user) + float(system), int(peak_kb) / 1024, done.stdout.strip().splitlines()[-1]


def trees(site: Path, lists: int, runs: int) -> None:
    """The roster trees' figures (see the module's doc), medians of `runs`."""
    examples = sorted(p for p in TREE_EXAMPLES.glob("*.ros") if p.stem.endswith(("-legal", "-illegal-points")))
    one_book = [p for p in examples if p.name.startswith("empire-of-man-")]
    cases = (("one list (start-up)", examples[:1]),
             (f"{lists} lists of one book", [one_book[n % len(one_book)] for n in range(lists)]),
             (f"{lists} lists of {len(examples) // 2} books", [examples[n % len(examples)] for n in range(lists)]))
    start_cpu = None
    for name, rosters in cases:
        wall, cpu, peak, summary = sorted(tree_command(site, rosters) for _ in range(runs))[runs // 2]
        if start_cpu is None:
            start_cpu = cpu
            extra = ""
        else:
            extra = f"; {(cpu - start_cpu) / (len(rosters) - 1) * 1000:.1f} ms CPU a list past the first"
        print(f"check_lists of roster trees, {name}: median {wall:.2f} s wall of {runs}, {cpu:.2f} s CPU, "
              f"peak {peak:.0f} MB{extra}; {summary}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trees", action="store_true", help="roster trees on --site (see the module's doc)")
    parser.add_argument("--site", type=Path, default=None, help="--trees: the SQLite database of a site")
    parser.add_argument("--tree-lists", type=int, default=100)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--command-lists", type=int, default=10_000,
                        help="files for the end-to-end run of manage.py check_lists (0: skip it)")
    parser.add_argument("--command-runs", type=int, default=3)
    args = parser.parse_args()
    if args.trees:
        if args.site is None or not args.site.is_file():
            parser.error("--trees needs --site DB.sqlite3, a site with New Recruit's Old World data imported")
        return trees(args.site.resolve(), args.tree_lists, args.command_runs)
    if args.command_lists:
        for lists, jobs in ((1000, 0), (args.command_lists, 1), (args.command_lists, 0)):
            runs = sorted(command(lists, jobs) for _ in range(args.command_runs))
            wall, cpu, peak, summary = runs[len(runs) // 2]
            print(f"manage.py check_lists, {lists:,} files, {'every core' if not jobs else f'{jobs} process'}: "
                  f"median {wall:.2f} s wall of {len(runs)} ({lists / wall:,.0f} lists/s), {cpu:.2f} s CPU, "
                  f"main process peak {peak:.0f} MB; {summary}")
        if args.runs == 0:
            return

    library = load_tree(ROOT / "rules_data")
    docs = documents()
    first = [json.loads(d) for d in docs]
    rulesets = {}
    for system_id, text in EVENT_RULES.items():
        limit = next(d["points_limit"] for d in first if d["system"] == system_id)
        books = [b for (s, _, _), b in library.books.items() if s == system_id]
        event = parse_event_rules(text, f"bench {system_id}", library.systems[system_id], books)
        rulesets[system_id] = Ruleset(system=system_id, points_limit=limit, event=event)
    books = {(d["system"], d["book"], d["book_version"]) for d in first}

    def check_all() -> list[dict]:
        out = []
        for data in docs:
            roster = parse_roster_json(data)
            book = library.book(roster.system, roster.book, roster.book_version)
            out.append(check_list(rulesets[roster.system], book, roster).to_dict())
        return out

    reports = check_all()
    distinct = len({json.dumps({**d, "name": ""}, sort_keys=True) for d in first})
    illegal = sum(not r["valid"] for r in reports)

    cold, warm = [], []
    for _ in range(args.runs):
        for key in books:
            forget_resolved_units(library.book(*key))
        start = time.perf_counter()
        check_all()
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        check_all()
        warm.append(time.perf_counter() - start)

    print(f"{len(docs)} lists ({distinct} distinct) of {len(books)} books in {len(rulesets)} systems: "
          f"{len(docs) - illegal} legal, {illegal} illegal; 2 event rules per system")
    for name, times in (("cold (every book's priced units forgotten)", cold), ("warm (the same lists again)", warm)):
        median = statistics.median(times)
        print(f"check 1,000 lists, {name}: median {median:.3f} s of {args.runs} runs "
              f"(min {min(times):.3f} s, max {max(times):.3f} s), {len(docs) / median:,.0f} lists/s")


if __name__ == "__main__":
    main()
