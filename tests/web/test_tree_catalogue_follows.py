"""Issue 40: after an edit of a roster tree, the editor's answer is what the edit changed, the catalogue
included (editor/changes.py: placed_changes; editor/views.py: answer_edit), and stays under the issue's
40 kB. New Recruit's Old World data (../shared/external/battlescribe/the-old-world-nr).

- Skaven.cat r71: Plague Monks are held at 0 until a Plague Priest is in the army (the Plague Monks entry
  link's "max 0 in the force", raised by 1 per Plague Priest; tests/web/test_tree_editor.py). Adding the
  priest is answered with his card placed after the last unit of his category, the Monks' card redrawn
  without its error, and the catalogue's entries with the Monks no longer greyed for want of him;
  removing him drops his card and greys them again.
- The Empire of Man.cat: the legal roster of docs/examples read in (14 units); a duplicate and a model
  count change are each answered with the cards they changed, not the list (the whole list was 268 kB).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from armylists.listfiles.importing import import_list
from armylists.lists.library.catalogue import validate_roster
from armylists.lists.trees.tree_lists import evaluated
from armylists.models import ArmyList
from armylists.rules import parse_roster
from tests.battlescribe.imported import import_battlescribe
from tests.web.test_tree_editor import MONKS_HELD, TOW, add, card, entry_button, rats  # noqa: F401 (a fixture)

ROOT = Path(__file__).resolve().parents[2]
EMPIRE = ("Warhammer_Old_World.gst", "The Empire of Man.cat", "Common Magic Items.cat", "The Lores of Magic.cat",
          "Mercenaries.cat", "Runic Items.cat")
EMPIRE_ROS = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr" / "empire-of-man-legal.ros"
BUDGET = 40 * 1024   # issue 40: an edit answers at most 40 kB
MONKS_WAIT = '<span class="entry-detail">needs a Plague Priest in the army</span>'

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not TOW.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")]


def cards(html: str) -> int:
    """How many unit cards a piece of the page holds."""
    return len(re.findall(r'<details class="unit(?: [^"]*)?" id="unit-', html))


def post(client, army_list: ArmyList, path: str, data: dict | None = None):
    army_list.refresh_from_db()
    answer = client.post(f"/lists/{army_list.pk}/{path}", {**(data or {}), "revision": army_list.revision},
                         HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content[:500]
    return answer


def swaps(html: str) -> list[str]:
    """Each out-of-band part of an answer: the id it replaces, else where it goes ("afterend:#unit-…")."""
    found = []
    for tag in re.findall(r"<[a-z]+ [^>]*hx-swap-oob=\"[^\"]*\"[^>]*>", html):
        where = re.search(r'hx-swap-oob="([^"]*)"', tag).group(1)
        element = re.search(r' id="([^"]*)"', tag)
        found.append(element.group(1) if where in ("true", "innerHTML") and element else where)
    return found


def test_a_unit_added_or_removed_redraws_the_catalogue_and_the_cards_it_changed(rats, api_alice, client):
    warlord = add(api_alice, rats, "Skaven Warlord")["unit"]["id"]
    monks = add(api_alice, rats, "Plague Monks")["unit"]["id"]
    rats.refresh_from_db()
    before = {s["id"] for s in rats.document["forces"][0]["selections"]}
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    assert MONKS_WAIT in entry_button(page, "Plague Monks")
    priest_id = re.search(r'name="entry" value="([^"]+)" id="add-[^"]+" title="Add Plague Priest ', page).group(1)
    monks_button = re.search(r'id="(add-[^"]+)" title="Add Plague Monks ', page).group(1)

    added = post(client, rats, "add-unit/", {"entry": priest_id})
    html = added.content.decode()
    rats.refresh_from_db()
    priest = ({s["id"] for s in rats.document["forces"][0]["selections"]} - before).pop()
    assert added["HX-Reswap"] == "none" and added["X-Scroll-To"] == priest
    parts = swaps(html)
    # the priest's card after the Warlord's (both Characters); the Monks' card redrawn, its error gone; of the
    # catalogue, the Monks' entry (and those the priest changed), by their buttons
    assert f"afterend:#unit-{warlord}" in parts and f"unit-{monks}" in parts and f"unit-{warlord}" not in parts
    assert cards(html) == 2 and MONKS_HELD not in card(html, monks)
    assert monks_button in parts and "catalogue-list" not in parts and "report" in parts
    # one priest lifts the bound to 1, which the army has: the Monks greyed for that alone now
    monks_entry = entry_button(html, "Plague Monks")
    assert '<span class="entry-detail">at most 1 in the army, 1 taken</span>' in monks_entry
    assert len(added.content) < BUDGET

    removed = post(client, rats, f"units/{priest}/remove/")
    html = removed.content.decode()
    parts = swaps(html)
    assert f"delete:#unit-{priest}" in parts and f"unit-{monks}" in parts and monks_button in parts
    assert f'<span class="unit-problem problem-error">{MONKS_HELD}</span>' in card(html, monks)
    assert MONKS_WAIT in entry_button(html, "Plague Monks")
    assert len(removed.content) < BUDGET
    rats.refresh_from_db()
    assert {s["id"] for s in rats.document["forces"][0]["selections"]} == before


def test_a_unit_first_of_its_category_redraws_that_section(rats, api_alice, client):
    """The priest in a list of Plague Monks alone: his section was empty ("No Characters yet"), so it is
    drawn again whole, his card in it."""
    monks = add(api_alice, rats, "Plague Monks")["unit"]["id"]
    page = client.get(f"/lists/{rats.pk}/edit/").content.decode()
    section = re.search(r'<section class="units-section" id="section-([^"]+)"[^>]*>\s*<h2[^>]*>\s*<span>Characters</span>',
                        page).group(1)
    assert "No Characters yet." in page
    priest_id = re.search(r'name="entry" value="([^"]+)" id="add-[^"]+" title="Add Plague Priest ', page).group(1)
    html = post(client, rats, "add-unit/", {"entry": priest_id}).content.decode()
    parts = swaps(html)
    assert f"section-{section}" in parts and f"unit-{monks}" in parts
    assert not [p for p in parts if p.startswith(("afterend:", "beforebegin:"))]
    whole = html[html.index(f'id="section-{section}"'):html.index("</section>")]
    assert cards(whole) == 1 and "No Characters yet." not in whole


def empire_list(alice) -> ArmyList:
    import_battlescribe(*(TOW / name for name in EMPIRE))
    tree, book, _format, _warnings = import_list(EMPIRE_ROS.read_bytes(), EMPIRE_ROS.name)
    army_list = ArmyList(owner=alice)
    army_list.set_document(tree, validate_roster(book, tree))
    army_list.save()
    return army_list


def test_a_duplicate_and_a_count_change_answer_with_what_they_changed(client, alice):
    army_list = empire_list(alice)
    client.force_login(alice)
    tree = evaluated(parse_roster(army_list.document))
    # a rank-and-file unit: one model selection of several models
    unit = next(u for f in tree.all_forces() for u in f.selections
                if [c.amount > 1 for c in u.children if c.option.entry.get("type") == "model"] == [True])
    model = next(c for c in unit.children if c.option.entry.get("type") == "model")
    whole = client.get(f"/lists/{army_list.pk}/edit/").content.decode()
    assert cards(whole) == 14

    field = f"sel-{model.entry_id}"
    counted = post(client, army_list, f"units/{unit.uid}/", {"only": field, field: model.amount + 1})
    html = counted.content.decode()
    assert cards(html) == 1 and f"unit-{unit.uid}" in swaps(html)
    assert "catalogue-list" not in swaps(html)   # nothing the catalogue shows changed
    assert len(counted.content) < BUDGET

    duplicated = post(client, army_list, f"units/{unit.uid}/duplicate/")
    html = duplicated.content.decode()
    army_list.refresh_from_db()
    copy = duplicated["X-Scroll-To"]
    # the copy placed after its unit, alone of the cards
    assert cards(html) == 1 and f'id="unit-{copy}"' in html
    assert f"afterend:#unit-{unit.uid}" in swaps(html)
    assert len(duplicated.content) < BUDGET
    selections = [s["id"] for f in army_list.document["forces"] for s in f["selections"]]
    assert selections[selections.index(unit.uid) + 1] == copy



ORCS = ("Warhammer_Old_World.gst", "Orc and Goblin Tribes.cat", "Common Magic Items.cat", "The Lores of Magic.cat",
        "Giant Library.cat", "Mercenaries.cat", "Orcs and Goblins - Arcane Journal.cat")
ORCS_ROS = ROOT / "docs" / "examples" / "battlescribe" / "the-old-world-nr" / "orc-and-goblin-tribes-legal.ros"


def test_a_card_whose_picker_offers_none_is_compared_after_an_edit(client, alice):
    """The Orc Bigboss's long groups are drawn as a picker whose section offers the choice's own "none":
    the section held the choice itself, a cycle inside the card, and comparing the cards before and after
    an edit (editor/changes.py) ran out of stack: every edit of this roster answered 500."""
    import_battlescribe(*(TOW / name for name in ORCS))
    tree, book, _format, _warnings = import_list(ORCS_ROS.read_bytes(), ORCS_ROS.name)
    army_list = ArmyList(owner=alice)
    army_list.set_document(tree, validate_roster(book, tree))
    army_list.save()
    client.force_login(alice)
    evaluated_tree = evaluated(parse_roster(army_list.document))
    boss = next(u for f in evaluated_tree.all_forces() for u in f.selections if u.state.name == "Orc Bigboss")
    duplicated = post(client, army_list, f"units/{boss.uid}/duplicate/")
    html = duplicated.content.decode()
    army_list.refresh_from_db()
    bosses = [s for s in army_list.document["forces"][0]["selections"] if s["entry"] == boss.entry_id]
    assert len(bosses) == 2 and f"afterend:#unit-{boss.uid}" in swaps(html) and cards(html) == 1
