"""What a site request on a roster-tree list costs (lists/trees/tree_lists.py): the list document placed into
the evaluator's roster (tree_roster: two passes) and judged (tree_report), and one add-unit action,
against the floor of one evaluation of the same roster already built; interleaved rounds, medians.

    nice -n 10 python bench/battlescribe_site_tree.py DATA_FOLDER ROSTER.ros [--rounds N] [--add ENTRY_ID]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armylists.importers.battlescribe import convert  # noqa: E402
from armylists.importers.battlescribe.roster_tree import read_tree  # noqa: E402
from armylists.importers.battlescribe.rosters import parse_roster_file  # noqa: E402
from armylists.importers.battlescribe.sources import read_sources  # noqa: E402
from armylists.rules.battlescribe import GameData, evaluate, select  # noqa: E402
from armylists.rules.battlescribe.document import document_tree, tree_report, tree_roster  # noqa: E402
from armylists.rules.battlescribe.packed import unpack  # noqa: E402
from armylists.rules.reading.roster import Roster  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("roster")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--add", default="", help="a root entry id to add in the action round")
    args = parser.parse_args()
    root = parse_roster_file(Path(args.roster).read_bytes(), args.roster)
    conversion = convert(read_sources([args.data]))
    catalogue = next(f.get("catalogueName") for f in root.iter() if f.tag.endswith("}force"))
    book = next(b["id"] for b in conversion.books if b["name"] == catalogue)
    game = GameData([unpack(p.packed) for p in conversion.game_data[book]])  # packed as the site stores them
    tree = read_tree(root, game, args.roster)
    forces, limit, others = document_tree(tree)
    document = Roster(system="s", book=book, book_version="v", points_limit=limit, forces=forces, cost_limits=others)
    selections = sum(1 for _ in tree.all_selections())
    floors, judged, actions = [], [], []
    for _ in range(args.rounds):
        built = tree_roster(game, document)
        start = time.perf_counter()
        evaluate(built)
        floors.append(time.perf_counter() - start)
        start = time.perf_counter()
        report = tree_report(tree_roster(game, document), "s", book, "v")
        judged.append(time.perf_counter() - start)
        if args.add:
            built = tree_roster(game, document)
            start = time.perf_counter()
            select(built, built.forces[0], args.add)
            document_tree(built)
            actions.append(time.perf_counter() - start)
    floor, full = statistics.median(floors), statistics.median(judged)
    print(f"{catalogue}: {selections} selections, {report.total_points} pts, {len(report.violations)} violations")
    print(f"placed and judged (a request) {full * 1000:.0f} ms; one evaluation (floor) {floor * 1000:.0f} ms; "
          f"ratio {full / floor:.2f}")
    if actions:
        print(f"add {args.add} (select, what it brings, the document back) {statistics.median(actions) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
