"""Old World Builder's older source trees read (issue 38 item 5): before 2025-04 OWB kept every game's
system in `src/assets/armies.json`, a list of {"id": game, "armies": [...]}, and wrote an army's allies as
the allied army's id alone ("dwarfen-mountain-holds"); that tree was not recognised, and the strings
failed with "AttributeError: 'str' object has no attribute 'get'", naming no file. The trees here are
made at run time from the real datasets in ../shared/external/old-world-builder, put in the older shape."""
from __future__ import annotations

import json
import shutil

import pytest

from armylists.gamedata.archives import guess_kind
from armylists.gamedata.importing import import_folder
from armylists.importers.owb import read_dataset
from armylists.importers.owb.data import OwbInputError
from armylists.lists.library.catalogue import get_book
from armylists.models import RulesFile
from tests.fake_github import EXTERNAL

OWB = EXTERNAL / "old-world-builder"
ARMIES = ("empire-of-man", "dwarfen-mountain-holds", "orc-and-goblin-tribes")
pytestmark = pytest.mark.skipif(not (OWB / "the-old-world-system.json").is_file(),
                                reason="Old World Builder's datasets are not in ../shared/external/old-world-builder")


def older_tree(folder, games=None):
    """Three armies of the real data in an older tree's layout: src/assets/armies.json holding every game,
    allies as army ids, the army files in public/games/the-old-world/."""
    system = json.loads((OWB / "the-old-world-system.json").read_text(encoding="utf-8"))
    armies = []
    for army in system["armies"]:
        if army["id"] not in ARMIES:
            continue
        army["allies"] = sorted({a["army"] for a in army.get("allies", []) if a["army"] != army["id"]})
        army["mercenaries"] = {comp: [g for g in groups if g["army"] in ARMIES]
                               for comp, groups in (army.get("mercenaries") or {}).items()}
        armies.append(army)
    system["armies"] = armies
    games = games if games is not None else [system, {"id": "warhammer-fantasy", "name": "Warhammer Fantasy",
                                                      "armies": []}]
    (folder / "src" / "assets").mkdir(parents=True)
    (folder / "src" / "assets" / "armies.json").write_text(json.dumps(games), encoding="utf-8")
    target = folder / "public" / "games" / "the-old-world"
    target.mkdir(parents=True)
    for name in (*ARMIES, "magic-items"):
        shutil.copy(OWB / "the-old-world" / f"{name}.json", target / f"{name}.json")
    return folder


def test_an_older_tree_is_read_with_its_allies_as_army_ids(tmp_path):
    dataset = read_dataset(older_tree(tmp_path))
    assert dataset.system_path == tmp_path / "src" / "assets" / "armies.json"
    assert sorted(dataset.armies) == sorted(ARMIES)
    assert dataset.army("empire-of-man")["allies"] == [
        {"army": a} for a in ("dwarfen-mountain-holds", "grand-cathay", "kingdom-of-bretonnia", "renegade-crowns",
                              "wood-elf-realms")]
    assert guess_kind(tmp_path) == "owb"


@pytest.mark.django_db
def test_an_older_tree_is_imported_as_an_update_imports_it(tmp_path):
    outcome = import_folder("owb", older_tree(tmp_path), "nthiebes-old-world-builder-0123abc", "2024-11-30")
    assert sorted(b["book"] for b in outcome.books) == [f"owb-{a}" for a in sorted(ARMIES)]
    empire = next(b for b in outcome.books if b["book"] == "owb-empire-of-man")
    assert empire["version"].startswith("owb-")  # no NOTE.md, no .git: a hash of the files read
    stored = RulesFile.objects.get(kind="book", slug="owb-empire-of-man")
    # each ally written as an id is named among what the book does not check, as the object form is
    assert ("Allies (Dwarfen Mountain Holds, Grand Cathay, Kingdom of Bretonnia, Renegade Crowns, Wood Elf Realms) "
            "cannot be part of a list of this book.") in stored.data["unchecked"]
    assert get_book("the-old-world", "owb-empire-of-man", empire["version"]).entries


def test_an_armies_file_without_the_old_world_names_the_games_it_has(tmp_path):
    older_tree(tmp_path, games=[{"id": "warhammer-fantasy", "armies": []}])
    with pytest.raises(OwbInputError) as caught:
        read_dataset(tmp_path)
    assert str(caught.value) == (f"{tmp_path}/src/assets/armies.json: names no game 'the-old-world' "
                                 f"(the games it names: warhammer-fantasy)")


def test_an_ally_that_is_neither_an_id_nor_an_object_is_named_by_its_place(tmp_path):
    system = json.loads((OWB / "the-old-world-system.json").read_text(encoding="utf-8"))
    system["armies"] = [a for a in system["armies"] if a["id"] == "dwarfen-mountain-holds"]
    system["armies"][0]["allies"] = ["empire-of-man", 7]
    system["armies"][0]["mercenaries"] = {}
    older_tree(tmp_path, games=[system])
    with pytest.raises(OwbInputError) as caught:
        read_dataset(tmp_path)
    assert str(caught.value) == (f"{tmp_path}/src/assets/armies.json: armies[0].allies[1]: is neither an army id "
                                 f"nor an allied army")
