"""The tournament text of a roster tree (a list of an imported BattleScribe / New Recruit book), issue 40
item 5: each unit's line names what it holds (sizes, options, items) and its roles (General, BSB), and
the text reads back to the same list, or the import says which line and name it could not place. New
Recruit's Old World data (../shared/external/battlescribe/the-old-world-nr): a Skaven list written as a
player would, and the legal Empire of Man roster of docs/examples (its .ros read in, then its text)."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from armylists.lists.trees import battlescribe_data
from armylists.models import ArmyList

ROOT = Path(__file__).resolve().parents[2]
OLD_WORLD = ROOT.parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
SKAVEN = ("Warhammer_Old_World.gst", "Skaven.cat", "Common Magic Items.cat", "The Lores of Magic.cat",
          "Mercenaries.cat")
EMPIRE = ("Warhammer_Old_World.gst", "The Empire of Man.cat", "Common Magic Items.cat", "The Lores of Magic.cat",
          "Mercenaries.cat", "Runic Items.cat")
EMPIRE_ROS = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr" / "empire-of-man-legal.ros"
HEADER = ("System: Warhammer: The Old World (imported data, New Recruit)\nBook: Skaven r71\n"
          "Points limit: 2000 pts\n\n")
# As a player writes it: the points are the engine's to work out and are not read (0 here); a line naming
# the unit alone is the unit as added.
SKAVEN_LIST = HEADER + """\
0 - Skaven Warlord, General, Skaven Warlord (Hand Weapon, Heavy Armour, Shield)
0 - Skaven Chieftain, BSB, Skaven Chieftain (Hand Weapon, Light Armour)
0 - Grey Seer, Grey Seer (D3 Warpstone Tokens, Hand Weapon, Wizard Level 3, Dark Magic)
0 - Clanrats, 30x Clanrat (Hand Weapon, Light Armour, Shield)
0 - Clanrats
0 - Stormvermin
0 - Plague Monks
0 - Plague Priest
0 - Warp Lightning Cannon
0 - Warlock Engineer
"""

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not OLD_WORLD.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]


def import_data(names: tuple[str, ...]) -> None:
    call_command("import_battlescribe", *(str(OLD_WORLD / name) for name in names), verbosity=0)
    battlescribe_data.clear()


def sent(api, text: str) -> ArmyList:
    answer = api.post("/api/v1/lists/import/", text, content_type="text/plain")
    assert answer.status_code == 201, answer.content
    return ArmyList.objects.get(pk=answer.json()["id"])


def as_text(client, army: ArmyList) -> str:
    answer = client.get(f"/lists/{army.pk}/download/txt/")
    assert answer.status_code == 200
    return answer.content.decode()


def held(selections: list[dict]) -> list:
    """A tree's selections as (entry, number, what each holds), ids and order aside."""
    return sorted((s["entry"], s["number"], held(s.get("selections", []))) for s in selections)


def units(army: ArmyList) -> list:
    return held([s for f in army.document["forces"] for s in f["selections"]])


def unit_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if " - " in line and line[0].isdigit()]


def violations(army: ArmyList, client) -> list[tuple[str, str]]:
    report = client.get(f"/api/v1/lists/{army.pk}/report/").json()
    return sorted((v["code"], v["message"]) for v in report["violations"])


