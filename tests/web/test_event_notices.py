"""Issue 42 item 3: a player is told by mail and on their lists when their submission is returned or
approved, with the organiser's note; the organiser when a list is submitted again. Django's locmem
mail backend (pytest-django's `mailoutbox`) stands in for the configured EMAIL_BACKEND."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armylists.models import Event, Notice, Submission

from .conftest import make_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tasks_at_once(tasks_at_once):
    """Checking runs as soon as it is queued."""


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Notice Open", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", books=[], points_limit=2400,
                                deadline=timezone.now() + timedelta(days=5))


@pytest.fixture
def submitted(client, event, bob, legal_document):
    client.force_login(bob)
    client.post(reverse("event-submit", args=[event.pk]),
                {"army_list": make_list(bob, {**legal_document, "name": "Bob's Empire"}).pk})
    return Submission.objects.get()


def review(client, alice, event, sub, action, note=""):
    client.force_login(alice)
    return client.post(reverse("submission-review", args=[event.pk, sub.pk]), {"action": action, "note": note})


def test_a_returned_list_mails_the_player_and_shows_on_their_lists(client, alice, bob, event, submitted, mailoutbox):
    review(client, alice, event, submitted, "return", "Two war machines; this event allows one.")
    assert [m.to for m in mailoutbox] == [["bob@example.com"]]
    mail = mailoutbox[0]
    assert mail.subject == "Notice Open: your list was returned"
    assert "returned “Bob's Empire”" in mail.body and "Two war machines; this event allows one." in mail.body
    assert f"/events/{event.pk}/" in mail.body
    notice = Notice.objects.get()
    assert (notice.user, notice.kind, notice.note, notice.read) == (bob, "returned", "Two war machines; this event "
                                                                                   "allows one.", False)
    client.force_login(bob)
    page = client.get(reverse("my-lists")).content.decode()
    shown = page.split('id="notices"')[1].split("</section>")[0]
    assert "The organiser of Notice Open returned “Bob&#x27;s Empire”." in shown
    assert "Two war machines; this event allows one." in shown


def test_an_approved_list_tells_the_player_with_the_note(client, alice, bob, event, submitted, mailoutbox):
    review(client, alice, event, submitted, "approve", "See you on the day.")
    assert [m.subject for m in mailoutbox] == ["Notice Open: your list is approved"]
    assert "See you on the day." in mailoutbox[0].body
    assert list(Notice.objects.values_list("user__username", "kind")) == [("bob", "approved")]


def test_reopening_tells_nobody(client, alice, event, submitted, mailoutbox):
    review(client, alice, event, submitted, "reopen")
    assert mailoutbox == [] and not Notice.objects.exists()


def test_a_list_submitted_again_tells_the_organiser(client, alice, bob, event, submitted, legal_document, mailoutbox):
    review(client, alice, event, submitted, "return", "Fix it.")
    client.force_login(bob)
    client.post(reverse("event-submit", args=[event.pk]),
                {"army_list": make_list(bob, {**legal_document, "name": "Bob's Empire, fixed"}).pk})
    assert [m.to for m in mailoutbox] == [["bob@example.com"], ["alice@example.com"]]
    assert mailoutbox[1].subject == "Notice Open: bob submitted a list again"
    assert "bob submitted a list again for Notice Open: “Bob's Empire, fixed”." in mailoutbox[1].body
    assert f"/events/{event.pk}/submissions/{submitted.pk}/" in mailoutbox[1].body
    assert Notice.objects.filter(user=alice, kind="resubmitted").count() == 1
    # the first submission tells the organiser nothing
    assert Notice.objects.filter(user=alice).count() == 1


def test_a_notice_is_dismissed_by_its_owner_only(client, alice, bob, charlie, event, submitted):
    review(client, alice, event, submitted, "return", "Fix it.")
    notice = Notice.objects.get()
    client.force_login(charlie)
    assert client.post(reverse("notice-read", args=[notice.pk])).status_code == 404
    assert client.get(reverse("notice-read", args=[notice.pk])).status_code == 405
    notice.refresh_from_db()
    assert notice.read is False
    client.force_login(bob)
    assert client.post(reverse("notice-read", args=[notice.pk])).status_code == 302
    notice.refresh_from_db()
    assert notice.read is True
    assert 'id="notices"' not in client.get(reverse("my-lists")).content.decode()


def test_a_player_without_a_mail_address_still_gets_the_notice(client, alice, bob, event, submitted, mailoutbox):
    bob.email = ""
    bob.save()
    review(client, alice, event, submitted, "return", "Fix it.")
    assert mailoutbox == [] and Notice.objects.filter(user=bob).count() == 1


def test_a_mail_server_down_keeps_the_review_and_the_notice(client, alice, bob, event, submitted, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", 1  # nothing listens there
    response = review(client, alice, event, submitted, "return", "Fix it.")
    assert response.status_code == 302
    submitted.refresh_from_db()
    assert submitted.status == "returned" and Notice.objects.filter(user=bob).count() == 1
