"""Who sees what: every list page for anonymous visitors, another user, the owner and a share-link holder.

A private list is the owner's alone: anybody else is sent to log in (anonymous) or told it does not
exist (404, another user), and nothing is changed. A share link shows it read-only to anyone.
"""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from .conftest import unit_form_data

pytestmark = pytest.mark.django_db

# (method, url name, extra url args, the owner's data, the owner's status)
PAGES = [
    ("get", "list-detail", (), None, 200),
    ("get", "list-edit", (), None, 200),
    ("get", "list-rename", (), None, 200),
    ("post", "list-rename", (), {"name": "Renamed"}, 302),
    ("post", "list-clone", (), {}, 302),
    ("get", "list-delete", (), None, 200),
    ("post", "list-delete", (), {}, 302),
    ("post", "list-share", (), {"action": "share"}, 302),
    ("post", "list-share", (), {"action": "share-open"}, 302),  # the hidden list's open part (issue 43)
    ("get", "list-download", ("json",), None, 200),
    ("get", "list-download", ("txt",), None, 200),
    ("get", "list-download", ("pdf",), None, 200),
    ("post", "list-settings", (), {"name": "Renamed", "points_limit": "2000"}, 302),
    ("post", "unit-add", (), {"entry": "marshal"}, 302),
    ("post", "unit-update", ("marshal",), "unit-form", 302),
    ("post", "unit-remove", ("marshal",), {}, 302),
    ("post", "unit-duplicate", ("marshal",), {}, 302),
    ("post", "unit-move", ("marshal",), {"direction": "down"}, 302),
    ("post", "item-add", ("marshal",), {"bearer": "model", "item": "dispel-scroll-enchanted"}, 302),
    ("post", "item-remove", ("marshal",), {"bearer": "model", "item": "giant-sword"}, 302),
]
IDS = [f"{m} {name} {' '.join(args)}".strip() for m, name, args, _, _ in PAGES]


def request(client: Client, army_list, method, name, args, data):
    url = reverse(name, args=[army_list.pk, *args])
    if method == "get":
        return client.get(url)
    if data == "unit-form":
        data = unit_form_data(army_list, "marshal", **{"opt-shield": None})
    return client.post(url, {"revision": army_list.revision, **(data or {})})


def unchanged(army_list, before) -> bool:
    from armylists.models import ArmyList
    now = ArmyList.objects.filter(pk=army_list.pk).values_list("revision", "document", "name", "share_token").first()
    return now == before


def snapshot(army_list):
    return (army_list.revision, army_list.document, army_list.name, army_list.share_token)


@pytest.mark.parametrize("method, name, args, data, status", PAGES, ids=IDS)
class TestAccessMatrix:
    def test_anonymous_is_sent_to_log_in(self, client, alice_list, method, name, args, data, status):
        before = snapshot(alice_list)
        response = request(client, alice_list, method, name, args, data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=/lists/")
        assert unchanged(alice_list, before)

    def test_another_user_finds_nothing(self, client, bob, alice_list, method, name, args, data, status):
        client.force_login(bob)
        before = snapshot(alice_list)
        response = request(client, alice_list, method, name, args, data)
        assert response.status_code == 404
        assert unchanged(alice_list, before)

    def test_the_owner_may(self, client, alice, alice_list, method, name, args, data, status):
        client.force_login(alice)
        response = request(client, alice_list, method, name, args, data)
        assert response.status_code == status, response.content[:500]
        if method == "post":
            assert response["Location"] != reverse("login")

    def test_a_share_link_does_not_open_the_private_pages(self, client, shared_list, method, name, args, data, status):
        """Holding the token (having opened the shared page) gives no access to the owner's pages."""
        assert client.get(reverse("shared-list", args=[shared_list.share_token])).status_code == 200
        before = snapshot(shared_list)
        response = request(client, shared_list, method, name, args, data)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        assert unchanged(shared_list, before)


class TestSharedPages:
    @pytest.mark.parametrize("who", ["anonymous", "bob", "alice"])
    def test_anyone_with_the_link_sees_the_list_read_only(self, client, bob, alice, shared_list, who):
        if who != "anonymous":
            client.force_login(bob if who == "bob" else alice)
        response = client.get(reverse("shared-list", args=[shared_list.share_token]))
        assert response.status_code == 200
        assert response.context["can_edit"] is False
        content = response.content.decode()
        assert "Sonnstahl combined arms" in content and 'id="unit-marshal"' in content
        assert f"/lists/{shared_list.pk}/" not in content  # no link to the owner's pages
        assert 'action="/lists/' not in content  # no form that changes the list
        assert response["X-Robots-Tag"] == "noindex"

    @pytest.mark.parametrize("fmt, name", [("json", "Sonnstahl-combined-arms.json"), ("txt", "Sonnstahl-combined-arms.txt"),
                                           ("pdf", "Sonnstahl-combined-arms-full.pdf")])
    def test_the_link_holder_may_download_it(self, client, shared_list, fmt, name):
        response = client.get(reverse("shared-download", args=[shared_list.share_token, fmt]))
        assert response.status_code == 200
        assert response["Content-Disposition"] == f'attachment; filename="{name}"'

    def test_a_revoked_or_made_up_token_finds_nothing(self, client, shared_list):
        token = shared_list.share_token
        shared_list.unshare()
        for url in (reverse("shared-list", args=[token]), reverse("shared-download", args=[token, "json"]),
                    reverse("shared-list", args=["not-a-token"])):
            assert client.get(url).status_code == 404

    def test_a_share_link_cannot_change_the_list(self, client, shared_list):
        before = snapshot(shared_list)
        response = client.post(reverse("shared-list", args=[shared_list.share_token]), {"name": "x"})
        assert response.status_code == 405
        assert unchanged(shared_list, before)


class TestCsrf:
    @pytest.mark.parametrize("method, name, args, data, status", [p for p in PAGES if p[0] == "post"],
                             ids=[i for i, p in zip(IDS, PAGES) if p[0] == "post"])
    def test_every_change_needs_the_csrf_token(self, alice, alice_list, method, name, args, data, status):
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        before = snapshot(alice_list)
        response = request(client, alice_list, method, name, args, data)
        assert response.status_code == 403
        assert unchanged(alice_list, before)
