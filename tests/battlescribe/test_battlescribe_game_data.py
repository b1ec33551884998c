"""An imported BattleScribe book keeps the game data the tree evaluator needs (the game system, the
catalogue and the catalogues it links), packed in the database, so nothing reads the files again:
validate_list judges a roster after the files are gone; a book stored before that is judged from its
files, or told to be imported again."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from armylists.importers.battlescribe.roster_tree import write_tree
from armylists.lists.trees import battlescribe_data
from armylists.models import BattleScribeDocument, BookGameData
from armylists.rules.battlescribe import Roster, add_force, select
from armylists.rules.battlescribe.packed import PackedDataError, pack, unpack

ROOT = Path(__file__).resolve().parents[2]
T9A = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-2nd"
GST, CAT = "2nd-theNinthAge-FantasyBattles.gst", "2nd-dwarvenHolds.cat"
SYSTEM, BOOK, VERSION = "bs-the-9th-age-fantasy-battles-2nd-edition-2024", "bs-dwarven-holds-2024", "r57"
FORCE, KING, THANE = "1332-e68c-203e-bad0", "e197-83e0-bb7b-35be", "9625-ede6-a9d4-bacb"

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]


@pytest.fixture
def folder(tmp_path):
    """The Dwarven Holds catalogue and its game system, imported from a copy that a test may delete."""
    data = tmp_path / "t9a"
    data.mkdir()
    for name in (GST, CAT):
        shutil.copy(T9A / name, data / name)
    call_command("import_battlescribe", str(data), verbosity=0)
    battlescribe_data.clear()
    return data


def king_and_thane(tmp_path) -> Path:
    game = battlescribe_data.game_data_for(SYSTEM, BOOK, VERSION)
    roster = Roster(game)
    roster.cost_limits["24fd-8af8-0c78-001c"] = 2000
    force = add_force(roster, FORCE)
    select(roster, force, KING)
    select(roster, force, THANE)
    path = tmp_path / "dwarves.ros"
    path.write_bytes(write_tree(roster, "Dwarves"))
    return path


def validated(path: Path) -> tuple[int, dict | str]:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("validate_list", str(path), "--json", stdout=out, stderr=err)
    return exit_.value.code, (json.loads(out.getvalue()) if out.getvalue() else err.getvalue().strip())


EXPECTED = [("bs.constraint.min", "Core: 0 pts, 0% of the 2000 pts limit; at least 25% (500 pts)."),
            ("bs.constraint.min", "Army General: 0 taken in the army; at least 1.")]


def under(total: int) -> tuple[str, str]:
    """Our system's rule the catalogue lacks (rules_data/t9a-2, points-shortfall: at most 40 pts under)."""
    return ("points.under_limit", f"Total {total} pts is {2000 - total} pts under the 2000 pts limit; an army may "
                                  f"be at most 40 pts under it.")


def test_the_import_keeps_the_system_and_the_catalogue_once_each(folder):
    row = BookGameData.objects.get(book__slug=BOOK, book__version=VERSION)
    names = {d.digest: d.name for d in BattleScribeDocument.objects.all()}
    assert [names[d] for d in row.documents] == ["The 9th Age: Fantasy Battles 2nd Edition 2024", "Dwarven Holds 2024"]
    assert row.catalogue_id == "041b-e72b-1f30-5a89"
    call_command("import_battlescribe", str(folder), verbosity=0)   # again: nothing new
    assert BattleScribeDocument.objects.count() == 2 and BookGameData.objects.count() == 1


def test_validate_list_judges_a_roster_when_the_files_are_gone(folder, tmp_path):
    path = king_and_thane(tmp_path)
    shutil.rmtree(folder)
    status, report = validated(path)
    assert status == 1
    assert (report["total_points"], [(v["code"], v["message"]) for v in report["violations"]]) == (325, EXPECTED + [under(325)])


def test_a_book_stored_before_its_game_data_is_judged_from_its_files_or_told_to_import_again(folder, tmp_path):
    path = king_and_thane(tmp_path)
    BookGameData.objects.all().delete()
    status, report = validated(path)
    assert (status, [v["code"] for v in report["violations"]]) == (1, ["bs.constraint.min"] * 2 + ["points.under_limit"])
    shutil.rmtree(folder)
    status, message = validated(path)
    assert status == 2 and message.endswith("cannot be read again (" + message.split("cannot be read again (")[1])
    assert "import it again" in message
    call_command("import_battlescribe", str(T9A / GST), str(T9A / CAT), verbosity=0)  # a re-import fills it in
    assert BookGameData.objects.filter(book__slug=BOOK).count() == 1
    assert validated(path)[0] == 1


def test_packed_data_round_trips_and_damage_is_refused():
    document = {"kind": "catalogue", "id": "c", "name": "C", "source": "/tmp/c.cat", "catalogue_links": [("s", True)]}
    assert unpack(pack(document)) == {"kind": "catalogue", "id": "c", "name": "C", "catalogue_links": [["s", True]]}
    with pytest.raises(PackedDataError, match="cannot be unpacked"):
        unpack(pack(document)[:-4])
    with pytest.raises(PackedDataError, match="is not a game system or catalogue"):
        unpack(pack({"kind": "roster"}))
