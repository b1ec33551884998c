"""Events: an approved submission is locked until the organiser reopens it, and an organiser's upload
never joins a player's account because the names match (nor a player an upload)."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from armylists.models import Event, Submission

from .conftest import make_list

# Uploads are checked by a background job (events.jobs); here it runs at once, so a list can be approved.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_at_once")]


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", points_limit=2400, deadline=timezone.now() + timedelta(days=5))


@pytest.fixture
def bob_list(bob, legal_document):
    return make_list(bob, {**legal_document, "name": "Bob's Empire"})


def submit(client, event, army_list):
    return client.post(reverse("event-submit", args=[event.pk]), {"army_list": army_list.pk, "team": ""})


def review(client, sub, action, note=""):
    return client.post(reverse("submission-review", args=[sub.event_id, sub.pk]), {"action": action, "note": note})


def upload(client, event, name, document):
    files = [SimpleUploadedFile(name, json.dumps(document).encode())]
    return client.post(reverse("event-upload", args=[event.pk]), {"files": files})


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_an_approved_list_is_locked_until_the_organiser_reopens_it(client, alice, bob, event, bob_list):
    client.force_login(bob)
    submit(client, event, bob_list)
    sub = Submission.objects.get()
    first_checksum = sub.checksum
    client.force_login(alice)
    review(client, sub, "approve")
    client.force_login(bob)
    bob_list.name = "Bob's second thoughts"
    bob_list.document = {**bob_list.document, "name": "Bob's second thoughts"}
    bob_list.save()
    response = client.post(reverse("event-submit", args=[event.pk]), {"army_list": bob_list.pk, "team": ""},
                           follow=True)
    assert "bob's list is approved, so it is locked; the organiser must reopen it before it can be replaced." \
        in messages_of(response)
    sub.refresh_from_db()
    assert (sub.status, sub.checksum, sub.list_name, sub.history.count()) == ("approved", first_checksum,
                                                                              "Bob's Empire", 0)
    # The organiser reopens it: the verdict stays (legal), the lock goes, and the player replaces it.
    client.force_login(alice)
    page = client.get(reverse("submission-detail", args=[event.pk, sub.pk])).content.decode()
    assert 'value="reopen"' in page
    review(client, sub, "reopen")
    sub.refresh_from_db()
    assert sub.status == "legal"
    client.force_login(bob)
    submit(client, event, bob_list)
    sub.refresh_from_db()
    assert (sub.status, sub.list_name, sub.history.count()) == ("legal", "Bob's second thoughts", 1)
    assert sub.history.get().status == "legal"


def test_an_upload_cannot_replace_an_approved_list_either(client, alice, event, legal_document):
    client.force_login(alice)
    upload(client, event, "erin.json", {**legal_document, "player": "Erin"})
    sub = Submission.objects.get()
    review(client, sub, "approve")
    response = upload(client, event, "erin-again.json", {**legal_document, "player": "Erin", "name": "Changed"})
    assert response.status_code == 400
    assert ("<strong>erin-again.json</strong>: Erin's list is approved, so it is locked; the organiser must reopen it before it "
            "can be replaced.") in response.content.decode().replace("&#x27;", "'")
    sub.refresh_from_db()
    assert (sub.status, sub.history.count()) == ("approved", 0)


def test_an_upload_never_joins_a_players_account_because_the_name_matches(client, alice, bob, event, bob_list,
                                                                          legal_document):
    client.force_login(bob)
    submit(client, event, bob_list)
    client.force_login(alice)
    response = upload(client, event, "impostor.json", {**legal_document, "player": "bob", "name": "Not Bob's"})
    assert response.status_code == 400
    assert ("<strong>impostor.json</strong>: bob submitted a list from their own account; an upload cannot replace it "
            "(give the file another player name).") in response.content.decode()
    sub = Submission.objects.get()
    assert (sub.player, sub.list_name, sub.history.count()) == (bob, "Bob's Empire", 0)


def test_a_player_never_takes_over_an_uploaded_list_because_the_name_matches(client, alice, bob, event, bob_list,
                                                                            legal_document):
    client.force_login(alice)
    upload(client, event, "bob.json", {**legal_document, "player": "bob", "name": "The organiser's copy"})
    client.force_login(bob)
    response = client.post(reverse("event-submit", args=[event.pk]), {"army_list": bob_list.pk, "team": ""},
                           follow=True)
    assert "The organiser already entered a list for bob; ask the organiser to replace it for you." \
        in messages_of(response)
    sub = Submission.objects.get()
    assert (sub.player, sub.list_name) == (None, "The organiser's copy")
    # Bob does not see the uploaded list: it is not his.
    assert client.get(reverse("submission-detail", args=[event.pk, sub.pk])).status_code == 404
