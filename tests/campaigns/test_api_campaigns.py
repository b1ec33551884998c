"""Campaigns over the API (armylists/api/campaigns.py; docs/api.md "Campaigns"): created, joined with the
code, a battle entered by one side and confirmed by the other (recorded for both), a contradicting result
409, a refusal, standings; anybody outside the campaign 404."""
from __future__ import annotations

import json

import pytest

from armylists.campaigns.models import Campaign, CampaignBattle
from armylists.models import ArmyList
from tests.campaigns.conftest import WARBAND

pytestmark = pytest.mark.django_db

EVERYONE = {uid: {} for uid in ("captain", "champion", "youngblood", "youngblood-2", "warriors", "marksmen")}
# Four heroes fought and stood: four exploration dice, the winner one more (mordheim-campaign.md section 4).
WON = {"result": "won", "models": EVERYONE, "rolls": {"exploration": [1, 1, 2, 3, 4]}}
LOST = {"result": "lost", "models": EVERYONE, "rolls": {"exploration": [1, 1, 2, 3]}}


def post(client, url, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def warband(client, name):
    response = post(client, "/api/v1/lists/", {"document": dict(WARBAND, name=name)})
    assert response.status_code == 201
    return response.json()["id"]


def error_of(response, status):
    assert response.status_code == status, response.content
    return response.json()["error"]


def fields_of(response):
    """A 400's fields as {path: [messages]} (the API's one error shape, armylists/api/errors.py)."""
    out: dict[str, list[str]] = {}
    for field in error_of(response, 400)["fields"]:
        out.setdefault(field["path"], []).append(field["message"])
    return out


@pytest.fixture
def campaign(api_alice, api_bob):
    """Alice's campaign with her warband (list a) and Bob's (list b) joined by the code."""
    created = post(api_alice, "/api/v1/campaigns/", {"name": "Autumn"})
    assert created.status_code == 201
    body = created.json()
    a, b = warband(api_alice, "Reiklanders"), warband(api_bob, "Marienburgers")
    assert post(api_alice, "/api/v1/campaigns/join/", {"code": body["join_code"], "list": a}).status_code == 201
    joined = post(api_bob, "/api/v1/campaigns/join/", {"code": body["join_code"], "list": b})
    assert joined.status_code == 201
    return body["id"], a, b


def test_created_with_a_code_and_listed(api_alice):
    body = post(api_alice, "/api/v1/campaigns/", {"name": "Autumn"}).json()
    stored = Campaign.objects.get()
    assert (body["name"], body["owner"], body["join_code"], body["standings"], body["battles"]) == (
        "Autumn", "alice", stored.join_code, [], [])
    assert api_alice.get("/api/v1/campaigns/").json() == [
        {"id": stored.pk, "name": "Autumn", "owner": "alice", "join_code": stored.join_code}]


def test_a_blank_name_is_400_at_name(api_alice):
    assert fields_of(post(api_alice, "/api/v1/campaigns/", {"name": "  "})) == {
        "name": ["This field may not be blank."]}


def test_a_wrong_code_and_anothers_list_are_400_at_their_field(api_alice, api_bob, campaign):
    pk, a, _ = campaign
    code = Campaign.objects.get(pk=pk).join_code
    assert fields_of(post(api_bob, "/api/v1/campaigns/join/", {"code": "nope", "list": a})) == {
        "code": ["No campaign has that join code."]}
    assert fields_of(post(api_bob, "/api/v1/campaigns/join/", {"code": code, "list": a})) == {
        "list": ["No such list of yours."]}


def test_a_battle_entered_is_pending_and_confirmed_is_recorded_for_both(api_alice, api_bob, campaign):
    pk, a, b = campaign
    entered = post(api_alice, f"/api/v1/campaigns/{pk}/battles/", {"list": a, "opponent": b, "battle": WON})
    assert entered.status_code == 201, entered.content
    battle = entered.json()
    assert (battle["status"], battle["first"], battle["second"], battle["result"]) == ("pending", a, b, "won")
    assert ArmyList.objects.get(pk=a).revision == 1
    confirmed = post(api_bob, f"/api/v1/campaigns/{pk}/battles/{battle['id']}/confirm/", {"battle": LOST})
    assert confirmed.status_code == 200, confirmed.content
    assert (confirmed.json()["status"], confirmed.json()["first_revision"], confirmed.json()["second_revision"]) == (
        "recorded", 2, 2)
    standings = api_bob.get(f"/api/v1/campaigns/{pk}/").json()["standings"]
    assert [(s["warband"], s["battles"], s["won"], s["lost"]) for s in standings] == [
        ("Reiklanders", 1, 1, 0), ("Marienburgers", 1, 0, 1)]


def test_a_contradicting_result_is_409_and_records_nothing(api_alice, api_bob, campaign):
    pk, a, b = campaign
    bid = post(api_alice, f"/api/v1/campaigns/{pk}/battles/", {"list": a, "opponent": b, "battle": WON}).json()["id"]
    error = error_of(post(api_bob, f"/api/v1/campaigns/{pk}/battles/{bid}/confirm/", {"battle": WON}), 409)
    assert (error["code"], error["message"]) == (
        "conflicting_result", "Reiklanders entered a win, so this battle is a loss for Marienburgers, not a win. "
                              "Nothing was recorded.")
    assert CampaignBattle.objects.get().status == "pending" and ArmyList.objects.get(pk=b).revision == 1


def test_a_refusal_and_then_no_confirmation(api_alice, api_bob, campaign):
    pk, a, b = campaign
    bid = post(api_alice, f"/api/v1/campaigns/{pk}/battles/", {"list": a, "opponent": b, "battle": WON}).json()["id"]
    refused = post(api_bob, f"/api/v1/campaigns/{pk}/battles/{bid}/refuse/", {"why": "not played"})
    assert refused.status_code == 200 and refused.json()["note"] == "Refused by Marienburgers's player: not played"
    assert fields_of(post(api_bob, f"/api/v1/campaigns/{pk}/battles/{bid}/confirm/", {"battle": LOST})) == {"battle": ["This battle is refused already."]}


def test_a_list_outside_the_campaign_and_a_bad_side_are_400(api_alice, campaign):
    pk, a, b = campaign
    other = warband(api_alice, "Spare")
    assert fields_of(post(api_alice, f"/api/v1/campaigns/{pk}/battles/", {"list": other, "opponent": b,
                                                                       "battle": WON})) == {"list": [f"List {other} is not a warband of this campaign."]}
    assert fields_of(post(api_alice, f"/api/v1/campaigns/{pk}/battles/", {
        "list": a, "opponent": b, "battle": {"result": "won", "models": {"ogre": {}}}}))["battle"][0].startswith("Reiklanders: is no unit of this warband (captain,")
    # an opponent's rating sent is not taken: the campaign gives each side the other's at confirmation
    assert post(api_alice, f"/api/v1/campaigns/{pk}/battles/", {
        "list": a, "opponent": b, "battle": {**WON, "opponent_rating": 500}}).status_code == 201
    assert "opponent_rating" not in CampaignBattle.objects.get().first_side


def test_someone_outside_the_campaign_finds_nothing(django_user_model, campaign):
    from rest_framework.test import APIClient
    pk, a, b = campaign
    carol = APIClient()
    carol.force_authenticate(django_user_model.objects.create_user("carol", password="x"))
    assert error_of(carol.get(f"/api/v1/campaigns/{pk}/"), 404)["message"] == "No such campaign."
    assert error_of(post(carol, f"/api/v1/campaigns/{pk}/battles/", {"list": a, "opponent": b, "battle": WON}),
                    404)["message"] == "No such campaign."
    assert carol.get("/api/v1/campaigns/").json() == []
