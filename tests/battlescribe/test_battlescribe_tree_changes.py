"""An edit of one unit of a roster tree answers with the cards it changed (issue 37 item 4): what each card
shows and what every card depends on (lists/trees/tree_changes.py)."""
from __future__ import annotations

import re

import pytest

from armylists.lists.trees.tree_lists import evaluated
from armylists.models import ArmyList
from tests.battlescribe.test_battlescribe_site_tree import T9A, dwarves, imported  # noqa: F401


@pytest.mark.django_db
@pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
def test_an_edit_of_a_units_model_count_answers_with_that_card_alone(dwarves, api_alice, client):
    url = f"/api/v1/lists/{dwarves.pk}/units/"
    king = api_alice.post(url, {"entry": "King"}, format="json").json()["unit"]["id"]
    warriors = api_alice.post(url, {"entry": "Clan Warriors"}, format="json").json()["unit"]["id"]
    dwarves.refresh_from_db()
    from armylists.rules import parse_roster
    tree = evaluated(parse_roster(dwarves.document))
    unit = tree.by_uid[warriors]
    model = next(c for c in unit.children if c.option.entry.get("type") == "model")
    field = f"sel-{model.entry_id}"
    answer = client.post(f"/lists/{dwarves.pk}/units/{warriors}/",
                         {"revision": dwarves.revision, "only": field, field: model.amount + 5},
                         HTTP_HX_REQUEST="true")
    html = answer.content.decode()
    assert answer.status_code == 200 and answer["HX-Reswap"] == "none"
    cards = re.findall(r'<details class="unit" id="unit-([^"]+)"', html)
    assert cards == [warriors] and king not in cards
    assert 'id="editor-status"' in html and 'id="report"' in html
    saved = ArmyList.objects.get(pk=dwarves.pk)
    saved_unit = next(s for s in saved.document["forces"][0]["selections"] if s["id"] == warriors)
    assert [s.get("number", 1) for s in saved_unit["selections"] if s["entry"] == model.entry_id] == [
        model.amount + 5]
