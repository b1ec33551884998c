"""Time the printed roster: median of rendering a 20-unit list, in each variant.

    python bench/pdf.py [--repeat N]

The list is the legal Empire of Sonnstahl example (15 units) with five more units, at 3000 pts:
characters with items and mounts, units with command groups and magical standards, war machines. It
is built here so the figure cannot drift with the examples. Prints figures only; docs/benchmarks.md
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from twenty_units import bench_list  # noqa: E402

from armylists.exports.pdf import VARIANTS, render_pdf  # noqa: E402
from armylists.rules import load_tree, parse_roster, validate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()

    library = load_tree(ROOT / "rules_data")
    roster = parse_roster(bench_list())
    book = library.book(roster.system, roster.book, roster.book_version)
    report = validate(book, roster)
    print(f"list: {len(roster.units)} units, {report.total_points} pts of {report.points_limit}, "
          f"{len(report.violations)} violations ({'legal' if report.valid else 'illegal'})")

    start = time.perf_counter()
    render_pdf(book, roster, report)  # the first render also reads the four TrueType fonts
    print(f"first render (fonts registered): {(time.perf_counter() - start) * 1000:.0f} ms")
    # The warband sheet is Mordheim's layout: time it on the largest example warband (Skaven, 14 warriors).
    warband = parse_roster(json.loads((ROOT / "docs" / "examples" / "skaven-of-clan-eshin-legal.json").read_text()))
    warband_book = library.book(warband.system, warband.book, warband.book_version)
    cases = [(variant, book, roster) for variant in VARIANTS if variant != "warband"]
    cases.append(("warband", warband_book, warband))
    for variant, case_book, case_roster in cases:
        case_report = validate(case_book, case_roster)
        for _ in range(5):  # warm up
            render_pdf(case_book, case_roster, case_report, variant)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            data = render_pdf(case_book, case_roster, case_report, variant)
            times.append(time.perf_counter() - start)
        print(f"render {variant} ({case_book.name}): median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {sorted(times)[int(len(times) * 0.95)] * 1000:.1f} ms over {args.repeat} runs, "
              f"{len(data) // 1024} kB")


if __name__ == "__main__":
    main()
