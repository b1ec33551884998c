"""New Recruit's T9A data by date, proven on real tournament lists (issue 23).

    python bench/t9a_tournament_lists.py --lists FILE.jsonl[.gz] --data SOURCE [--from DATE] [--to DATE] [--json OUT]
        [--limit-rule largest|median]

SOURCE is New Recruit's T9A data (a git bundle or repository, a checkout folder or a zip of one:
armylists/importers/nr_t9a/source.py). For each tournament in the date range the data of the last commit
before its start is imported (a book is converted and built once per content of its files), each list's
summary is read back as a list document (armylists/importers/nr_t9a/summary.py) and priced and judged by
the engine at the event's points limit: issue 23's, the smallest multiple of 500 at or above the
tournament's largest list (`--limit-rule largest`, the default), or the multiple of 500 nearest the median
of its lists' totals (`--limit-rule median`: event_limits says why); the other rule's legal figure is
printed too. Printed: lists read; units whose cost is New Recruit's; lists whose every unit is; of those, lists
whose category points are `points_per_category` (and the lists figure leaving out those with a unit
naming a leadership skill, which the data lacks, and that figure over the months whose summaries name any
skill: New Recruit's stopped naming them), lists judged legal, and two broken copies of each (the
limit one point below its total; copies of its cheapest Character until Characters pass their maximum)
refused with the right code; the unit and list figures with the neighbouring commits as a fallback (the
army's other versions nearest the date, NEIGHBOURS; apart, not in the last line); the unit figure with the
latest data alone; causes of mismatch; the time to import one version of all armies. The last line:
`units P% lists L% categories C% legal G% broken B%`.
"""
from __future__ import annotations

import argparse
import bisect
import gzip
import itertools
import json
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armylists.importers.nr_t9a import NrSourceError, convert_army, open_source  # noqa: E402
from armylists.importers.nr_t9a.army import MAPPING  # noqa: E402
from armylists.importers.nr_t9a.profiles import army_profiles  # noqa: E402
from armylists.importers.nr_t9a.rarity import read_rules  # noqa: E402
from armylists.importers.nr_t9a.summary import read_list  # noqa: E402
from armylists.rules import parse_roster, validate  # noqa: E402
from armylists.rules.reading.loader import build_book, load_system_part  # noqa: E402

NEIGHBOURS = (2, 3)  # the fallback's versions of an army before and after the date's (issue 23: reported apart)
CATEGORY_NAMES = {"Characters": "characters", "Core": "core", "Special": "special"}
LEADERSHIP_TYPE = MAPPING["leadership_skill_type"]  # the summary's option type of New Recruit's leadership skills


def read_lists(path: Path, start: str | None, end: str | None) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        lists = [json.loads(line) for line in f if line.strip()]
    return [x for x in lists if (start is None or x["start"] >= start) and (end is None or x["start"] <= end)]


