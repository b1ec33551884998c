"""What the tree evaluator does not understand in a data set: over every root entry of every army
catalogue, a roster of the catalogue's first force with that entry selected, evaluated; the
`unsupported` constructs counted by kind (ids and places left out).

    nice -n 10 python bench/battlescribe_unsupported.py PATH [--limit N]
"""
from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armylists.importers.battlescribe.plain import plain_document  # noqa: E402
from armylists.importers.battlescribe.sources import read_sources  # noqa: E402
from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select  # noqa: E402


def kind(text: str) -> str:
    text = re.sub(r"\([^)]*\)", "", text)
    return re.sub(r" in a modifier of .*", "", text).strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--limit", type=int, default=0, help="at most N catalogues")
    parser.add_argument("--all-forces", action="store_true",
                        help="every force entry shown, with its child forces added, the entry selected in "
                             "the force and again in its first child force")
    args = parser.parse_args()
    game = GameData([plain_document(d) for d in read_sources([args.path])])
    counts: collections.Counter = collections.Counter()
    failures: collections.Counter = collections.Counter()
    rosters = 0
    books = [c for c, d in game.catalogues.items() if not d.get("library")]
    for catalogue_id in books[:args.limit or None]:
        forces = [f for f in game.system.get("forces", []) + game.catalogues[catalogue_id].get("forces", [])
                  if not f.get("hidden")]
        if not forces:
            continue
        for force_entry in (forces if args.all_forces else forces[:1]):
            for option in game.root_options(catalogue_id):
                for in_child in ((False, True) if args.all_forces and force_entry.get("forces") else (False,)):
                    roster = Roster(game)
                    try:
                        force = add_force(roster, force_entry["id"], catalogue_id)
                        if args.all_forces:
                            for child in force_entry.get("forces", []):
                                add_force(roster, child["id"], catalogue_id, parent=force)
                        select(roster, force.forces[0] if in_child else force, option.entry_id)
                        result = evaluate(roster)
                    except Exception as exc:  # noqa: BLE001 - counted, the run goes on
                        failures[f"{type(exc).__name__}: {kind(str(exc))}"] += 1
                        continue
                    rosters += 1
                    for item in result.unsupported:
                        counts[kind(item)] += 1
    print(f"{len(books)} catalogues, {rosters} rosters evaluated, {sum(failures.values())} refused")
    for name, n in failures.most_common():
        print(f"  refused {n:5d}  {name}")
    for name, n in counts.most_common():
        print(f"  {n:5d}  {name}")
    print(f"unsupported in {sum(counts.values())} (roster, construct) pairs, {len(counts)} kinds")


if __name__ == "__main__":
    main()
