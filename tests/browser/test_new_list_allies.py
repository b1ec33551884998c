"""Starting a The Old World list with allies, in a real browser: the new-list form offers only the chosen
book's compositions and allies (the-old-world-facts.md: Allies from another army's book), and the list
opens in the editor with its allied contingent."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armylists.models import ArmyList

from .test_build_a_list import Editor, sign_up

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DWARFS = "the-old-world/dwarfen-mountain-holds/2024.4"
ORCS = "the-old-world/orc-and-goblin-tribes/2024.4"


def visible_values(page, select: str) -> list[str]:
    return page.eval_on_selector_all(f"{select} option", "els => els.filter(e => !e.hidden).map(e => e.value)")


def test_the_new_list_form_offers_the_chosen_books_allies(site, page, shoot):
    sign_up(page, site, "dawi")
    page.select_option("#id_book", DWARFS)
    allies = visible_values(page, "#id_allies")
    assert allies[0] == ""
    assert f"{DWARFS}/empire-of-man/2024.4" in allies
    assert f"{DWARFS}/dwarfen-mountain-holds/2024.4/slayer-host" in allies
    assert all(v == "" or v.startswith(DWARFS + "/") for v in allies)
    assert all(v == "" or v.startswith(DWARFS + "/") for v in visible_values(page, "#id_composition"))

    page.select_option("#id_allies", f"{DWARFS}/empire-of-man/2024.4")
    page.select_option("#id_book", ORCS)  # another book: the Dwarfs' allies are no longer offered
    assert page.input_value("#id_allies") == ""
    assert all(v == "" or v.startswith(ORCS + "/") for v in visible_values(page, "#id_allies"))

    page.select_option("#id_book", DWARFS)
    page.select_option("#id_allies", f"{DWARFS}/empire-of-man/2024.4")
    page.fill("#id_points_limit", "2000")
    page.fill("#id_name", "Karak and Nuln")
    shoot(page, "new-list-allies")
    page.click("button:has-text('Create and start adding units')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    expect(page.locator("h3", has_text="Allies: Empire of Man")).to_be_visible()
    assert ArmyList.objects.get().document["allies"] == {"book": "empire-of-man", "book_version": "2024.4"}

    # Matched play in the list's settings: ticking Combined Arms saves it at once (autosave).
    editor = Editor(page)
    editor.check("#list-mode-combined-arms")
    assert ArmyList.objects.get().document["modes"] == ["combined-arms"]
    editor.change(page.uncheck, "#list-mode-combined-arms")
    assert "modes" not in ArmyList.objects.get().document
