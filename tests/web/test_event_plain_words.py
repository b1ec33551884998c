"""Issue 17: an event's pages say what is wrong in plain words: a player's own list, a submission and the
organiser's table show each message without unit ids or rule codes, and each rule's source in the
system's words behind a toggle, never a file name or a seed citation. The CSV keeps the codes."""
from __future__ import annotations

import csv
import html
import io
import json
import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armylists.models import Event, Submission

from ..conftest import EXAMPLES
from .conftest import make_list

pytestmark = pytest.mark.django_db

# What only the data says: a seed citation, a file name, a unit's id after its name, a rule's code.
NOT_PLAIN = [re.compile(r"\d{3}:L"), re.compile(r"\.md\b"), re.compile(r"\((bsb|priest|captain-\d)\)"),
             re.compile(r"points\.over_limit|points\.under_limit|items\.duplicate|bsb\.max")]


@pytest.fixture(autouse=True)
def _tasks_at_once(tasks_at_once):
    """Checking runs as soon as it is queued."""


def visible_text(page: str) -> str:
    """What a reader sees (the toggled source included): the page without its tags and attributes."""
    body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def assert_plain(text: str) -> None:
    for pattern in NOT_PLAIN:
        assert not pattern.search(text), (pattern.pattern, pattern.search(text).group(0))


@pytest.fixture(params=["the-old-world", "t9a-0.11"])
def submitted(request, client, alice, bob):
    """Bob's illegal list submitted to Alice's event: The Old World's Empire of Man (a file name in a
    source, "(bsb)" in a message) or The 9th Age's Empire (seed citations, "(captain-1)")."""
    system, book, example, limit = {
        "the-old-world": ("the-old-world", "empire-of-man", "empire-of-man-illegal.json", 2000),
        "t9a-0.11": ("t9a-0.11", "empire-of-sonnstahl", "empire-2400-illegal.json", 2400),
    }[request.param]
    event = Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                 system=system, books=[book], points_limit=limit,
                                 deadline=timezone.now() + timedelta(days=5))
    army_list = make_list(bob, json.loads((EXAMPLES / example).read_text()))
    client.force_login(bob)
    client.post(reverse("event-submit", args=[event.pk]), {"army_list": army_list.pk, "team": ""})
    return event, Submission.objects.get(event=event)


def test_the_players_own_list_on_the_event_page_is_in_plain_words(client, submitted):
    event, sub = submitted
    assert not sub.valid and sub.report["violations"]
    text = visible_text(client.get(reverse("event-detail", args=[event.pk])).content.decode())
    assert_plain(text)
    assert "Rule" in text  # each source behind its toggle


def test_the_submission_page_is_in_plain_words(client, alice, submitted):
    event, sub = submitted
    for user in (sub.player, alice):
        client.force_login(user)
        text = visible_text(client.get(reverse("submission-detail", args=[event.pk, sub.pk])).content.decode())
        assert_plain(text.split("The list as submitted")[0])  # the problems; the list's text is its own export


def test_the_organisers_table_is_in_plain_words_and_the_csv_keeps_the_codes(client, alice, submitted):
    event, sub = submitted
    client.force_login(alice)
    text = visible_text(client.get(reverse("event-detail", args=[event.pk])).content.decode())
    assert_plain(text)
    rows = list(csv.reader(io.StringIO(client.get(reverse("event-csv", args=[event.pk])).content.decode())))
    problems = rows[1][rows[0].index("violations")]
    assert [p.split(": ")[0] for p in problems.split(" | ")] == [v["code"] for v in sub.report["violations"]]


def test_the_old_worlds_messages_and_sources_read_as_the_player_reads_them(client, alice, submitted):
    event, sub = submitted
    if event.system != "the-old-world":
        pytest.skip("The Old World's example")
    page = client.get(reverse("submission-detail", args=[event.pk, sub.pk])).content.decode()
    text = " ".join(visible_text(page).split())
    assert "Total 2302 pts is 302 pts over the 2000 pts limit." in text
    assert ("Dawnstone is taken 2 times (Captain of the Empire, Priest of Sigmar); "
            "each magical item may be taken once per army.") in text
    assert "Rule The points total may not exceed the limit" in text