class Books:
    """The book of an army at a date, converted and built once per content of its files."""

    def __init__(self, source, system):
        self.source, self.system = source, system
        self.snapshots: dict[str, object] = {}
        self.built: dict[tuple, object] = {}
        self.commits = source.commits()
        self.parsed: dict[str, dict] = {}  # a file's key -> its JSON, shared by the snapshots of every date
        self.by_commit: dict[str, object] = {}  # the snapshots of the neighbouring commits
        self.around: dict[tuple, list] = {}  # (army, date) -> its neighbouring books
        self.rarities: dict[str | None, str] = {}  # ruledefs.json's key -> what rarity.py reads of it

    def shared(self, snapshot):
        """The snapshot, its files parsed once for all dates (special.json and the rest are parsed again for
        every date otherwise: a third of the run)."""
        read = snapshot.json

        def json_once(name: str) -> dict:
            key = snapshot.keys.get(name, name)
            if key not in self.parsed:
                self.parsed[key] = read(name)
            return self.parsed[key]
        snapshot.json = json_once
        return snapshot

    def book(self, army: str, day: str | None):
        try:
            snapshot = self.snapshots.get(day) or self.snapshots.setdefault(day, self.shared(self.source.at(day)))
        except NrSourceError:
            return None
        return self._built(snapshot, army)

    def _built(self, snapshot, army: str):
        name = f"{army.lower()}.json"
        if name not in snapshot.keys:
            return None
        # The rule text's rarities and unit cost cap (rarity.py) and the army's Heights (profiles.py) are inputs
        # too; the other changes of those files are texts and profiles no price or limit reads.
        rules = self.rarities.get(snapshot.keys.get("ruledefs.json"))
        if rules is None:
            rules = self.rarities.setdefault(snapshot.keys.get("ruledefs.json"), repr(read_rules(
                snapshot.json("ruledefs.json") if "ruledefs.json" in snapshot.keys else None)))
        stats = snapshot.json("unitstats.json") if "unitstats.json" in snapshot.keys else None
        heights = tuple(sorted((uid, str(p.get("height"))) for uid, p in army_profiles(stats, army.lower()).items()
                               if isinstance(p, dict)))
        key = (snapshot.keys[name], snapshot.keys.get("special.json"), rules, heights)
        if key not in self.built:
            done = convert_army(snapshot, name, frozenset(c.id for c in self.system.categories))
            self.built[key] = build_book(done[0], self.system, {}, name) if done else None
        return self.built[key]

    def neighbours(self, army: str, day: str) -> list:
        """The issue's fallback: the army's books of the commits around the date's whose files (the army's,
        special.json) differ from it, up to NEIGHBOURS[0] before and NEIGHBOURS[1] after, nearest first
        (New Recruit's build of a day may be a little behind or ahead of the repository)."""
        if (army, day) in self.around:
            return self.around[(army, day)]
        dates = [d for _, d in self.commits]
        at = bisect.bisect_left(dates, day) - 1  # the last commit before the day, as source.at(day)
        seen = {id(self.book(army, day))}
        found: dict[int, list] = {-1: [], 1: []}
        for step, most in ((-1, NEIGHBOURS[0]), (1, NEIGHBOURS[1])):
            i = at + step
            while 0 <= i < len(self.commits) and len(found[step]) < most:
                commit = self.commits[i][0]
                if commit not in self.by_commit:
                    self.by_commit[commit] = self.shared(self.source.at(commit))
                book = self._built(self.by_commit[commit], army)
                if book is not None and id(book) not in seen:
                    seen.add(id(book))
                    found[step].append(book)
                i += step
        nearest = [b for pair in itertools.zip_longest(found[-1], found[1]) for b in pair if b is not None]
        self.around[(army, day)] = nearest
        return nearest


