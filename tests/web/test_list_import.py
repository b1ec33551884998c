"""Importing a list on the web (`/lists/import/`): a file or pasted text in any of the formats the
command-line importers read; the list is saved and opens in the editor, a bad one says where."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

OWB_TEXT = """===
Steel and faith [1320 pts]
Warhammer: The Old World, Empire of Man
===

++ Characters [120 pts] ++

General of the Empire [120 pts]
- Hand weapon
- Full plate armour
- General

++ Core Units [200 pts] ++

20 State Troops [200 pts]
- Halberds
- Champion
- Standard Bearer

---
Created with "Old World Builder"

[https://old-world-builder.com]
"""


DWARF_TEXT = """===
Hold fast [2480 pts]
Warhammer: The Old World, Dwarfen Mountain Holds
===

++ Core Units [100 pts] ++

10 Quarrellers [100 pts]
- Hand weapons
- Crossbows
- Heavy armour

---
Created with "Old World Builder"
"""


class TestImportPage:
    def test_it_needs_a_login(self, client):
        response = client.get(reverse("list-import"))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    def test_it_shows_the_form_and_the_formats_it_reads(self, client_alice):
        content = client_alice.get(reverse("list-import")).content.decode()
        assert 'name="file"' in content and 'name="text"' in content
        assert "Old World Builder text export" in content

    def test_our_json_file_is_imported_and_opens_in_the_editor(self, client_alice, alice):
        data = (EXAMPLES / "empire-of-man-legal.json").read_bytes()
        response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile("mine.json", data)})
        army_list = ArmyList.objects.get(owner=alice)
        assert response.status_code == 302 and response["Location"] == reverse("list-edit", args=[army_list.pk])
        assert army_list.document == json.loads(data)
        assert army_list.valid is True

    def test_pasted_tournament_text_is_imported(self, client_alice, alice):
        text = ("List: Pasted\nSystem: Warhammer: The Old World\nBook: Empire of Man 2024.4\nPoints limit: 2000\n\n"
                "120 - General of the Empire, General\n")
        response = client_alice.post(reverse("list-import"), {"text": text})
        army_list = ArmyList.objects.get(owner=alice)
        assert response.status_code == 302
        assert (army_list.name, army_list.book, army_list.points_limit) == ("Pasted", "empire-of-man", 2000)
        assert army_list.document["units"] == [{"id": "u1", "entry": "general-of-the-empire", "general": True}]

    def test_old_world_builders_text_export_is_imported_at_the_books_usual_limit(self, client_alice, alice):
        response = client_alice.post(reverse("list-import"), {"text": OWB_TEXT})
        assert response.status_code == 302
        army_list = ArmyList.objects.get(owner=alice)
        assert (army_list.name, army_list.book, army_list.points_limit) == ("Steel and faith", "empire-of-man", 2000)
        units = army_list.document["units"]
        assert [(u["entry"], u.get("size"), u.get("general", False)) for u in units] == [
            ("general-of-the-empire", None, True), ("state-troops", 20, False)]
        assert units[1]["options"] == {"halberds": 1} and units[1]["command"] == ["champion", "standard"]

    def test_a_misspelt_unit_names_the_line_and_the_closest_name_and_saves_nothing(self, client_alice, alice):
        response = client_alice.post(reverse("list-import"), {"text": OWB_TEXT.replace("20 State Troops", "20 State Trops")})
        assert response.status_code == 400
        assert response.context["form"].non_field_errors() == [
            'The pasted list: line 15: no unit "State Trops" in Empire of Man 2024.4; did you mean "State Troops"?']
        assert not ArmyList.objects.filter(owner=alice).exists()

    def test_an_owb_json_list_without_the_imported_book_says_what_to_do(self, client_alice, alice):
        owb = {"name": "x", "game": "the-old-world", "army": "empire-of-man", "points": 2000, "characters": [],
               "core": [], "special": [], "rare": []}
        response = client_alice.post(reverse("list-import"), {
            "file": SimpleUploadedFile("x.owb.json", json.dumps(owb).encode())})
        assert response.status_code == 400
        message = response.context["form"].non_field_errors()[0]
        assert message.startswith("x.owb.json: this Old World Builder list needs its army (empire-of-man)")
        assert "paste the list's text export instead" in message

    def test_nothing_given_or_both_given_is_a_form_error(self, client_alice):
        assert client_alice.post(reverse("list-import"), {"text": "  "}).context["form"].non_field_errors() == [
            "Choose a file or paste a list."]
        both = client_alice.post(reverse("list-import"), {"text": "x", "file": SimpleUploadedFile("a.txt", b"x")})
        assert both.status_code == 400
        assert both.context["form"].non_field_errors() == ["Choose a file or paste a list, not both."]

    def test_a_file_that_is_not_text_is_refused_with_a_reason(self, client_alice):
        response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile("a.bin", b"\xff\xfe\x00abc")})
        assert response.status_code == 400
        assert response.context["form"].non_field_errors() == ["a.bin: is not UTF-8 text: invalid start byte"]

    def test_a_files_error_names_the_file_once(self, client_alice, alice):
        response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile("garbage.txt", b"garbage\n")})
        assert response.status_code == 400
        assert response.context["form"].non_field_errors() == [
            'garbage.txt: line 1: expected a header line "<field>: <value>" with a field among List, Player, Team, '
            'System, Book, Composition, Matched play, Allies, Points limit, not "garbage"']
        assert response.content.decode().count("garbage.txt") == 1
        assert not ArmyList.objects.filter(owner=alice).exists()


class TestOldWorldBuilderText:
    def test_equipment_the_unit_has_is_taken_in_the_plural_too(self, client_alice, alice):
        response = client_alice.post(reverse("list-import"), {"text": DWARF_TEXT})
        assert response.status_code == 302
        army_list = ArmyList.objects.get(owner=alice)
        assert army_list.document["units"] == [{"id": "u1", "entry": "quarrellers", "size": 10}]

    def test_a_total_above_the_usual_game_is_the_limit(self, client_alice, alice):
        """OWB's header gives the list's total (2480), not the game size: a list bigger than the usual 2000
        starts at its total; a smaller one at the usual 2000 (test_old_world_builders_text_export_...)."""
        client_alice.post(reverse("list-import"), {"text": DWARF_TEXT})
        assert ArmyList.objects.get(owner=alice).points_limit == 2480

    def test_where_old_world_builders_points_differ_from_ours_the_player_is_told(self, client_alice, alice):
        response = client_alice.post(reverse("list-import"), {"text": DWARF_TEXT}, follow=True)
        assert [str(m) for m in response.context["messages"]] == [
            "Imported “Hold fast” (Old World Builder text export): 1 unit, Dwarfen Mountain Holds, limit 2480 pts.",
            "Old World Builder's total is 2480 pts; ours is 90 pts.",
            "Quarrellers: Old World Builder says 100 pts, we count 90 pts.",
        ]
        assert [m.level_tag for m in response.context["messages"]] == ["info", "warning", "warning"]

    def test_figures_that_agree_say_nothing_more(self, client_alice, alice):
        agreeing = DWARF_TEXT.replace("[2480 pts]", "[90 pts]").replace("[100 pts]", "[90 pts]")
        response = client_alice.post(reverse("list-import"), {"text": agreeing}, follow=True)
        assert [str(m) for m in response.context["messages"]] == [
            "Imported “Hold fast” (Old World Builder text export): 1 unit, Dwarfen Mountain Holds, limit 2000 pts."]