def test_a_skaven_tree_lists_text_names_what_each_unit_holds_and_its_roles_and_reads_back_the_same(api_alice,
                                                                                                  client_alice):
    import_data(SKAVEN)
    first = sent(api_alice, SKAVEN_LIST)
    text = as_text(client_alice, first)
    lines = unit_lines(text)
    # The roles, the size (30 Clanrats, each with a Shield) and a Lore of Magic are said on the unit's line.
    assert "95 - Skaven Warlord, General, Skaven Warlord (Hand Weapon, Heavy Armour, Shield)" in lines
    assert "70 - Skaven Chieftain, BSB, Skaven Chieftain (Hand Weapon, Light Armour)" in lines
    assert "185 - Grey Seer, Grey Seer (D3 Warpstone Tokens, Hand Weapon, Wizard Level 3, Dark Magic)" in lines
    assert "150 - Clanrats, 30x Clanrat (Hand Weapon, Light Armour, Shield)" in lines
    # A unit named alone came as added (its minimum of 20 Clanrats, with their default gear).
    assert "80 - Clanrats, 20x Clanrat (Hand Weapon, Light Armour)" in lines
    assert len(lines) == 10
    # The General and the BSB are selections of the tree, not words: the data's "General" rule is met.
    assert "General: 0 taken in the army" not in text
    # Read back, the text is the same list: the same selections, total and verdict, and the same text.
    again = sent(api_alice, text)
    assert units(again) == units(first)
    assert (again.total_points, again.valid) == (first.total_points, first.valid)
    assert violations(again, api_alice) == violations(first, api_alice)
    assert as_text(client_alice, again) == text


def test_a_name_the_data_has_no_place_for_is_refused_naming_the_line_and_the_closest_name(api_alice):
    import_data(SKAVEN)
    answer = api_alice.post("/api/v1/lists/import/", HEADER + "95 - Skaven Warlord, General, Skaven Warlord "
                            "(Hand Weapon, Heavy Armor)\n", content_type="text/plain")
    assert answer.status_code == 400
    assert answer.json()["error"]["fields"] == [{"path": "line 5", "message": (
        'Skaven Warlord holds no "Heavy Armor"; did you mean "Heavy Armour"?')}]
    answer = api_alice.post("/api/v1/lists/import/", HEADER + "95 - Skaven Warlords\n", content_type="text/plain")
    assert answer.status_code == 400
    [field] = answer.json()["error"]["fields"]
    assert field["path"] == "line 5" and field["message"].endswith('has no unit "Skaven Warlords"; did you mean '
                                                                   '"Skaven Warlord"?')
    assert not ArmyList.objects.exists()


@pytest.mark.slow
def test_the_legal_empire_roster_read_from_its_ros_and_then_from_its_text_is_the_same_list(api_alice, client_alice):
    """docs/examples/battlescribe/the-old-world-nr/empire-of-man-legal.ros: 14 units, 1,988 pts, legal. Its
    text had read back as 1,285 pts and not legal (names only); now the whole list comes back."""
    import_data(EMPIRE)
    created = api_alice.post("/api/v1/lists/import/", EMPIRE_ROS.read_bytes(), content_type="application/xml")
    assert created.status_code == 201, created.content
    ros = ArmyList.objects.get(pk=created.json()["id"])
    text = as_text(client_alice, ros)
    assert ("106 - General of the Empire, General, General of the Empire (Hand Weapon, Light Armour, Barded "
            "Warhorse (Hand Weapon, Barding))") in unit_lines(text)
    assert "220 - Empire Greatswords, 20x Greatsword (Hand Weapon, Great Weapon, Full Plate Armour)" in unit_lines(text)
    back = sent(api_alice, text)
    assert (back.total_points, back.valid) == (ros.total_points, ros.valid) == (1988, True)
    assert units(back) == units(ros)


def test_the_import_page_counts_a_roster_trees_units(client_alice):
    """The page said "0 units" after a roster import: a tree's units are its forces' root selections."""
    import_data(SKAVEN)
    response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile("skaven.txt",
                                                                                     SKAVEN_LIST.encode())},
                                 follow=True)
    assert response.status_code == 200
    [message] = [str(m) for m in response.context["messages"]]
    assert message.startswith("Imported “Untitled list” (") and ": 10 units, Skaven, limit 2000 pts." in message


@pytest.mark.slow
def test_the_import_page_counts_the_units_of_an_uploaded_ros(client_alice):
    import_data(EMPIRE)
    response = client_alice.post(reverse("list-import"), {"file": SimpleUploadedFile("empire.ros",
                                                                                     EMPIRE_ROS.read_bytes())},
                                 follow=True)
    assert response.status_code == 200
    [message] = [str(m) for m in response.context["messages"]]
    assert ": 14 units, The Empire of Man, limit 2000 pts." in message   # it had said "0 units"
