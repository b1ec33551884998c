"""The tree evaluator's whole output over many rosters of real data, to compare two versions of the code:
what a change to the evaluator must leave as it was (docs/import-battlescribe.md, "What the evaluator
makes once per book").

    PYTHONHASHSEED=0 python bench/battlescribe_golden.py write OUT.json DATA_FOLDER [DATA_FOLDER ...]
    python bench/battlescribe_golden.py compare BEFORE.json AFTER.json

`write` builds, for every army catalogue of each folder, a roster of its first visible force with each root
entry selected (one roster an entry), and six rosters of twelve random units (a fixed seed) with up to three
children each and some counts set; each of those is evaluated after its actions, again after a fresh
refresh, and rebuilt from its list document (tree_roster). Every roster's costs, errors, messages, what
was not understood and each selection's state are written. Run it at the code before a change (a git
worktree, `PYTHONPATH` at it) and after, then `compare`: it prints how many rosters differ, by what, and
the first few. The shared data's four folders give 3,913 rosters in about four minutes.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:   # a PYTHONPATH set to another worktree comes first
    sys.path.append(str(ROOT))


def dump(roster, result) -> dict:
    return {"costs": result.costs, "errors": sorted(repr(e) for e in result.errors),
            "unsupported": result.unsupported, "messages": sorted(map(list, result.messages)),
            "states": [(s.uid, s.state.name, s.state.hidden, sorted(s.state.costs.items()),
                        list(s.state.categories), s.state.primary) for s in roster.all_selections()]}


def write(out: Path, folders: list[str]) -> None:
    from armylists.importers.battlescribe.plain import plain_document
    from armylists.importers.battlescribe.sources import read_sources
    from armylists.rules.battlescribe import GameData, Roster, add_force, evaluate, select, set_count
    from armylists.rules.battlescribe.document import document_tree, tree_roster
    from armylists.rules.reading.roster import Roster as Document

    found: dict[str, object] = {}
    for folder in folders:
        game = GameData([plain_document(d) for d in read_sources([folder])])
        name = Path(folder).name   # the keys name the data set, however the folder was given
        rng = random.Random(7)
        for catalogue in (c for c, d in game.catalogues.items() if not d.get("library")):
            entries = [f for f in game.system.get("forces", []) + game.catalogues[catalogue].get("forces", [])
                       if not f.get("hidden")]
            if not entries:
                continue
            options = game.root_options(catalogue)
            for i, option in enumerate(options):
                roster = Roster(game)
                try:
                    select(roster, add_force(roster, entries[0]["id"], catalogue), option.entry_id)
                    found[f"{name}|{catalogue}|{i}"] = dump(roster, evaluate(roster))
                except Exception as exc:  # noqa: BLE001 - what was refused is part of the output
                    found[f"{name}|{catalogue}|{i}"] = repr(exc)
            for k in range(6):
                key = f"{name}|{catalogue}|random{k}"
                roster = Roster(game)
                try:
                    force = add_force(roster, entries[0]["id"], catalogue)
                    for picked in rng.sample(options, min(len(options), 12)):
                        try:
                            unit = select(roster, force, picked.entry_id)
                        except Exception:  # noqa: BLE001 - not selectable alone: the next
                            continue
                        children = game.child_options(unit.option)
                        for child in rng.sample(children, min(3, len(children))):
                            try:
                                selected = select(roster, unit, child.entry_id)
                                if rng.random() < 0.3:
                                    set_count(roster, selected, 2)
                            except Exception:  # noqa: BLE001
                                pass
                        if rng.random() < 0.3:
                            set_count(roster, unit, 2)
                    found[key] = dump(roster, evaluate(roster))
                    forces, limit, others = document_tree(roster)
                    rebuilt = tree_roster(game, Document(system="s", book="b", book_version="1",
                                                         points_limit=limit or 0, forces=forces, cost_limits=others))
                    found[key + "|rebuilt"] = dump(rebuilt, evaluate(rebuilt))
                    roster.fresh = False
                    found[key + "|again"] = dump(roster, evaluate(roster))
                except Exception as exc:  # noqa: BLE001
                    found[key] = repr(exc)
    text = json.dumps(found, sort_keys=True, default=str)
    out.write_text(text)
    print(f"{len(found)} rosters, {hashlib.md5(text.encode()).hexdigest()}")


def compare(before: Path, after: Path) -> None:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    kinds: collections.Counter = collections.Counter()
    first: dict[str, tuple] = {}
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        parts = ["refused"] if not (isinstance(x, dict) and isinstance(y, dict)) else [f for f in x if x[f] != y.get(f)]
        for part in parts:
            kinds[part] += 1
            first.setdefault(part, (key, x if part == "refused" else x[part], y if part == "refused" else y[part]))
    print(f"{len(a)} rosters before, {len(b)} after; differing: {dict(kinds) or 'none'}")
    for part, (key, x, y) in first.items():
        print(f"  {part}: {key}\n    before {str(x)[:300]}\n    after  {str(y)[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("out", type=Path)
    w.add_argument("folders", nargs="+")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "write":
        write(args.out, args.folders)
    else:
        compare(args.before, args.after)


if __name__ == "__main__":
    main()
