"""Time the BattleScribe import and the checking of a list of an imported book.

    python bench/import_battlescribe.py [--rounds 3] [--checks 2000]

1. Importing all 24 files of The 9th Age 2nd edition (../shared/external/battlescribe/the-9th-age-2nd):
   reading, converting and building every book with the engine's loader (median of the rounds), then the
   whole `manage.py import_battlescribe` into a fresh SQLite database (once).
2. Checking a list: the legal 2nd-edition example (docs/examples/battlescribe/, Ogre Khans, a roster tree of
   1920 of 1950 pts) as the site judges it (the tree evaluator and our system's rules through the bridge),
   and the native Ogre Khans example (docs/examples/ogre-khans-2400-legal.json, 2385 pts) against our
   hand-written book, in interleaved rounds; the median time of one check, cold (the tree built and
   evaluated again; every unit priced again) and warm (as the site keeps them between requests), and their ratio.
3. The same list twice: our Ogre Khans 0.11 example (2385 pts, 13 units) against our hand-written book,
   and the same list translated by name (tests/battlescribe/battlescribe_parity.py) and made its roster tree
   (lists/trees/unflatten.py) of the 2016 catalogue of the same army (../shared/external/battlescribe/the-9th-age-0.11/):
   the like-for-like ratio.
Prints figures only; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATA = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-2nd"
DATA_011 = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-0.11"

from bench.in_process import start_site  # noqa: E402

start_site("import-battlescribe")

from django.core.management import call_command  # noqa: E402

from armylists.lists.library.catalogue import get_book, validate_roster  # noqa: E402
from armylists.lists.trees import tree_lists  # noqa: E402
from armylists.lists.trees.unflatten import unflatten  # noqa: E402
from armylists.importers.battlescribe import check, convert, read_sources  # noqa: E402
from armylists.rules import load_tree, parse_roster, validate  # noqa: E402
from armylists.rules.native.army import forget_resolved_units  # noqa: E402


def seconds(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--checks", type=int, default=2000)
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} is not here")
    files = sorted(DATA.glob("*.[cg]*"))
    convert_times = [seconds(lambda: check(convert(read_sources([str(DATA)])))) for _ in range(args.rounds)]
    command = seconds(lambda: call_command("import_battlescribe", str(DATA), verbosity=0))
    print(f"import {len(files)} files of the-9th-age-2nd: read+convert+build median "
          f"{statistics.median(convert_times):.2f} s ({args.rounds} rounds); whole command into SQLite {command:.2f} s")

    imported_doc = json.loads((ROOT / "docs/examples/battlescribe/the-9th-age-2nd-legal.json").read_text())
    native_doc = json.loads((ROOT / "docs/examples/ogre-khans-2400-legal.json").read_text())
    imported_roster, native_roster = parse_roster(imported_doc), parse_roster(native_doc)
    imported_book = get_book(imported_roster.system, imported_roster.book, imported_roster.book_version)
    native_book = load_tree(ROOT / "rules_data").book(native_roster.system, native_roster.book,
                                                      native_roster.book_version)
    compare(imported_book, imported_roster, native_book, native_roster, args.checks)

    # Like for like: one army, one list, native and imported.
    from tests.battlescribe.battlescribe_parity import Translator
    call_command("import_battlescribe", *(str(DATA_011 / f) for f in ("Fantasy Battles The 9th Age.gst", "Ogre Khans.cat")),
                 verbosity=0)
    same_army = get_book("bs-fantasy-battles-the-9th-age", "bs-ogre-khans", "r12")
    aliases = {"Great Khan": "Great Kahn", "Khan": "Kahn", "throwing-weapons": "Throwing Weapon"}
    translated = unflatten(same_army, parse_roster(Translator(native_book, same_army, aliases).document(native_doc)))
    print("the same list, native and imported (The 9th Age 0.11 Ogre Khans):")
    compare(same_army, translated, native_book, native_roster, args.checks)


def judged(book, roster):
    """A list as the site judges it: a roster tree by its kind (lists/kinds.py), ours by the engine."""
    return validate_roster(book, roster) if roster.is_tree else validate(book, roster)


def compare(imported_book, imported_roster, native_book, native_roster, checks: int) -> None:
    assert judged(imported_book, imported_roster).valid and validate(native_book, native_roster).valid
    figures: dict[str, list[float]] = {k: [] for k in ("imported cold", "native cold", "imported warm", "native warm")}
    per_round = max(1, checks // 10)
    for _ in range(10):  # interleaved rounds, so both see the same machine
        for name, book, roster in (("imported", imported_book, imported_roster), ("native", native_book, native_roster)):
            def cold() -> None:
                forget_resolved_units(book)
                tree_lists._evaluated.clear()   # the tree the site keeps per document, built again
                judged(book, roster)
            figures[f"{name} cold"] += [seconds(cold) for _ in range(per_round)]
            figures[f"{name} warm"] += [seconds(lambda: judged(book, roster)) for _ in range(per_round)]
    median = {k: statistics.median(v) * 1e6 for k, v in figures.items()}
    units = sum(1 for _ in tree_lists.evaluated(imported_roster).all_selections()) if imported_roster.is_tree else \
        len(imported_roster.units)
    print(f"check: imported list {units} selections, {judged(imported_book, imported_roster).total_points} pts; "
          f"native book {len(native_book.rules)} rules, {len(native_roster.units)} units, "
          f"{validate(native_book, native_roster).total_points} pts")
    for kind in ("cold", "warm"):
        print(f"check {kind}: imported {median[f'imported {kind}']:.0f} us, native {median[f'native {kind}']:.0f} us, "
              f"ratio {median[f'imported {kind}'] / median[f'native {kind}']:.2f}x")


if __name__ == "__main__":
    main()
