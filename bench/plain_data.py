"""What refusing hostile input costs: the full plain-data check (armylists/rules/reading/plain_data.py) that
every JSON body and file passes as it is decoded, and the free-text check every list document passes in
`parse_roster`, against decoding, and against parsing and validating the same list.

    python bench/plain_data.py [--rounds N]

The list is bench/validate.py's Grand Army (24 units). Interleaved rounds, medians in microseconds;
the ratio is the check's share of one parse plus validation. Prints figures only; docs/benchmarks.md
records them.
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

from armylists.rules import load_tree, parse_roster, validate  # noqa: E402
from armylists.rules.reading.plain_data import check_plain, load_json  # noqa: E402
from armylists.rules.reading.roster import _refuse_unstorable_text  # noqa: E402
from bench.validate import LARGE_LIST  # noqa: E402


def timed(run, repeat: int = 200) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        run()
    return (time.perf_counter() - start) / repeat * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    library = load_tree(ROOT / "rules_data")
    book = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    text = json.dumps(LARGE_LIST)
    figures: dict[str, list[float]] = {"check_plain": [], "free text": [], "json.loads": [], "load_json": [],
                                       "parse+validate": []}
    for _ in range(args.rounds):
        figures["check_plain"].append(timed(lambda: check_plain(LARGE_LIST)))
        figures["free text"].append(timed(lambda: _refuse_unstorable_text(LARGE_LIST, "bench")))
        figures["json.loads"].append(timed(lambda: json.loads(text)))
        figures["load_json"].append(timed(lambda: load_json(text)))
        figures["parse+validate"].append(timed(lambda: validate(book, parse_roster(LARGE_LIST)), repeat=20))
    medians = {name: statistics.median(values) for name, values in figures.items()}
    print(f"document: {len(text)} bytes, {len(LARGE_LIST['units'])} units; {args.rounds} interleaved rounds")
    for name, value in medians.items():
        print(f"  {name:>15}: {value:9.1f} us (median)")
    print(f"  in parse_roster, the free-text check is {medians['free text'] / medians['parse+validate']:.1%} of "
          f"parse+validate; at the door, check_plain is {medians['check_plain'] / medians['parse+validate']:.1%}; "
          f"load_json is {medians['load_json'] / medians['json.loads']:.2f}x json.loads")


if __name__ == "__main__":
    main()
