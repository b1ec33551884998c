"""An event plays a pinned game data version: the newest of its system when it is made; the organiser may
move it, and every submission is checked again; its table and CSV say which data each list used."""
from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import pytest
from django.urls import reverse

from armylists.events.checking import allowed_books
from armylists.events.submitting import submit_list
from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.catalogue import report_for
from armylists.models import ArmyList, Event, Submission
from armylists.rules import parse_roster
from tests.fake_github import files_from, zip_of
from tests.gamedata.conftest import MORDHEIM, MORDHEIM_FILES

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_versions(mordheim):
    """BSData/mordheim v1.0 (Reiklanders r10), then v1.1 (Reiklanders r11)."""
    source = add_source("BSData/mordheim")
    first = update(source)
    files = files_from(MORDHEIM, MORDHEIM_FILES)
    files["Reiklanders.cat"] = files["Reiklanders.cat"].replace(b'revision="10"', b'revision="11"', 1)
    mordheim.release, mordheim.archive = "v1.1", zip_of(files, "BSData-mordheim-1111111")
    return first, update(source)


def event_form(**changes) -> dict:
    day = date.today() + timedelta(days=30)
    data = {"name": "Mordheim night", "date": day.isoformat(), "system": "bs-mordheim", "points_limit": "500",
            "composition": "", "deadline": f"{(day - timedelta(days=7)).isoformat()}T18:00", "rules_text": ""}
    data.update(changes)
    return data


def a_list(owner, version: str) -> ArmyList:
    roster = parse_roster({"format": "armylist/1", "system": "bs-mordheim", "book": "bs-reiklanders-1a",
                           "book_version": version, "points_limit": 500, "units": []})
    army_list = ArmyList(owner=owner)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    return army_list


def book_violations(submission: Submission) -> list[str]:
    submission.refresh_from_db()
    return [v["message"] for v in submission.report["violations"] if v["code"] == "event.book"]


def test_a_new_event_plays_the_newest_version_and_moving_it_checks_every_list_again(
        two_versions, client, alice, tasks_at_once):
    first, second = two_versions
    client.force_login(alice)
    assert client.post(reverse("event-new"), event_form()).status_code == 302
    event = Event.objects.get()
    assert event.data_version == second
    assert allowed_books(event) == {"bs-reiklanders-1a": frozenset({"r11"})}
    submission = submit_list(event, alice, a_list(alice, "r10"))
    assert book_violations(submission) == [
        "Reiklanders (1a) r10 is not allowed at this event; allowed: Reiklanders (1a) r11."]

    response = client.post(reverse("event-edit", args=[event.pk]), event_form(data_version=str(first.pk)))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.data_version == first
    assert book_violations(submission) == []

    table = list(csv.reader(io.StringIO(client.get(reverse("event-csv", args=[event.pk])).content.decode())))
    assert table[0][-1] == "data_as_of"
    assert table[1][-1] == "Reiklanders (1a) r10, from BSData/mordheim release v1.0 of 2026-03-04"
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Data as of: Reiklanders (1a) r10, from BSData/mordheim release v1.0 of 2026-03-04" in page


def test_a_version_without_books_of_the_system_is_refused(two_versions, client, alice):
    first, _ = two_versions
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(
        system="mordheim", data_version=str(first.pk)))
    assert response.status_code == 400
    assert "BSData/mordheim release v1.0 of 2026-03-04 holds no book of Mordheim." in response.content.decode()
    assert Event.objects.count() == 0


def test_an_event_of_the_sites_own_data_pins_nothing(two_versions, client, alice):
    client.force_login(alice)
    client.post(reverse("event-new"), event_form(system="mordheim"))
    assert Event.objects.get().data_version is None
