"""A list's history in a player's words, and moving a list to the book version new lists get."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django.urls import reverse

from armylists.gamedata.sources import add_source, hold
from armylists.gamedata.updating import update
from armylists.lists.library.catalogue import report_for
from armylists.lists.saved.history import history
from armylists.lists.saved.stored import load, save_edit
from armylists.models import ArmyList, ListRevision
from armylists.rules import parse_roster
from armylists.rules.reading.roster import RosterUnit
from tests.fake_github import files_from, zip_of
from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

pytestmark = pytest.mark.django_db


def a_list(owner, version: str = "r10") -> ArmyList:
    roster = parse_roster({"format": "armylist/1", "system": "bs-mordheim", "book": "bs-reiklanders-1a",
                           "book_version": version, "points_limit": 500, "units": [], "name": "Reikland lads"})
    army_list = ArmyList(owner=owner)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    return army_list


@pytest.fixture
def two_versions(mordheim):
    source = add_source("BSData/mordheim")
    update(source)
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Reiklanders.cat"] = files["Reiklanders.cat"].replace(b'revision="10"', b'revision="11"', 1)
    mordheim.release, mordheim.archive = "v1.1", zip_of(files, "BSData-mordheim-1111111")
    update(source)
    return source


def test_every_save_is_kept_and_said_in_the_players_words(two_versions, alice, client):
    army_list = a_list(alice)
    loaded = load(army_list)
    entry = next(iter(loaded.book.entries))
    name = loaded.book.entries[entry].name
    loaded, _ = save_edit(loaded, replace(loaded.roster, points_limit=600), 1)
    loaded, _ = save_edit(loaded, replace(loaded.roster, units=(RosterUnit(id="u1", entry=entry),)), 2)
    save_edit(loaded, replace(loaded.roster, units=(), name="Lads of Reikland"), 3)
    assert list(ListRevision.objects.filter(army_list=army_list).values_list("revision", flat=True)) == [4, 3, 2, 1]
    assert [(s.revision, s.changes) for s in history(army_list).steps] == [
        (4, ["Renamed to 'Lads of Reikland'.", f"Removed {name}."]),
        (3, [f"Added {name}."]),
        (2, ["Points limit 500 -> 600."]),
        (1, ["Started the list: Reiklanders (1a) r10, 500 points."]),
    ]
    client.force_login(alice)
    page = client.get(reverse("list-history", args=[army_list.pk])).content.decode()
    assert f"<li>Added {name}.</li>" in page and "<li>Points limit 500 -&gt; 600.</li>" in page
    # Each revision with its verdict and the data it was checked with (an empty warband has no captain).
    assert ("book version r10 · illegal, 0 gc · data as of Reiklanders (1a) r10, from BSData/mordheim release v1.0 "
            "of 2026-03-04") in page


def test_the_upgrade_preview_then_accept_moves_the_list_and_its_history_says_so(two_versions, alice, client):
    army_list = a_list(alice)
    client.force_login(alice)
    page = client.get(reverse("list-upgrade", args=[army_list.pk])).content.decode()
    assert "Reiklanders (1a) r10 → <strong>Reiklanders (1a) r11</strong>" in page
    assert "<li>Nothing changes for this list.</li>" in page
    response = client.post(reverse("list-upgrade", args=[army_list.pk]), {"revision": "1", "version": "r11"})
    assert response.status_code == 302 and response["Location"] == reverse("list-edit", args=[army_list.pk])
    army_list.refresh_from_db()
    assert (army_list.book_version, army_list.revision, army_list.document["book_version"]) == ("r11", 2, "r11")
    assert history(army_list).steps[0].changes == ["Moved to Reiklanders (1a) r11 (was r10)."]
    page = client.get(reverse("list-upgrade", args=[army_list.pk])).content.decode()
    assert "Reiklanders (1a) r11 is the version new lists get: nothing newer to move to." in page


def test_a_stale_or_changed_offer_moves_nothing(two_versions, alice, client):
    army_list = a_list(alice)
    client.force_login(alice)
    assert client.post(reverse("list-upgrade", args=[army_list.pk]), {"revision": "1", "version": "r12"}).status_code == 400
    response = client.post(reverse("list-upgrade", args=[army_list.pk]), {"revision": "7", "version": "r11"})
    assert response.status_code == 302 and response["Location"] == reverse("list-upgrade", args=[army_list.pk])
    army_list.refresh_from_db()
    assert (army_list.book_version, army_list.revision) == ("r10", 1)


def test_a_held_source_offers_no_move_past_the_hold(two_versions, alice, client):
    hold(two_versions, "v1.0")
    army_list = a_list(alice)
    client.force_login(alice)
    page = client.get(reverse("list-upgrade", args=[army_list.pk])).content.decode()
    assert "nothing newer to move to" in page


def test_only_the_owner_may_move_a_list(two_versions, alice, bob, client):
    army_list = a_list(alice)
    client.force_login(bob)
    assert client.get(reverse("list-upgrade", args=[army_list.pk])).status_code == 404
    assert client.post(reverse("list-upgrade", args=[army_list.pk]), {"revision": "1", "version": "r11"}).status_code == 404
    assert client.get(reverse("list-history", args=[army_list.pk])).status_code == 404
