"""Issue 42 item 6: a list of The Old World as Old World Builder keeps it (exports/owb_list.py), which is
what OWB sends to Battle Tavern: written, then read back by our own OWB list importer
(importers/owb/lists.py) to the same list; shaped as a list in OWB's own test data is (keys and types);
offered where the list's kind writes it; and sent by the list page's form as OWB's Battle Tavern page
posts it (one field, `data`: `{"owb.lists": "<JSON text of the lists>"}`).

The books imported from OWB and OWB's items come from ../shared/external/old-world-builder; those
tests skip without it. Our own Dwarfs (rules_data) need nothing else."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse

from armylists.exports import registry
from armylists.exports.owb_list import battle_tavern_data, owb_list
from armylists.importers.owb.lists import convert_list
from armylists.importers.owb.units import plan_unit
from armylists.lists.library.catalogue import disk_library
from armylists.rules import parse_roster

from ..conftest import EXAMPLES
from ..web.conftest import make_list

ROOT = Path(__file__).resolve().parents[2]
OWB = ROOT.parent / "shared" / "external" / "old-world-builder"
needs_owb = pytest.mark.skipif(not (OWB / "the-old-world-system.json").is_file(),
                               reason="Old World Builder's datasets are not in ../shared/external/old-world-builder")
FIXTURE = Path(__file__).parent / "data" / "owb-runes-elsewhere.json"
RANDOM_ID = re.compile(r"^[a-z0-9-]+\.[A-Za-z0-9_-]+$")  # "<dataset unit id>.<random>", as OWB's handleAdd


def dwarfs():
    doc = json.loads((EXAMPLES / "dwarfen-mountain-holds-legal.json").read_text())
    return disk_library().book(doc["system"], doc["book"], doc["book_version"]), parse_roster(doc)


def item_id(book, name: str) -> str:
    return next(i.id for i in book.items.values() if i.name == name)


def empire_list(book) -> dict:
    """Every kind of choice OWB's unit has: equipment, armour, an option, a mount, the General, a Battle
    Standard Bearer with its banner, a magic item, a Wizard's level and lore, full command with a
    standard's and a champion's item, a unit's own name and note, a stack of runes taken twice."""
    return {"format": "armylist/1", "name": "Reikland muster", "system": "the-old-world", "book": book.id,
            "book_version": book.version, "modes": ["combined-arms"], "points_limit": 2000,
            "notes": "for the club", "units": [
                {"id": "cap", "entry": "captain-of-the-empire", "general": True, "mount": "empire-warhorse",
                 "options": {"halberd": 1, "heavy-armour": 1, "shield": 1, "battle-standard-bearer": 1},
                 "items": [item_id(book, "Talisman of Protection"), item_id(book, "Imperial Banner")]},
                {"id": "mage", "entry": "master-mage", "options": {"level-2-wizard": 1}, "path": "battle-magic"},
                {"id": "red", "entry": "state-troops", "size": 25, "options": {"halberds": 1, "shields": 1},
                 "command": ["champion", "musician", "standard"], "label": "Red banner", "notes": "painted"},
                {"id": "vets", "entry": "veteran-state-troops", "size": 12,
                 "command": ["champion", "musician", "standard"],
                 "standard_items": [item_id(book, "Griffon Standard")],
                 "champion_items": [item_id(book, "Luckstone")]},
            ]}


@needs_owb
def test_a_list_of_an_imported_book_is_read_back_by_our_owb_importer_to_the_same_list(owb_books):
    book = owb_books["empire-of-man"]
    roster = parse_roster(empire_list(book))
    written = owb_list(book, roster)
    assert [u["id"] for u in written["characters"] + written["core"]] == [
        "captain-of-the-empire.cap", "master-mage.mage", "state-troops.red", "veteran-state-troops.vets"]
    assert (written["compositionRule"], written["armyComposition"], written["points"]) == (
        "combined-arms", "empire-of-man", 2000)
    # through JSON, as the file and the form carry it
    back = parse_roster(convert_list(json.loads(json.dumps(written)), book, "written.owb.json"))
    assert back == roster


