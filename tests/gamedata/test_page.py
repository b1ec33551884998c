"""The staff's "Game data" page: add a source (CSRF-protected form), see its versions, queue an update."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from armylists.models import GameDataSource, GameDataVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("stella", "stella@example.com", "stella-password-1", is_staff=True)


@pytest.fixture
def client_staff(client, staff):
    client.force_login(staff)
    return client


def test_it_is_for_staff_only(client, alice):
    assert client.get(reverse("game-data")).status_code == 302  # to the log-in page
    client.force_login(alice)
    assert client.get(reverse("game-data")).status_code == 403
    assert client.post(reverse("game-data-add"), {"where": "BSData/mordheim"}).status_code == 403
    assert GameDataSource.objects.count() == 0


def test_adding_a_source_queues_its_update_and_the_page_shows_the_version(client_staff, mordheim, tasks_at_once):
    response = client_staff.post(reverse("game-data-add"), {"where": "BSData/mordheim", "kind": "",
                                                            "maps_to": "mordheim"})
    assert response.status_code == 302 and response["Location"] == reverse("game-data")
    source = GameDataSource.objects.get()
    assert (source.kind, source.maps_to, source.last_message) == \
        ("battlescribe", "mordheim", "Imported release v1.0: 1 books; 2 files new, 0 unchanged.")
    page = " ".join(client_staff.get(reverse("game-data")).content.decode().split())
    assert "Added BSData/mordheim; its latest data is being fetched." in page
    assert "New lists get: <strong>v1.0 of 2026-03-04</strong>." in page
    assert "<td>v1.0 of 2026-03-04</td>" in page
    assert "100.0% of constraints and modifiers checked" in page
    assert "Reiklanders (1a): link to an entry no file defines (164): our engine does not check it" in page
    assert "modifier add of error" not in page  # the tree evaluator adds the error (issue 21 item 6)


def test_the_update_button_queues_an_update(client_staff, mordheim, tasks_at_once):
    source = GameDataSource.objects.create(repository="BSData/mordheim")
    response = client_staff.post(reverse("game-data-update", args=[source.pk]))
    assert response.status_code == 302
    assert GameDataVersion.objects.get().ref == "v1.0"


def test_a_refused_source_is_a_form_error_and_nothing_is_added(client_staff):
    response = client_staff.post(reverse("game-data-add"), {"where": "http://example.com/x.zip"})
    assert response.status_code == 400
    assert "&#x27;http://example.com/x.zip&#x27; is neither a GitHub repository (owner/name) nor an https:// address" \
        in response.content.decode()
    assert GameDataSource.objects.count() == 0


def test_the_form_needs_the_csrf_token(staff):
    client = Client(enforce_csrf_checks=True)
    client.force_login(staff)
    assert client.post(reverse("game-data-add"), {"where": "BSData/mordheim"}).status_code == 403
    assert GameDataSource.objects.count() == 0


def test_a_running_update_is_followed_live_and_a_commit_is_named_by_its_date(client_staff, staff):
    from datetime import datetime, timezone as dt_timezone

    from django.utils import timezone

    source = GameDataSource.objects.create(repository="BSData/mordheim", busy_since=timezone.now())
    GameDataVersion.objects.create(source=source, ref="0123456789abcdef0123456789abcdef01234567", ref_kind="commit",
                                   date=datetime(2026, 3, 4, tzinfo=dt_timezone.utc), status="failed",
                                   message="Nothing imported. No catalogue (.cat) of a game system (.gst) was read")
    page = " ".join(client_staff.get(reverse("game-data")).content.decode().split())
    part = reverse("game-data-source", args=[source.pk])
    assert f'hx-get="{part}" hx-trigger="every 3s" hx-swap="outerHTML"' in page
    assert "<strong>An update is running</strong>" in page
    assert "<td>the data of 2026-03-04 (commit 0123456789ab)</td>" in page
    GameDataSource.objects.filter(pk=source.pk).update(busy_since=None, last_message="Imported the data.",
                                                       last_checked=timezone.now())
    fragment = " ".join(client_staff.get(part).content.decode().split())
    assert fragment.startswith(f'<section class="game-data-source" id="source-{source.pk}">')  # no more polling
    assert "Imported the data." in fragment and "hx-trigger" not in fragment
    assert client_staff.get(reverse("game-data-source", args=[source.pk + 1])).status_code == 404
