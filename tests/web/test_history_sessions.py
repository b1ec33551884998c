"""A list's history grouped into editing sessions (issue 39 item 4: "a whole session's clicks grouped into
one entry"): saves at most SESSION_MINUTES (30) apart are one session, one expandable entry of the history
page, named in the API by its newest revision (`session`) on every page; and any revision, in a session or
not, restored as the list's newest revision (the page's "Restore", the API's revisions/{n}/restore/)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from armylists.lists.saved.history import SESSION_MINUTES, history
from armylists.models import ArmyList, ListRevision

from tests.web.conftest import BOOK, SYSTEM, VERSION, make_list

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 7, 10, 0, tzinfo=timezone.utc)
# Revision -> when it was saved. 1 and 2 are exactly 30 minutes apart (one session); 2 and 3 30 minutes and
# a second (two). Sessions, newest first: [8], [7, 6, 5], [4, 3], [2, 1].
SAVED = {1: T0, 2: T0 + timedelta(minutes=30), 3: T0 + timedelta(minutes=60, seconds=1),
         4: T0 + timedelta(minutes=65), 5: T0 + timedelta(hours=3), 6: T0 + timedelta(hours=3, minutes=1),
         7: T0 + timedelta(hours=3, minutes=2), 8: T0 + timedelta(hours=10)}


def document(n: int, version: str = VERSION) -> dict:
    return {"format": "armylist/1", "name": "Sessions", "system": SYSTEM, "book": BOOK, "book_version": version,
            "points_limit": 1000 + 10 * n, "units": []}


@pytest.fixture
def edited(alice) -> ArmyList:
    army_list = make_list(alice, document(8))
    ListRevision.objects.filter(army_list=army_list).delete()
    ListRevision.objects.bulk_create([ListRevision(army_list=army_list, revision=n, book_version=VERSION,
                                                   document=document(n)) for n in SAVED])
    for n, saved in SAVED.items():   # saved_at is set on creation: these saves were made over a day
        ListRevision.objects.filter(army_list=army_list, revision=n).update(saved_at=saved)
    ArmyList.objects.filter(pk=army_list.pk).update(revision=8)
    army_list.refresh_from_db()
    return army_list


def grouped(page) -> list[tuple[int, list[int], bool, bool]]:
    return [(s.head, [step.revision for step in s.steps], s.newer_continues, s.older_continues) for s in page.sessions]


def test_saves_at_most_thirty_minutes_apart_are_one_session(edited):
    assert SESSION_MINUTES == 30
    page = history(edited)
    assert grouped(page) == [(8, [8], False, False), (7, [7, 6, 5], False, False), (4, [4, 3], False, False),
                             (2, [2, 1], False, False)]
    assert [s.revision for s in page.steps] == [8, 7, 6, 5, 4, 3, 2, 1]
    assert [s.session for s in page.steps] == [8, 7, 7, 7, 4, 4, 2, 2]


def test_a_session_across_a_pages_edge_is_named_by_its_newest_revision_on_both(edited):
    first = history(edited, limit=3)
    assert grouped(first) == [(8, [8], False, False), (7, [7, 6], False, True)] and first.older == 6
    second = history(edited, before=6, limit=3)
    assert grouped(second) == [(7, [5], True, False), (4, [4, 3], False, False)] and second.older == 3
    assert grouped(history(edited, before=3, limit=3)) == [(2, [2, 1], False, False)]


def test_the_api_gives_each_revision_its_session(edited, alice):
    api = APIClient()
    api.force_authenticate(alice)
    answer = api.get(f"/api/v1/lists/{edited.pk}/revisions/").json()
    assert [(r["revision"], r["session"]) for r in answer] == [(8, 8), (7, 7), (6, 7), (5, 7), (4, 4), (3, 4),
                                                               (2, 2), (1, 2)]
    assert answer[0]["changes"] == ["Points limit 1070 -> 1080."]   # the rest as before


def test_the_page_shows_a_session_as_one_entry_that_opens(edited, alice, client):
    client.force_login(alice)
    text = client.get(reverse("list-history", args=[edited.pk])).content.decode()
    assert text.count('<li class="history-session"') == 3          # 8 alone is a revision, not a session
    session = text[text.index('id="session-7"'):text.index('id="session-4"')]
    assert "Editing session: revisions 5 to 7" in session and "3 saves on this page" in session
    assert all(f'id="revision-{n}"' in session for n in (7, 6, 5)) and 'id="revision-4"' not in session
    assert '<a href="?from=4&amp;to=7#compared">What these revisions changed in all</a>' in session
    assert 'id="revision-8"' in text[:text.index('id="session-7"')]
    # Every revision but the list as it is can be restored.
    assert text.count('name="revision" value="') == 7 and 'name="revision" value="8"' not in text


def test_restoring_a_revision_saves_it_as_the_newest(edited, alice, client):
    client.force_login(alice)
    answer = client.post(reverse("list-restore", args=[edited.pk]), {"revision": "2", "expected": "8"})
    assert answer.status_code == 302 and answer["Location"] == reverse("list-edit", args=[edited.pk])
    edited.refresh_from_db()
    assert (edited.revision, edited.points_limit, edited.document["points_limit"]) == (9, 1020, 1020)
    newest = history(edited).steps[0]
    assert (newest.revision, newest.changes) == (9, ["Points limit 1080 -> 1020."])
    assert newest.verdict == {"valid": False, "total_points": 0, "errors": 4, "warnings": 0}   # saved with it
    assert ListRevision.objects.filter(army_list=edited).count() == 9    # nothing between is lost


@pytest.mark.parametrize(("posted", "message"), [
    ({"revision": "2", "expected": "7"}, "The list changed since you looked; nothing was restored. Look again."),
    ({"revision": "99", "expected": "8"}, "This list keeps no revision 99."),
    ({"revision": "x", "expected": "8"}, "Restore a revision by its number, from the history page."),
])
def test_a_stale_or_unknown_restore_saves_nothing_and_says_why(edited, alice, client, posted, message):
    client.force_login(alice)
    answer = client.post(reverse("list-restore", args=[edited.pk]), posted, follow=True)
    assert answer.redirect_chain == [(reverse("list-history", args=[edited.pk]), 302)]
    assert message in answer.content.decode()
    edited.refresh_from_db()
    assert edited.revision == 8 and ListRevision.objects.filter(army_list=edited).count() == 8


def test_only_the_owner_restores_and_only_by_post(edited, bob, alice, client):
    client.force_login(bob)
    assert client.post(reverse("list-restore", args=[edited.pk]), {"revision": "2", "expected": "8"}).status_code == 404
    client.force_login(alice)
    assert client.get(reverse("list-restore", args=[edited.pk])).status_code == 405


def test_the_api_restores_with_if_match_and_refuses_what_it_cannot(edited, alice, bob):
    api = APIClient()
    api.force_authenticate(alice)
    url = f"/api/v1/lists/{edited.pk}/revisions/{{}}/restore/"
    stale = api.post(url.format(3), {}, format="json", HTTP_IF_MATCH='"7"')
    assert stale.status_code == 412
    assert stale.json()["error"]["message"] == "The list is at revision 8; you sent 7. Nothing was restored."
    assert api.post(url.format(3), {}, format="json").status_code == 428
    assert api.post(url.format(99), {}, format="json", HTTP_IF_MATCH='"8"').status_code == 404
    done = api.post(url.format(3), {}, format="json", HTTP_IF_MATCH='"8"')
    assert done.status_code == 200 and done["ETag"] == '"9"'
    assert (done.json()["revision"], done.json()["document"]["points_limit"]) == (9, 1030)
    other = APIClient()
    other.force_authenticate(bob)
    assert other.post(url.format(3), {"revision": 9}, format="json").status_code == 404


def test_a_revision_whose_book_is_not_on_the_site_is_not_restored(edited, alice):
    ListRevision.objects.filter(army_list=edited, revision=3).update(document=document(3, version="0.0.1"))
    api = APIClient()
    api.force_authenticate(alice)
    refused = api.post(f"/api/v1/lists/{edited.pk}/revisions/3/restore/", {"revision": 8}, format="json")
    assert refused.status_code == 400
    assert [f["message"] for f in refused.json()["error"]["fields"]] == [
        "Revision 3 cannot be restored: Empire of Sonnstahl version '0.0.1' is not loaded; available: 0.11.1"]
    edited.refresh_from_db()
    assert edited.revision == 8