@needs_owb
def test_every_choice_of_every_imported_book_is_read_back_but_a_free_choice_of_a_radio_group(owb_books):
    """Each option of each entry of the 18 imported books taken alone (with the choices it requires) comes
    back, except a choice that costs nothing in a group of one-of choices: the importer takes an active
    free choice in OWB's radio buttons for the unit's default (units.py, `radio`), in a list OWB wrote as in
    ours. That is the only kind of loss, and it is counted here."""
    checked, lost = 0, []
    for book in owb_books.values():
        for entry in book.entries.values():
            for oid, option in entry.options.items():
                chain = [oid]
                while chain[-1] in entry.options and entry.options[chain[-1]].requires:
                    chain.append(entry.options[chain[-1]].requires[0])
                unit = {"id": "u1", "entry": entry.id, "options": {o: 1 for o in chain if o in entry.options}}
                if not entry.character:
                    unit["size"] = entry.size_min
                unit.update({"mount": m for m in chain if m in entry.mounts})
                if roles := [r for r in chain if r in entry.command]:
                    unit["command"] = roles
                if len(",".join(unit["options"])) > 80:
                    continue  # more than a list document may name (its schema)
                roster = parse_roster({"format": "armylist/1", "system": "the-old-world", "book": book.id,
                                       "book_version": book.version, "points_limit": 2000, "units": [unit]})
                back = parse_roster(convert_list(owb_list(book, roster), book, "t")).units[0]
                checked += 1
                if sorted(back.options) != sorted(roster.units[0].options) or back.mount != roster.units[0].mount:
                    lost.append((option.cost, option.group is not None))
    assert checked > 2000
    assert set(lost) == {(0, True)}, lost
    assert len(lost) < checked // 20


@needs_owb
def test_each_entry_is_written_with_the_choices_the_importer_made_its_options_from(owb_books):
    """Our entry's options, mounts and command parts are exactly those OWB's unit planner finds in the unit
    we write (so an OWB list of ours maps onto the book's ids), for every entry of every imported book."""
    from armylists.exports.owb_list import _Unit
    from armylists.rules.reading.roster import RosterUnit

    for book in owb_books.values():
        for entry in book.entries.values():
            unit = RosterUnit(id="u1", entry=entry.id, size=None if entry.character else entry.size_min)
            plan = plan_unit(_Unit(book, None).write(unit, entry), entry.character)
            assert {c.id for c in plan.options} == set(entry.options), (book.id, entry.id)
            assert {m.id for m in plan.mounts} == set(entry.mounts), (book.id, entry.id)
            assert {c.role for c in plan.command} == set(entry.command), (book.id, entry.id)


def owb_fixture() -> dict:
    """OWB's test list, its items taken from OWB's magic-items.json as its test takes them."""
    items = json.loads((OWB / "the-old-world" / "magic-items.json").read_text())

    def resolve(value):
        if isinstance(value, dict) and "$item" in value:
            group, name = value["$item"]
            return next(i for i in items[group] if i["name_en"] == name)
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolve(v) for v in value]
        return value
    return resolve(json.loads(FIXTURE.read_text())["list"])


def same_shape(theirs, ours, where: str = "list") -> list[str]:
    """Where ours lacks a key of theirs or holds another JSON type (a list's first member stands for all).
    A chosen item (under `selected`) is OWB's dataset item copied whole: ours has some of its keys, each
    of the same type."""
    if where.endswith(".selected[0]") and isinstance(theirs, dict) and isinstance(ours, dict):
        return [f"{where}.{k}: not OWB's" for k in ours if k not in theirs] + [
            p for k in ours if k in theirs for p in same_shape(theirs[k], ours[k], f"{where}.{k}")]
    if isinstance(theirs, dict):
        if not isinstance(ours, dict):
            return [f"{where}: {type(ours).__name__}, not an object"]
        return [p for k, v in theirs.items() for p in
                ([f"{where}.{k}: missing"] if k not in ours else same_shape(v, ours[k], f"{where}.{k}"))]
    if isinstance(theirs, list):
        if not isinstance(ours, list):
            return [f"{where}: {type(ours).__name__}, not an array"]
        return same_shape(theirs[0], ours[0], f"{where}[0]") if theirs and ours else []
    kinds = {bool: "bool", int: "number", float: "number", str: "string", type(None): "null"}
    return [] if kinds[type(theirs)] == kinds[type(ours)] else [f"{where}: {ours!r} is not like {theirs!r}"]