def event_limits(lists: list[dict]) -> dict[str, int]:
    """The points limit of each tournament: the multiple of 500 nearest the median of its lists' totals.
    Not the round size above its largest list: a few lists in most events are over the limit (4005 to
    4435 at events whose other lists are 3,990 to 4,000), and a limit raised to 4500 by them judged
    the event's honest 4000-pt lists against Core's minimum of 4500 (docs/import-nr-t9a.md)."""
    totals: dict[str, list[int]] = {}
    for x in lists:
        totals.setdefault(x["tournament"], []).append(x["points_per_category"].get("Total", 0))
    return {t: max(500, (statistics.median_low(v) + 250) // 500 * 500) for t, v in totals.items()}  # half up


def largest_limits(lists: list[dict]) -> dict[str, int]:
    """The points limit of each tournament as issue 23 defines it: the smallest multiple of 500 at or above
    its largest list. The default (`--limit-rule largest`): a list over its event's real size raises it."""
    largest: dict[str, int] = {}
    for x in lists:
        largest[x["tournament"]] = max(largest.get(x["tournament"], 0), x["points_per_category"].get("Total", 0))
    return {t: max(500, -(-total // 500) * 500) for t, total in largest.items()}


LIMIT_RULES = {"largest": largest_limits, "median": event_limits}


def names_leadership_skill(unit: dict, reading) -> bool:
    """Whether the summary's unit takes a leadership skill that the data of its date lacks: New Recruit groups
    them as "Specialist Skill"; special.json's pool of them is empty from 2025-09-18, and the season pack's
    (Trusted Adviser...) are never in it (the pool's own are read: nr_t9a.yaml `offered_pools`)."""
    skills = {o["name"] for o in unit.get("options", []) if o.get("type") == LEADERSHIP_TYPE}
    return bool(skills & set(reading.unmatched))


def skill_months(by_month: list[tuple[str, bool]], reproduced: list[bool]):
    """((first, last month), (reproduced, lists) leaving out those naming a skill over the months in which some
    summary names one, (reproduced, lists) over the other months), or None where no summary names a skill.
    New Recruit's summaries stopped naming leadership skills (none from 2025-10 on) while lists still take
    them, priced and unnamed: leaving out the lists naming one is a fair figure only over the months whose
    summaries name any."""
    naming = {m for m, named in by_month if named}
    if not naming:
        return None
    kept = [ok for (m, named), ok in zip(by_month, reproduced) if m in naming and not named]
    others = [ok for (m, _), ok in zip(by_month, reproduced) if m not in naming]
    return (min(naming), max(naming)), (sum(kept), len(kept)), (sum(others), len(others))


def core_minimum(book, document: dict) -> float:
    """The list's Core minimum in percent: the book's, or where an option of the list changes it (Ogre Khans
    with a Wildheart: 20%, a tally of the Core units' points with a modifier, army.py) the changed one."""
    fixed = next((r.params["min"] for r in book.rules if r.type == "category_percent"
                  and r.params["categories"] == ["core"] and "min" in r.params), None)
    if fixed is not None:
        return fixed
    tags = set()
    for unit in document["units"]:
        entry = book.entries[unit["entry"]]
        tags |= entry.tags
        for oid in unit.get("options", {}):
            tags |= entry.options[oid].tags
    for rule in book.rules:
        for limit in rule.params.get("limits", ()) if rule.type == "tally_limits" else ():
            if limit.get("count") == ["cat-core"] and limit.get("percent") and "min" in limit:
                low = limit["min"]
                for m in limit.get("modifiers", ()):
                    if m["target"] == "min" and set(m.get("when", {}).get("tally", {}).get("count", ())) & tags:
                        low = m["value"]
                return low
    return 25


def categories_off(summary: dict, book, reading, report) -> list[str]:
    """The summary's categories whose points are not ours."""
    ours = {c.id: c.points for c in report.categories}
    # New Recruit's summary shows Core scaled to a 25% minimum: 800 pts where the army's Core
    # minimum is 20% read 1000 (1186.25 for 949), so ours is scaled the same way to compare.
    ours["core"] = ours.get("core", 0) * 25 / core_minimum(book, reading.document)
    return sorted(k for k, v in summary["points_per_category"].items()
                  if k in CATEGORY_NAMES and ours.get(CATEGORY_NAMES[k], 0) != v)


def units_ok_of(reading, report) -> int:
    priced = iter(report.units)
    return sum(1 for r in reading.units if (next(priced).points if r.priced is not None else None) == r.cost
               and not r.cause)


def fallback(books, summary: dict, limit: int, date_ok: int) -> tuple[int, tuple | None]:
    """Issue 23's fallback for a list the data of its date does not reproduce: (units at New Recruit's price
    with the best of the neighbouring books, or the date's; (book, reading, report) of the nearest book that
    reproduces every unit, or None)."""
    best = date_ok
    for book in books.neighbours(summary["army"], summary["start"]):
        reading = read_list(summary, book, limit)
        report = validate(book, parse_roster(reading.document))
        ok = units_ok_of(reading, report)
        if ok == len(reading.units):
            return ok, (book, reading, report)
        best = max(best, ok)
    return best, None


def import_time(source, system) -> tuple[int, float, str]:
    """(armies, seconds, commit): one version (the newest) of every army converted and built, as an import does."""
    snapshot = source.at(None)
    started = time.perf_counter()
    built = 0
    for name in snapshot.army_files():
        done = convert_army(snapshot, name, frozenset(c.id for c in system.categories))
        if done is not None:
            build_book(done[0], system, {}, name)
            built += 1
    return built, time.perf_counter() - started, snapshot.commit


def errors(report) -> list[str]:
    return sorted({v.code for v in report.violations if v.severity == "error"})


def broken_copies(book, document: dict, report) -> tuple[int, int]:
    """(copies made, copies refused with the right code)."""
    made = refused = 0
    over = {**document, "points_limit": report.total_points - 1}
    made += 1
    refused += "points.over_limit" in errors(validate(book, parse_roster(over)))
    high = next((r.params.get("max") for r in book.rules_for(None, (), ())
                 if r.type == "category_percent" and r.params["categories"] == ["characters"]), None)
    characters = [(u.points, doc) for u, doc in zip(report.units, document["units"]) if u.category == "characters"]
    if high is None or not characters:
        return made, refused
    cost, cheapest = min(characters, key=lambda c: c[0])
    units, limit, points = list(document["units"]), report.points_limit, report.total_points
    char_points = sum(c[0] for c in characters)
    n = 0
    while char_points * 100 <= high * limit and n < 50:
        n += 1
        units.append({**cheapest, "id": f"copy{n}", "general": False})
        char_points += cost
        points += cost
        limit = max(limit, points)
    made += 1
    copy = {**document, "units": units, "points_limit": limit}
    refused += "category.max_percent" in errors(validate(book, parse_roster(copy)))
    return made, refused


def progress(done: int, total: int, started: float) -> None:
    if done != total and done % max(1, total // 100):
        return  # about a hundred updates in all
    width = 40
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {time.time() - started:5.0f}s")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}" if b else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lists", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--from", dest="start", default=None)
    parser.add_argument("--to", dest="end", default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--limit-rule", choices=sorted(LIMIT_RULES), default="largest",
                        help="the event's points limit: the round size at or above its largest list (issue 23's, "
                             "the default) or the one nearest the median of its lists; the other is printed too")
    args = parser.parse_args()
    started = time.time()
    system, _, _ = load_system_part(ROOT / "rules_data" / "t9a-2", ROOT / "rules_data")
    lists = read_lists(args.lists, args.start, args.end)
    limits = LIMIT_RULES[args.limit_rule](lists)
    other_rule = next(r for r in LIMIT_RULES if r != args.limit_rule)
    other_limits = LIMIT_RULES[other_rule](lists)
    legal_other = 0
    source = open_source(args.data)
    # Timed first, as a fresh process imports: after the loop the heap holds hundreds of built books and the
    # collector's passes over them were measured too (6 s rather than 1 s, session 13).
    armies, seconds, commit = import_time(source, system)
    books = Books(source, system)
    units = units_ok = lists_ok = cats_ok = legal = judged = made = refused = latest_ok = 0
    causes, codes, warnings, messages, cats_off = Counter(), Counter(), Counter(), Counter(), Counter()
    read = unnamed = unnamed_ok = unchecked_legal = over = 0
    fb_units = fb_lists = fb_only = fb_cats = fb_legal = 0  # with the neighbouring commits as a fallback
    skilled = skilled_ok = 0  # lists with a unit naming a leadership skill; of them fully reproduced
    by_month: list[tuple[str, bool]] = []  # (month, names a skill) of each list read, and whether it is reproduced
    reproduced: list[bool] = []
    for i, summary in enumerate(lists):
        book = books.book(summary["army"], summary["start"])
        if book is None:
            causes["no-data-for-the-date"] += len(summary["units"])
            units += len(summary["units"])
            progress(i + 1, len(lists), started)
            continue
        read += 1
        reading = read_list(summary, book, limits[summary["tournament"]])
        report = validate(book, parse_roster(reading.document))
        priced = iter(report.units)
        all_ok = True
        names_skill = any(names_leadership_skill(u, r) for u, r in zip(summary["units"], reading.units))
        skilled += names_skill
        by_month.append((summary["start"][:7], names_skill))
        before = units_ok
        for r in reading.units:
            units += 1
            ours = next(priced).points if r.priced is not None else None
            if ours == r.cost and not r.cause:  # a cause: the reading is a guess (a leadership skill's price)
                units_ok += 1
                unnamed_ok += bool(r.unnamed)
            else:
                all_ok = False
                causes[r.cause or ("engine" if ours is not None else "unread")] += 1
        latest = books.book(summary["army"], None)
        if latest is not None:
            latest_ok += sum(1 for r in read_list(summary, latest, limits[summary["tournament"]]).units
                             if r.priced == r.cost and not r.cause)
        reproduced.append(all_ok)
        if all_ok:
            fb_units += len(reading.units)
            fb_lists += 1
        else:
            best, found = fallback(books, summary, limits[summary["tournament"]], units_ok - before)
            fb_units += best
            if found is not None:
                fb_lists += 1
                fb_only += 1
                fb_cats += not categories_off(summary, *found)
                wrong = errors(found[2])
                if "general.missing" in wrong and not found[1].general_named:
                    wrong.remove("general.missing")
                fb_legal += not wrong
        if all_ok:
            lists_ok += 1
            skilled_ok += any(names_leadership_skill(u, r) for u, r in zip(summary["units"], reading.units))
            off = categories_off(summary, book, reading, report)
            cats_ok += not off
            if off:
                cats_off[f"{summary['army']} {'/'.join(off)}"] += 1
            judged += 1
            found = errors(report)
            if "general.missing" in found and not reading.general_named:
                # The summary names no General: who it is is not in the data we read, so it is not judged.
                found.remove("general.missing")
                unnamed += 1
            legal += not found
            at_other = errors(validate(book, parse_roster({**reading.document,
                                                            "points_limit": other_limits[summary["tournament"]]})))
            if "general.missing" in at_other and not reading.general_named:
                at_other.remove("general.missing")
            legal_other += not at_other
            unchecked_legal += not found and any(v.severity == "warning" for v in report.violations)
            codes.update(found)
            messages.update({f"{summary['army']} {v.code}: {re.sub(r'[0-9]+', 'N', v.message)}" for v in report.violations
                             if v.severity == "error" and v.code in found})
            over += report.total_points > report.points_limit
            warnings.update(v.code for v in report.violations if v.severity == "warning")
            m, r = broken_copies(book, reading.document, report)
            made += m
            refused += r
        progress(i + 1, len(lists), started)
    source.close()
    figures = {"import_all_armies_seconds": round(seconds, 2), "import_commit": commit,
        "lists": len(lists), "lists_read": read, "units": units, "units_ok": units_ok, "lists_ok": lists_ok,
        "categories_ok": cats_ok, "legal": legal, "limit_rule": args.limit_rule, "legal_at_" + other_rule: legal_other,
        "judged": judged, "broken_made": made, "broken_refused": refused,
        "latest_units_ok": latest_ok, "fallback_units_ok": fb_units, "fallback_lists_ok": fb_lists,
        "fallback_only_lists": fb_only, "fallback_only_categories_ok": fb_cats, "fallback_only_legal": fb_legal, "units_ok_with_unnamed_option": unnamed_ok, "causes": dict(causes.most_common()), "violation_codes": dict(codes.most_common()), "violations_by_army": dict(messages.most_common(60)), "categories_off_by_army": dict(cats_off.most_common()),
        "warnings": dict(warnings.most_common()), "books_built": len(books.built), "general_not_named": unnamed, "legal_with_not_checked_warning": unchecked_legal, "over_the_event_limit": over, "lists_naming_a_leadership_skill": skilled, "lists_ok_naming_a_leadership_skill": skilled_ok, "seconds": round(time.time() - started, 1),
    }
    commits = len({snapshot.commit for snapshot in [*books.snapshots.values(), *books.by_commit.values()]})
    print(f"lists read: {read} of {len(lists)} ({figures['books_built']} books built from the data of {commits} "
          f"commits, for {len(books.snapshots)} tournament dates)")
    print(f"units whose cost is New Recruit's: {units_ok} of {units} ({pct(units_ok, units)}%)")
    print(f"  of which read with one option the summary does not name (the only one giving the cost): {unnamed_ok}")
    print(f"  with the latest data only: {latest_ok} of {units} ({pct(latest_ok, units)}%)")
    print(f"lists whose every unit is: {lists_ok} of {len(lists)} ({pct(lists_ok, len(lists))}%)")
    print(f"  leaving out the {skilled} lists with a unit naming a leadership skill (not in the data): "
          f"{lists_ok - skilled_ok} of {len(lists) - skilled} ({pct(lists_ok - skilled_ok, len(lists) - skilled)}%)")
    split = skill_months(by_month, reproduced)
    if split is not None:
        (first, last), (kept_ok, kept), (others_ok, others) = split
        print(f"    over the months whose summaries name skills at all ({first} to {last}): {kept_ok} of {kept} "
              f"({pct(kept_ok, kept)}%); the other months (no summary names one, skills hidden in the costs): "
              f"{others_ok} of {others} ({pct(others_ok, others)}%)")
    print(f"  with the neighbouring commits as a fallback ({NEIGHBOURS[0]} versions of the army before the date's, "
          f"{NEIGHBOURS[1]} after; apart, not in the last line): units {fb_units} of {units} ({pct(fb_units, units)}%), "
          f"lists {fb_lists} of {len(lists)} ({pct(fb_lists, len(lists))}%); of the {fb_only} lists only a neighbour "
          f"reproduces, category points as New Recruit's {fb_cats}, judged legal {fb_legal}")
    print(f"  of those, category points as New Recruit's: {cats_ok} ({pct(cats_ok, lists_ok)}%)")
    print(f"  judged legal at the event's limit ({args.limit_rule}): {legal} of {judged} ({pct(legal, judged)}%)")
    print(f"  judged legal at the limit of the other rule ({other_rule}): {legal_other} of {judged} "
          f"({pct(legal_other, judged)}%)")
    print(f"    of which with a 'not checked' warning (a rule of the data not checked here): {unchecked_legal}")
    print(f"  violation codes on the others: {dict(codes.most_common())}")
    print(f"  lists whose summary names no General (general.missing not judged): {unnamed}")
    print(f"  over the event's limit ({args.limit_rule}): {over}")
    print(f"  warnings (not checked): {dict(warnings.most_common())}")
    print(f"  broken copies refused with the right code: {refused} of {made}")
    print(f"causes of unit mismatch: {dict(causes.most_common())}")
    print(f"importing one version of all {armies} armies ({commit[:7]}): {seconds:.2f} s")
    print(f"time: {figures['seconds']} s")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    print(f"units {pct(units_ok, units)}% lists {pct(lists_ok, len(lists))}% categories {pct(cats_ok, lists_ok)}% "
          f"legal {pct(legal, judged)}% broken {pct(refused, made)}%")


if __name__ == "__main__":
    main()
