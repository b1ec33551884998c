"""`POST /api/v1/lists/{id}/battles/` and `.../battles/undo/` (armylists/api/battles.py): a battle is a
revision with its log and experience; bad input is a 400 naming the field; the last battle undone."""
from __future__ import annotations

import json

import pytest

from armylists.models import ArmyList
from tests.campaigns.conftest import WARBAND

pytestmark = pytest.mark.django_db

FOUGHT = {"captain": {"enemies_out_of_action": 1}, "champion": {}, "youngblood": {}, "youngblood-2": {},
          "warriors": {}, "marksmen": {}}


def post(client, url, body=None, **headers):
    return client.post(url, json.dumps(body or {}), content_type="application/json", **headers)


@pytest.fixture
def warband(api_alice):
    response = post(api_alice, "/api/v1/lists/", {"document": WARBAND})
    assert response.status_code == 201
    return ArmyList.objects.get(pk=response.json()["id"])


def error_of(response, status):
    assert response.status_code == status, response.content
    return response.json()["error"]


def test_it_records_a_battle_as_a_revision_with_its_log_and_experience(api_alice, warband):
    response = post(api_alice, f"/api/v1/lists/{warband.pk}/battles/",
                    {"result": "won", "models": FOUGHT, "rolls": {"exploration": [3, 3, 1, 2, 5]}})
    assert response.status_code == 201, response.content
    body = response.json()
    assert response["ETag"] == '"2"' and body["revision"] == 2
    assert body["experience"] == {"captain": 3, "champion": 1, "youngblood": 1, "youngblood-2": 1, "warriors": 1,
                                  "marksmen": 1}
    assert "Exploration: 5 dice, 3 3 1 2 5 = 14: 3 shards; Corpse (threes x2)." in body["log"]
    assert body["seed"] is None  # every die entered: nothing rolled from the seed
    warband.refresh_from_db()
    captain = next(u for u in warband.document["units"] if u["id"] == "captain")
    assert captain["experience"] == 23
    assert warband.document["campaign"]["battles"][0]["before"] == 1
    # 12 warriors x 5 + experience (captain 23, champion 9, youngbloods 1 each, 5 + 3 henchmen x 1) = 60 + 42
    assert (body["campaign"]["rating"], body["campaign"]["battles"], body["campaign"]["won"]) == (102, 1, 1)
    assert body["report"]["figures"]["rating"] == 102 and body["report"]["valid"] is True


def test_rolled_dice_record_their_seed_and_replay(api_alice, warband):
    first = post(api_alice, f"/api/v1/lists/{warband.pk}/battles/", {"result": "lost", "models": FOUGHT})
    assert first.status_code == 201
    seed = first.json()["seed"]
    assert isinstance(seed, int)
    post(api_alice, f"/api/v1/lists/{warband.pk}/battles/undo/")
    again = post(api_alice, f"/api/v1/lists/{warband.pk}/battles/", {"result": "lost", "models": FOUGHT, "seed": seed})
    assert again.json()["log"] == first.json()["log"]


def test_undo_restores_the_warband_before_its_last_battle(api_alice, warband):
    before = warband.document
    post(api_alice, f"/api/v1/lists/{warband.pk}/battles/", {"result": "won", "models": FOUGHT})
    response = post(api_alice, f"/api/v1/lists/{warband.pk}/battles/undo/")
    assert response.status_code == 201 and response["ETag"] == '"3"'
    warband.refresh_from_db()
    assert warband.document == before and warband.revision == 3


def test_undo_without_a_battle_is_a_400(api_alice, warband):
    error = error_of(post(api_alice, f"/api/v1/lists/{warband.pk}/battles/undo/"), 400)
    assert error["fields"] == [{"path": "battles", "message": "the warband has no battle to undo"}]


@pytest.mark.parametrize("body,text", [
    ({"result": "tie"}, "result"),
    ({"result": "won", "models": {"nobody": {}}}, "is no unit of this warband"),
    ({"result": "won", "models": FOUGHT, "rolls": {"exploration": [9]}}, '"path": "rolls.exploration", "message": "9 is not a D6 roll"'),
    ({"result": "won", "models": FOUGHT, "sell_shards": 5}, "5 shards to sell, but the warband holds"),
    ({"result": "won", "models": FOUGHT, "buy": [{"item": "sword", "unit": "captain"}]}, "the treasury holds"),
    ({"result": "won", "models": {"captain": {"enemies_out_of_action": -1}}}, "enemies_out_of_action"),
])
def test_bad_input_is_a_400_and_saves_nothing(api_alice, warband, body, text):
    error = error_of(post(api_alice, f"/api/v1/lists/{warband.pk}/battles/", body), 400)
    assert text in json.dumps(error)
    warband.refresh_from_db()
    assert warband.revision == 1 and "campaign" not in warband.document


def test_a_stale_if_match_is_412(api_alice, warband):
    response = post(api_alice, f"/api/v1/lists/{warband.pk}/battles/", {"result": "won", "models": FOUGHT},
                    HTTP_IF_MATCH='"7"')
    error_of(response, 412)


def test_someone_elses_list_is_404(api_alice, bob, warband):
    warband.owner = bob
    warband.save()
    error_of(post(api_alice, f"/api/v1/lists/{warband.pk}/battles/", {"result": "won"}), 404)


def test_a_list_of_another_game_is_400(api_alice, legal_document):
    pk = post(api_alice, "/api/v1/lists/", {"document": legal_document}).json()["id"]
    error = error_of(post(api_alice, f"/api/v1/lists/{pk}/battles/", {"result": "won"}), 400)
    assert "Battles are recorded for Mordheim warbands" in json.dumps(error)
