"""Issue 42 item 4: "Copy to my lists" on a shared list's page makes the signed-in reader a list of their
own, the shared one unchanged."""
from __future__ import annotations

import pytest
from django.urls import reverse

from armylists.models import ArmyList

pytestmark = pytest.mark.django_db


def test_a_reader_copies_a_shared_list_to_their_own(client, bob, alice, shared_list):
    shared_list.document = {**shared_list.document, "player": "Alice", "team": "Reikland"}
    shared_list.save()
    client.force_login(bob)
    page = client.get(reverse("shared-list", args=[shared_list.share_token])).content.decode()
    assert f'action="{reverse("shared-copy", args=[shared_list.share_token])}"' in page and "Copy to my lists" in page
    response = client.post(reverse("shared-copy", args=[shared_list.share_token]))
    copy = ArmyList.objects.get(owner=bob)
    assert response.status_code == 302 and response["Location"] == f"{reverse('my-lists')}#list-{copy.pk}"
    assert copy.name == shared_list.name and copy.share_token is None
    assert copy.document["units"] == shared_list.document["units"]
    assert (copy.document.get("player", ""), copy.document.get("team", "")) == ("", "")  # the sharer's name stays theirs
    assert (copy.total_points, copy.valid) == (shared_list.total_points, shared_list.valid)
    shared_list.refresh_from_db()
    assert (shared_list.owner, shared_list.revision, shared_list.document["player"]) == (alice, 1, "Alice")
    assert ArmyList.objects.count() == 2


def test_a_visitor_is_asked_to_sign_in_and_a_copy_needs_a_post_and_a_real_link(client, bob, shared_list):
    page = client.get(reverse("shared-list", args=[shared_list.share_token])).content.decode()
    assert 'id="copy-shared-sign-in"' in page and 'id="copy-shared"' not in page
    response = client.post(reverse("shared-copy", args=[shared_list.share_token]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(bob)
    assert client.get(reverse("shared-copy", args=[shared_list.share_token])).status_code == 405
    assert client.post(reverse("shared-copy", args=["not-a-token"])).status_code == 404
    assert ArmyList.objects.filter(owner=bob).count() == 0
