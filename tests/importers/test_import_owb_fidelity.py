"""Imported Old World books as exact as our own: where an OWB note limits a unit, a Battle Standard's
magic standard, and the choices a composition does not offer (issue 14, items 1-3).

OWB's datasets are read from ../shared/external/old-world-builder at run time; skipped when absent.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from armylists.importers.owb import check, convert, read_dataset
from armylists.importers.owb.lists import convert_list
from armylists.rules import parse_roster, validate

ROOT = Path(__file__).resolve().parents[2]
OWB = ROOT.parent / "shared" / "external" / "old-world-builder"
SYSTEM = "the-old-world"
FILE = "test.owb.json"

pytestmark = pytest.mark.skipif(not (OWB / "the-old-world-system.json").is_file(),
                                reason="Old World Builder's datasets are not in ../shared/external/old-world-builder")


@pytest.fixture(scope="module")
def dataset(owb_dataset):
    return owb_dataset


@pytest.fixture(scope="module")
def books(owb_books):
    return owb_books


def report(book, units, points_limit=2000, **extra):
    return validate(book, parse_roster({"format": "armylist/1", "system": SYSTEM, "book": book.id,
                                        "book_version": book.version, "points_limit": points_limit,
                                        "units": units, **extra}))


def messages(result, code):
    return [v.message for v in result.violations if v.code == code]


# --- 1. a 0-X note limits a unit only where it applies ----------------------------------------------
# Combined Arms (the-old-world-facts.md): the same Core unit at most 4 times at 2000 points; "units with
# their own 0-X limit are exempt". OWB's note "0-1 unit of State Troops or State Missile Troops per 1000
# points" is written only for the Knightly Orders (the-old-world/empire-of-man.json, armyComposition).

def troops(n, entry="state-troops"):
    return [{"id": f"t{i}", "entry": entry, "size": 10} for i in range(n)]


def test_state_troops_are_not_exempt_from_combined_arms_in_the_grand_army(books):
    book = books["empire-of-man"]
    assert "own-limit" not in book.entries["state-troops"].tags
    at = report(book, troops(4), modes=["combined-arms"])
    assert messages(at, "duplicates.max") == []
    over = report(book, troops(5), modes=["combined-arms"])
    assert messages(over, "duplicates.max") == [
        "State Troops is taken 5 times; Core units may each be taken at most 4 times in a 2000-pt army."]


def test_in_a_knightly_order_its_own_limit_counts_them_instead(books):
    """There State Troops are Special, 0-1 per 1000 points (with State Missile Troops), and exempt from
    Combined Arms' 3 of each Special unit: 2 at 2000 points pass, a third breaks the note's limit only."""
    book = books["empire-of-man"]
    panther = "knightly-order-panther"
    assert book.entries["state-troops"].composition_tags[panther] == frozenset({"own-limit", "per-1000"})
    at = report(book, troops(2), modes=["combined-arms"], composition=panther)
    assert messages(at, "duplicates.max") == messages(at, "count.max") == []
    over = report(book, troops(3), modes=["combined-arms"], composition=panther)
    assert messages(over, "duplicates.max") == []
    assert messages(over, "count.max") == [
        "State Troops or State Missile Troops: 3 units taken; at most 2 (1 per 1000 pts of the 2000-pt limit)."]


def test_a_note_as_a_core_choice_limits_and_exempts_only_the_core_entry(books):
    """Dwarfs, Grand Army: "0-1 unit of Longbeards may be taken as a Core choice". The Core Longbeards are
    limited (and exempt from Combined Arms); the Special Longbeards are neither."""
    book = books["dwarfen-mountain-holds"]
    assert "own-limit" in book.entries["long-beards-core"].tags
    assert "own-limit" not in book.entries["long-beards"].tags
    special = [{"id": f"l{i}", "entry": "long-beards", "size": 10} for i in range(4)]
    assert messages(report(book, special[:3], modes=["combined-arms"]), "duplicates.max") == []
    assert messages(report(book, special, modes=["combined-arms"]), "duplicates.max") == [
        "Longbeards is taken 4 times; Special units may each be taken at most 3 times in a 2000-pt army."]


def test_an_orders_own_core_knights_are_limited_by_their_own_note(books):
    """The Panther order's Core Inner Circle Knights carry the note "0-1 unit of Inner Circle Knights may be
    taken as a Core choice": it names their kind, and limits that Core entry itself (before, the rule
    counted the Special Inner Circle Knights in Core, which is none)."""
    book = books["empire-of-man"]
    rule = next(r for r in book.compositions["knightly-order-panther"].rules
                if r.params.get("select", {}).get("category") == "core" and r.params["max"] == 1
                and "inner-circle-knights-panther-core" in r.params["select"]["entry"])
    assert rule.params["select"]["entry"] == ["inner-circle-knights-panther-core"]
    knights = [{"id": f"k{i}", "entry": "inner-circle-knights-panther-core", "size": 5} for i in range(2)]
    one = report(book, knights[:1], composition="knightly-order-panther")
    two = report(book, knights, composition="knightly-order-panther")
    assert not [v for v in one.violations if v.rule == rule.id]
    assert [v.message for v in two.violations if v.rule == rule.id] == [
        "Inner Circle Knights as Core: 2 units taken; at most 1."]  # the note's own words


# --- 2. a Battle Standard Bearer's magic standard is outside the allowance ---------------------------
# the-old-world-facts.md: "a Battle Standard may take a magic standard outside the allowance"; OWB gives
# every Battle Standard Bearer's standard no points limit (`magic.maxPoints` 0).

BSB = {"id": "b", "entry": "captain-of-the-empire", "options": {"battle-standard-bearer": 1}}


def test_the_bsb_option_carries_the_systems_outside_allowance_tag(books):
    captain = books["empire-of-man"].entries["captain-of-the-empire"]
    assert captain.options["battle-standard-bearer"].tags == frozenset({"standard-outside-allowance"})
    assert captain.options["battle-standard-bearer"].item_allowance is None
    assert captain.items.allowance == 50


def test_a_bsbs_other_items_fit_the_allowance_beside_its_standard(books):
    """Captain of the Empire, 50 points: the Imperial Banner (60) and the Sword of Reaving (50) pass;
    Duellist's Blades (55) are 5 over, the smallest step the items allow."""
    book = books["empire-of-man"]
    at = report(book, [{**BSB, "items": ["imperial-banner", "sword-of-reaving"]}])
    assert messages(at, "items.allowance") == []
    over = report(book, [{**BSB, "items": ["imperial-banner", "duellists-blades"]}])
    assert messages(over, "items.allowance") == [
        "Captain of the Empire (b) has 55 pts of magical items besides its Battle Standard (60 pts, outside the "
        "allowance); its allowance is 50 pts."]


