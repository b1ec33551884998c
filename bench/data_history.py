"""Replay a game data repository's history into one fresh database, as a site that updates would meet it.

    python bench/data_history.py BUNDLE [--kind battlescribe|owb|nr-t9a] [--every month] [--since 2024-02]
                                        [--until 2026-08] [--book SLUG] [--tree]

BUNDLE is a git bundle (or a folder holding a clone), e.g. ../shared/external/data-history/nr-tow.bundle. It
is cloned into a temporary folder; its default branch's first-parent commits are walked, the last of each
month (`--every month`) or every one (`--every commit`); each is made a zip by `git archive` and imported
through the same code as a game-data update after its download (gamedata/updating.store_download), into one
database made fresh for the run. Per step: the commit's date and sha, stored / refused / failed and why, the
books, renames seen (the same catalogue id, NR army code or OWB army id under another book id) and how
many of them the site follows (new lists get the renamed book's successor), the books removed (in the step
before, under no name in this one), the time and the process's peak memory so far.

Then a list: made on the first stored version (the first book, or `--book`, with one unit of its first
entry; `--tree`: as the roster tree the new-list form makes of it), and at each step where a newer version of its book (or its successor) is offered, previewed and
moved when the preview allows (lists/saved/history.py, what /lists/<id>/upgrade/ does); where its book was
removed, what its upgrade page says (gamedata/removed.py). The last line:
`updates S of N stored, refused R, failed F; lists upgraded U of L` (L: the steps that offered one).
Prints figures only; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.in_process import start_site  # noqa: E402

start_site("data-history")

from django.contrib.auth import get_user_model  # noqa: E402

from armylists.gamedata.removed import removed_book  # noqa: E402
from armylists.gamedata.updating import store_download  # noqa: E402
from armylists.lists.library import catalogue  # noqa: E402
from armylists.lists.library.catalogue import report_for  # noqa: E402
from armylists.lists.saved.history import preview, upgrade_target  # noqa: E402
from armylists.lists.saved.stored import Unavailable, load, save_edit  # noqa: E402
from armylists.lists.trees.tree_lists import as_tree  # noqa: E402
from armylists.models import ArmyList, GameDataSource, GameDataVersion, RulesFile  # noqa: E402
from armylists.rules import ListDocumentError, RulesDataError, parse_roster  # noqa: E402


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, text=True).stdout


def steps(clone: Path, every: str, since: str, until: str) -> list[tuple[str, datetime]]:
    """(sha, commit date) of the first-parent commits to replay, oldest first."""
    found = []
    for line in git(clone, "log", "--first-parent", "--reverse", "--format=%H %cI", "HEAD").splitlines():
        sha, date = line.split()
        found.append((sha, datetime.fromisoformat(date)))
    found = [(sha, date) for sha, date in found if (not since or f"{date:%Y-%m}" >= since)
             and (not until or f"{date:%Y-%m}" <= until)]
    if every == "commit":
        return found
    last_of_month: dict[str, tuple[str, datetime]] = {}
    for sha, date in found:
        last_of_month[f"{date:%Y-%m}"] = (sha, date)
    return list(last_of_month.values())


def book_ids(version: GameDataVersion) -> dict[str, str]:
    """book id -> what the data calls the book for good (a BattleScribe catalogue id, a New Recruit T9A army
    code, an OWB army id: RulesFile.lineage; else the book id)."""
    books = {b["book"]: b["book"] for b in version.books}
    for book, catalogue_id, lineage in RulesFile.objects.filter(slug__in=list(books), kind="book").values_list(
            "slug", "game_data__catalogue_id", "lineage"):
        books[book] = catalogue_id or lineage or books[book]
    return books


class Player:
    """One list, made on the first version, moved along as the site offers."""

    def __init__(self, book_wanted: str, tree: bool = False) -> None:
        self.book_wanted, self.army_list, self.tree = book_wanted, None, tree
        self.offered = self.upgraded = self.removed = 0

    def start(self, version: GameDataVersion) -> str:
        books = sorted(version.books, key=lambda b: b["book"])
        books = [b for b in books if not self.book_wanted or b["book"] == self.book_wanted]
        if not books:
            return "no book to build a list on"
        chosen = books[0]
        book = catalogue.get_book(chosen["system"], chosen["book"], chosen["version"])
        entry = next(iter(book.entries), None) if book is not None else None
        document = {"format": "armylist/1", "system": chosen["system"], "book": chosen["book"],
                    "book_version": chosen["version"], "points_limit": 2000, "name": "history",
                    "units": [{"id": "u1", "entry": entry}] if entry else []}
        roster = parse_roster(document)
        if self.tree:  # as the new-list form makes it: a BattleScribe book's list is a roster tree
            try:
                roster = as_tree(book, roster)
            except ListDocumentError as exc:
                return f"no roster tree of {chosen['name']} {chosen['version']}: {exc.reason}"
        army_list = ArmyList(owner=get_user_model().objects.get_or_create(username="history")[0])
        army_list.set_document(roster, report_for(roster))
        army_list.save()
        self.army_list = army_list
        return f"list on {chosen['name']} {chosen['version']}" + (f" with {book.entries[entry].name}" if entry else "")

    def step(self) -> str:
        if self.army_list is None:
            return ""
        self.army_list.refresh_from_db()
        try:
            loaded = load(self.army_list)
        except Unavailable as exc:
            return f"list cannot be opened: {exc}"
        target = upgrade_target(loaded)
        if target is None:
            removed = removed_book(loaded.roster.system, loaded.roster.book)
            if removed is not None:
                self.removed += 1
                return f"list stays at {loaded.roster.book} {loaded.roster.book_version}: {removed.sentence}"
            return f"list stays at {loaded.roster.book} {loaded.roster.book_version} (nothing newer offered)"
        self.offered += 1
        try:
            shown = preview(loaded, target)
        except (ListDocumentError, RulesDataError) as exc:
            return f"preview to {target.version} failed: {exc}"
        if shown.problem:
            return f"list cannot move to {target.name} {target.version}: {shown.problem}"
        if save_edit(loaded, shown.roster, self.army_list.revision) is None:
            return "list changed meanwhile"
        self.upgraded += 1
        return f"list moved to {target.name} {target.version}: {' '.join(shown.changes)[:300]}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--kind", choices=["battlescribe", "owb", "nr-t9a"], default="battlescribe")
    parser.add_argument("--every", choices=["month", "commit"], default="month")
    parser.add_argument("--since", default="", help="YYYY-MM: the first month replayed")
    parser.add_argument("--until", default="", help="YYYY-MM: the last month replayed")
    parser.add_argument("--book", default="", help="the book id the list is built on (default: the first)")
    parser.add_argument("--tree", action="store_true",
                        help="make the list a roster tree, as the new-list form does for a BattleScribe book "
                             "(default: our document with one unit, moved to its tree by the preview)")
    args = parser.parse_args()
    if not args.bundle.exists():
        sys.exit(f"{args.bundle} is not here")
    with tempfile.TemporaryDirectory(prefix="armylists-history-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(args.bundle.resolve()), str(clone)], check=True)
        replay(clone, args)


def replay(clone: Path, args) -> None:
    source = GameDataSource.objects.create(repository=f"history/{args.bundle.stem}", kind=args.kind)
    player = Player(args.book, args.tree)
    stored = refused = failed = renames = followed = removed_total = 0
    todo = steps(clone, args.every, args.since, args.until)
    previous: dict[str, str] = {}  # the data's own id -> book id, at the last stored step
    for sha, date in todo:
        started = time.perf_counter()
        data = subprocess.run(["git", "-C", str(clone), "archive", "--format=zip", f"--prefix=data-{sha[:7]}/", sha],
                              check=True, capture_output=True).stdout
        version, message = store_download(source, data, sha, "commit", date)
        seconds = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        status = version.status
        if status == GameDataVersion.OK:
            stored += 1
        elif "already loaded with other content" in version.message:
            status, refused = "refused", refused + 1
        else:
            failed += 1
        line = f"{date:%Y-%m-%d} {sha[:7]} {status:<8} {len(version.books):>3} books {seconds:6.1f} s peak {peak:5.0f} MB"
        if status == GameDataVersion.OK:
            ids = {own: book for book, own in book_ids(version).items()}
            moved = [(previous[own], book) for own, book in ids.items() if own in previous and previous[own] != book]
            renames += len(moved)
            system = version.books[0]["system"] if version.books else ""
            # followed: new lists get the old book only under its new name, and its lists are offered that
            successors = catalogue.renamed_books(system)
            kept = sum(1 for old, new in moved if successors.get((system, old)) == new)
            followed += kept
            if moved:
                line += f"; renamed {len(moved)} (followed {kept}): " + ", ".join(f"{a} -> {b}" for a, b in moved[:4])
            # removed: a book of the step before that this step has under no name (nor a successor of it)
            gone = [book for own, book in previous.items() if own not in ids
                    and removed_book(system, book) is not None]  # not a file this data could not read
            removed_total += len(gone)
            if gone:
                line += f"; removed {len(gone)}: " + ", ".join(gone[:4])
            previous = ids
            if player.army_list is None:
                line += "\n    " + player.start(version)
            else:
                line += "\n    " + player.step()
        else:
            line += f"\n    {version.message[:400]}"
        print(line, flush=True)
    print(f"renames seen {renames}, followed {followed}; removed books {removed_total}"
          + (f"; the list's book said removed at {player.removed} steps" if player.removed else ""))
    print(f"updates {stored} of {len(todo)} stored, refused {refused}, failed {failed}; "
          f"lists upgraded {player.upgraded} of {player.offered}")


if __name__ == "__main__":
    main()
