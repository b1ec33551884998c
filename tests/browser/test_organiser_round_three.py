"""Issue 42's "Done when", in a real browser: the organiser's table of lists of three armies at 1366 and
390 px (verdict, status and the review link in view, one categories column), a rule made in the rule
builder shown to players as a sentence, a returned list's notice on the player's lists, "copy to my
lists" from a share link, Old World Builder's text export imported, and a New Recruit summary with a
renamed unit imported (skipped without New Recruit's data)."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from armylists.events.checking import check_event
from armylists.events.submitting import store
from armylists.models import ArmyList, Event, Notice, Submission
from armylists.rules import parse_roster

from ..conftest import EXAMPLES
from ..importers.test_owb_text_names import DWARFS
from ..web.conftest import make_list
from .test_event import PASSWORD, log_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ARMIES = ("empire-of-man", "dwarfen-mountain-holds", "orc-and-goblin-tribes")


def in_view(page, locator) -> bool:
    """Whether the element lies across the viewport's width as the page first shows it (no sideways scroll)."""
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


def test_the_organisers_table_and_a_rule_in_words(site, page, shoot, django_user_model):
    django_user_model.objects.create_user("olive", "olive@example.com", PASSWORD)
    pete = django_user_model.objects.create_user("pete", "pete@example.com", PASSWORD)

    # The organiser makes "Any unit at most 2 times" in the rule builder, never writing YAML.
    log_in(page, site, "olive")
    page.goto(site + "/events/new/")
    day = date.today() + timedelta(days=20)
    page.select_option("#id_system", "the-old-world")
    page.fill("#id_name", "Three Armies Open")
    page.fill("#id_date", day.isoformat())
    page.fill("#id_points_limit", "2000")
    page.fill("#id_deadline", f"{(day - timedelta(days=2)).isoformat()}T18:00")
    page.select_option("#id_add_rule_kind", "each_entry_max")
    page.fill("#id_add_rule_number", "2")
    page.click("button:has-text('Create the event')")
    expect(page.locator("h1")).to_have_text("Three Armies Open")
    event = Event.objects.get()
    assert "each_entry_max" in event.rules_text

    # Three armies' lists in.
    for n, army in enumerate(ARMIES):
        doc = json.loads((EXAMPLES / f"{army}-legal.json").read_text())
        store(event, parse_roster({**doc, "player": ""}), f"player-{n + 1}")
    check_event(event)
    assert Submission.objects.count() == 3

    # The player reads the rule as a sentence.
    log_in(page, site, "pete")
    page.goto(f"{site}/events/{event.pk}/")
    expect(page.locator("#event-rules li")).to_have_text(["Any unit at most 2 times."])
    expect(page.locator("main")).not_to_contain_text("each_entry_max")
    assert pete.pk

    # The organiser's table at 1366 and at 390 px: one categories column, verdict, status and review in view.
    log_in(page, site, "olive")
    for width, height in ((1366, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{site}/events/{event.pk}/")
        rows = page.locator(".submissions-table tbody tr")
        expect(rows).to_have_count(3)
        for i in range(3):
            row = rows.nth(i)
            for cell in ("td.verdict", "td.status", "td.row-actions a"):
                assert in_view(page, row.locator(cell)), (width, i, cell)
            expect(row.locator("td.categories")).to_contain_text("%")
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1  # nothing off to the side
        shoot(page, f"organiser-table-three-armies-{width}", full_page=True)
    if page.viewport_size["width"] == 390:
        page.set_viewport_size({"width": 1366, "height": 900})
    headers = [h.strip().title() for h in page.locator(".submissions-table thead th").all_text_contents()]
    assert headers[:4] == ["Player", "Verdict", "Status", "Review"] and "Categories" in headers


def test_a_returned_lists_notice_and_copy_from_a_share(site, page, shoot, django_user_model):
    olive = django_user_model.objects.create_user("olive", "olive@example.com", PASSWORD)
    pete = django_user_model.objects.create_user("pete", "pete@example.com", PASSWORD)
    event = Event.objects.create(organiser=olive, name="Notice Cup", date=date.today() + timedelta(days=10),
                                 system="the-old-world", books=[], points_limit=2000,
                                 deadline=timezone.now() + timedelta(days=5))
    doc = json.loads((EXAMPLES / "empire-of-man-legal.json").read_text())
    army_list = make_list(pete, {**doc, "name": "Pete's Empire"})
    log_in(page, site, "pete")
    page.goto(f"{site}/events/{event.pk}/")
    page.select_option("#id_army_list", str(army_list.pk))
    page.click("#submit-form button")
    expect(page.locator("#your-submission")).to_contain_text("Pete's Empire")

    # The organiser returns it with a note from the submission's page.
    log_in(page, site, "olive")
    sub = Submission.objects.get()
    page.goto(f"{site}/events/{event.pk}/")
    page.locator(f"#submission-{sub.pk} td.row-actions a").click()
    page.fill("#id_note", "Please name your General.")
    page.click("button:has-text('Return to the player')")
    expect(page.locator(f"#submission-{sub.pk}")).to_contain_text("Returned")

    # The player finds the notice on their lists, with the note, and dismisses it.
    log_in(page, site, "pete")
    page.goto(site + "/lists/")
    notices = page.locator("#notices")
    expect(notices).to_contain_text("The organiser of Notice Cup returned “Pete's Empire”.")
    expect(notices).to_contain_text("Please name your General.")
    shoot(page, "my-lists-returned-notice")
    page.click("#notices button:has-text('Dismiss')")
    expect(page.locator("#notices")).to_have_count(0)
    assert Notice.objects.get().read is True

    # Olive shares a list; Pete copies it to his lists from the share link.
    shared = make_list(olive, {**json.loads((EXAMPLES / "dwarfen-mountain-holds-legal.json").read_text()),
                               "name": "Olive's Dwarfs"})
    shared.share()
    page.goto(f"{site}/s/{shared.share_token}/")
    page.click("#copy-shared button")
    page.wait_for_url(lambda url: url.split("#")[0].endswith("/lists/"))
    copy = ArmyList.objects.get(owner=pete, name="Olive's Dwarfs")
    expect(page.locator(f"#list-{copy.pk}")).to_contain_text("Olive's Dwarfs")
    assert copy.document["units"] == shared.document["units"]
    # "My lists" searched without JavaScript's help: the form's GET
    page.fill("#list-search input[name=q]", "dwarf")
    page.click("#list-search button")
    expect(page.locator(".lists-table tbody tr")).to_have_count(1)


def test_other_tools_lists_as_they_write_them(site, page, shoot, django_user_model):
    django_user_model.objects.create_user("pete", "pete@example.com", PASSWORD)
    log_in(page, site, "pete")
    page.goto(site + "/lists/import/")
    page.fill("#id_text", DWARFS)
    page.click("#import-form button[type=submit]")
    page.wait_for_url(lambda url: "/edit" in url)
    saved = ArmyList.objects.get()
    assert [(u["entry"], u.get("command")) for u in saved.document["units"]] == [
        ("quarrellers", ["champion"]), ("hammerers", ["champion", "standard"])]
    shoot(page, "owb-text-imported")


@pytest.fixture
def nr_data():
    from ..importers.nr_summaries import BUNDLE, LISTS
    if not (BUNDLE.is_file() and LISTS.is_file()):
        pytest.skip("New Recruit's T9A data is not in ../shared/external/new-recruit-t9a")


def test_a_summary_with_a_renamed_unit_is_imported(site, page, shoot, django_user_model, nr_data):
    from ..importers.nr_summaries import COMMIT, GLENNCON, store as store_books, summary

    store_books(COMMIT, "ok.json")
    django_user_model.objects.create_user("pete", "pete@example.com", PASSWORD)
    found = summary(GLENNCON, 1)
    found["units"][1]["name"] = "Khan of the Steppe"
    log_in(page, site, "pete")
    page.goto(site + "/lists/import/")
    page.fill("#id_text", json.dumps(found))
    page.click("#import-form button[type=submit]")
    page.wait_for_url(lambda url: "/edit" in url)
    expect(page.locator("main")).to_contain_text("the closest is “Khan”")
    saved = ArmyList.objects.get()
    assert saved.document["units"][1]["label"] == "Khan of the Steppe" and saved.valid is False
    shoot(page, "nr-summary-renamed-unit")
