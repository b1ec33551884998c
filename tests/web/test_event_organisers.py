"""Organisers, round two: counts that add up, and a CSV of players, teams and factions for pairing tools."""
from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from armylists.models import Submission

from .test_events import event, illegal_document, submit, three_players  # noqa: F401  (fixtures)
from .conftest import make_list

pytestmark = pytest.mark.django_db


def test_the_counts_say_how_many_lists_are_in_and_each_status(three_players, event):  # noqa: F811
    # Three lists in: bob's legal, charlie's illegal, dave's approved; none waits for its check.
    page = three_players.get(reverse("event-detail", args=[event.pk]))
    assert page.context["counts"] == [("lists in", 3), ("not yet checked", 0), ("legal", 1), ("illegal", 1),
                                      ("approved", 1), ("returned", 0)]
    assert "<span>lists in: 3</span>" in page.content.decode()


def test_the_players_csv_has_player_team_and_faction(client, event, bob, charlie, alice, legal_document):  # noqa: F811
    client.force_login(bob)
    submit(client, event, make_list(bob, legal_document), team="Reikland Reavers")
    client.force_login(charlie)
    submit(client, event, make_list(charlie, illegal_document()))
    client.force_login(alice)
    response = client.get(reverse("event-players-csv", args=[event.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="Club-GT-players.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    statuses = dict(Submission.objects.values_list("player_name", "status"))
    assert rows == [["player", "team", "faction", "list", "status"],
                    ["bob", "Reikland Reavers", "Empire of Sonnstahl", "Sonnstahl combined arms", statuses["bob"]],
                    ["charlie", "", rows[2][2], rows[2][3], statuses["charlie"]]]
    assert rows[2][2]  # a faction, whatever the illegal example's army is


def test_only_the_organiser_gets_the_players_csv(client, event, bob):  # noqa: F811
    client.force_login(bob)
    assert client.get(reverse("event-players-csv", args=[event.pk])).status_code in (403, 404)
