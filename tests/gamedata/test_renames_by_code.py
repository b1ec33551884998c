"""A book is the same book across renames by what its data calls it for good (issue 38 item 2): a New
Recruit T9A army by its code (its file, `ok.json`), an Old World Builder army by its id. The data renamed
here is the real data of ../shared/external at run time (the army's `name` changed in a temporary copy):
the renamed book is the successor of the old one, new lists get only the new name, and a list on the old
name is offered the move."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model

from armylists.gamedata.importing import import_folder
from armylists.lists.library.catalogue import get_book, imported_book_keys, renamed_books, report_for
from armylists.lists.saved.history import upgrade_target
from armylists.lists.saved.stored import load
from armylists.models import ArmyList, RulesFile
from armylists.rules import parse_roster
from tests.fake_github import EXTERNAL

pytestmark = pytest.mark.django_db
BUNDLE = EXTERNAL / "new-recruit-t9a" / "nr-t9a.bundle"
COMMIT = "273623d85e29e20faf1ccb91060fd00fc79ff288"  # 2025-10-10
SHARED = ["special.json", "spells.json", "ruledefs.json", "unitstats.json"]
OWB = EXTERNAL / "old-world-builder"


@pytest.fixture(scope="module")
def nr_folder(tmp_path_factory):
    """Ogre Khans (ok.json) and the shared files of one real commit, unpacked."""
    if not BUNDLE.is_file():
        pytest.skip(f"New Recruit's T9A data is not at {BUNDLE} (/work/shared/external)")
    root = tmp_path_factory.mktemp("nr-renamed")
    clone = root / "clone"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(BUNDLE), str(clone)], check=True)
    out = root / "data"
    out.mkdir()
    tar = subprocess.run(["git", "--git-dir", str(clone), "archive", COMMIT, "ok.json", *SHARED], check=True,
                         capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=tar, check=True)
    return out


def renamed_copy(folder, target, file: str, name: str):
    shutil.copytree(folder, target)
    data = json.loads((target / file).read_text(encoding="utf-8"))
    data["name"] = name
    (target / file).write_text(json.dumps(data), encoding="utf-8")
    return target


def list_on(system: str, book: str, version: str) -> ArmyList:
    entry = next(iter(get_book(system, book, version).entries))
    roster = parse_roster({"format": "armylist/1", "system": system, "book": book, "book_version": version,
                           "points_limit": 2000, "name": "old name", "units": [{"id": "u1", "entry": entry}]})
    army_list = ArmyList(owner=get_user_model().objects.create(username="player"))
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    return army_list


def test_a_new_recruit_army_renamed_is_the_same_book_by_its_code(nr_folder, tmp_path):
    first = import_folder("nr-t9a", nr_folder, "vflam-nr-t9a-273623d", "2025-10-10")
    [(old, old_version)] = [(b["book"], b["version"]) for b in first.books]
    assert old == "ogre-khans"
    assert RulesFile.objects.get(kind="book", slug=old).lineage == "nr-t9a:ok"
    army_list = list_on("t9a-2", old, old_version)
    renamed = renamed_copy(nr_folder, tmp_path / "renamed", "ok.json", "Ogre Khanates")
    second = import_folder("nr-t9a", renamed, "vflam-nr-t9a-abcdef0", "2025-11-02")
    [(new, new_version)] = [(b["book"], b["version"]) for b in second.books]
    assert (new, new_version.rpartition("@")[2].split(".")[0]) == ("ogre-khanates", "2025-11-02")
    assert renamed_books("t9a-2") == {("t9a-2", "ogre-khans"): "ogre-khanates"}
    assert [(b, v) for s, b, v in imported_book_keys("t9a-2")] == [("ogre-khanates", new_version)]
    target = upgrade_target(load(army_list))
    assert (target.id, target.version, target.name) == ("ogre-khanates", new_version, "Ogre Khanates")


def test_an_army_whose_code_is_another_is_another_book(nr_folder, tmp_path):
    import_folder("nr-t9a", nr_folder, "vflam-nr-t9a-273623d", "2025-10-10")
    other = tmp_path / "other"
    shutil.copytree(nr_folder, other)
    (other / "ok.json").rename(other / "ok2.json")
    data = json.loads((other / "ok2.json").read_text(encoding="utf-8"))
    data["name"], data["short"] = "Ogre Khanates", "ok2"
    (other / "ok2.json").write_text(json.dumps(data), encoding="utf-8")
    import_folder("nr-t9a", other, "vflam-nr-t9a-abcdef0", "2025-11-02")
    assert renamed_books("t9a-2") == {}
    assert sorted(b for s, b, v in imported_book_keys("t9a-2")) == ["ogre-khanates", "ogre-khans"]


def test_an_old_world_builder_army_is_the_same_book_by_its_army_id_whatever_its_name(tmp_path):
    """OWB names the book by its army id (owb-<army id>): renaming the army keeps the book, at a new version."""
    if not (OWB / "the-old-world-system.json").is_file():
        pytest.skip("Old World Builder's datasets are not in ../shared/external/old-world-builder")
    folder = tmp_path / "owb"
    (folder / "the-old-world").mkdir(parents=True)
    system = json.loads((OWB / "the-old-world-system.json").read_text(encoding="utf-8"))
    system["armies"] = [a for a in system["armies"] if a["id"] == "dwarfen-mountain-holds"]
    system["armies"][0]["mercenaries"] = {}
    (folder / "the-old-world-system.json").write_text(json.dumps(system), encoding="utf-8")
    for name in ("dwarfen-mountain-holds", "magic-items"):
        shutil.copy(OWB / "the-old-world" / f"{name}.json", folder / "the-old-world" / f"{name}.json")
    first = import_folder("owb", folder, "nthiebes-old-world-builder-1", "2025-05-01")
    system["armies"][0]["name_en"] = "Dwarfen Holds"
    (folder / "the-old-world-system.json").write_text(json.dumps(system), encoding="utf-8")
    second = import_folder("owb", folder, "nthiebes-old-world-builder-2", "2025-06-01")
    assert [b["book"] for b in first.books] == [b["book"] for b in second.books] == ["owb-dwarfen-mountain-holds"]
    assert [b["name"] for b in second.books] == ["Dwarfen Holds (Old World Builder)"]
    assert set(RulesFile.objects.filter(kind="book").values_list("lineage", flat=True)) == {"owb:dwarfen-mountain-holds"}
    assert [(b, v) for s, b, v in imported_book_keys("the-old-world")] == \
        [("owb-dwarfen-mountain-holds", second.books[0]["version"])]
