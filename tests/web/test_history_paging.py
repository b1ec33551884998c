"""A list's history in pages (issue 39 item 4): the history page and `GET /api/v1/lists/{id}/revisions/`
show the newest 50 revisions, then the 50 before the oldest shown (`?before=`), each said against the one
before it even across a page's edge; a revision's verdict and changes are worked out once and stored
(ListRevision.summary), so reading a page again checks nothing."""
from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from armylists.lists.saved import history as history_module
from armylists.lists.saved.history import PAGE, history
from armylists.models import ArmyList, ListRevision

from tests.web.conftest import BOOK, SYSTEM, VERSION, make_list

pytestmark = pytest.mark.django_db
REVISIONS = 120  # three pages: 50, 50 and 20


def document(n: int) -> dict:
    # Revision n's points limit is 1000 + 10 n: each revision says "Points limit a -> b." of the one before.
    return {"format": "armylist/1", "name": "Paged", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
            "points_limit": 1000 + 10 * n, "units": []}


@pytest.fixture
def long_list(alice) -> ArmyList:
    army_list = make_list(alice, document(REVISIONS))
    ListRevision.objects.filter(army_list=army_list).delete()
    ListRevision.objects.bulk_create([ListRevision(army_list=army_list, revision=n, book_version=VERSION,
                                                   document=document(n)) for n in range(1, REVISIONS + 1)])
    ArmyList.objects.filter(pk=army_list.pk).update(revision=REVISIONS)
    army_list.refresh_from_db()
    return army_list


def test_pages_are_the_newest_fifty_then_the_fifty_before(long_list):
    first = history(long_list)
    assert PAGE == 50
    assert [s.revision for s in first.steps] == list(range(120, 70, -1)) and first.older == 71
    second = history(long_list, before=first.older)
    assert [s.revision for s in second.steps] == list(range(70, 20, -1)) and second.older == 21
    last = history(long_list, before=second.older)
    assert [s.revision for s in last.steps] == list(range(20, 0, -1)) and last.older is None


def test_the_oldest_of_a_page_is_said_against_the_revision_on_the_next_page(long_list):
    assert history(long_list).steps[-1].changes == ["Points limit 1700 -> 1710."]   # revision 71 against 70
    assert history(long_list, before=2).steps == [history(long_list, before=2).steps[0]]
    assert history(long_list, before=2).steps[0].changes == ["Started the list: Empire of Sonnstahl 0.11.1, 1010 points."]


def test_a_summary_is_stored_once_and_read_without_checking_again(long_list, monkeypatch, django_assert_max_num_queries):
    shown = history(long_list)
    stored = ListRevision.objects.filter(army_list=long_list, summary__isnull=False)
    assert sorted(stored.values_list("revision", flat=True)) == list(range(71, 121))  # only the page shown
    assert stored.get(revision=120).summary["verdict"] == shown.steps[0].verdict

    def no_check(*args, **kwargs):
        raise AssertionError("a stored revision was checked again")

    monkeypatch.setattr(history_module, "validate_roster", no_check)
    with django_assert_max_num_queries(4):  # the page's rows, and data as of for its one book version
        again = history(long_list)
    assert again == shown


def test_the_history_page_links_the_older_page(long_list, alice, client):
    client.force_login(alice)
    page = client.get(reverse("list-history", args=[long_list.pk]))
    text = page.content.decode()
    assert page.status_code == 200
    assert 'id="revision-120"' in text and 'id="revision-71"' in text and 'id="revision-70"' not in text
    assert 'href="?before=71" rel="next"' in text
    older = client.get(reverse("list-history", args=[long_list.pk]), {"before": "21"}).content.decode()
    assert 'id="revision-20"' in older and 'id="revision-1"' in older and 'rel="next"' not in older
    assert "Newest revisions" in older


def test_a_bad_before_is_a_400_on_the_page_and_in_the_api(long_list, alice, client):
    client.force_login(alice)
    page = client.get(reverse("list-history", args=[long_list.pk]), {"before": "x"})
    assert page.status_code == 400 and "Older revisions are asked for by a revision number." in page.content.decode()
    api = APIClient()
    api.force_authenticate(alice)
    response = api.get(f"/api/v1/lists/{long_list.pk}/revisions/", {"before": "0"})
    assert response.status_code == 400
    assert [f["path"] for f in response.json()["error"]["fields"]] == ["before"]


def test_the_api_pages_with_a_link_to_the_older_page(long_list, alice):
    api = APIClient()
    api.force_authenticate(alice)
    response = api.get(f"/api/v1/lists/{long_list.pk}/revisions/")
    assert response.status_code == 200
    assert [r["revision"] for r in response.json()] == list(range(120, 70, -1))
    assert response["Link"] == f'<http://testserver/api/v1/lists/{long_list.pk}/revisions/?before=71>; rel="next"'
    last = api.get(f"/api/v1/lists/{long_list.pk}/revisions/", {"before": 21})
    assert [r["revision"] for r in last.json()] == list(range(20, 0, -1)) and "Link" not in last
    assert last.json()[-1]["changes"] == ["Started the list: Empire of Sonnstahl 0.11.1, 1010 points."]


def test_a_saved_revision_keeps_the_verdict_it_was_saved_with_and_is_not_checked_to_be_shown(alice, monkeypatch):
    from dataclasses import replace

    from armylists.lists.saved.stored import load, save_edit

    army_list = make_list(alice, document(1))
    loaded = load(army_list)
    save_edit(loaded, replace(loaded.roster, points_limit=1500), 1)
    saved = {r.revision: r.summary for r in ListRevision.objects.filter(army_list=army_list)}
    # An empty Empire list: illegal, four errors (under the limit, Core, too few units, no General), each saved.
    four = {"valid": False, "total_points": 0, "errors": 4, "warnings": 0}
    # The edit's revision is said against the list it changed as it is saved (issue 39 item 4): its whole
    # entry; the list's first revision keeps its verdict, its entry made when first shown.
    assert saved == {1: {"verdict": four},
                     2: {"changes": ["Points limit 1010 -> 1500."], "verdict": four, "key": [SYSTEM, BOOK, VERSION],
                         "imported": False, "name": "Empire of Sonnstahl", "budget_unit": "pts"}}

    def no_check(*args, **kwargs):
        raise AssertionError("a revision saved with its verdict was checked again")

    monkeypatch.setattr(history_module, "validate_roster", no_check)
    steps = history(army_list).steps
    assert [(s.revision, s.changes, s.verdict["errors"]) for s in steps] == [
        (2, ["Points limit 1010 -> 1500."], 4), (1, ["Started the list: Empire of Sonnstahl 0.11.1, 1010 points."], 4)]
    assert "changes" in ListRevision.objects.get(army_list=army_list, revision=1).summary


def test_a_saved_revisions_entry_is_shown_without_reading_a_document(alice, monkeypatch):
    from dataclasses import replace

    from armylists.lists.saved.stored import load, save_edit

    army_list = make_list(alice, document(1))
    for n in range(1, 4):
        loaded = load(army_list)
        save_edit(loaded, replace(loaded.roster, points_limit=2000 + n), n)
        army_list.refresh_from_db()
    history(army_list, before=2)   # the first revision's entry, made once

    def no_read(*args, **kwargs):
        raise AssertionError("a document was read to show a revision saved with its entry")
    monkeypatch.setattr(history_module, "_read", no_read)
    assert [s.changes for s in history(army_list).steps] == [
        ["Points limit 2002 -> 2003."], ["Points limit 2001 -> 2002."], ["Points limit 1010 -> 2001."],
        ["Started the list: Empire of Sonnstahl 0.11.1, 1010 points."]]