def test_a_bsb_without_a_standard_has_the_plain_allowance(books):
    """Before, the allowance was raised by the dearest standard (to 130): 75 points of other items passed."""
    book = books["empire-of-man"]
    over = report(book, [{**BSB, "items": ["ogre-blade"]}])
    assert messages(over, "items.allowance") == [
        "Captain of the Empire (b) has 75 pts of magical items; its allowance is 50 pts."]


def test_no_unchecked_line_about_the_bsbs_standard_remains(books):
    assert not [line for book in books.values() for line in book.unchecked if "Battle Standard Bearer's magic" in line]


# --- 3. a choice not offered in the list's composition is kept, priced and reported ------------------
# OWB offers a Runesmith's "Battle Standard Bearer" only in a Royal Clan (its `armyComposition`).

def runesmith(dataset, bsb=True):
    unit = copy.deepcopy(next(u for u in dataset.armies["dwarfen-mountain-holds"]["characters"]
                              if u["id"] == "runesmith"))
    unit["id"] = "runesmith.r1"
    for part in unit["command"]:
        if part["name_en"] == "Battle Standard Bearer":
            part["active"] = bsb
    return unit


def owb_list(unit, composition):
    return {"name": "Hold", "game": SYSTEM, "points": 2000, "army": "dwarfen-mountain-holds",
            "armyComposition": composition, "compositionRule": "open-war", "characters": [unit], "core": []}


