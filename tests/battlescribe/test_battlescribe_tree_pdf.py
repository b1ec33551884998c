"""The PDF of a roster tree (a list of an imported BattleScribe book) as good as our own books' (issue 22
item 5): each unit with its roles, its cost, every selection it holds with its number and cost, its
profiles as the data's profile types lay them out (after modifiers), its rules by name; the categories
with their limits; the verdict and the data-as-of stamp. A Dwarven Holds list of the T9A 2nd-edition
catalogues (../shared/external/battlescribe/the-9th-age-2nd) built on the site, its PDF read with pypdf."""
from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from pathlib import Path

from armylists.lists.trees import battlescribe_data
from armylists.models import ArmyList
from tests.battlescribe.test_battlescribe_site_tree import GENERAL, T9A, dwarves, imported  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]

RUNIC_ITEMS = "sel-4979-45c3-0009-3afd"          # the King's "Runic Special Items"
SHIELD = "sel-e1b5-41cd-8f96-9563::ff97-a295-86c8-76d5"
ARTILLERY_WEAPON = "one-9a99-ca88-7347-a097"       # Field Artillery's "Weapon" group: min 1, max 1
CANNON = "a2fb-2e90-51d3-99c0"                     # its "Cannon (4+)" (2nd-dwarvenHolds.cat:1815)
BROTHERS = "sel-40bd-8373-644e-a639"               # the Seekers' "Brothers of Vengeance" (line 1422)


def printed(pdf: bytes) -> tuple[str, int]:
    pages = PdfReader(io.BytesIO(pdf)).pages
    return " ".join(" ".join(p.extract_text().split()) for p in pages), len(pages)


