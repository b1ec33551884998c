"""A stored list whose document cannot be read back (issue 43): NUL or a lone surrogate put in the row by
something other than the site (every door refuses them: docs/security.md). `GET /api/v1/lists/{id}/` was a
500 (a lone surrogate cannot be written as UTF-8), the report and exports a 400 blaming a request that was
fine; every read path answers 409 with where and what, as the pages do, and the list can still be replaced
(PUT) or deleted. On SQLite only: PostgreSQL's jsonb refuses to store such a row at all (so it cannot be
corrupt there in this way; tests/security/test_hostile_input.py shows every door refusing it first)."""
from __future__ import annotations

import pytest
from django.db import connection

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db

READS = ["{pk}/", "{pk}/report/", "{pk}/upgrade/", "{pk}/revisions/", "{pk}/revisions/diff/?from=1&to=1",
         "{pk}/export/?as=json", "{pk}/export/?as=text", "{pk}/export/?as=pdf"]
BAD = {"NUL": ("A\x00", "contains a NUL character (at position 1)"),
       "a lone surrogate": ("\ud800", "contains a lone UTF-16 surrogate \\ud800 (at position 0), which is not text")}


@pytest.fixture
def corrupt(alice_list, request):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's jsonb refuses NUL and lone surrogates: such a row cannot be stored there")
    text, reason = BAD[request.param]
    document = dict(alice_list.document, name=text)
    ArmyList.objects.filter(pk=alice_list.pk).update(document=document)
    return alice_list.pk, reason


@pytest.mark.parametrize("corrupt", sorted(BAD), indirect=True)
@pytest.mark.parametrize("path", READS)
def test_every_read_of_a_corrupt_row_answers_409_naming_where(api_alice, corrupt, path):
    pk, reason = corrupt
    response = api_alice.get(f"/api/v1/lists/{path.format(pk=pk)}")
    assert response.status_code == 409
    assert response.json() == {"error": {"status": 409, "code": "unreadable_list", "fields": [], "message": (
        f"List {pk} as stored cannot be read (document.name: {reason}); replace its document (PUT) or delete it.")}}


@pytest.mark.parametrize("corrupt", sorted(BAD), indirect=True)
def test_an_add_to_a_corrupt_row_is_409_and_saves_nothing(api_alice, corrupt):
    pk, _ = corrupt
    before = ArmyList.objects.get(pk=pk)
    response = api_alice.post(f"/api/v1/lists/{pk}/units/", {"entry": "marshal"}, format="json")
    assert response.status_code == 409
    after = ArmyList.objects.get(pk=pk)
    assert (after.revision, after.document) == (before.revision, before.document)


@pytest.mark.parametrize("corrupt", ["NUL"], indirect=True)
def test_a_corrupt_row_can_be_replaced_and_deleted(api_alice, corrupt, legal_document):
    pk, _ = corrupt
    response = api_alice.put(f"/api/v1/lists/{pk}/", {"document": legal_document}, format="json", HTTP_IF_MATCH='"1"')
    assert response.status_code == 200, response.json()
    assert api_alice.get(f"/api/v1/lists/{pk}/").json()["document"]["name"] == legal_document["name"]
    assert api_alice.delete(f"/api/v1/lists/{pk}/").status_code == 204
    assert not ArmyList.objects.filter(pk=pk).exists()


def test_the_list_of_lists_still_answers_beside_a_corrupt_row(api_alice, alice_list):
    """My lists reads the indexed columns, never the document: a corrupt row does not hide the others."""
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's jsonb refuses NUL and lone surrogates: such a row cannot be stored there")
    ArmyList.objects.filter(pk=alice_list.pk).update(document=dict(alice_list.document, name="\ud800"))
    response = api_alice.get("/api/v1/lists/")
    assert response.status_code == 200
    assert [row["id"] for row in response.json()] == [alice_list.pk]
