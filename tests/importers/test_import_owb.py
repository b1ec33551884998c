"""import_owb: every file of Old World Builder's datasets loads as books of our format.

Reads ../shared/external/old-world-builder at run time (its files are never copied here) and is
skipped when that folder is absent.
"""
from __future__ import annotations

import itertools

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.importers.owb import ITEMS_ID, OwbInputError, check
from armylists.importers.owb.notes import parse_note
from armylists.rules import load_tree, parse_roster, validate

ROOT = Path(__file__).resolve().parents[2]
OWB = ROOT.parent / "shared" / "external" / "old-world-builder"
SYSTEM = "the-old-world"

pytestmark = pytest.mark.skipif(not (OWB / "the-old-world-system.json").is_file(),
                                reason="Old World Builder's datasets are not in ../shared/external/old-world-builder")


def raw(name: str):
    return json.loads((OWB / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def system(library):
    return library.systems[SYSTEM]


@pytest.fixture(scope="module")
def conversion(owb_conversion):
    return owb_conversion


@pytest.fixture(scope="module")
def books(owb_books):
    return owb_books


def roster(book, units, points_limit=2000, **extra):
    return parse_roster({"format": "armylist/1", "system": SYSTEM, "book": book.id, "book_version": book.version,
                         "points_limit": points_limit, "units": units, **extra})


def codes(report):
    return sorted(v.code for v in report.violations)


# --- every file loads ------------------------------------------------------------------------------

def test_all_18_armies_load_through_the_engines_loader(books, conversion):
    armies = [a["id"] for a in raw("the-old-world-system.json")["armies"]]
    assert len(armies) == 18
    assert sorted(books) == sorted(armies)
    for army, book in books.items():
        assert (book.id, book.imported, book.version) == (f"owb-{army}", True, conversion.version)
        assert book.unchecked and "Old World Builder (old-world-builder.com" in book.sources[0]
    assert conversion.version == "owb-4f78d6b4.r4"  # OWB's commit, from the folder's NOTE.md; our importer's revision 4


def test_each_book_has_one_entry_per_unit_of_the_dataset_plus_its_hired_mercenaries(books, conversion):
    system_file = raw("the-old-world-system.json")
    for army in system_file["armies"]:
        data = raw(f"the-old-world/{army['id']}.json")
        units = sum(len(v) for v in data.values())
        hired = {(g["army"], u) for groups in (army.get("mercenaries") or {}).values() for g in groups
                 if g["army"] != army["id"] for u in g["units"]}
        report = next(r for r in conversion.reports if r.army == army["id"])
        assert (report.units, report.mercenaries) == (units, len(hired)), army["id"]
        assert len(books[army["id"]].entries) == units + len(hired), army["id"]


def test_every_magic_item_group_loads_with_all_its_items(books, conversion):
    groups = raw("the-old-world/magic-items.json")
    common = conversion.items_file["items"]
    assert len(common) == len(groups["general"]) == 103
    taken: set[str] = set()
    for army, book in books.items():
        report = next(r for r in conversion.reports if r.army == army)
        for group, count in report.groups.items():
            assert count == len(groups[group]), (army, group)
            source = f"Old World Builder magic-items.json, {group}"
            assert sum(1 for i in book.items.values() if i.source == source) == len(groups[group]), (army, group)
        assert sum(1 for i in book.items.values() if i.common) == 103
        taken |= set(report.groups)
    assert taken == set(groups) - {"general"}  # every army and item-like group is some book's


def test_the_books_written_into_a_folder_load_with_load_tree(conversion, tmp_path):
    call_command("import_owb", str(OWB), "--into", str(tmp_path), verbosity=0)
    library = load_tree(tmp_path)
    assert len(library.books) == 18
    assert sorted(library.common_items[SYSTEM]) == sorted(i["id"] for i in conversion.items_file["items"])
    book = library.latest(SYSTEM, "owb-empire-of-man")
    assert book is not None and book.imported and len(book.entries) == 65


def test_a_dangling_reference_is_an_error_naming_the_army_and_the_path(conversion, system):
    broken = json.loads(json.dumps(conversion.books[1]))  # empire-of-man
    broken["entries"][0]["options"][0]["requires"] = ["no-such-option"]
    bad = type(conversion)(conversion.version, conversion.items_file, [broken], [conversion.reports[1]])
    with pytest.raises(OwbInputError) as caught:
        check(bad, system)
    assert str(caught.value) == (
        "owb-empire-of-man (OWB army empire-of-man): entries[0].options[0].requires[0]: names 'no-such-option', "
        "which is not an option, mount or command part of 'general-of-the-empire'")


# --- what maps to what -------------------------------------------------------------------------------

def test_a_character_keeps_its_points_options_mounts_allowance_and_battle_standard(books):
    captain = books["empire-of-man"].entries["captain-of-the-empire"]
    assert (captain.category, captain.points, captain.size_min, captain.size_max) == ("characters", 45, 1, 1)
    assert captain.items.allowance == 50 and {"weapon", "armour", "talisman", "enchanted"} <= captain.items.categories
    assert captain.options["great-weapon"].group == "weapons" and captain.options["heavy-armour"].group == "armour"
    assert captain.options["battle-standard-bearer"].role == "bsb"
    assert captain.mounts["pegasus"].cost == 30 and not captain.mount_required
    assert "light-armour" in captain.equipment  # OWB's default armour costs nothing: the entry's own


def test_a_unit_keeps_its_size_command_and_moves_category_by_composition(books):
    troops = books["empire-of-man"].entries["state-troops"]
    assert (troops.size_min, troops.size_max, troops.points) == (10, None, 5)
    assert set(troops.command) == {"champion", "musician", "standard"}
    assert troops.category_in(None) == "core" and troops.category_in("knightly-order-panther") == "special"


def test_a_wizard_has_its_level_lores_and_level_upgrade(books):
    mage = books["empire-of-man"].entries["master-mage"]
    assert mage.wizard_level == 1 and "battle-magic" in mage.paths
    assert mage.options["level-2-wizard"].wizard_level == 2


def test_named_characters_are_tagged_and_unique(books):
    book = books["empire-of-man"]
    named = [e for e in book.entries.values() if "named" in e.tags]
    assert named
    report = validate(book, roster(book, [{"id": "a", "entry": named[0].id}, {"id": "b", "entry": named[0].id}]))
    assert "named.max" in codes(report)


def test_0_1_per_1000_points_is_a_shared_count_rule_at_its_boundary(books):
    """"0-1 General of the Empire or Grand Master per 1000 points": 1 at 1999, 2 at 2000."""
    book = books["empire-of-man"]
    rule = next(r for r in book.rules if r.type == "count" and set(r.params["select"]["entry"]) == {
        "general-of-the-empire", "grand-master"})
    assert rule.params["max"] == {"per_points": 1000, "each": 1}
    units = [{"id": "a", "entry": "general-of-the-empire", "general": True}, {"id": "b", "entry": "grand-master",
                                                                             "mount": "barded-warhorse"}]
    assert "count.max" in codes(validate(book, roster(book, units, 1999)))
    assert "count.max" not in codes(validate(book, roster(book, units, 2000)))


def test_a_composition_replaces_the_grand_army_percentages_and_limits_it_does_not_share(books, system):
    book = books["empire-of-man"]
    panther = book.compositions["knightly-order-panther"]
    percent = {r.id for r in system.rules if r.type == "category_percent"}
    assert percent <= panther.replace_rules
    grand_limit = next(r.id for r in book.rules if r.params.get("label") == "General of the Empire or Grand Master")
    assert grand_limit in panther.replace_rules
    # Its own percentages come from OWB's program code (owb_compositions.yaml; tests/importers/test_import_owb_fidelity.py).
    assert not [line for line in book.unchecked if "category percentages are not in" in line]
    assert [(r.params["categories"], r.params.get("max")) for r in panther.rules if r.id.endswith("mercenaries-maximum")] \
        == [(["mercenaries"], 25)]


def test_units_offered_only_in_some_compositions_are_refused_elsewhere(books):
    book = books["empire-of-man"]
    units = [{"id": "a", "entry": "grand-master", "general": True, "mount": "barded-warhorse"},
             {"id": "b", "entry": "inner-circle-knights-panther-core", "size": 5}]
    grand = validate(book, roster(book, units))
    assert [v.message for v in grand.violations if v.code == "count.max"] == [
        "Units not offered in Empire of Man: 1 unit taken; at most 0."]
    assert "count.max" not in codes(validate(book, roster(book, units, composition="knightly-order-panther")))


def test_an_allowance_that_differs_by_composition_is_the_composition_s(books):
    """OWB gives a Royal Clan's Thane 100 points of runes where the Grand Army's has 75: `allowance_in`."""
    book = books["dwarfen-mountain-holds"]
    thane = book.entries["thane"].items
    assert (thane.allowance, dict(thane.allowance_in)) == (75, {"royal-clan": 100})
    runes = sorted((i for i in book.items.values() if i.category == "weapon-runes"), key=lambda i: (i.cost, i.id))
    chosen = next(c for n in (1, 2) for c in itertools.combinations(runes, n) if 75 < sum(i.cost for i in c) <= 100)
    units = [{"id": "t", "entry": "thane", "general": True, "items": [i.id for i in chosen]}]
    grand = validate(book, roster(book, units))
    clan = validate(book, roster(book, units, composition="royal-clan"))
    spent = sum(i.cost for i in chosen)
    assert f"Thane (t) has {spent} pts of magical items; its allowance is 75 pts." in [v.message for v in grand.violations]
    assert "items.allowance" not in codes(clan)


def test_runes_are_item_categories_of_the_book_three_to_a_model(books):
    book = books["dwarfen-mountain-holds"]
    runes = sorted((i for i in book.items.values() if i.category == "weapon-runes" and i.cost <= 25),
                   key=lambda i: i.cost)
    assert book.system.item_categories["weapon-runes"].max_per_model == 3
    smith = {"id": "a", "entry": "runesmith", "general": True}
    three = validate(book, roster(book, [{**smith, "items": [i.id for i in runes[:3]]}]))
    four = validate(book, roster(book, [{**smith, "items": [i.id for i in runes[:4]]}]))
    assert "items.same_category" not in codes(three)
    assert "items.same_category" in codes(four)


def test_what_the_data_cannot_say_is_stated_plainly(books):
    unchecked = books["empire-of-man"].unchecked
    assert unchecked[0].startswith("Army-specific limits that Old World Builder keeps in its program code")
    assert any(line.startswith("OWB's data has no troop types") for line in unchecked)
    assert any(line.startswith("Not checked, ") for line in unchecked)
    assert any(line.startswith("Allies (") for line in unchecked)


@pytest.mark.parametrize("note, expected", [
    ("0-1 Alpha or Beta per 1,000 points", {"type": "count", "params": {
        "select": {"entry": ["alpha", "beta"]}, "label": "Alpha or Beta", "max": {"per_points": 1000, "each": 1}},
        "tags": ["per-1000"]}),
    ("0-2 war machines chosen from the following list per 1000 points: Alpha, Beta", {"type": "count", "params": {
        "select": {"entry": ["alpha", "beta"]}, "label": "Alpha or Beta", "max": {"per_points": 1000, "each": 2}},
        "tags": ["per-1000"]}),
    ("0-1 unit of Beta may be taken as a Core choice", {"type": "count", "params": {
        "select": {"entry": ["beta"], "category": "core"}, "label": "Beta as Core", "max": 1}}),
    ("1+ unit of Alpha and/or Beta", {"type": "count", "params": {
        "select": {"entry": ["alpha", "beta"]}, "label": "Alpha or Beta", "min": 1}}),
    ("0-1 per unit of Beta", {"type": "ratio", "params": {
        "select": {"entry": ["alpha"]}, "per": {"entry": ["beta"]}, "each": 1, "label": "Alpha", "per_label": "Beta"}}),
    ("0-1 per army", {"type": "count", "params": {"select": {"entry": ["alpha"]}, "label": "Alpha", "max": 1}}),
    ("0-1 if your General is Beta", None),
    ("0-1 Gamma per 1000 points", None),
])
def test_notes_in_a_regular_form_become_rules_and_the_rest_is_reported(note, expected):
    names = {"alpha": "Alpha", "beta": "Beta"}
    rules, rest = parse_note(note, ["alpha"], lambda t: [t.lower()] if t.lower() in names else None,
                             lambda ids: " or ".join(names[i] for i in ids))
    assert (rules, rest) == (([expected], []) if expected else ([], [note]))


# --- the command ------------------------------------------------------------------------------------

@pytest.fixture
def owb_copy(tmp_path) -> Path:
    target = tmp_path / "owb"
    shutil.copytree(OWB, target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


@pytest.mark.django_db
def test_the_database_import_is_all_there_and_idempotent(capsys):
    from armylists.lists.library.catalogue import get_book, listed_books
    from armylists.models import RulesFile

    call_command("import_owb", str(OWB), verbosity=0)
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "20 new, 0 unchanged; 18 Old World Builder books in the database."
    stored = sorted(RulesFile.objects.values_list("kind", "slug", "version", "content_hash"))
    kinds = [(k, s) for k, s, _, _ in stored]
    assert kinds[:2] == [("book", "owb-beastmen-brayherds"), ("book", "owb-chaos-dwarfs")]
    assert ("items", ITEMS_ID) in kinds and ("system", SYSTEM) in kinds

    call_command("import_owb", str(OWB), verbosity=0)
    assert capsys.readouterr().out.splitlines()[-1] == "0 new, 20 unchanged; 18 Old World Builder books in the database."
    again = sorted(RulesFile.objects.values_list("kind", "slug", "version", "content_hash"))
    assert again == stored

    book = get_book(SYSTEM, "owb-empire-of-man", "owb-4f78d6b4.r4")
    assert book is not None and book.imported and len(book.entries) == 65
    assert sum(1 for i in book.items.values() if i.common) == 103  # owb-general, and no other item list
    armies = raw("the-old-world-system.json")["armies"]
    assert {b.id for b in listed_books() if b.imported} == {f"owb-{a['id']}" for a in armies}


@pytest.mark.django_db
def test_imported_books_are_offered_on_the_site_and_described_by_the_api(client, api_anonymous):
    call_command("import_owb", str(OWB), verbosity=0)
    assert "Empire of Man (Old World Builder)" in client.get("/").content.decode()
    data = api_anonymous.get("/api/v1/books/the-old-world/owb-empire-of-man/owb-4f78d6b4.r4/").json()
    assert data["imported"] is True and len(data["entries"]) == 65
    assert len(data["common_items"]) == 103 and len(data["items"]) == 99  # owb-general, then its own


@pytest.mark.django_db
def test_changed_content_under_the_same_version_is_refused_and_nothing_changes():
    from armylists.models import RulesFile

    call_command("import_owb", str(OWB), verbosity=0)
    RulesFile.objects.filter(slug="owb-skaven").update(content_hash="0" * 64)
    RulesFile.objects.filter(slug="owb-ogre-kingdoms").delete()
    before = sorted(RulesFile.objects.values_list("slug", "content_hash"))
    with pytest.raises(CommandError) as caught:
        call_command("import_owb", str(OWB), verbosity=0)
    assert str(caught.value).startswith("Nothing imported.\nversion owb-4f78d6b4.r4 of book 'owb-skaven' is already "
                                        "loaded with other content")
    assert sorted(RulesFile.objects.values_list("slug", "content_hash")) == before


def test_check_writes_nothing_and_into_refuses_the_repository(capsys, tmp_path):
    call_command("import_owb", str(OWB), "--check", verbosity=1)
    out = capsys.readouterr().out
    assert "empire-of-man: owb-empire-of-man, 65 entries (61 units and 4 mercenaries from other armies)" in out
    assert "    - Army-specific limits that Old World Builder keeps in its program code" in out
    assert out.splitlines()[-1] == "18 books and 1 item list are good; nothing written."
    with pytest.raises(CommandError) as caught:
        call_command("import_owb", str(OWB), "--into", str(ROOT / "rules_data"))
    assert "is inside this repository" in str(caught.value)
    assert not (ROOT / "rules_data" / SYSTEM / "books" / "owb-empire-of-man.yaml").exists()


@pytest.mark.parametrize("damage, message", [
    (lambda d: (d / "the-old-world" / "skaven.json").write_text("{not json"),
     "the-old-world/skaven.json: is not valid JSON: Expecting property name enclosed in double quotes at line 1, "
     "column 2"),
    (lambda d: (d / "the-old-world" / "lizardmen.json").unlink(), "the-old-world/lizardmen.json: is missing"),
    (lambda d: _edit(d / "the-old-world" / "skaven.json", lambda data: data["core"][0].update(points="many")),
     "the-old-world/skaven.json: core[0].points: is 'many', not a number of points"),
    (lambda d: _edit(d / "the-old-world" / "magic-items.json", lambda data: data["general"][2].pop("type")),
     "the-old-world/magic-items.json: general[2].type: is missing"),
])
def test_a_bad_input_file_stops_everything_with_one_clear_line(owb_copy, damage, message):
    damage(owb_copy)
    with pytest.raises(CommandError) as caught:
        call_command("import_owb", str(owb_copy), "--check")
    assert str(caught.value) == f"Nothing imported. {owb_copy}/{message}"


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_from_the_command_line_a_bad_file_is_one_line_and_no_traceback(owb_copy):
    (owb_copy / "the-old-world-system.json").write_text("[]")
    done = subprocess.run([sys.executable, "manage.py", "import_owb", str(owb_copy), "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip() == (f"CommandError: Nothing imported. {owb_copy}/the-old-world-system.json: armies: "
                                   f"is missing (not an Old World Builder system file)")
