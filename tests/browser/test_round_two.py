"""Players, round two, in a real browser at 1366 and 390 px: a list imported from Old World Builder's
text opens in the editor; the sole character is the General; the unit card shows its profile and rules;
the item picker searches and greys what cannot be taken, with why; the report speaks in plain words
and folds what does not matter; every PDF variant downloads under its own name; no editor scrolls
sideways at 390 px and the report is not cut off at 1366 px. Screenshots: test-artifacts/screenshots/."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from armylists.lists.library.catalogue import validate_roster
from armylists.listfiles.reading import read_list
from armylists.models import ArmyList

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "a-long-pass-phrase-9"
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
WIDTHS = (1366, 390)
OWB_TEXT = """===
Steel and faith [1320 pts]
Warhammer: The Old World, Empire of Man
===

++ Characters [120 pts] ++

General of the Empire [120 pts]
- Hand weapon
- Full plate armour

++ Core Units [200 pts] ++

20 State Troops [200 pts]
- Halberds
- Champion
- Standard Bearer

---
Created with "Old World Builder"
"""


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("roundtwo", password=PASSWORD)


def log_in(page, site: str) -> None:
    page.goto(site + "/accounts/login/")
    page.fill("#id_username", "roundtwo")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(site + "/**")


def example(owner, name: str) -> ArmyList:
    roster, book = read_list(EXAMPLES / name)
    army_list = ArmyList(owner=owner)
    army_list.set_document(roster, validate_roster(book, roster))
    army_list.save()
    return army_list


def overflow(page) -> int:
    """How far the page scrolls sideways (0: it does not)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_an_old_world_builder_text_is_imported_and_opens_in_the_editor(site, page, shoot, player):
    log_in(page, site)
    page.goto(site + "/lists/")
    page.click("text=Import a list")
    page.wait_for_url("**/lists/import/")
    page.fill("#id_text", OWB_TEXT.replace("20 State Troops", "20 State Trops"))
    page.click("button:has-text('Import')")
    expect(page.locator("#import-errors")).to_have_text(
        'The pasted list: line 14: no unit "State Trops" in Empire of Man 2024.4; did you mean "State Troops"?')
    shoot(page, "r2-import-error-1366")
    page.fill("#id_text", OWB_TEXT)
    page.click("button:has-text('Import')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    expect(page.locator(".messages")).to_contain_text("Imported “Steel and faith” (Old World Builder text export)")
    army_list = ArmyList.objects.get(owner=player)
    assert [(u["entry"], u.get("general", False)) for u in army_list.document["units"]] == [
        ("general-of-the-empire", True), ("state-troops", False)]
    # The sole character was made the General: its card says so.
    expect(page.locator("#unit-u1 .unit-roles")).to_contain_text("General")
    shoot(page, "r2-imported-editor-1366")


def test_the_unit_card_and_the_item_picker(site, page, shoot, player):
    army_list = example(player, "empire-of-man-illegal.json")
    mage = next(u["id"] for u in army_list.document["units"] if u["entry"] == "master-mage")
    log_in(page, site)
    page.goto(f"{site}/lists/{army_list.pk}/edit/?unit={mage}")
    card = page.locator(f"#unit-{mage}")
    expect(card.locator(".unit-profile")).to_contain_text("Master Mage")
    expect(card.locator(".unit-rules")).to_contain_text("Magical Attacks")
    expect(card.locator("legend", has_text="Lore of Magic").or_(card.locator("label", has_text="Lore of Magic"))).to_be_visible()
    card.locator(".item-picker summary").first.click()
    search = card.locator("[data-item-search]").first
    search.fill("scroll")
    visible = card.locator(".item-types li[data-search]:visible")
    names = [n.lower() for n in visible.locator(".item-name").all_inner_texts()]
    assert names and all("scroll" in n for n in names)
    # The Mage carries an arcane item already: another one is greyed, with the reason.
    expect(card.locator(".item-blocked", has_text="Feedback Scroll")).to_contain_text(
        "already carries one of the Arcane Items")
    shoot(page, "r2-item-picker-1366")
    search.fill("")
    before = int(page.get_attribute("#editor-main", "data-revision"))
    card.locator(".item-offer").first.click()
    page.wait_for_function("r => Number(document.getElementById('editor-main').dataset.revision) > r", arg=before)
    army_list.refresh_from_db()
    assert army_list.revision == before + 1


def test_the_report_is_in_plain_words_and_folds_the_rest(site, page, shoot, player):
    army_list = example(player, "empire-of-man-illegal.json")
    log_in(page, site)
    page.goto(f"{site}/lists/{army_list.pk}/edit/")
    report = page.locator("#report")
    text = report.inner_text()
    assert not re.search(r"\b\d{3}:L\d+", text) and ".md" not in text and "items.once_per_army" not in text
    # No unit id after a unit's name in any message.
    ids = [u["id"] for u in army_list.document["units"]]
    assert not any(f"({uid})" in text for uid in ids)
    expect(report.locator("#quiet-figures summary")).to_contain_text("other limits, nothing counted yet")
    source = report.locator(".violation-source").first
    expect(source.locator("span")).to_be_hidden()
    source.locator("summary").click()
    expect(source.locator("span")).to_be_visible()
    # Nothing in the report is cut off at 1366 px.
    assert page.evaluate("(() => { const r = document.getElementById('report'); "
                         "return r.scrollWidth - r.clientWidth; })()") <= 0
    assert overflow(page) == 0
    shoot(page, "r2-report-1366")


@pytest.mark.parametrize("name", ["empire-of-man-illegal.json", "empire-2400-illegal.json",
                                  "reikland-mercenaries-illegal.json"])
def test_no_editor_scrolls_sideways_at_either_width(site, browser, shoot, player, name):
    army_list = example(player, name)
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        log_in(page, site)
        page.goto(f"{site}/lists/{army_list.pk}/edit/")
        page.locator("details.unit").first.locator("summary.unit-summary").click()
        assert overflow(page) == 0, f"{name} scrolls sideways at {width} px"
        shoot(page, f"r2-editor-{name.removesuffix('.json')}-{width}")
        page.goto(f"{site}/lists/{army_list.pk}/")
        assert overflow(page) == 0, f"{name}'s list page scrolls sideways at {width} px"
        context.close()


def test_every_pdf_variant_downloads_under_its_own_name(site, page, shoot, player):
    army_list = example(player, "empire-2400-legal.json")
    log_in(page, site)
    page.goto(f"{site}/lists/{army_list.pk}/rename/")
    page.fill("#id_player", "Ann")
    page.fill("#id_team", "Team Reikland")
    page.click("button:has-text('Save')")
    page.goto(f"{site}/lists/{army_list.pk}/")
    names = []
    for label in ("PDF roster", "PDF, compact", "PDF, hidden list"):
        with page.expect_download() as download:
            page.click(f".downloads a:has-text('{label}')")
        names.append(download.value.suggested_filename)
    assert len(set(names)) == 3 and all(n.endswith(".pdf") for n in names)
    page.goto(f"{site}/lists/{army_list.pk}/edit/")
    expect(page.locator("#player-link")).to_have_text("Ann (Team Reikland)")
    page.click(".downloads-menu summary")
    expect(page.locator(".downloads-menu-items a")).to_have_count(5)
    shoot(page, "r2-downloads-1366")
    assert json.loads(json.dumps(ArmyList.objects.get(pk=army_list.pk).document))["team"] == "Team Reikland"


def test_at_390_px_the_import_and_report_fit(site, browser, shoot, player):
    army_list = example(player, "empire-of-man-illegal.json")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    log_in(page, site)
    page.goto(site + "/lists/import/")
    assert overflow(page) == 0
    shoot(page, "r2-import-390")
    page.goto(f"{site}/lists/{army_list.pk}/edit/#report")
    assert overflow(page) == 0
    # What is wrong is in reach: right after the list, before the whole catalogue.
    tops = page.evaluate("['editor-main', 'report', 'catalogue'].map(id => "
                         "document.getElementById(id).getBoundingClientRect().top + window.scrollY)")
    assert tops[0] < tops[1] < tops[2]
    shoot(page, "r2-report-390")
    context.close()


def test_the_event_form_offers_the_chosen_systems_books_and_compositions(site, browser, shoot, player):
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        log_in(page, site)
        page.goto(site + "/events/new/")
        page.select_option("#id_system", "the-old-world")
        books = page.locator("#id_allowed_books optgroup:not([hidden]) option").all_inner_texts()
        assert books and all("Sonnstahl" not in b and "Ogre" not in b for b in books)
        assert "Empire of Man (any version)" in books
        compositions = page.locator("#id_composition optgroup:not([hidden]) option").all_inner_texts()
        assert "City-State of Nuln (Empire of Man)" in compositions
        page.select_option("#id_system", "t9a-0.11")
        books = page.locator("#id_allowed_books optgroup:not([hidden]) option").all_inner_texts()
        assert "Empire of Sonnstahl (any version)" in books and "Empire of Man (any version)" not in books
        assert overflow(page) == 0
        shoot(page, f"r2-event-form-{width}", full_page=True)
        context.close()
