"""The game data import_battlescribe keeps with each book (rules/battlescribe/packed.py): its size, and
the time to get a book's GameData from it against the floor of reading the book's files again (the
XML of the game system and the catalogues it links, parsed and indexed), interleaved rounds, medians.

    nice -n 10 python bench/battlescribe_packed.py PATH [--books NAME ...] [--rounds N]
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
from armylists.importers.battlescribe.plain import plain_document  # noqa: E402
from armylists.importers.battlescribe.sources import read_sources  # noqa: E402
from armylists.rules.battlescribe import GameData  # noqa: E402
from armylists.rules.battlescribe.packed import pack, unpack  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path")
    parser.add_argument("--books", nargs="*", default=[], help="catalogue names (all when none)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    documents = read_sources([args.path])
    files = {d.source: d for d in documents}
    conversion = convert(documents)
    packed = {}
    for document in [p for docs in conversion.game_data.values() for p in docs]:
        packed.setdefault(document["id"], (document, pack(document)))
    xml = sum(Path(s).stat().st_size for s in files if "!" not in s and Path(s).is_file())
    print(f"documents {len(packed)}: XML {xml / 1e6:.1f} MB, packed {sum(len(p) for _d, p in packed.values()) / 1e6:.2f} MB")
    books = [(b["name"], b["id"]) for b in conversion.books
             if not args.books or any(n.lower() in b["name"].lower() for n in args.books)]
    for name, book_id in books:
        docs = conversion.game_data[book_id]
        blobs = [packed[d["id"]][1] for d in docs]
        sources = [d["source"] for d in docs]
        floor_times, stored_times = [], []
        for _ in range(args.rounds):
            start = time.perf_counter()
            GameData([plain_document(d) for d in read_sources(sources)])
            floor_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            GameData([unpack(b) for b in blobs])
            stored_times.append(time.perf_counter() - start)
        floor, stored = statistics.median(floor_times), statistics.median(stored_times)
        print(f"{name}: {len(docs)} documents, packed {sum(map(len, blobs)) / 1e3:.0f} kB; GameData from the "
              f"database {stored * 1000:.0f} ms, from the files (floor) {floor * 1000:.0f} ms, "
              f"ratio {stored / floor:.2f}")


if __name__ == "__main__":
    main()
