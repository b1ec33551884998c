"""Issue 17: an event rule built from the form on a name means every option (unit, item) of that name,
not only the first one a book lists."""
from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
import yaml
from django.urls import reverse
from django.utils import timezone

from armylists.events.checking import system_books
from armylists.events.rule_builder import build_rule
from armylists.models import Event, Submission

from ..conftest import EXAMPLES
from .conftest import make_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tasks_at_once(tasks_at_once):
    """Checking runs as soon as it is queued."""


def built(system: str, kind: str, name: str) -> dict:
    return yaml.safe_load(build_rule(kind, name, None, system_books(system)))[0]


def test_a_ban_on_an_option_name_selects_every_option_of_that_name():
    # The 9th Age's Empire: Heavy and Light Infantry each have an option named Veterans.
    veterans = built("t9a-0.11", "option_ban", "Veterans")
    assert veterans["params"]["select"] == {"option": ["heavy-infantry-veterans", "light-infantry-veterans"]}
    assert veterans["id"] == "option-ban-veterans"
    # The Old World's Empire of Man: the Captain's and the Engineer's Battle Standard Bearer.
    bsb = built("the-old-world", "option_ban", "battle standard bearer")["params"]["select"]["option"]
    assert {"battle-standard-bearer", "engineer-battle-standard-bearer"} <= set(bsb)
    # A name with one id keeps the one id, as before.
    assert built("the-old-world", "item_ban", "Dawnstone")["params"]["select"] == {"item": "dawnstone"}


@pytest.mark.parametrize("veterans, refused", [
    ({}, False),
    ({"halberds": "heavy-infantry-veterans"}, True),
    ({"handguns": "light-infantry-veterans"}, True),  # the one the first-id-only ban let through
    ({"halberds": "heavy-infantry-veterans", "handguns": "light-infantry-veterans"}, True),
])
def test_a_veterans_ban_refuses_either_units_veterans(client, alice, bob, veterans, refused):
    event = Event.objects.create(organiser=alice, name="No Veterans", date=date.today() + timedelta(days=10),
                                 system="t9a-0.11", books=["empire-of-sonnstahl"], points_limit=2400,
                                 deadline=timezone.now() + timedelta(days=5),
                                 rules_text=build_rule("option_ban", "Veterans", None, system_books("t9a-0.11")))
    document = json.loads((EXAMPLES / "empire-2400-legal.json").read_text())
    for unit in document["units"]:
        if unit["id"] in veterans:
            unit["options"][veterans[unit["id"]]] = 1
    client.force_login(bob)
    client.post(reverse("event-submit", args=[event.pk]), {"army_list": make_list(bob, document).pk, "team": ""})
    found = [v for v in Submission.objects.get().report["violations"] if v["rule"] == "option-ban-veterans"]
    if refused:
        assert [v["message"] for v in found] == [
            f"Veterans (banned at this event): {len(veterans)} unit{'s' if len(veterans) > 1 else ''} taken; at most 0."]
    else:
        assert found == []
