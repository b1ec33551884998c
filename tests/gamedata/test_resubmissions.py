"""An organiser sees what a player changed between successive submissions to an event, in the same words
and figures as a list's history (lists/history.compare), on the submission's page."""
from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from armylists.events.submitting import submit_list
from armylists.lists.library.catalogue import report_for
from armylists.lists.saved.stored import load, save_edit
from armylists.models import ArmyList, Event
from armylists.rules import parse_roster
from armylists.rules.reading.roster import RosterUnit

pytestmark = pytest.mark.django_db


def test_the_organiser_sees_what_changed_between_a_players_submissions(mordheim, alice, bob, client, django_user_model):
    from armylists.gamedata.sources import add_source
    from armylists.gamedata.updating import update

    update(add_source("BSData/mordheim"))
    event = Event.objects.create(organiser=bob, name="Mordheim night", date=date.today() + timedelta(days=30),
                                 system="bs-mordheim", points_limit=500,
                                 deadline=timezone.now() + timedelta(days=20))
    roster = parse_roster({"format": "armylist/1", "system": "bs-mordheim", "book": "bs-reiklanders-1a",
                           "book_version": "r10", "points_limit": 500, "name": "Lads",
                           "units": [{"id": "u1", "entry": "mercenary-captain"}, {"id": "u2", "entry": "youngblood"}]})
    army_list = ArmyList(owner=alice)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    submit_list(event, alice, army_list)
    loaded = load(army_list)
    save_edit(loaded, replace(loaded.roster, units=(RosterUnit(id="u1", entry="mercenary-captain"),
                                                    RosterUnit(id="u3", entry="swordsmen", size=2))), 1)
    sub = submit_list(event, alice, ArmyList.objects.get(pk=army_list.pk))
    url = reverse("submission-detail", args=[event.pk, sub.pk])

    client.force_login(bob)
    page = client.get(url).content.decode()
    section = page[page.index('<section id="earlier">'):]
    assert [line for line in (
        "<li>Added Swordsmen (2 models).</li>", "<li>Removed Youngblood.</li>", "<li>Total: 75 -&gt; 130 gc.</li>",
        "<li>Heroes: 75 -&gt; 60 gc in all.</li>", "<li>Henchmen: 0 -&gt; 70 gc in all.</li>",
        "Added: Swordsmen (70).", "Removed: Youngblood (15).") if line not in section] == []
    client.force_login(alice)  # the player sees it too
    assert "<li>Added Swordsmen (2 models).</li>" in client.get(url).content.decode()
    client.force_login(django_user_model.objects.create_user("carol", "c@example.com", "pw-carol-1"))  # anybody else sees no submission that is not approved and published
    assert client.get(url).status_code == 404
