"""Who may do what: anonymous, another user and the owner, on every endpoint.

A private list of someone else answers 404, exactly as a list that does not exist, so ids reveal nothing.
"""
from __future__ import annotations

import json

import pytest

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db

LIST_ENDPOINTS = [
    ("get", "/api/v1/lists/{pk}/"),
    ("put", "/api/v1/lists/{pk}/"),
    ("delete", "/api/v1/lists/{pk}/"),
    ("get", "/api/v1/lists/{pk}/report/"),
    ("get", "/api/v1/lists/{pk}/export/"),
]
OWNER_STATUS = {("get", "/api/v1/lists/{pk}/"): 200, ("put", "/api/v1/lists/{pk}/"): 200,
                ("delete", "/api/v1/lists/{pk}/"): 204, ("get", "/api/v1/lists/{pk}/report/"): 200,
                ("get", "/api/v1/lists/{pk}/export/"): 200}


def call(client, method, url, document):
    if method == "put":
        return client.put(url, json.dumps({"document": document, "revision": 1}), content_type="application/json")
    return getattr(client, method)(url)


@pytest.mark.parametrize("method,url", LIST_ENDPOINTS)
def test_anonymous_gets_401_and_nothing_changes(api_anonymous, alice_list, legal_document, method, url):
    response = call(api_anonymous, method, url.format(pk=alice_list.pk), legal_document)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert ArmyList.objects.get().revision == 1


@pytest.mark.parametrize("method,url", LIST_ENDPOINTS)
def test_another_user_gets_404_and_nothing_changes(api_bob, alice_list, legal_document, method, url):
    response = call(api_bob, method, url.format(pk=alice_list.pk), legal_document)
    assert response.status_code == 404
    assert response.json()["error"] == {"status": 404, "code": "not_found", "message": "No such list.", "fields": []}
    assert ArmyList.objects.get().revision == 1


@pytest.mark.parametrize("method,url", LIST_ENDPOINTS)
def test_the_owner_may(api_alice, alice_list, legal_document, method, url):
    response = call(api_alice, method, url.format(pk=alice_list.pk), legal_document)
    assert response.status_code == OWNER_STATUS[(method, url)]


def test_a_list_that_does_not_exist_answers_like_anothers(api_bob, alice_list):
    assert api_bob.get("/api/v1/lists/999999/").json() == api_bob.get(f"/api/v1/lists/{alice_list.pk}/").json()


def test_the_collection_shows_only_the_users_own_lists(api_alice, api_bob, alice_list):
    assert [row["id"] for row in api_alice.get("/api/v1/lists/").json()] == [alice_list.pk]
    assert api_bob.get("/api/v1/lists/").json() == []


def test_anonymous_cannot_list_or_create(api_anonymous, legal_document):
    assert api_anonymous.get("/api/v1/lists/").status_code == 401
    response = api_anonymous.post("/api/v1/lists/", json.dumps({"document": legal_document}),
                                  content_type="application/json")
    assert response.status_code == 401 and ArmyList.objects.count() == 0


@pytest.mark.parametrize("url", ["/api/v1/systems/", "/api/v1/systems/t9a-0.11/", "/api/v1/books/",
                                 "/api/v1/books/t9a-0.11/ogre-khans/0.11.0/", "/api/schema/"])
def test_the_rules_are_public(api_anonymous, url):
    assert api_anonymous.get(url).status_code == 200


def test_a_token_authenticates(client, alice, alice_list):
    token = client.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-password-1"}).json()["token"]
    response = client.get("/api/v1/lists/", HTTP_AUTHORIZATION=f"Token {token}")
    assert [row["id"] for row in response.json()] == [alice_list.pk]
