"""`POST /api/v1/lists/{id}/units/` without `If-Match` uses the list's current revision (docs/api.md), also
when other writes land between its read and its save (issue 43: 12 of 30 parallel adds got 412); with
`If-Match` a stale revision is still a 412 with nothing saved. No update is lost either way."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from rest_framework.test import APIClient

from armylists.api import units
from armylists.lists.saved import adding
from armylists.models import ArmyList

pytestmark = pytest.mark.django_db


def entries(pk: int) -> list[str]:
    return [u["entry"] for u in ArmyList.objects.get(pk=pk).document["units"]]


@pytest.fixture
def racing(monkeypatch, alice_list):
    """Another write lands after the add read the list, `times` times in a row (the interleaving of parallel
    requests, made deterministic): each time a State Militia is added and saved before our save."""
    from armylists.lists.saved.stored import load, save_edit

    real = adding.add_named_unit
    state = {"left": 0, "landed": 0}

    def add(book, roster, entry, size=None):
        if state["left"]:
            state["left"] -= 1
            other = ArmyList.objects.get(pk=alice_list.pk)
            loaded = load(other)
            roster2, _ = real(loaded.book, loaded.roster, "state-militia", None)
            assert save_edit(loaded, roster2, other.revision) is not None
            state["landed"] += 1
        return real(book, roster, entry, size)

    monkeypatch.setattr(units, "add_named_unit", add)
    return state


def test_without_if_match_a_write_that_lands_first_is_kept_and_the_unit_added(api_alice, alice_list, racing):
    before, revision = entries(alice_list.pk), alice_list.revision
    racing["left"] = 3
    response = api_alice.post(f"/api/v1/lists/{alice_list.pk}/units/", {"entry": "steam-tank"}, format="json")
    assert response.status_code == 201, response.json()
    assert racing["landed"] == 3
    assert entries(alice_list.pk) == before + ["state-militia"] * 3 + ["steam-tank"]
    assert response["ETag"] == f'"{revision + 4}"' == f'"{ArmyList.objects.get(pk=alice_list.pk).revision}"'


def test_with_if_match_a_write_that_lands_first_is_a_412_and_nothing_of_ours_is_saved(api_alice, alice_list, racing):
    before, revision = entries(alice_list.pk), alice_list.revision
    racing["left"] = 1
    response = api_alice.post(f"/api/v1/lists/{alice_list.pk}/units/", {"entry": "steam-tank"}, format="json",
                              HTTP_IF_MATCH=f'"{revision}"')
    assert response.status_code == 412
    assert response.json()["error"]["message"] == ("The list changed while the unit was added; nothing was saved. "
                                                   "Read it again.")
    assert entries(alice_list.pk) == before + ["state-militia"]


def test_without_if_match_past_the_attempts_is_a_412_and_every_other_write_is_kept(api_alice, alice_list, racing):
    """The bound: MAX_ATTEMPTS writes in a row landing first (no real request sees that) end in a 412."""
    before = entries(alice_list.pk)
    racing["left"] = units.MAX_ATTEMPTS
    response = api_alice.post(f"/api/v1/lists/{alice_list.pk}/units/", {"entry": "steam-tank"}, format="json")
    assert response.status_code == 412
    assert entries(alice_list.pk) == before + ["state-militia"] * units.MAX_ATTEMPTS
    racing["left"] = units.MAX_ATTEMPTS - 1  # one fewer: the last attempt saves
    response = api_alice.post(f"/api/v1/lists/{alice_list.pk}/units/", {"entry": "steam-tank"}, format="json")
    assert response.status_code == 201
    assert entries(alice_list.pk)[-1] == "steam-tank"


@pytest.mark.django_db(transaction=True)
def test_30_parallel_adds_without_if_match_all_land(alice, alice_list):
    """Real threads, each with its own connection: every add answers 201 and the list holds all 30. On
    PostgreSQL only: the tests' SQLite database in memory cannot be shared by threads that write (its
    shared cache answers "table is locked" at once); the interleaving tests above run on both."""
    if connection.vendor == "sqlite":
        pytest.skip("threads cannot write to the tests' in-memory SQLite database (see the docstring)")
    before = entries(alice_list.pk)

    def add(_):
        client = APIClient()
        client.force_authenticate(alice)
        try:
            return client.post(f"/api/v1/lists/{alice_list.pk}/units/", {"entry": "state-militia"},
                               format="json").status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=30) as pool:
        statuses = list(pool.map(add, range(30)))
    assert statuses == [201] * 30
    assert entries(alice_list.pk) == before + ["state-militia"] * 30
