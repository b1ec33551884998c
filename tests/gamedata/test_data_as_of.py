""""Data as of": a list's book and the game data version that book version came from, in the editor's
report and the report API (lists/library/data_as_of.py)."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.lists.library.data_as_of import data_as_of
from tests.fake_github import Repo

pytestmark = pytest.mark.django_db
DOCUMENT = {"format": "armylist/1", "system": "bs-mordheim", "book": "bs-reiklanders-1a", "book_version": "r10",
            "points_limit": 500, "units": []}
TEXT = "Reiklanders (1a) r10, from BSData/mordheim release v1.0 of 2026-03-04"


def test_it_names_the_first_data_version_that_brought_the_book_version(mordheim):
    source = add_source("BSData/mordheim")
    update(source)
    mordheim.release = "v1.1"
    assert update(source).books == [{"system": "bs-mordheim", "book": "bs-reiklanders-1a", "version": "r10",
                                      "name": "Reiklanders (1a)"}]
    assert data_as_of("bs-mordheim", "bs-reiklanders-1a", "r10") == {
        "book": "bs-reiklanders-1a", "book_version": "r10", "data_version": "BSData/mordheim release v1.0",
        "date": "2026-03-04", "text": TEXT}
    assert data_as_of("t9a-0.11", "empire-of-sonnstahl", "0.11.1", imported=False)["text"] == \
        "empire-of-sonnstahl 0.11.1 (this site's rules data)"
    assert data_as_of("t9a-0.11", "empire-of-sonnstahl", "0.11.1", imported=False, name="Empire of Sonnstahl")[
        "text"] == "Empire of Sonnstahl 0.11.1 (this site's rules data)"
    # A book imported by a command, not from a game data source: named, and said to be imported.
    assert data_as_of("bs-mordheim", "bs-nowhere", "r1", name="Nowhere")["text"] == "Nowhere r1 (imported on this site)"


def test_a_commit_is_named_by_its_first_twelve_characters(hub, mordheim_zip):
    hub.repos["BSData/mordheim"] = Repo(archive=mordheim_zip, release=None)
    update(add_source("BSData/mordheim"))
    assert data_as_of("bs-mordheim", "bs-reiklanders-1a", "r10")["text"] == \
        "Reiklanders (1a) r10, from BSData/mordheim commit 0123456789ab of 2026-03-04"


def test_the_report_api_and_the_editor_show_it(mordheim, alice, client):
    update(add_source("BSData/mordheim"))
    api = APIClient()
    api.force_authenticate(alice)
    created = api.post("/api/v1/lists/", {"document": DOCUMENT}, format="json")
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    assert api.get(f"/api/v1/lists/{pk}/report/").json()["data_as_of"]["text"] == TEXT
    client.force_login(alice)
    assert f"Data as of: {TEXT}" in client.get(f"/lists/{pk}/edit/").content.decode()
    assert f"Data as of: {TEXT}" in client.get(f"/lists/{pk}/").content.decode()



def pdf_text(content: bytes) -> str:
    import io

    from pypdf import PdfReader
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages).split())


def test_the_pdf_stamp_says_it(mordheim, alice, client):
    update(add_source("BSData/mordheim"))
    api = APIClient()
    api.force_authenticate(alice)
    pk = api.post("/api/v1/lists/", {"document": DOCUMENT}, format="json").json()["id"]
    client.force_login(alice)
    for variant in ("full", "compact", "hidden", "warband"):
        response = client.get(f"/lists/{pk}/download/pdf/", {"variant": variant})
        assert f"Data as of: {TEXT}" in pdf_text(response.content), variant
    assert f"Data as of: {TEXT}" in pdf_text(api.get(f"/api/v1/lists/{pk}/export/", {"as": "pdf"}).content)


def test_a_submissions_pdf_and_the_muster_pdf_say_it(mordheim, alice, bob, client):
    from datetime import date, timedelta

    from django.utils import timezone

    from armylists.events.reporting import muster_pdf
    from armylists.events.submitting import submit_list
    from armylists.lists.library.catalogue import report_for
    from armylists.models import ArmyList, Event, Submission
    from armylists.rules import parse_roster

    update(add_source("BSData/mordheim"))
    event = Event.objects.create(organiser=bob, name="Mordheim night", date=date.today() + timedelta(days=30),
                                 system="bs-mordheim", points_limit=500, deadline=timezone.now() + timedelta(days=20))
    roster = parse_roster(DOCUMENT)
    army_list = ArmyList(owner=alice)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    sub = submit_list(event, alice, army_list)
    client.force_login(bob)
    for variant in ("full", "compact", "hidden"):
        response = client.get(f"/events/{event.pk}/submissions/{sub.pk}/download/pdf/", {"variant": variant})
        assert response.status_code == 200, variant
        assert f"Data as of: {TEXT}" in pdf_text(response.content), variant
    Submission.objects.filter(pk=sub.pk).update(status=Submission.APPROVED)
    muster = pdf_text(muster_pdf(event))
    assert muster.count(f"Data as of: {TEXT}") == 1 and "alice" in muster
