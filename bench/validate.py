"""Time the engine on a large list: median of one validation, and a batch of 1,000 lists.

    python bench/validate.py [--repeat N]

The list is The 9th Age, Empire of Sonnstahl, 4500 pts (a Grand Army): 24 units with options,
mounts, command groups, magical items and Wizards. It is built here so the figure cannot drift with
the examples. Prints figures only; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
from dataclasses import replace
import json
import statistics
import sys
import time
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armylists.rules import load_tree, parse_roster, parse_roster_json, validate  # noqa: E402
from armylists.rules.native.army import forget_resolved_units  # noqa: E402

LARGE_LIST = {
    "format": "armylist/1", "name": "Bench: Grand Army", "system": "t9a-0.11", "book": "empire-of-sonnstahl",
    "book_version": "0.11.1", "points_limit": 4500,
    "units": [
        {"entry": "marshal", "general": True, "options": {"shield": 1}, "mount": "horse", "items": ["giant-sword", "talisman-of-greater-shielding"]},
        {"entry": "archwizard", "options": {"level-4": 1}, "path": "fire", "items": ["book-of-arcane-power"]},
        {"entry": "captain", "options": {"battle-standard-bearer": 1, "plate-armour": 1}, "items": ["rending-banner"]},
        {"entry": "wizard", "options": {"level-2": 1}, "path": "light", "items": ["dispel-scroll"]},
        {"entry": "wizard", "options": {"level-2": 1}, "path": "heavens", "items": ["binding-scroll"]},
        {"entry": "preacher", "options": {"great-weapon": 1}, "mount": "horse", "items": ["armour-of-fortune"]},
        {"entry": "heavy-infantry", "size": 40, "options": {"halberd": 1}, "command": ["champion", "musician", "standard"], "veteran_standard": True, "standard_items": ["banner-of-discipline"]},
        {"entry": "heavy-infantry", "size": 30, "options": {"spear": 1}, "command": ["champion", "musician", "standard"]},
        {"entry": "heavy-infantry", "size": 40, "options": {"spear": 1}, "command": ["musician", "standard"]},
        {"entry": "light-infantry", "size": 10, "options": {"handgun": 1}},
        {"entry": "light-infantry", "size": 10, "options": {"handgun": 1}},
        {"entry": "state-militia", "size": 20, "options": {"bow": 1}},
        {"entry": "electoral-cavalry", "size": 5, "options": {"lance": 1}, "command": ["musician"]},
        {"entry": "electoral-cavalry", "size": 5, "options": {"lance": 1}, "command": ["musician"]},
        {"entry": "knightly-orders", "size": 8, "command": ["champion", "musician", "standard"]},
        {"entry": "knightly-orders", "size": 6, "command": ["champion", "musician", "standard"]},
        {"entry": "imperial-guard", "size": 25, "options": {"great-weapon": 1}, "command": ["champion", "musician", "standard"]},
        {"entry": "flagellants", "size": 20, "command": ["champion"]},
        {"entry": "reiters", "size": 5, "options": {"brace-of-pistols": 1}, "command": ["musician"]},
        {"entry": "light-artillery", "options": {"rocket-battery": 1}},
        {"entry": "light-artillery", "options": {"mortar": 1}},
        {"entry": "heavy-artillery", "options": {"cannon": 1}},
        {"entry": "heavy-artillery", "options": {"volley-gun": 1}},
        {"entry": "steam-tank"},
        {"entry": "steam-tank"},
        {"entry": "knights-of-the-sun-griffon", "size": 5, "command": ["champion", "musician", "standard"]},
    ],
}


def per_call(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5000)
    args = parser.parse_args()

    start = time.perf_counter()
    library = load_tree(ROOT / "rules_data")
    load_ms = (time.perf_counter() - start) * 1000
    book = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    roster = parse_roster(LARGE_LIST)
    text = json.dumps(LARGE_LIST)
    report = validate(book, roster)

    for _ in range(200):  # warm up
        validate(book, roster)
    validate_times = per_call(lambda: validate(book, roster), args.repeat)

    def cold() -> None:
        forget_resolved_units(book)
        validate(book, roster)
    cold_times = per_call(cold, args.repeat)

    # The editor's case: one unit changed since the last check. The edited lists are built before the
    # clock starts, so the figure is the validation's alone (building them took a further 4 to 6 us).
    def edited(size: int):
        units = list(roster.units)
        units[6] = msgspec.structs.replace(units[6], size=size)
        return replace(roster, units=tuple(units))
    edits = iter([edited(20 + i % 40) for i in range(args.repeat)])
    edit_times = per_call(lambda: validate(book, next(edits)), args.repeat)
    edits = iter([edited(20 + i % 40) for i in range(args.repeat)])
    cpu_start = time.process_time()
    for _ in range(args.repeat):
        validate(book, next(edits))
    edit_cpu = (time.process_time() - cpu_start) / args.repeat
    parse_times = per_call(lambda: parse_roster_json(text), max(200, args.repeat // 10))

    # 1,000 different lists: every unit's size differs from list to list, so nothing is priced twice.
    rosters = [parse_roster({**LARGE_LIST, "units": [{**u, "size": u.get("size", 1) + i} if "size" in u else u
                                                     for u in LARGE_LIST["units"]]}) for i in range(1000)]

    def batch() -> None:
        forget_resolved_units(book)
        for r in rosters:
            validate(book, r)
    batches = per_call(batch, 5)

    print(f"list: {len(roster.units)} units, {report.total_points} pts of {report.points_limit}, "
          f"{report.figures['models']} models, {len(report.violations)} violations ({'legal' if report.valid else 'illegal'})")
    print(f"load every rules file (schema + references): {load_ms:.0f} ms")
    for name, times in (("validate one large list, again (units already priced)", validate_times),
                        ("validate it after one unit changed (the editor's case)", edit_times),
                        ("validate it cold (every unit priced anew)", cold_times)):
        print(f"{name}: median {statistics.median(times) * 1e6:.0f} us, "
              f"p95 {sorted(times)[int(len(times) * 0.95)] * 1e6:.0f} us over {args.repeat} runs")
    print(f"validate it after one unit changed, CPU time per check (mean of {args.repeat}): {edit_cpu * 1e6:.0f} us")
    print(f"parse its JSON document (schema-checked): median {statistics.median(parse_times) * 1e6:.0f} us")
    print(f"validate a batch of 1,000 lists: median {statistics.median(batches) * 1000:.1f} ms of 5 batches")


if __name__ == "__main__":
    main()
