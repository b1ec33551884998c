"""Issue 40 items 1-4: the editor gives a roster tree (a list of an imported BattleScribe / New Recruit
catalogue) what it gives a list of our books, through the list-kind seam (editor/kind_pages.py ->
editor/tree_cards.py, lists/trees/tree_offers.py). Played on New Recruit's Old World data
(../shared/external/battlescribe/the-old-world-nr: Skaven.cat r71 and the catalogues it links), 2000 pts.

Sources, all in Skaven.cat: the Plague Monks entry link's "max 0 in the force" constraint, raised by 1 per
Plague Priest in the force (entryLink b179a11e-b2032be8, constraint 87a2-72e5-c3dc-8bda, its increment's
repeat of childId 834f15f4-70bc7efe); the Grey Seer's "Lores of Magic" group (at least 1 and at most 1, no
defaultSelectionEntryId); the "General" entry link inside each character's model (target 7d76-b1a1-1535-a04c),
which rules_data/battlescribe_systems.yaml names the Old World's General; the characters' "Magic Items"
group (at most 100 pts for a Skaven Warlord)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from armylists.lists.library.catalogue import report_for
from armylists.lists.trees.tree_lists import evaluated
from armylists.models import ArmyList
from armylists.rules import parse_roster
from tests.battlescribe.imported import import_battlescribe

ROOT = Path(__file__).resolve().parents[2]
TOW = ROOT.parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
SKAVEN = ("Warhammer_Old_World.gst", "Skaven.cat", "Common Magic Items.cat", "The Lores of Magic.cat", "Mercenaries.cat")
BOOK = "bs-warhammer-the-old-world/bs-skaven/r71"
MONKS_HELD = "Plague Monks: 1 taken in the army; at most 0 (needs a Plague Priest in the army)."

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not TOW.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]


@pytest.fixture
def rats(client, alice) -> ArmyList:
    """A new 2000-pt list of the Skaven book made with the new-list form: a roster tree."""
    import_battlescribe(*(TOW / name for name in SKAVEN))
    client.force_login(alice)
    response = client.post("/lists/new/", {"name": "Rats", "book": BOOK, "points_limit": "2000"})
    assert response.status_code == 302
    return ArmyList.objects.get(owner=alice)


def add(api, army_list: ArmyList, entry: str) -> dict:
    response = api.post(f"/api/v1/lists/{army_list.pk}/units/", {"entry": entry}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def selections(army_list: ArmyList, uid: str) -> list[tuple[str, int]]:
    army_list.refresh_from_db()
    unit = evaluated(parse_roster(army_list.document)).by_uid[uid]
    return [(s.state.name, s.number) for s in unit.walk()][1:]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def card(page: str, uid: str) -> str:
    start = page.index(f'id="unit-{uid}"')
    end = re.compile(r'<details class="unit(?: [^"]*)?" id="unit-').search(page, start)
    return page[start:end.start() if end else len(page)]


def entry_button(page: str, name: str) -> str:
    found = [b for b in re.findall(r'<button type="submit" class="entry.*?</button>', page, re.S)
             if f'<span class="entry-name">{name}</span>' in b]
    assert len(found) == 1, name
    return found[0]


def test_a_unit_is_added_as_a_player_expects_it(rats, api_alice):
    """Item 2, through the API as through the editor (both ask the kind's add_unit): the first character is
    the General, a later one is not; a group that must hold one and names no default gets its first free
    choice (the Grey Seer's lores are all free: Battle Magic, the first), an "exactly 1" group its cheapest
    (the Chieftain's Armour: Light Armour free, Heavy Armour +3 pts)."""
    warlord = add(api_alice, rats, "Skaven Warlord")
    assert selections(rats, warlord["unit"]["id"]) == [("Skaven Warlord", 1), ("Hand Weapon", 1), ("Light Armour", 1),
                                                        ("General", 1)]
    seer = add(api_alice, rats, "Grey Seer")
    assert selections(rats, seer["unit"]["id"]) == [("Grey Seer", 1), ("D3 Warpstone Tokens", 1), ("Hand Weapon", 1),
                                                     ("Wizard Level 3", 1), ("Battle Magic", 1)]
    chieftain = add(api_alice, rats, "Skaven Chieftain")
    assert selections(rats, chieftain["unit"]["id"]) == [("Skaven Chieftain", 1), ("Hand Weapon", 1),
                                                          ("Light Armour", 1)]
    # Each legal as added: what is left is the army's (no General missing, no unit's group short), and our
    # rule the tree cannot answer.
    assert [(v["code"], v["unit"], v["message"]) for v in chieftain["report"]["violations"]][:2] == [
        ("bs.constraint.min", None, "Core: 160 pts, 8% of the 2000 pts limit; at least 25% (500 pts)."),
        ("bs.constraint.min", None, "Units (not including units whose troop type is 'swarms', 'war beasts' or 'war "
                                    "machines'): 2 taken; at least 3.")]
    assert [v["code"] for v in chieftain["report"]["violations"]][2:] == ["system.rule_unchecked"]


def test_the_list_is_grouped_by_category_with_its_bars_and_badges(rats, api_alice, client):
    """Item 1: the cards under the Report's categories in its order with their figures and bounds, as our
    books' list; the General a badge, not a selection in the summary."""
    warlord = add(api_alice, rats, "Skaven Warlord")["unit"]["id"]
    add(api_alice, rats, "Grey Seer")
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    titles = [text(t) for t in re.findall(r'<h2 class="section-title".*?</h2>', page, re.S)]
    assert titles == ["Characters 275 pts · 13.8% (max 50%)", "Core 160 pts · 8.0% (min 25%)",
                      "Special 0 pts · 0.0% (max 50%)", "Rare 0 pts · 0.0% (max 25%)",
                      "Mercenaries 0 pts · 0.0% (max 20%)"]
    mine = card(page, warlord)
    assert '<span class="unit-roles"><span class="tag">General</span></span>' in mine
    assert '<span class="unit-choices">Skaven Warlord (Hand Weapon, Light Armour)</span>' in mine
    assert "Your list is empty" not in page
    # The list's own page (read-only) is laid out the same way, without the empty categories' forms.
    detail = client.get(f"/lists/{rats.pk}/").content.decode()
    assert '<span class="tag">General</span>' in detail


def test_the_catalogue_is_searched_and_says_why_a_unit_waits(rats, api_alice, client):
    """Items 1 and 3: a search keeps the entries whose name has every word; Plague Monks, held at 0 until a
    Plague Priest is in the army, are greyed with that reason in the catalogue, and once added the Report
    says it; with a Plague Priest the reason and the error go."""
    found = client.get(f"/lists/{rats.pk}/edit/?q=plague").content.decode()
    names = re.findall(r'<span class="entry-name">([^<]*)</span>', found)
    assert names and all("plague" in n.lower() for n in names) and "Plague Monks" in names
    monks = entry_button(found, "Plague Monks")
    assert "entry-unavailable" in monks and '<span class="entry-detail">needs a Plague Priest in the army</span>' in monks
    added = add(api_alice, rats, "Plague Monks")
    held = [(v["message"], v["unit"]) for v in added["report"]["violations"] if v["code"] == "bs.constraint.max"]
    assert held == [(MONKS_HELD, added["unit"]["id"])]
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    assert f'<span class="unit-problem problem-error">{MONKS_HELD}</span>' in card(page, added["unit"]["id"])
    add(api_alice, rats, "Plague Priest")
    rats.refresh_from_db()
    assert MONKS_HELD not in [v.message for v in report_for(parse_roster(rats.document)).violations]
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    # One Plague Priest lifts the bound to 1, which the army has: greyed now for that reason alone.
    assert '<span class="entry-detail">at most 1 in the army, 1 taken</span>' in entry_button(page, "Plague Monks")


def test_a_long_group_is_a_searchable_picker_with_the_allowance_left(rats, api_alice, client):
    """Item 4: the Warlord's Magic Items (57 items, up to 100 pts) is a picker: nothing of it printed as a
    column of boxes until opened, its allowance and what is left in its heading; an item taken is shown
    above the picker, and what no longer fits the points left is refused with that reason."""
    warlord = add(api_alice, rats, "Skaven Warlord")["unit"]["id"]
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    mine = card(page, warlord)
    assert mine.count('class="item-picker"') == 1
    assert "Magic Items <span class=\"muted\">(up to 100 pts)</span> <span class=\"allowance\">0 of 100 pts · 100 left" \
        in mine
    assert "Add an item… <span class=\"muted\">(57 available)</span>" in mine
    boxes = re.findall(r'<li data-search="([^"]*)">\s*<label class="choice[^"]*"()><input type="(\w+)" '
                       r'id="[^"]*" name="([^"]*)" value="([^"]*)"', mine)   # each box inside its label
    sword = next(b for b in boxes if "sword of might" in b[0])
    rats.refresh_from_db()
    form = {"revision": rats.revision, "only": sword[3], sword[3]: sword[4] if sword[2] == "radio" else "1"}
    assert client.post(f"/lists/{rats.pk}/units/{warlord}/", form).status_code == 302
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    mine = card(page, warlord)
    spent = int(re.search(r'<span class="allowance">(\d+) of 100 pts · (\d+) left', mine).group(1))
    assert spent > 0 and f"{spent} of 100 pts · {100 - spent} left" in mine
    assert "Sword of Might" in text(mine.split('class="item-picker"')[0])   # taken: above the picker
    refused = re.findall(r'choice-unavailable"><input[^>]*disabled> <span class="choice-name">([^<]*)'
                         r'</span> <span class="cost">\+(\d+) pts</span> <span class="help">\(more than the (\d+) pts '
                         r'left\)</span>', mine)
    assert refused and all(int(cost) > int(left) == 100 - spent for _name, cost, left in refused)
