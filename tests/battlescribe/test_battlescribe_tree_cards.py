"""Unit cards of a roster tree as a New Recruit player expects (issue 22 item 1): a Dwarven Holds King
of the T9A 2nd-edition catalogues (../shared/external/battlescribe/the-9th-age-2nd, 2nd-dwarvenHolds.cat)
shows its options in the data's groups, a group of at most one as radio buttons, real maxima, and the
Great Weapon's effect on the King's runes (the catalogue's modifier on the "Runic Weapon Enchantments"
group link: max set to 0 when the King holds exactly 1 Great Weapon, 2nd-dwarvenHolds.cat:52-58)."""
from __future__ import annotations

import html
import io
import re

import pytest

from tests.battlescribe.test_battlescribe_site_tree import GREAT_WEAPON, KING, T9A, dwarves, imported  # noqa: F401

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]

MELEE = "one-8b9d-dbd5-bba4-5adc"             # the King's "Melee Weapon" group: min 1, max 1
RUNIC_ITEMS = "sel-4979-45c3-0009-3afd"      # "Runic Special Items", whose groups hold the runes


def card(client, pk: int) -> str:
    page = client.get(f"/lists/{pk}/edit/").content.decode()
    return re.sub(r"\s+", " ", re.search(r'<div class="tree-options">.*?</form>', page, re.S).group(0))


def legends(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(r"<legend>(.*?)</legend>", html)]


def sections(html: str) -> list[str]:
    """The headings of a picker's sections (templates/lists/tree_picker.html)."""
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(r"<h4>(.*?)</h4>", html)]


def test_a_kings_card_shows_the_datas_groups_radio_choices_and_real_maxima(dwarves, api_alice, client):
    king = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json").json()["unit"]
    html = card(client, dwarves.pk)
    assert legends(html) == ["Shooting Weapon (up to 1)", "Mount (up to 1)", "Melee Weapon (exactly 1)"]
    # A group of at most one is a choice; "none" only where its minimum is 0 (Mount yes, Melee Weapon no).
    assert re.findall(r'name="one-fe48-a4a6-a4d1-9d7a" value="([^"]*)"', html) == [
        "", "0ddf-4caa-ec68-8ba3::06e9-e094-a2d1-b804", "7ce9-949b-d5b8-48dd::6dc5-a7b2-9231-8851"]
    assert re.findall(rf'name="{MELEE}" value="([^"]*)"( checked)?', html) == [
        (GREAT_WEAPON, ""), ("a5ba-3d6a-9115-afff::d5a4-4049-60de-5914", " checked")]
    assert "War Throne</span> <span class=\"cost\">+280 pts</span>" in html
    assert "up to 100" not in html and "10000" not in html
    # Choosing the Great Weapon through the editor's script takes the Hand Weapon off (one of the group).
    chosen = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/",
                         {"revision": 2, "only": MELEE, MELEE: GREAT_WEAPON}, HTTP_HX_REQUEST="true")
    assert chosen.status_code == 200
    dwarves.refresh_from_db()
    assert [s["entry"] for s in dwarves.document["forces"][0]["selections"][0]["selections"]] == [
        "8f27-7811-b46f-a278::f49b-1010-24f1-f23b", "8b2a-88ab-99be-3be9::d664-b973-594c-5971", GREAT_WEAPON]
    assert dwarves.total_points == 225   # 215 with a Hand Weapon (free); the Great Weapon is +10 pts


def test_a_great_weapon_makes_the_runic_weapon_enchantments_unavailable_with_its_reason(dwarves, api_alice, client):
    king = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json").json()["unit"]
    url = f"/lists/{dwarves.pk}/units/{king['id']}/"
    assert client.post(url, {"revision": 2, "only": RUNIC_ITEMS, RUNIC_ITEMS: "on"}).status_code == 302
    html = card(client, dwarves.pk)
    # A long group: the searchable picker with its allowance, its inner groups the picker's sections (issue 40 item 4).
    assert legends(html)[0] == "Runic Special Items (up to 250 pts) 0 of 250 pts · 250 left"
    assert sections(html)[:3] == ["Runic Armour Enchantments (up to 3)", "Runic Artefacts (up to 3)",
                                  "Runic Weapon Enchantments (up to 3)"]
    assert "Unavailable" not in html and " disabled" not in html
    assert client.post(url, {"revision": 3, "only": MELEE, MELEE: GREAT_WEAPON}).status_code == 302
    html = card(client, dwarves.pk)
    assert sections(html)[2] == "Runic Weapon Enchantments"
    assert html.count('<p class="help option-unavailable">Unavailable: not with Great Weapon</p>') == 1
    rune = re.search(r'<label class="choice choice-unavailable"[^>]*><input type="checkbox" [^>]*name="([^"]+)"'
                     r' value="1" disabled> <span class="choice-name">Rune of Destruction</span> <span class="cost">'
                     r'\+80 pts</span> <span class="help">\(not with Great Weapon\)</span>', html)
    assert rune is not None
    # The armour runes stay on offer: the modifier is on the weapon group's link only.
    assert re.search(r'<input type="checkbox" [^>]*value="1"> <span class="choice-name">Rune of Steel</span>', html)