@needs_owb
def test_our_list_has_the_shape_of_a_list_in_owbs_own_test_data():
    theirs = owb_fixture()
    book, roster = dwarfs()
    ours = owb_list(book, roster)
    keep = {"king", "runesmith", "warriors"}
    ours = {**ours, "characters": [u for u in ours["characters"] if u["id"].split(".")[1] in keep],
            "core": [u for u in ours["core"] if u["id"].split(".")[1] in keep]}
    # Unit by unit: the King with the King, the Runesmith with the Runesmith, the Warriors with the Warriors.
    assert [u["name_en"] for u in theirs["characters"]] == [u["name_en"] for u in ours["characters"]]
    assert [u["name_en"] for u in theirs["core"]] == [u["name_en"] for u in ours["core"]] == ["Dwarf Warriors"]
    theirs["characters"][1]["items"][0].pop("armyComposition")  # the Royal Clan's allowance: the Grand Army's here
    assert same_shape(theirs, ours) == []
    # the champion's magic, as OWB's: a command part with its magic's selected runes
    assert same_shape(theirs["core"][0]["command"][0], ours["core"][0]["command"][0]) == []
    assert all(RANDOM_ID.match(u["id"]) for u in theirs["characters"] + ours["characters"] + ours["core"])
    assert same_shape(theirs, {**theirs, "characters": [{}]}) == ["list.characters[0].name_en: missing",
                                                                   "list.characters[0].id: missing",
                                                                   "list.characters[0].items: missing"]


def test_our_own_books_list_names_its_units_choices_and_items_as_ours():
    book, roster = dwarfs()
    written = owb_list(book, roster)
    king = written["characters"][0]
    assert (king["name_en"], king["id"], king["points"]) == ("King", "king.king", 125)
    assert [c["name_en"] for c in king["command"] if c["active"]] == ["General"]
    weapon = next(o for o in king["options"] if o.get("alwaysActive"))
    assert [o["name_en"] for o in weapon["options"] if o["active"]] == ["Great weapon"]
    assert [o["name_en"] for o in king["options"] if o["active"] and not o.get("alwaysActive")] == ["Shield"]
    assert [(i["name_en"], i["type"], i["points"]) for i in king["items"][0]["selected"]] == [
        ("Master Rune of Smiting", "master-weapon-runes", 75), ("Rune of Cleaving", "weapon-runes", 15),
        ("Rune of Stone", "armor-runes", 5), ("Rune of Luck", "talismanic-runes", 15)]
    warriors = next(u for u in written["core"] if u["id"] == "dwarf-warriors.warriors")
    assert (warriors["strength"], warriors["minimum"]) == (22, book.entries["dwarf-warriors"].size_min)
    assert [(c["name_en"], c["active"]) for c in warriors["command"]] == [
        ("Champion", True), ("Standard bearer", True), ("Musician", True)]
    standard = next(c for c in warriors["command"] if c["name_en"] == "Standard bearer")
    assert [i["name_en"] for i in standard["magic"]["selected"]] == ["Rune of Battle"]
    assert sum(len(written[c]) for c in ("characters", "core", "special", "rare")) == len(roster.units)


def test_battle_tavern_gets_owbs_storage_with_the_list_as_json_text():
    book, roster = dwarfs()
    data = json.loads(battle_tavern_data(book, roster))
    assert list(data) == ["owb.lists"] and isinstance(data["owb.lists"], str)  # as the browser's storage holds it
    assert json.loads(data["owb.lists"]) == [owb_list(book, roster)]


@pytest.mark.django_db
def test_a_list_of_the_old_world_offers_the_file_and_the_battle_tavern_form(client_alice, alice, settings):
    doc = json.loads((EXAMPLES / "dwarfen-mountain-holds-legal.json").read_text())
    army_list = make_list(alice, doc)
    page = client_alice.get(reverse("list-detail", args=[army_list.pk]))
    assert ("Old World Builder (.owb.json)", f"/lists/{army_list.pk}/download/owb.json/") in page.context["downloads"]
    form = page.context["battle_tavern"]
    assert form["action"] == "http://127.0.0.1:47823/import"
    assert json.loads(json.loads(form["data"])["owb.lists"])[0]["name"] == "The Grudge of Karak Norn"
    html = page.content.decode()
    assert '<form method="post" action="http://127.0.0.1:47823/import" target="_blank" id="battle-tavern"' in html
    assert "csrfmiddlewaretoken" not in html.split('id="battle-tavern"')[1].split("</form>")[0]  # never sent away
    assert "form-action 'self' http://127.0.0.1:47823" in page["Content-Security-Policy"]
    answer = client_alice.get(f"/lists/{army_list.pk}/download/owb.json/")
    assert (answer.status_code, answer["Content-Type"]) == (200, "application/json; charset=utf-8")
    assert answer["Content-Disposition"].endswith('.owb.json"')
    assert json.loads(answer.content) == owb_list(*dwarfs())


@pytest.mark.django_db
def test_a_list_of_another_game_offers_neither(client_alice, alice_list):
    page = client_alice.get(reverse("list-detail", args=[alice_list.pk]))  # The 9th Age
    assert page.context["battle_tavern"] is None and 'id="battle-tavern"' not in page.content.decode()
    assert not [u for _, u in page.context["downloads"] if "owb" in u]
    roster = parse_roster(alice_list.document)
    assert registry.OWB not in registry.offered(disk_library().book(roster.system, roster.book, roster.book_version),
                                                roster)
    assert client_alice.get(f"/lists/{alice_list.pk}/download/owb.json/").status_code == 404