def add(api, army: ArmyList, name: str) -> str:
    answer = api.post(f"/api/v1/lists/{army.pk}/units/", {"entry": name}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["unit"]["id"]


def choose(client, army: ArmyList, unit: str, field: str, value: str = "on") -> None:
    army.refresh_from_db()
    answer = client.post(f"/lists/{army.pk}/units/{unit}/", {"revision": army.revision, "only": field, field: value})
    assert answer.status_code == 302, answer.content


def test_a_dwarven_holds_pdf_shows_what_each_unit_holds_its_profiles_rules_roles_and_limits(dwarves, api_alice,
                                                                                            client):
    king = add(api_alice, dwarves, "King")
    choose(client, dwarves, king, f"sel-{GENERAL}")
    choose(client, dwarves, king, SHIELD)
    choose(client, dwarves, king, RUNIC_ITEMS)
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    choose(client, dwarves, king, re.search(r'name="(sel-[^"]*8bfb-fbc9-b4bb-25d1)"', page).group(1))  # a rune
    add(api_alice, dwarves, "Thane")
    add(api_alice, dwarves, "Clan Warriors")
    choose(client, dwarves, add(api_alice, dwarves, "Field Artillery"), ARTILLERY_WEAPON, CANNON)
    choose(client, dwarves, add(api_alice, dwarves, "Seekers"), BROTHERS)

    text, pages = printed(client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=full").content)
    assert pages == 1
    # The General is a role on the unit's line, as our books' rosters print it, not one of its selections.
    assert ("King General 315 pts Selections: Plate Armour, Hand Weapon, Shield 20 pts, Runic Special Items (Rune "
            "of Destruction 80 pts) Artefact Type Effect Rune of Destruction Hand weapon or Paired Weapon "
            "Enchantment Attacks made with a weapon engraved with this Rune gain Multiple Wounds (D3).") in text
    assert "Army General" not in text
    assert "Thane 110 pts Selections: Plate Armour, Hand Weapon" in text
    assert "Clan Warriors 135 pts Selections: 10× Clan Warrior 100 pts" in text
    # A profile table per profile type: its name, then the characteristics in the type's order.
    assert ('Field Artillery 245 pts Selections: Cannon (4+) 145 pts Ranged Weapon Range Shots Str AP Attributes '
            'Cannon (4+) 60" 1 4 [10] 0 [10] [Multiple Wounds (D3+1)] '
            'Cannon (Volley Gun) (4+) 12" 2D6 4 4 Volley Gun Artillery Weapon') in text
    # Rules by name, after their links' modifiers (Hard Target + " (1)", 2nd-dwarvenHolds.cat:1442-1446).
    assert ("Seekers 110 pts Selections: 5× Seeker 100 pts, Brothers of Vengeance 5 pts "
            "Rules: Skirmisher, Light Troops, Hard Target (1)") in text
    # The categories with their limits (2nd-dwarvenHolds.cat:8-33), the verdict and the data's stamp.
    assert "Engines of War 1 245 12.2% - 20%" in text
    assert "Characters 2 425 21.2% - 40%" in text
    assert "NOT LEGAL (2 errors) × Core: 135 pts, 6.75% of the 2000 pts limit; at least 25% (500 pts)." in text
    assert "Data as of: Dwarven Holds 2024 r57 (imported on this site)" in text


def test_the_compact_roster_says_a_trees_units_in_one_line_each_and_the_hidden_one_names_them_only(dwarves, api_alice, client):
    king = add(api_alice, dwarves, "King")
    choose(client, dwarves, king, f"sel-{GENERAL}")
    choose(client, dwarves, king, SHIELD)
    text, pages = printed(client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=compact").content)
    assert pages == 1 and "235 King, General, Plate Armour, Hand Weapon, Shield" in text
    # The hidden list's open part names the unit only: the data's selections are not typed as magical items,
    # so neither they nor the unit's points (which would tell their cost) are shown (issue 43).
    text, _ = printed(client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=hidden").content)
    assert "King General pts hidden Hold ·" in text and "Shield" not in text


UNDYING = "2nd-undyingDynasties.cat"


def test_the_pdf_prints_a_profile_after_its_modifiers(api_alice, client, alice):
    """2nd-undyingDynasties.cat:84-92: the Pharaoh's Agi is 3, less 1 when the roster holds one
    "Commander of the Terracotta Army"; and its "Flammable" rule is hidden then (lines 103-109)."""
    call_command("import_battlescribe", str(T9A / "2nd-theNinthAge-FantasyBattles.gst"), str(T9A / UNDYING),
                 verbosity=0)
    battlescribe_data.clear()
    client.force_login(alice)
    made = client.post("/lists/new/", {"name": "Tomb", "points_limit": "2000",
                                       "book": "bs-the-9th-age-fantasy-battles-2nd-edition-2024/"
                                               "bs-undying-dynasties-2024/r59"})
    assert made.status_code == 302, made.content
    tomb = ArmyList.objects.get(owner=alice, name="Tomb")
    pharaoh = add(api_alice, tomb, "Pharaoh")
    before, _ = printed(client.get(f"/lists/{tomb.pk}/download/pdf/?variant=full").content)
    assert "Pharaoh Offensive 4 6 5 2 3 Mummy’s Curse" in before and "Flammable" in before
    # The command is one of the "Monarch of Undeath" group (at most 1; 0 unless the Pharaoh is the General).
    page = client.get(f"/lists/{tomb.pk}/edit/").content.decode()
    choose(client, tomb, pharaoh, re.search(r'name="(sel-[^"]*d664-b973-594c-5971)"', page).group(1))
    choose(client, tomb, pharaoh, "one-344e-9a1f-6584-73ed", "b209-f846-7cb8-52dd::f564-93b2-b0d9-a4b7")
    after, _ = printed(client.get(f"/lists/{tomb.pk}/download/pdf/?variant=full").content)
    assert "Pharaoh Offensive 4 6 5 2 2 Mummy’s Curse" in after and "Flammable" not in after
    assert "Pharaoh General" in after and "Commander of the Terracotta Army" in after
    # The editor's card shows the same profile (rules/battlescribe/profiles.py for both).
    card = re.sub(r"\s+", " ", client.get(f"/lists/{tomb.pk}/edit/").content.decode())
    assert ('<th scope="row">Pharaoh Offensive</th><td>4</td><td>6</td><td>5</td><td>2</td><td>2</td>'
            '<td>Mummy’s Curse</td>') in card.replace("> <", "><")


OLD_WORLD = T9A.parent / "the-old-world-nr"
EMPIRE = ("Warhammer_Old_World.gst", "The Empire of Man.cat", "Common Magic Items.cat", "The Lores of Magic.cat",
          "Mercenaries.cat", "Runic Items.cat")   # the Empire's book and the catalogues it links


@pytest.mark.slow
@pytest.mark.skipif(not OLD_WORLD.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")
def test_a_big_old_world_tree_list_prints(api_alice, client, alice):
    """New Recruit's Old World data: a legal 2,000-pt Empire of Man roster (docs/examples/battlescribe/
    the-old-world-nr/empire-of-man-legal.ros, 80 selections) read in as a list prints over several pages,
    every unit with its profiles."""
    call_command("import_battlescribe", *(str(OLD_WORLD / name) for name in EMPIRE), verbosity=0)
    battlescribe_data.clear()
    ros = (ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr" / "empire-of-man-legal.ros").read_bytes()
    created = api_alice.post("/api/v1/lists/import/", ros, content_type="application/xml")
    assert created.status_code == 201, created.content
    client.force_login(alice)
    response = client.get(f"/lists/{created.json()['id']}/download/pdf/?variant=full")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text, pages = printed(response.content)
    assert pages > 1
    assert "LEGAL" in text and "NOT LEGAL" not in text
    for name in ("General of the Empire", "State Troops", "Empire Knights"):
        assert name in text
    assert "Model M WS BS S T W I A Ld" in text   # the Old World's profile type, its columns in order
