"""Issue 40 items 1-4 in a real browser at 1366 and 390 px: a player builds lists of imported catalogues from
the editor alone, every unit legal as added bar the army's own rules, to a legal list, and a roster tree's
card is no taller than our own book's for a like unit.

- An Old World Skaven 2000 list of New Recruit's data (../shared/external/battlescribe/the-old-world-nr:
  Skaven.cat r71 and the catalogues it links): the Warlord added first is the General; Plague Monks wait,
  greyed, for a Plague Priest (Skaven.cat, the Plague Monks entry link's max 0 raised per Plague Priest);
  the Warlord's Magic Items are a picker; his card, opened, against our Empire of Man's General of the
  Empire (rules_data/the-old-world/books/empire-of-man.yaml), both with their magic items picker closed.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armylists.lists.library.catalogue import report_for
from armylists.models import ArmyList
from armylists.rules import parse_roster
from tests.battlescribe.imported import import_battlescribe
from tests.web.test_tree_editor import BOOK as SKAVEN_BOOK, SKAVEN, TOW

from .test_build_a_list import Editor
from .test_event import PASSWORD, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WIDTHS = [1366, 390]
HEIGHT = {1366: 900, 390: 844}


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("squeak", "", PASSWORD)


def new_list(page, site: str, book: str, points: int, name: str) -> ArmyList:
    page.goto(site + "/lists/new/")
    value = book if book.count("/") == 2 else page.eval_on_selector(
        "#id_book", "(s, b) => [...s.options].map(o => o.value).find(v => v.startsWith(b + '/'))", book)
    page.select_option("#id_book", value)
    page.fill("#id_points_limit", str(points))
    page.fill("#id_name", name)
    page.click("button:has-text('Create and start adding units')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    return ArmyList.objects.filter(owner__username="squeak").latest("pk")


def entry(page, name: str):
    """The catalogue's button of the entry named `name` exactly."""
    return page.locator("#catalogue-list button.entry").filter(
        has=page.locator(".entry-name", has_text=re.compile(f"^{re.escape(name)}$")))


def add(page, editor: Editor, name: str) -> None:
    editor.change(entry(page, name).click)


def tree_units(army_list: ArmyList) -> list[dict]:
    army_list.refresh_from_db()
    return army_list.document["forces"][0]["selections"]


def unit_problems(page, uid: str) -> list[str]:
    return page.locator(f"#unit-{uid} .unit-problem").all_text_contents()


def opened_height(page, uid: str) -> float:
    """A card's height, opened, its pickers closed, as a player first sees it."""
    card = page.locator(f"#unit-{uid}")
    if card.get_attribute("open") is None:
        card.locator("summary.unit-summary").click()
    expect(card).to_have_attribute("open", "")
    return card.bounding_box()["height"]


@pytest.mark.skipif(not TOW.is_dir(), reason="../shared/external/battlescribe/the-old-world-nr is absent")
@pytest.mark.parametrize("width", WIDTHS)
def test_a_player_builds_a_legal_skaven_list_of_new_recruits_data(site, player, page, shoot, width, capsys):
    import_battlescribe(*(TOW / name for name in SKAVEN))
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    troubles: list[str] = []
    page.on("console", lambda msg: troubles.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: troubles.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    log_in(page, site, "squeak")
    editor = Editor(page)
    rats = new_list(page, site, SKAVEN_BOOK, 2000, "Rats 2000")

    # Item 1: the catalogue by category, searched; item 3: Plague Monks wait for a Plague Priest, and say so.
    expect(page.locator("#catalogue-list h3").first).to_have_text("Characters")
    monks = entry(page, "Plague Monks")
    expect(monks).to_have_class(re.compile("entry-unavailable"))
    expect(monks.locator(".entry-detail")).to_have_text("needs a Plague Priest in the army")
    page.fill("#entry-search", "plague")
    expect(page.locator("#catalogue-list li:visible")).to_have_count(
        page.locator("#catalogue-list li", has_text=re.compile("Plague", re.I)).count())
    page.fill("#entry-search", "")

    # Item 2: each unit as added is legal on its own; the first character is the General, a badge.
    add(page, editor, "Skaven Warlord")
    warlord = tree_units(rats)[-1]["id"]
    expect(page.locator(f"#unit-{warlord} .unit-roles")).to_have_text("General")
    add(page, editor, "Grey Seer")
    seer = tree_units(rats)[-1]["id"]
    expect(page.locator(f"#unit-{seer} .unit-roles")).to_have_count(0)
    expect(page.locator(f"#unit-{seer} .unit-choices")).to_contain_text("Battle Magic")   # its lore picked for it
    add(page, editor, "Plague Priest")
    expect(monks).not_to_have_class(re.compile("entry-unavailable"))
    add(page, editor, "Plague Monks")
    for _ in range(5):
        add(page, editor, "Clanrats")
    units = tree_units(rats)
    for unit in units:
        assert unit_problems(page, unit["id"]) == [], unit["id"]
    report = report_for(parse_roster(rats.document))
    assert [v.code for v in report.violations if v.severity == "error"] == []
    assert report.valid and rats.total_points == report.total_points
    expect(editor.report()).to_contain_text("Legal")

    # The list by category with its bars, as our books' list.
    titles = [" ".join(t.split()) for t in page.locator("#editor-main .section-title").all_text_contents()]
    assert [t.split(" ")[0] for t in titles] == ["Characters", "Core", "Special", "Rare", "Mercenaries"]
    assert "(min 25%)" in titles[1]

    # Item 4: the Warlord's magic items in a picker (closed); his card against our General of the Empire's.
    expect(page.locator(f"#unit-{warlord} details.item-picker")).to_have_count(1)
    tree_height = opened_height(page, warlord)
    shoot(page, f"tree-skaven-warlord-{width}")
    empire = new_list(page, site, "the-old-world/empire-of-man", 2000, "Empire 2000")
    editor.change(page.locator("#add-general-of-the-empire").click)
    general = empire.document["units"][0]["id"] if (empire := ArmyList.objects.get(pk=empire.pk)) else ""
    ours = opened_height(page, general)
    with capsys.disabled():
        print(f"\ncard heights at {width} px: Skaven Warlord (tree) {tree_height:.0f} px, "
              f"General of the Empire (ours) {ours:.0f} px")
    assert tree_height <= ours
    assert troubles == []
