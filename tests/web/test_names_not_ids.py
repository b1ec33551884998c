"""Pages and messages name game systems and army books as players know them, never by their ids
(`the-old-world`, `empire-of-man`): the event pages, an upload's answer, an event's check, my lists and a
list whose book is no longer loaded."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from armylists.models import ArmyList, Event, Submission

from ..conftest import EXAMPLES
from .conftest import make_list

pytestmark = pytest.mark.django_db
T9A = "The 9th Age: Fantasy Battles v0.11.9.3"


@pytest.fixture(autouse=True)
def _tasks_at_once(tasks_at_once):
    """An upload's check runs inside the request."""


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", books=["empire-of-sonnstahl", "ogre-khans@0.11.0"],
                                points_limit=2400, deadline=timezone.now() + timedelta(days=5))


class TestEventPages:
    def test_the_event_list_names_the_system(self, client_alice, event):
        page = client_alice.get(reverse("event-list")).content.decode()
        assert f'<td data-label="System">{T9A}</td>' in page
        assert "t9a-0.11" not in page

    def test_the_event_page_names_its_books_and_filters_by_army_name(self, client_alice, event, alice_list):
        client_alice.post(reverse("event-submit", args=[event.pk]), {"army_list": alice_list.pk, "team": ""})
        page = client_alice.get(reverse("event-detail", args=[event.pk])).content.decode()
        assert "<dt>Army books</dt><dd>Empire of Sonnstahl, Ogre Khans 0.11.0</dd>" in page
        assert '<option value="empire-of-sonnstahl">Empire of Sonnstahl</option>' in page

    def test_an_upload_for_another_system_names_both_systems(self, client_alice, event):
        tow = (EXAMPLES / "empire-of-man-legal.json").read_bytes()
        response = client_alice.post(reverse("event-upload", args=[event.pk]),
                                     {"files": [SimpleUploadedFile("tow.json", tow)]})
        assert ("<li><strong>tow.json</strong>: is a Warhammer: The Old World list; the event plays "
                f"{T9A}</li>") in response.content.decode()

    def test_a_list_of_another_system_is_refused_in_both_systems_names(self, alice, event):
        from armylists.events.submitting import SubmissionError, submit_list

        tow = make_list(alice, json.loads((EXAMPLES / "empire-of-man-legal.json").read_text()))
        with pytest.raises(SubmissionError) as refused:
            submit_list(event, alice, tow)
        assert str(refused.value) == (f"{tow.name} is a Warhammer: The Old World list; the event plays {T9A}.")

    def test_a_book_the_event_does_not_allow_is_said_with_the_allowed_books_names(self, client_alice, alice,
                                                                                   alice_list):
        event = Event.objects.create(organiser=alice, name="Ogres only", date=date.today() + timedelta(days=10),
                                     system="t9a-0.11", books=["ogre-khans"], points_limit=2400,
                                     deadline=timezone.now() + timedelta(days=5))
        client_alice.post(reverse("event-submit", args=[event.pk]), {"army_list": alice_list.pk, "team": ""})
        report = Submission.objects.get(event=event).report
        messages = [v["message"] for v in report["violations"] if v["code"] == "event.book"]
        assert messages == ["Empire of Sonnstahl 0.11.1 is not allowed at this event; allowed: Ogre Khans."]


class TestListPages:
    def test_a_list_whose_book_version_is_gone_says_so_in_the_books_name(self, client_alice, alice_list):
        ArmyList.objects.filter(pk=alice_list.pk).update(
            document={**alice_list.document, "book_version": "0.9"}, book_version="0.9")
        response = client_alice.get(reverse("list-edit", args=[alice_list.pk]))
        assert response.status_code == 409
        assert ("<p>This list cannot be opened here: Empire of Sonnstahl version &#x27;0.9&#x27; is not loaded; "
                "available: 0.11.1</p>") in response.content.decode()

    def test_my_lists_names_a_book_no_longer_loaded(self, client_alice, alice_list):
        ArmyList.objects.filter(pk=alice_list.pk).update(book_version="0.9")
        page = client_alice.get(reverse("my-lists")).content.decode()
        assert '<td data-label="Army book">Empire of Sonnstahl 0.9</td>' in page
        assert f'</span> {T9A}</td>' in page and 'class="system-mark' in page   # the system's mark, then its name

    def test_a_mordheim_list_in_my_lists(self, client_alice, alice):
        make_list(alice, json.loads((EXAMPLES / "witch-hunters-legal.json").read_text()))
        page = client_alice.get(reverse("my-lists")).content.decode()
        assert '<td data-label="System"><span class="system-mark mark-4" aria-hidden="true">M</span> Mordheim</td>' in page
        assert '<td data-label="Army book">Witch Hunters 1999.2</td>' in page
