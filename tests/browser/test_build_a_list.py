"""A new player's first list, in a real browser: sign up, build a legal The 9th Age list from scratch,
watch the report follow every change (a category over its limit, then fixed), share the list and open
the link logged out, and download it. Also: the editor with JavaScript off, by plain form submission."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from armylists.models import ArmyList

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PASSWORD = "a-long-pass-phrase-9"


class Editor:
    """Drives the editor page; every change waits for the list's new revision to arrive."""

    def __init__(self, page):
        self.page = page

    def revision(self) -> int:
        return int(self.page.get_attribute("#editor-main", "data-revision"))

    def wait_for(self, revision: int) -> None:
        self.page.wait_for_function("r => Number(document.getElementById('editor-main').dataset.revision) >= r",
                                    arg=revision)

    def change(self, action, *args, count: int = 1) -> None:
        before = self.revision()
        action(*args)
        self.wait_for(before + count)

    def add(self, entry: str) -> None:
        self.change(self.page.click, f"#add-{entry}")

    def size(self, unit: str, size: int) -> None:
        self.change(lambda: (self.page.fill(f"#u-{unit}-size", str(size)), self.page.press(f"#u-{unit}-size", "Enter")))

    def check(self, selector: str) -> None:
        self.change(self.page.check, selector)

    def full_command(self, unit: str) -> None:
        """Three quick clicks, not waiting in between: the editor's queue applies them all, in order."""
        def clicks():
            for part in ("champion", "musician", "standard"):
                self.page.check(f"#u-{unit}-command-{part}")
        self.change(clicks, count=3)

    def report(self):
        return self.page.locator("#report")


def sign_up(page, site: str, username: str) -> None:
    page.goto(site + "/")
    page.click("text=Start a list")
    page.wait_for_url("**/accounts/login/?next=/lists/new/")
    page.click("main >> text=Sign up")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create my account')")
    page.wait_for_url("**/lists/new/")