def test_the_command_writes_it_for_a_list_of_the_old_world_and_refuses_another_game(capsys):
    from django.core.management import call_command

    call_command("export_list", str(EXAMPLES / "dwarfen-mountain-holds-legal.json"), "--format", "owb")
    assert json.loads(capsys.readouterr().out) == owb_list(*dwarfs())
    with pytest.raises(SystemExit) as stop:
        call_command("export_list", str(EXAMPLES / "empire-2400-legal.json"), "--format", "owb")
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip().endswith(
        "empire-2400-legal.json: is a list of The 9th Age: Fantasy Battles v0.11.9.3; Old World Builder keeps "
        "lists of 'the-old-world' only")


@pytest.mark.django_db
def test_the_api_gives_it_for_a_list_of_the_old_world_and_a_400_for_another(api_alice, alice, alice_list):
    army_list = make_list(alice, json.loads((EXAMPLES / "dwarfen-mountain-holds-legal.json").read_text()))
    answer = api_alice.get(f"/api/v1/lists/{army_list.pk}/export/?as=owb")
    assert answer.status_code == 200 and json.loads(answer.content) == owb_list(*dwarfs())
    refused = api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=owb")
    assert refused.status_code == 400 and refused.json()["error"]["message"].startswith("as: ")


def test_a_port_that_is_no_port_is_refused_when_the_site_starts():
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    for value, message in (("0", "BATTLE_TAVERN_PORT must be a port from 1 to 65535, not 0"),
                           ("65536", "BATTLE_TAVERN_PORT must be a port from 1 to 65535, not 65536"),
                           ("port", "BATTLE_TAVERN_PORT must be a whole number, 0 or more, not 'port'")):
        done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, capture_output=True, text=True,
                              env={**env, "BATTLE_TAVERN_PORT": value}, timeout=120)
        assert done.returncode == 1 and message in done.stderr, (value, done.stderr[-300:])
    done = subprocess.run([sys.executable, "-c", "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
                           "'armylists.settings'); django.setup(); from django.conf import settings as s; "
                           "print(s.CONTENT_SECURITY_POLICY['DIRECTIVES']['form-action'])"],
                          cwd=ROOT, capture_output=True, text=True, env={**env, "BATTLE_TAVERN_PORT": "65535"},
                          timeout=120)
    assert done.stdout.strip() == "[\"'self'\", 'http://127.0.0.1:65535']", done.stderr[-300:]


@needs_owb
def test_a_detachment_is_written_inside_its_regiment_as_owb_keeps_it(owb_books):
    book = owb_books["empire-of-man"]
    roster = parse_roster({"format": "armylist/1", "system": "the-old-world", "book": book.id,
                           "book_version": book.version, "points_limit": 2000, "units": [
                               {"id": "main", "entry": "state-troops", "size": 20, "options": {"detachment": 1}},
                               {"id": "det", "entry": "state-missile-troops", "size": 5, "accompanies": "main"}]})
    written = owb_list(book, roster)
    assert [u["id"] for u in written["core"]] == ["state-troops.main"]
    assert [(d["id"], d["strength"]) for d in written["core"][0]["detachments"]] == [("state-missile-troops.det", 5)]
    back = parse_roster(convert_list(written, book, "t")).units
    assert [(u.id, u.entry, u.accompanies, u.label) for u in back] == [
        ("main", "state-troops", None, ""),
        ("det", "state-missile-troops", "main", "detachment of State Troops (main)")]


@pytest.mark.django_db
def test_a_link_to_the_open_part_neither_sends_nor_downloads_owbs_list(client, alice):
    """OWB's list names every item: the open part of a hidden list (issue 43) offers neither."""
    army_list = make_list(alice, json.loads((EXAMPLES / "dwarfen-mountain-holds-legal.json").read_text()))
    token = army_list.share(open_part=True)
    page = client.get(reverse("shared-list", args=[token]))
    assert page.status_code == 200 and 'id="battle-tavern"' not in page.content.decode()
    assert "Master Rune of Smiting" not in page.content.decode()
    assert client.get(reverse("shared-download", args=[token, "owb.json"])).status_code == 404
    whole = army_list.share()  # the whole list, shared: sent as the owner's page sends it
    assert 'id="battle-tavern"' in client.get(reverse("shared-list", args=[whole])).content.decode()
