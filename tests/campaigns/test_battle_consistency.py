"""The post-battle sequence never leaves a warband its own checks refuse: 25 campaigns of 8 battles each,
dice rolled from recorded seeds and random battles (results, models out of action, enemies put out of
action, opponents' ratings), each warband checked after every battle by campaign_state. It found a lad
made a hero from a group of one starting his experience ledger again, and a new lad given a fallen lad's id."""
from __future__ import annotations

import random

import pytest

from armylists.rules import parse_roster, validate
from armylists.rules.native.mordheim_campaign.battle import apply_battle, start_campaign
from tests.campaigns.conftest import WARBAND


@pytest.mark.parametrize("seed", range(25))
def test_every_battle_leaves_a_warband_its_checks_accept(library, seed):
    book = library.book("mordheim", "reikland-mercenaries", "1999.2")
    doc = start_campaign(WARBAND, validate(book, parse_roster(WARBAND)).total_points)
    rnd = random.Random(seed)
    for number in range(1, 9):
        models = {u["id"]: {"out_of_action": rnd.random() < 0.3, "enemies_out_of_action": rnd.randint(0, 2)}
                  for u in doc["units"]}
        battle = {"result": rnd.choice(["won", "lost", "draw"]), "models": models,
                  "opponent_rating": rnd.randint(50, 300)}
        rating = validate(book, parse_roster(doc)).figures["rating"]
        doc = apply_battle(doc, book, battle, seed * 100 + number, rating).document
        errors = [(v.code, v.message) for v in validate(book, parse_roster(doc)).violations
                  if v.code.startswith("campaign.") and v.severity == "error"]
        assert errors == [], (number, errors)
    assert len(doc["campaign"]["battles"]) == 8