def test_a_new_player_builds_shares_and_downloads_a_legal_list(site, page, browser, shoot, tmp_path):
    sign_up(page, site, "newcomer")
    page.select_option("#id_book", "t9a-0.11/empire-of-sonnstahl/0.11.1")
    assert page.input_value("#id_points_limit") == "2400"
    page.fill("#id_name", "Sonnstahl 2400")
    shoot(page, "01-new-list")
    page.click("button:has-text('Create and start adding units')")
    page.wait_for_url(re.compile(r".*/lists/\d+/edit/$"))
    editor = Editor(page)
    expect(page.locator("#editor-main")).to_contain_text("Your list is empty")
    shoot(page, "02-editor-empty")

    # Characters: a mounted General and a Battle Standard Bearer.
    editor.add("marshal")
    expect(page.locator("#u-marshal-general")).to_be_checked()  # the list's only character: its General
    editor.check("#u-marshal-mount-pegasus")
    editor.add("captain")
    editor.check("#u-captain-opt-battle-standard-bearer")
    editor.check("#u-captain-grp-armour-plate-armour")
    # Core: 50 halberdiers with full command, then a second block just like it.
    editor.add("heavy-infantry")
    editor.size("heavy-infantry", 50)
    editor.check("#u-heavy-infantry-grp-weapon-halberd")
    editor.full_command("heavy-infantry")
    editor.change(page.click, "#u-heavy-infantry-duplicate")
    # Special and Rare.
    editor.add("knightly-orders")
    editor.size("knightly-orders", 11)
    editor.full_command("knightly-orders")
    editor.change(page.click, "#u-knightly-orders-duplicate")
    editor.add("imperial-guard")
    editor.size("imperial-guard", 30)
    editor.full_command("imperial-guard")
    editor.add("light-artillery")
    editor.check("#u-light-artillery-grp-weapon-rocket-battery")
    editor.add("heavy-artillery")
    editor.add("steam-tank")

    # (expect() waits out htmx's settling, which puts the new attributes in place a moment after the swap)
    expect(editor.report()).to_contain_text("✓ Legal")
    expect(editor.report()).to_contain_text("2,397 / 2,400 pts")
    expect(editor.report()).to_contain_text("3 pts left")
    army_list = ArmyList.objects.get(owner__username="newcomer")
    assert (army_list.total_points, army_list.valid, len(army_list.document["units"])) == (2397, True, 10)
    assert army_list.document["units"][2] == {
        "id": "heavy-infantry", "entry": "heavy-infantry", "size": 50, "options": {"halberd": 1},
        "command": ["champion", "musician", "standard"]}
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "03-editor-legal")

    # Rare over 25%: the violation appears at once...
    editor.add("knights-of-the-sun-griffon")
    editor.size("knights-of-the-sun-griffon", 4)
    expect(editor.report()).to_contain_text("Rare: 602 pts is 25.1% of 2400; at most 25% (600 pts).")
    expect(page.locator("#bar-rare")).to_have_class("bar bar-high")
    # ... a unit's own violation links to it, and the link opens and highlights the unit ...
    editor.size("knights-of-the-sun-griffon", 8)
    page.click("#report .violation-unit:has-text('Knights of the Sun Griffon')")
    assert page.evaluate("document.querySelector(':target').id") == "unit-knights-of-the-sun-griffon"
    expect(page.locator("#unit-knights-of-the-sun-griffon")).to_have_attribute("open", "")
    shoot(page, "04-editor-violations")
    # ... and goes when the category is back under its limit.
    editor.size("knights-of-the-sun-griffon", 3)
    expect(editor.report()).not_to_contain_text("at most 25%")
    expect(page.locator("#bar-rare")).to_have_class("bar bar-ok")
    editor.change(page.click, "#u-knights-of-the-sun-griffon-remove")
    expect(editor.report()).to_contain_text("✓ Legal")

    # A phone sees the same editor, the report below the list.
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    shoot(page, "05-editor-phone")
    page.set_viewport_size({"width": 1366, "height": 900})

    # Share it, and open the link logged out.
    page.click("text=View & share")
    page.click("button:has-text('Create a share link')")
    share_url = page.input_value("#share-url")
    assert re.fullmatch(rf"{re.escape(site)}/s/[\w-]{{20,}}/", share_url)
    shoot(page, "06-list-page-shared")
    with page.expect_download() as download:
        page.click(".downloads >> text=JSON")
    document = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert document["name"] == "Sonnstahl 2400" and len(document["units"]) == 10

    stranger = browser.new_context(viewport={"width": 1366, "height": 900}, accept_downloads=True)
    try:
        shared = stranger.new_page()
        shared.goto(share_url)
        expect(shared.locator("h1")).to_have_text("Sonnstahl 2400")
        expect(shared.locator("main")).to_contain_text("A list shared with you, read-only.")
        expect(shared.locator("#report")).to_contain_text("✓ Legal")
        expect(shared.locator("text=Edit")).to_have_count(0)
        shoot(shared, "07-shared-logged-out")
        with shared.expect_download() as download:
            shared.click(".downloads >> text=Text")
        text = open(download.value.path(), encoding="utf-8").read()
        assert text.startswith("List: Sonnstahl 2400") and "\nLEGAL" in text
    finally:
        stranger.close()

    page.goto(site + "/lists/")
    expect(page.locator(".lists-table")).to_contain_text("Legal")
    shoot(page, "08-my-lists")


def test_without_javascript_the_forms_still_work(site, browser, shoot, django_user_model):
    django_user_model.objects.create_user("plain", "plain@example.com", PASSWORD)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        page.goto(site + "/accounts/login/")
        page.fill("#id_username", "plain")
        page.fill("#id_password", PASSWORD)
        page.click("main button:has-text('Log in')")
        page.goto(site + "/lists/new/")
        page.select_option("#id_book", "t9a-0.11/empire-of-sonnstahl/0.11.1")
        page.fill("#id_name", "No script")
        page.click("button:has-text('Create and start adding units')")
        page.click("#add-heavy-infantry")  # a plain POST, then back to the editor with the unit open
        page.wait_for_url(re.compile(r".*\?unit=heavy-infantry#unit-heavy-infantry$"))
        page.fill("#u-heavy-infantry-size", "25")
        page.check("#u-heavy-infantry-grp-weapon-spear")
        page.click("#u-heavy-infantry-form button:has-text('Save unit')")
        page.wait_for_load_state()
        expect(page.locator("#unit-heavy-infantry summary")).to_contain_text("25 Heavy Infantry")
        # A bad size comes back with the error next to the field, and the list is unchanged.
        page.fill("#u-heavy-infantry-size", "0")
        page.click("#u-heavy-infantry-form button:has-text('Save unit')")
        expect(page.locator("#u-heavy-infantry-size-errors")).to_contain_text("A unit has 1 to 10000 models.")
        shoot(page, "09-no-javascript-error")
        army_list = ArmyList.objects.get(owner__username="plain")
        assert army_list.document["units"] == [{"id": "heavy-infantry", "entry": "heavy-infantry", "size": 25,
                                                "options": {"spear": 1}}]
        assert army_list.total_points == 125
    finally:
        context.close()