def test_a_card_shows_the_profiles_and_rules_of_what_the_unit_holds(dwarves, api_alice, client):
    """The King's Rune of Destruction carries a "7 Artefact" profile (2nd-dwarvenHolds.cat:2205, columns
    as the profile type lays them out); the Seekers' Brothers of Vengeance links the game's Skirmisher rule
    (2nd-dwarvenHolds.cat:1440, text in 2nd-theNinthAge-FantasyBattles.gst:957), long, so folded."""
    king = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json").json()["unit"]
    url = f"/lists/{dwarves.pk}/units/{king['id']}/"
    assert client.post(url, {"revision": 2, "only": RUNIC_ITEMS, RUNIC_ITEMS: "on"}).status_code == 302
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    assert "unit-profile" not in page   # no profile in the King's data until a rune is taken
    rune = re.search(r'name="(sel-[^"]*8bfb-fbc9-b4bb-25d1)"', page).group(1)   # Rune of Destruction
    assert client.post(url, {"revision": 3, "only": rune, rune: "on"}).status_code == 302
    seekers = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "Seekers"}, format="json")
    assert seekers.status_code == 201 and "Skirmisher" not in client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    brothers = "sel-40bd-8373-644e-a639"   # the Seekers' "Brothers of Vengeance" upgrade, which links the rules
    assert client.post(f"/lists/{dwarves.pk}/units/{seekers.json()['unit']['id']}/",
                       {"revision": 5, "only": brothers, brothers: "on"}).status_code == 302
    page = re.sub(r"\s+", " ", client.get(f"/lists/{dwarves.pk}/edit/").content.decode())
    assert ('<thead><tr><th scope="col">Artefact</th><th scope="col">Type</th><th scope="col">Effect</th></tr></thead> '
            '<tbody><tr><th scope="row">Rune of Destruction</th><td>Hand weapon or Paired Weapon Enchantment</td>'
            '<td>Attacks made with a weapon engraved with this Rune gain Multiple Wounds (D3).</td></tr></tbody>') in page
    assert ('<details class="unit-rule"><summary>Skirmisher</summary><p>The model can always use Shooting Attacks '
            'from any rank') in page
    assert page.count("<summary>Skirmisher</summary>") == 1
    # The rule link's own modifier appends " (1)" to its name (2nd-dwarvenHolds.cat:1442-1446).
    names = re.findall(r'<(?:summary|strong|span class="unit-rule")>([^<]*)</', page.split("Rules:</strong>", 1)[1])
    assert "Hard Target (1)" in [" ".join(n.split()) for n in names] and "Hard Target" not in names


def test_the_forces_categories_are_shown_by_name_with_their_checked_limits(dwarves, api_alice, client):
    """Issue 22 item 3. The Dwarven Holds force entry links Characters (max 40% of the points limit),
    Core (min 25%), Clan's Thunder (max 35%), Engines of War (max 20%) and Special (no limit)
    (2nd-dwarvenHolds.cat:8-33): each with a limit is shown, even empty; Special, empty and unlimited, is not."""
    for entry in ("King", "Thane"):
        report = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": entry}, format="json").json()["report"]
    assert [(c["name"], c["points"], c["units"], c["min_percent"], c["max_percent"], c["state"])
            for c in report["categories"]] == [
        ("Characters", 325, 2, None, 40, "ok"), ("Core", 0, 0, 25, None, "low"),
        ("Clan's Thunder", 0, 0, None, 35, "ok"), ("Engines of War", 0, 0, None, 20, "ok")]
    page = re.sub(r"\s+", " ", client.get(f"/lists/{dwarves.pk}/edit/").content.decode())
    assert ('<span class="bar-name">Engines of War</span> <span class="bar-figure">0 · 0.0%</span> </div> '
            '<div class="bar-track" role="img" aria-label="Engines of War: 0.0%, max 20%">') in page
    assert '<span class="mark pl-33" title="max 20% = 400 pts"></span>' in page   # 20% of 2000 pts
    assert '<div class="bar-bounds">min 25% · below the minimum</div>' in page      # Core, empty
    assert 'id="bar-f8f1-3d4f-12bf-73cd"' not in page and ">Other<" not in page
    from pypdf import PdfReader

    pdf = client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=full").content
    printed = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert ("Category Units pts % Min Max Characters 2 325 16.2% - 40% Core 0 0 0.0% 25% - "
            "Clan's Thunder 0 0 0.0% - 35% Engines of War 0 0 0.0% - 20% Total 2 325 16.2%") in printed