@pytest.mark.parametrize("composition, refused", [("dwarfen-mountain-holds", True), ("royal-clan", False)])
def test_a_runesmith_bsb_is_kept_priced_and_refused_outside_a_royal_clan(dataset, books, composition, refused):
    book = books["dwarfen-mountain-holds"]
    document = convert_list(owb_list(runesmith(dataset), composition), book, FILE)
    assert document["units"][0]["options"] == {"battle-standard-bearer": 1}
    result = validate(book, parse_roster(document, FILE))
    plain = validate(book, parse_roster(convert_list(owb_list(runesmith(dataset, bsb=False), composition), book,
                                                     FILE), FILE))
    assert result.total_points - plain.total_points == 25
    found = [v.message for v in result.violations if v.source == "Old World Builder: not offered in this composition"]
    assert found == (["Battle Standard Bearer (not in Dwarfen Mountain Holds): 1 unit taken; at most 0."] if refused else [])


@pytest.mark.parametrize("composition, refused", [("knightly-order-panther", True), (None, False)])
def test_a_character_owb_lets_lead_only_some_compositions_is_refused_as_general_elsewhere(books, composition, refused):
    """OWB offers a Witch Hunter the General's role in the Empire's own list, not in a Knightly Order's (as our
    book's 'Witch Hunters and Priests as General (not in a Knightly Order army)')."""
    book = books["empire-of-man"]
    document = {"format": "armylist/1", "system": SYSTEM, "book": book.id, "book_version": book.version,
                "points_limit": 2000, "units": [{"id": "w", "entry": "witch-hunter", "general": True}],
                **({"composition": composition} if composition else {})}
    found = [(v.code, v.message) for v in validate(book, parse_roster(document, FILE)).violations
             if v.source == "Old World Builder: not offered in this composition"]
    assert found == ([("count.max", "Witch Hunter as General (not in Knightly Order Panther): 1 unit taken; at most 0.")]
                     if refused else [])


# --- 4. the Armies of Infamy's category percentages (OWB's program code, owb_compositions.yaml) -------
# Facts from Old World Builder's src/utils/rules.js (CC BY 4.0), as armylists/importers/owb/owb_compositions.yaml
# records them: Errantry Crusades Core at least 33% and Rare at most 33%; Wolves of the Sea Rare at most 33%.

def percent_messages(result, rule_id):
    return [v.message for v in result.violations if v.rule == rule_id]


def test_an_errantry_crusades_core_is_at_least_33_percent(books):
    """At 3000 points the bound is 990: 198 Yeoman Guard (5 each) pass; 188 and 7 Squires (989) fail. In
    the Grand Army (Core at least 25%) the same 989 pass."""
    book, rule = books["kingdom-of-bretonnia"], "owb-errantry-crusades-core-minimum"
    at = report(book, [{"id": "y", "entry": "yeoman-guard", "size": 198}], 3000, composition="errantry-crusades")
    assert percent_messages(at, rule) == []
    under = [{"id": "y", "entry": "yeoman-guard", "size": 188}, {"id": "s", "entry": "squires", "size": 7}]
    assert percent_messages(report(book, under, 3000, composition="errantry-crusades"), rule) == [
        "Core: 989 pts is 32.97% of 3000; at least 33% (990 pts) is required."]
    grand = report(book, under, 3000)
    assert [v.message for v in grand.violations if v.code == "category.min_percent"] == []


