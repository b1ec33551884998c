"""A Dwarven Holds 2000 list of New Recruit's current T9A data built in a real browser at 1366 and 390 px
(issue 40): from the catalogue to legal, a rule of the data broken and shown with its reason in the
report, then put right.

Numbers are the data's at the bundle's head (b543015): King 200, Thane 70, Clan Warriors 180 for 15 and 11
a model more, Greybeards 190 for 10 and 15 more, Grudge Buster 280, Field Artillery 95, Dragon Seeker 270.
The rules: the Grudge Buster is Rare, one per 2,500 pts begun (dh.json: `armyHasNotOption` with `perPoints`
2500, round up; the importer's limit "Grudge Buster (Rare)"), so one at 2000 pts; a Dragon Seeker is
Uncommon, one per 1,500 pts begun (two at 2000); Characters at most 40%, Core at least 25%; a total at most
40 pts under the limit (rules_data/t9a-2/system.yaml: points-shortfall)."""
from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from armylists.models import ArmyList
from tests.importers.nr_summaries import BUNDLE, needs_data

from .test_build_a_list import Editor
from .test_event import PASSWORD, log_in

pytestmark = [needs_data, pytest.mark.django_db(transaction=True), pytest.mark.slow]

HEIGHT = {1366: 900, 390: 844}
RARE = "Grudge Buster (Rare): 2 units with it in the army; at most 1."


def open_card(page, unit: str) -> None:
    card = page.locator(f"#unit-{unit}")
    if card.get_attribute("open") is None:
        card.locator("summary.unit-summary").click()


@pytest.mark.parametrize("width", [1366, 390])
def test_a_dwarven_holds_list_is_built_broken_and_put_right(site, page, shoot, django_user_model, width):
    call_command("import_nr_t9a", str(BUNDLE), stdout=StringIO())  # the newest commit of the bundle
    django_user_model.objects.create_user("dwalin", "", PASSWORD)
    page.set_viewport_size({"width": width, "height": HEIGHT[width]})
    troubles: list[str] = []
    page.on("console", lambda msg: troubles.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: troubles.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    log_in(page, site, "dwalin")
    page.goto(site + "/lists/new/")
    book = page.locator("#id_book option", has_text="Dwarven Holds")
    page.select_option("#id_book", book.first.get_attribute("value"))
    page.fill("#id_name", "Holds 2000")
    page.fill("#id_points_limit", "2000")
    page.click("button:has-text('Create and start adding units')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    editor = Editor(page)

    # From the catalogue: the King first (the General as added), a Thane, Core enough, the rest.
    editor.add("king")
    expect(page.locator("#u-king-opt-general")).to_be_checked()
    for entry, size in (("thane", None), ("clan-warriors", 25), ("clan-warriors", 25), ("grudge-buster", None),
                        ("field-artillery", None), ("greybeards", 30)):
        editor.add(entry)
        if size:
            unit = ArmyList.objects.get(owner__username="dwalin").document["units"][-1]["id"]
            editor.size(unit, size)
    expect(editor.report()).to_contain_text("1,715 / 2,000 pts")
    expect(editor.report()).to_contain_text("Total 1715 pts is 285 pts under the 2000 pts limit; an army may be "
                                            "at most 40 pts under it.")

    # Broken: a second Grudge Buster (a duplicate) is one Rare more than 2000 pts allow; said in the report
    # (an army's count: no one card's), the list marked not legal.
    open_card(page, "grudge-buster")
    editor.change(page.click, "#u-grudge-buster-duplicate")
    expect(editor.report()).to_contain_text("1,995 / 2,000 pts")
    expect(editor.report()).to_contain_text(RARE)
    expect(page.locator("#unit-grudge-buster-2")).to_have_count(1)   # the copy, after its unit
    expect(editor.report()).to_contain_text("Not legal")
    expect(page.locator("#editor-status")).to_contain_text("1 problem")
    shoot(page, f"nr-dh-2000-rare-{width}")
    army_list = ArmyList.objects.get(owner__username="dwalin")
    assert (army_list.valid, army_list.total_points) == (False, 1995)

    # Put right: the copy removed, an Uncommon Dragon Seeker instead (two allowed at 2000 pts).
    open_card(page, "grudge-buster-2")
    editor.change(page.click, "#u-grudge-buster-2-remove")
    expect(page.locator("#unit-grudge-buster-2")).to_have_count(0)
    editor.add("dragon-seeker")
    expect(editor.report()).to_contain_text("1,985 / 2,000 pts")
    expect(editor.report()).to_contain_text("Legal")
    expect(editor.report()).not_to_contain_text(RARE)
    army_list.refresh_from_db()
    assert (army_list.valid, army_list.total_points, len(army_list.document["units"])) == (True, 1985, 8)
    assert [u["entry"] for u in army_list.document["units"]] == [
        "king", "thane", "clan-warriors", "clan-warriors", "grudge-buster", "field-artillery", "greybeards",
        "dragon-seeker"]
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, f"nr-dh-2000-legal-{width}")
    assert troubles == []
