"""A Reikland warband to start every campaign test from (docs/examples/reikland-mercenaries-legal.json)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from armylists.rules import parse_roster, validate

WARBAND = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "reikland-mercenaries-legal.json")
                     .read_text())


def warband(campaign: dict | None = None, **experience: int) -> dict:
    """The example warband, `campaign` set, each named unit's experience set."""
    doc = copy.deepcopy(WARBAND)
    doc["modes"] = ["campaign"]
    for unit in doc["units"]:
        if unit["id"] in experience:
            unit["experience"] = experience[unit["id"]]
    if campaign is not None:
        doc["campaign"] = campaign
    return doc


@pytest.fixture
def judge(library):
    """The campaign violations of a document: (code, unit, message) sorted."""
    def run(doc: dict) -> list[tuple[str, str | None, str]]:
        roster = parse_roster(doc)
        report = validate(library.book(roster.system, roster.book, roster.book_version), roster)
        return sorted((v.code, v.unit, v.message) for v in report.violations if v.code.startswith("campaign."))
    return run


@pytest.fixture
def stored_warband(alice, library):
    """Alice's Reikland warband (the example), stored as a list."""
    from armylists.models import ArmyList
    roster = parse_roster(WARBAND)
    army_list = ArmyList(owner=alice)
    army_list.set_document(roster, validate(library.book("mordheim", "reikland-mercenaries", "1999.2"), roster))
    army_list.save()
    return army_list