def test_wolves_of_the_sea_take_rare_up_to_33_percent(books):
    """At 3000 points: a Warpfire Dragon, a Hellcannon and two Chaos Giants (990) pass; a Warpfire Dragon
    and 14 Minotaurs (991) fail. The Grand Army's 25% (750) refuses the 990."""
    book, rule = books["warriors-of-chaos"], "owb-wolves-of-the-sea-rare-maximum"
    at = [{"id": "d", "entry": "warpfire-dragon"}, {"id": "h", "entry": "hellcannon"},
          {"id": "g1", "entry": "chaos-giant"}, {"id": "g2", "entry": "chaos-giant"}]
    assert percent_messages(report(book, at, 3000, composition="wolves-of-the-sea"), rule) == []
    over = [{"id": "d", "entry": "warpfire-dragon"}, {"id": "m", "entry": "minotaur-herds", "size": 14}]
    assert percent_messages(report(book, over, 3000, composition="wolves-of-the-sea"), rule) == [
        "Rare: 991 pts is 33.03% of 3000; at most 33% (990 pts)."]
    assert [v.message for v in report(book, at, 3000).violations if v.code == "category.max_percent"] == [
        "Rare: 990 pts is 33.0% of 3000; at most 25% (750 pts)."]


def test_a_category_the_composition_does_not_name_takes_none(books):
    """Hordes of Chaos names no Mercenaries in OWB's code: at most 0%, as our own books read such lists."""
    rule = next(r for r in books["warriors-of-chaos"].compositions["hordes-of-chaos"].rules
                if r.id == "owb-hordes-of-chaos-mercenaries-maximum")
    assert rule.params == {"categories": ["mercenaries"], "max": 0}


def test_a_grand_army_whose_percentages_differ_replaces_the_systems(books):
    """Renegade Crowns: Special at most 33% and Mercenaries at most 33% (the system's are 50% and 20%)."""
    book = books["renegade-crowns"]
    assert book.replace_rules == frozenset({"special-maximum", "mercenaries-maximum"})
    percent = {r.id: r.params for r in book.rules_for(None) if r.type == "category_percent"}
    assert percent["owb-grand-army-mercenaries-maximum"] == {"categories": ["mercenaries"], "max": 33}
    assert percent["owb-grand-army-special-maximum"] == {"categories": ["special"], "max": 33}
    assert "mercenaries-maximum" not in percent and "special-maximum" not in percent


def test_every_composition_has_its_percentages_and_no_unchecked_line_says_otherwise(books):
    for book in books.values():
        assert not [line for line in book.unchecked if "category percentages are not in OWB's data" in line], book.id
        for cid, composition in book.compositions.items():
            cats = sorted(r.params["categories"][0] for r in composition.rules if r.type == "category_percent")
            assert cats == sorted(c.id for c in book.system.categories), (book.id, cid)


# --- 6. OWB's source tree as it is --------------------------------------------------------------------
# In OWB's repository the system file is src/assets/the-old-world.json and the army files and
# magic-items.json are under public/games/the-old-world/ (github.com/nthiebes/old-world-builder).

