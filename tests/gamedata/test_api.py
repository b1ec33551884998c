"""The API's game data routes: staff only; list sources with their versions, add one, queue an update."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from armylists.models import GameDataSource

pytestmark = pytest.mark.django_db
SOURCES, UPDATE = "/api/v1/game-data/sources/", "/api/v1/game-data/sources/{}/update/"


@pytest.fixture
def api_staff(django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("stella", "s@example.com", "pw-stella-1",
                                                                    is_staff=True))
    return client


def test_it_is_for_staff_only(alice):
    client = APIClient()
    assert client.get(SOURCES).status_code == 401
    client.force_authenticate(alice)
    assert client.get(SOURCES).status_code == 403
    assert client.post(SOURCES, {"where": "BSData/mordheim"}, format="json").status_code == 403
    assert GameDataSource.objects.count() == 0


def test_adding_a_source_imports_it_and_the_list_shows_its_version(api_staff, mordheim, tasks_at_once):
    response = api_staff.post(SOURCES, {"where": "BSData/mordheim", "maps_to": "mordheim"}, format="json")
    assert response.status_code == 201
    assert (response.json()["repository"], response.json()["maps_to"]) == ("BSData/mordheim", "mordheim")
    [source] = api_staff.get(SOURCES).json()
    assert (source["kind"], source["current"], source["held"]) == ("battlescribe", "v1.0", None)
    [version] = source["versions"]
    assert (version["ref"], version["ref_kind"], version["status"], version["books"]) == (
        "v1.0", "release", "ok",
        [{"system": "bs-mordheim", "book": "bs-reiklanders-1a", "version": "r10", "name": "Reiklanders (1a)"}])
    assert version["coverage"]["checked_percent"] == 100.0 and len(version["skipped"]) == 1


def test_an_update_is_queued(api_staff, mordheim, tasks_at_once):
    source = GameDataSource.objects.create(repository="BSData/mordheim")
    response = api_staff.post(UPDATE.format(source.pk))
    assert (response.status_code, response.json()) == (202, {"queued": True, "source": "BSData/mordheim"})
    assert GameDataSource.objects.get().versions.get().ref == "v1.0"
    assert api_staff.post(UPDATE.format(source.pk + 1)).status_code == 404


def test_a_refused_source_is_a_400_naming_the_field(api_staff):
    response = api_staff.post(SOURCES, {"where": "BSData/mordheim", "kind": "cards"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == [{"path": "kind", "message": '"cards" is not a valid choice.'}]
    response = api_staff.post(SOURCES, {"where": "https://example.com/x.zip"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == [{"path": "where", "message": (
        "https://example.com/x.zip: the host example.com is not on the allow-list (GAME_DATA_HOSTS: api.github.com, "
        "codeload.github.com, github.com)")}]
    assert GameDataSource.objects.count() == 0