def test_a_category_limit_in_points_or_units_is_drawn_in_words():
    """A roster tree's category may be limited in points or selections (BattleScribe's constraint
    fields); the bar's words and the PDF's Min/Max say so."""
    from armylists.editor.report_panel import category_bounds
    from armylists.exports.pdf_header import _bound
    from armylists.rules.report import CategoryLine

    line = CategoryLine("c", "Heroes", 0, 0.0, min_points=100, max_count=1)
    assert category_bounds(line, "pts") == "min 100 pts, max 1 unit"
    assert (_bound(None, 100, None, "pts"), _bound(None, None, 1, "pts"), _bound(25, None, None, "pts"),
            _bound(None, None, None, "pts")) == ("100 pts", "1 unit", "25%", "-")


def test_a_weapon_for_every_model_is_one_choice_whose_cost_follows_the_models(dwarves, api_alice, client):
    """Clan Marksmen (2nd-dwarvenHolds.cat:990): the "Weapon" group is min 1, max 1 (a choice, not a box
    for 20 handguns); the Guild-Crafted Handgun costs +3 pts repeated once per model in the unit (an
    increment with a repeat on childId "model"): +30 pts for the 10 models the unit arrives with."""
    unit = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "Clan Marksmen"}, format="json").json()
    assert unit["report"]["total_points"] == 190
    html = card(client, dwarves.pk)
    assert legends(html) == ["Weapon (exactly 1)", "Command Group"]
    assert ('<span class="choice-name">Guild-Crafted Handgun (4+)</span> <span class="cost">+30 pts '
            '(3 pts per model)</span>') in html
    assert '<span class="choice-name">Clan Marksman</span> <span class="cost">+14 pts, up to 25</span>' in html
    assert len(re.findall(r'type="radio" [^>]*name="one-3934-34d0-7271-9a08"', html)) == 3   # no "none"


def test_a_condition_is_worded_by_what_it_counts_and_its_comparison():
    from types import SimpleNamespace

    from armylists.rules.battlescribe.words import condition_words

    names = {"gw": "Great Weapon", "king": "King", "mount": "Mount"}
    tree = SimpleNamespace(game=SimpleNamespace(name_of=lambda i: names.get(i, i)))
    said = [condition_words(tree.game, {"type": t, "value": v, "child": "gw", "scope": "king"}) for t, v in (
        ("equalTo", 1), ("atLeast", 1), ("greaterThan", 0), ("equalTo", 0), ("lessThan", 1), ("atLeast", 2),
        ("greaterThan", 1))]
    assert said == ["with Great Weapon"] * 3 + ["without Great Weapon"] * 2 + [
        "with at least 2 Great Weapon in King", "with more than 1 Great Weapon in King"]
    assert condition_words(tree.game, {"type": "instanceOf", "child": "mount", "scope": "ancestor"}) == "in Mount"
    assert condition_words(tree.game, {"type": "notInstanceOf", "child": "mount"}) == "not in Mount"


def test_the_catalogue_of_a_tree_is_by_category_with_each_units_price_as_added(dwarves, client):
    """Issue 40 item 1: the "Add a unit" column of a roster tree is laid out as our books' is: a section per
    category of the force, in the force's order, each entry priced as added (the King with the Hand Weapon
    and Army General link the data selects with him: 215 pts, as the list's total says once he is added)."""
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    start = page.index('id="catalogue"')
    catalogue = page[start:page.index("</aside>", start)]
    headings = [html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", h)).strip())
                for h in re.findall(r"<h3[^>]*>(.*?)</h3>", catalogue, re.S)]
    assert headings == ["Characters", "Core", "Clan's Thunder", "Engines of War", "Special"]
    entries = dict(re.findall(r'<span class="entry-name">([^<]+)</span>\s*<span class="entry-cost">([^<]*)</span>',
                              catalogue))
    assert entries["King"] == "215 pts"
    characters = catalogue[:catalogue.index("Core")]
    assert "King" in characters and "Clan Warriors" not in characters
