"""Game data in a real browser (issue 24): the staff add a source served by the fake GitHub on loopback
and see its versions and coverage; the data changes and the staff update it; an organiser pins an event
to a version; a player moves a list to the newer data after looking at what changes, and sees the diff
in the list's history; the PDF's stamp names the data version. No packet leaves 127.0.0.0/8."""
from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from armylists.lists.library.catalogue import report_for
from armylists.models import ArmyList, Event, GameDataVersion
from armylists.rules import parse_roster
from tests.fake_github import Repo, files_from, zip_of
from tests.gamedata.conftest import (
    CAPTAIN_COST, MORDHEIM, MORDHEIM_FILES, fresh_stored_books, hub, mordheim_zip, network,
)

# The fake GitHub on loopback and its fixtures, shared with tests/gamedata/ (a fixture is found by name here).
__all__ = ["fresh_stored_books", "hub", "mordheim_zip", "network"]

from .test_event import PASSWORD, log_in  # the same sign-in as the event story

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def test_staff_add_data_an_organiser_pins_it_a_player_moves_a_list(site, page, shoot, hub, mordheim_zip,
                                                                  django_user_model, tasks_at_once):
    django_user_model.objects.create_user("stella", "", PASSWORD, is_staff=True)
    django_user_model.objects.create_user("olive", "", PASSWORD)
    player = django_user_model.objects.create_user("pete", "", PASSWORD)
    repo = hub.repos["BSData/mordheim"] = Repo(archive=mordheim_zip, release="v1.0")

    # The staff add the source; its first version is imported at once (tasks run in the request here).
    log_in(page, site, "stella")
    page.goto(site + "/game-data/")
    page.fill("#id_where", "BSData/mordheim")
    page.fill("#id_maps_to", "mordheim")
    page.click("button:has-text('Add and fetch')")
    source = page.locator(".game-data-source")
    expect(source).to_contain_text("Kind: BattleScribe")
    expect(source).to_contain_text("New lists get: v1.0")
    expect(source.locator("tbody tr")).to_have_count(1)
    expect(source.locator("tbody tr")).to_contain_text("100.0% of constraints and modifiers checked")
    # What is not checked names the book as players know it, not its id.
    expect(source.locator("tbody tr")).to_contain_text("Reiklanders (1a): link to an entry no file defines (164)")
    shoot(page, "game-data-added", full_page=True)

    # A player's list of that data, at r10.
    roster = parse_roster({"format": "armylist/1", "system": "bs-mordheim", "book": "bs-reiklanders-1a",
                           "book_version": "r10", "points_limit": 500, "name": "Reikland lads",
                           "units": [{"id": "u1", "entry": "mercenary-captain"}]})
    army_list = ArmyList(owner=player)
    army_list.set_document(roster, report_for(roster))
    army_list.save()

    # The data changes (the Mercenary Captain costs 70 gc in Reiklanders r11): the staff update it.
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Reiklanders.cat"] = files["Reiklanders.cat"].replace(b'revision="10"', b'revision="11"', 1) \
        .replace(*CAPTAIN_COST)
    repo.release, repo.archive = "v1.1", zip_of(files, "BSData-mordheim-1111111")
    page.click("button:has-text('Update')")
    expect(source).to_contain_text("New lists get: v1.1")
    expect(source.locator("tbody tr")).to_have_count(2)
    expect(source).to_contain_text("Imported release v1.1: 1 books; 1 files new, 1 unchanged.")

    # The organiser makes an event and pins it to v1.1.
    log_in(page, site, "olive")
    page.goto(site + "/events/new/")
    day = date.today() + timedelta(days=20)
    page.select_option("#id_system", "bs-mordheim")
    page.fill("#id_name", "Mordheim night")
    page.fill("#id_date", day.isoformat())
    page.fill("#id_points_limit", "500")
    page.fill("#id_deadline", f"{(day - timedelta(days=2)).isoformat()}T18:00")
    page.select_option("#id_data_version", label="BSData/mordheim release v1.1 of 2026-03-04")
    page.click("button:has-text('Create the event')")
    expect(page.locator("#event-data-version")).to_contain_text("BSData/mordheim release v1.1 of 2026-03-04")
    assert Event.objects.get().data_version == GameDataVersion.objects.get(ref="v1.1")

    # The player looks at what the newer data changes, moves the list, and sees it in the history.
    log_in(page, site, "pete")
    page.goto(f"{site}/lists/{army_list.pk}/upgrade/")
    changes = page.locator("#upgrade-changes")
    expect(changes).to_contain_text("Mercenary Captain: 60 -> 70 gc.")
    expect(changes).to_contain_text("Total: 60 -> 70 gc.")
    shoot(page, "game-data-upgrade-preview", full_page=True)
    page.click("button:has-text('Move the list to r11')")
    page.wait_for_url(f"**/lists/{army_list.pk}/edit/")
    army_list.refresh_from_db()
    assert (army_list.book_version, army_list.revision, army_list.total_points) == ("r11", 2, 70)
    page.goto(f"{site}/lists/{army_list.pk}/history/")
    expect(page.locator("#revision-2")).to_contain_text("Moved to Reiklanders (1a) r11 (was r10).")
    page.click("#compare-form button")
    compared = page.locator("#compare")
    expect(compared).to_contain_text("Mercenary Captain: 60 -> 70 gc.")
    expect(compared).to_contain_text("Heroes: 60 -> 70 gc in all.")
    shoot(page, "game-data-history-diff", full_page=True)

    # The printed roster's stamp names the data version it was checked with.
    response = page.request.get(f"{site}/lists/{army_list.pk}/download/pdf/?variant=full")
    assert response.status == 200
    assert "Data as of: Reiklanders (1a) r11, from BSData/mordheim release v1.1 of 2026-03-04" in \
        pdf_text(response.body())
