"""What a roster tree costs on a real site against the native list of the same army (issue 37's targets):
the CPU of one request, in this process through Django's test client, interleaved rounds, medians.

    nice -n 10 python bench/tree_site.py ../shared/external/battlescribe/the-old-world-nr [--rounds N]

The site: a fresh SQLite database with our books and the folder's BattleScribe data imported
(`import_battlescribe`), DEBUG off. The lists: the Empire of Man example of our book
(docs/examples/empire-of-man-legal.json) and New Recruit's Empire of Man roster
(docs/examples/battlescribe/the-old-world-nr/empire-of-man-legal.ros) read through the list importer, as a
player's upload is. Three figures, each a ratio against the native list in the same rounds:

1. the stateless `POST /api/v1/validate/` of each document (target: at most 5x);
2. one edit in the editor, htmx as its script sends it: a unit's model count set (the native list's
   `size`, the tree's model selection's number), then set back; CPU and the answer's size (target: at most
   1.5x the CPU, 40 kB);
3. the evaluation after one edit, in the engine alone: the six example rosters' evaluator roster with one
   model count changed and evaluated, against the native Empire list validated after one unit's size
   changed (target: at most 30x).

Prints figures only; docs/benchmarks.md records them.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from in_process import start_site  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
ARMIES = ("empire-of-man", "dwarfen-mountain-holds", "high-elf-realms", "kingdom-of-bretonnia",
          "orc-and-goblin-tribes", "warriors-of-chaos")


def cpu(fn) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()

    start_site("tree-site")
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from armylists.listfiles.importing import import_list
    from armylists.lists.trees.tree_lists import evaluated
    from armylists.lists.library.catalogue import validate_roster
    from armylists.models import ArmyList
    from armylists.rules import parse_roster
    from armylists.rules.reading.roster import roster_to_dict

    call_command("import_battlescribe", args.data, verbosity=0, stdout=open(os.devnull, "w"))
    user = get_user_model().objects.create_user("bench", password="bench-password-1")
    client = Client()
    client.force_login(user)

    native_doc = json.loads((EXAMPLES / "empire-of-man-legal.json").read_text())
    native = parse_roster(native_doc)
    ros = EXAMPLES / "battlescribe" / "the-old-world-nr" / "empire-of-man-legal.ros"
    tree, tree_book, _format, _warnings = import_list(ros.read_bytes(), ros.name)
    tree_doc = roster_to_dict(tree)

    def stored(roster, book=None) -> ArmyList:
        army_list = ArmyList(owner=user)
        from armylists.lists.library.catalogue import book_for
        army_list.set_document(roster, validate_roster(book or book_for(roster), roster))
        army_list.save()
        return army_list

    native_list, tree_list = stored(native), stored(tree, tree_book)

    # 1. stateless validation
    names = iter(range(10 ** 9))

    def validate(doc) -> None:
        # Each request a document of its own (its name): the site keeps a few judged documents per process,
        # and a player's next request is never the last one again.
        doc = {**doc, "name": f"Bench {next(names)}"}
        response = client.post("/api/v1/validate/", json.dumps(doc), content_type="application/json")
        assert response.status_code == 200, (response.status_code, response.content[:300])

    # 2. an edit in the editor: a model count, there and back
    unit = next(u for u in native.units if (u.size or 0) > 1)
    evaluated_tree = evaluated(tree)   # the evaluator's roster: its root selections keep the document's ids
    # a rank-and-file unit as the native one: one model selection, several models
    tree_unit = next(u for f in evaluated_tree.all_forces() for u in f.selections
                     if [c.amount > 1 for c in u.children if c.option.entry.get("type") == "model"] == [True])
    model = next(c for c in tree_unit.children if c.option.entry.get("type") == "model")
    print(f"edited: native {unit.entry} ({unit.size} models), tree {tree_unit.state.name} ({model.amount} models)")
    field = f"sel-{model.entry_id}"
    sizes: dict[str, list[int]] = {"native": [], "tree": []}

    def edit(army_list: ArmyList, url: str, data: dict, kind: str) -> None:
        revision = ArmyList.objects.values_list("revision", flat=True).get(pk=army_list.pk)
        response = client.post(url, {**data, "revision": revision}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, (response.status_code, response.content[:300])
        sizes[kind].append(len(response.content))
        if os.environ.get("BENCH_DUMP"):
            Path(os.environ["BENCH_DUMP"] + f"-{kind}.html").write_bytes(response.content)

    def native_edit(i: int) -> None:
        edit(native_list, f"/lists/{native_list.pk}/units/{unit.id}/",
             {"only": "size", "size": unit.size + (i % 2)}, "native")

    def tree_edit(i: int) -> None:
        edit(tree_list, f"/lists/{tree_list.pk}/units/{tree_unit.uid}/",
             {"only": field, field: model.amount + (i % 2)}, "tree")

    for i in range(3):  # warm up: templates, caches, the connection
        validate(native_doc), validate(tree_doc), native_edit(i + 1), tree_edit(i + 1)
    figures: dict[str, list[float]] = {k: [] for k in ("validate native", "validate tree", "edit native", "edit tree")}
    for i in range(args.rounds):
        figures["validate native"].append(cpu(lambda: validate(native_doc)))
        figures["validate tree"].append(cpu(lambda: validate(tree_doc)))
        figures["edit native"].append(cpu(lambda: native_edit(i + 1)))
        figures["edit tree"].append(cpu(lambda: tree_edit(i + 1)))
    v_n, v_t = median_ms(figures["validate native"]), median_ms(figures["validate tree"])
    e_n, e_t = median_ms(figures["edit native"]), median_ms(figures["edit tree"])
    print(f"POST /api/v1/validate/: native Empire {v_n:.1f} ms CPU, tree Empire {v_t:.1f} ms; ratio {v_t / v_n:.2f}")
    print(f"editor edit (a model count): native {e_n:.1f} ms CPU, {statistics.median(sizes['native']) / 1024:.1f} kB; "
          f"tree {e_t:.1f} ms, {statistics.median(sizes['tree']) / 1024:.1f} kB; ratio {e_t / e_n:.2f}")

    engine_after_edit(args.data, native, args.rounds)


def engine_after_edit(data: str, native, rounds: int) -> None:
    """Figure 3: the evaluator after one edit, against the native check after one edit."""
    from dataclasses import replace

    import msgspec

    from armylists.importers.battlescribe import convert
    from armylists.importers.battlescribe.roster_tree import read_tree
    from armylists.importers.battlescribe.rosters import parse_roster_file
    from armylists.importers.battlescribe.sources import read_sources
    from armylists.lists.library.catalogue import book_for
    from armylists.rules import validate
    from armylists.rules.battlescribe import GameData, evaluate, set_count
    from armylists.rules.battlescribe.packed import unpack

    book = book_for(native)
    at = next(i for i, u in enumerate(native.units) if (u.size or 0) > 1)

    def edited(size: int):
        units = list(native.units)
        units[at] = msgspec.structs.replace(units[at], size=size)
        return replace(native, units=tuple(units))
    conversion = convert(read_sources([data]))
    trees = {}
    for army in ARMIES:
        path = EXAMPLES / "battlescribe" / "the-old-world-nr" / f"{army}-legal.ros"
        root = parse_roster_file(path.read_bytes(), path.name)
        name = next(f.get("catalogueName") for f in root.iter() if f.tag.endswith("}force"))
        book_id = next(b["id"] for b in conversion.books if b["name"] == name)
        game = GameData([unpack(p.packed) for p in conversion.game_data[book_id]])
        tree = read_tree(root, game, path.name)
        evaluate(tree)
        selection = next(s for s in tree.all_selections() if s.amount > 1)
        trees[army] = (tree, selection, selection.amount, sum(1 for _ in tree.all_selections()))
    native_times: list[float] = []
    tree_times: dict[str, list[float]] = {army: [] for army in ARMIES}
    base = native.units[at].size
    for i in range(rounds):
        documents = [edited(base + (j + i) % 2) for j in range(20)]
        start = time.process_time()
        for document in documents:
            validate(book, document)
        native_times.append((time.process_time() - start) / len(documents))
        for army, (tree, selection, amount, _n) in trees.items():
            start = time.process_time()
            set_count(tree, selection, amount + (i % 2))
            evaluate(tree)
            tree_times[army].append(time.process_time() - start)
    floor = statistics.median(native_times)
    print(f"native Empire of Man validated after one unit's size changed: {floor * 1e6:.0f} us CPU")
    for army in ARMIES:
        took = statistics.median(tree_times[army])
        print(f"  {army}: {trees[army][3]} selections, one model count set and evaluated {took * 1000:.2f} ms CPU; "
              f"ratio {took / floor:.0f}")


if __name__ == "__main__":
    main()