def owb_tree(root: Path, commit: str | None = None) -> Path:
    """A temporary tree in OWB's own layout, from the files of ../shared/external/old-world-builder."""
    import shutil
    (root / "src" / "assets").mkdir(parents=True)
    shutil.copyfile(OWB / "the-old-world-system.json", root / "src" / "assets" / "the-old-world.json")
    shutil.copytree(OWB / "the-old-world", root / "public" / "games" / "the-old-world")
    if commit:  # a git checkout: .git/HEAD names its branch, whose ref holds the commit
        (root / ".git" / "refs" / "heads").mkdir(parents=True)
        (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        (root / ".git" / "refs" / "heads" / "main").write_text(commit + "\n")
    return root


def test_owbs_source_tree_imports_the_same_books_as_the_flat_folder(tmp_path, library):
    system = library.systems[SYSTEM]
    flat = convert(read_dataset(OWB), system)
    commit = "0123456789abcdef0123456789abcdef01234567"
    tree = convert(read_dataset(owb_tree(tmp_path / "owb", commit)), system)
    assert tree.version == "owb-01234567.r4"  # the checkout's commit, as NOTE.md's names the flat folder's
    assert len(tree.books) == len(flat.books) == 18

    def without_version(book):
        return {k: v for k, v in book.items() if k != "version"}
    assert [without_version(b) for b in tree.books] == [without_version(b) for b in flat.books]
    assert len(check(tree, system)) == 18


def test_a_tree_without_git_is_versioned_by_a_hash_of_its_files(tmp_path, library):
    dataset = read_dataset(owb_tree(tmp_path / "owb"))
    assert dataset.version.startswith("owb-") and dataset.version.endswith(".r4") and len(dataset.version) == 15


def test_the_import_command_reads_the_tree_and_names_its_files_in_errors(tmp_path, capsys):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    root = owb_tree(tmp_path / "owb")
    call_command("import_owb", str(root), "--check", verbosity=1)
    assert capsys.readouterr().out.splitlines()[-1] == "18 books and 1 item list are good; nothing written."
    (root / "public" / "games" / "the-old-world" / "skaven.json").unlink()
    with pytest.raises(CommandError) as caught:
        call_command("import_owb", str(root), "--check")
    assert str(caught.value) == f"Nothing imported. {root}/public/games/the-old-world/skaven.json: is missing"


# --- 5. characteristics --------------------------------------------------------------------------------
# The General is the eligible Character with the highest Leadership (001:L3779-3783). OWB's datasets carry
# no characteristics (datasets-format.md describes none; no unit has a profile), so an imported book cannot
# compare Leadership, and says so.

PROFILE_KEYS = {"profile", "profiles", "stats", "characteristics", "leadership", "ld", "M", "WS", "Ld"}


def test_owbs_datasets_carry_no_characteristics(dataset):
    found = {key for army in dataset.armies.values() for units in army.values() for unit in units
             for key in unit if key in PROFILE_KEYS or key.lower() in PROFILE_KEYS}
    assert found == set()


def test_each_imported_book_says_the_generals_leadership_is_not_compared(books):
    line = ("OWB's data has no characteristics (no unit of its datasets carries a profile): the General's Leadership "
            "is not compared, so any eligible Character (not a Loner, not the Battle Standard Bearer) may be the "
            "General here.")
    for book in books.values():
        assert line in book.unchecked, book.id
        assert all(e.leadership is None for e in book.entries.values()), book.id


def test_so_a_captain_may_lead_a_general_of_the_empire(books):
    """In our own book a Captain (Ld 8) cannot be the General beside a General of the Empire (Ld 9); in the
    imported one no Leadership is known, and the check does not pretend to know it."""
    book = books["empire-of-man"]
    units = [{"id": "c", "entry": "captain-of-the-empire", "general": True}, {"id": "g", "entry": "general-of-the-empire"}]
    assert [v for v in report(book, units).violations if v.code.startswith("general.")] == []


# --- a detachment OWB saves inside its regiment accompanies it --------------------------------------------

def test_a_saved_regiments_detachments_accompany_it(dataset, books):
    def unit(category, uid, n, strength):
        found = copy.deepcopy(next(u for u in dataset.armies["empire-of-man"][category] if u["id"] == uid))
        return {**found, "id": f"{uid}.x{n}", "strength": strength}
    regiment = unit("core", "nuln-state-troops", 1, 20)
    regiment["detachments"] = [unit("core", "state-troops-detachment", 2, 5), unit("core", "state-troops-detachment", 3, 5)]
    data = {"name": "Nuln", "game": SYSTEM, "points": 2000, "army": "empire-of-man",
            "armyComposition": "city-state-of-nuln", "compositionRule": "open-war", "characters": [], "core": [regiment]}
    document = convert_list(data, books["empire-of-man"], FILE)
    assert [(u["id"], u.get("accompanies")) for u in document["units"]] == [("x1", None), ("x2", "x1"), ("x3", "x1")]
