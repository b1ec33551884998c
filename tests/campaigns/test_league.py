"""A campaign of several players (armylists/campaigns/league.py, league_pages.py; issue 41 item 5): created,
joined with its code, warbands entered, a battle recorded once for both warbands (pending until the
second player confirms; a refusal or a contradicting result said), standings, and their CSV and PDF."""
from __future__ import annotations

import csv
import io

import pytest
from pypdf import PdfReader

from armylists.campaigns import league
from armylists.campaigns.models import Campaign, CampaignBattle
from armylists.models import ArmyList
from armylists.rules import parse_roster, validate
from tests.campaigns.conftest import WARBAND

pytestmark = pytest.mark.django_db

UNITS = ["captain", "champion", "youngblood", "warriors", "marksmen", "youngblood-2"]
EVERYONE = {uid: {} for uid in UNITS}
# Exploration: a die per hero who fought and was not put out of action (four), one more for the winner
# (mordheim-campaign.md section 4); entered, so no battle here is rolled by the site.
DICE = {"won": [1, 1, 2, 3, 4], "lost": [1, 1, 2, 3], "draw": [1, 1, 2, 3]}


def body(result, models=None, **extra):
    return {"result": result, "models": EVERYONE if models is None else models,
            "rolls": {"exploration": DICE[result]}, **extra}


def _warband(owner, library, name):
    doc = dict(WARBAND, name=name)
    roster = parse_roster(doc)
    army_list = ArmyList(owner=owner)
    army_list.set_document(roster, validate(library.book("mordheim", "reikland-mercenaries", "1999.2"), roster))
    army_list.save()
    return army_list


@pytest.fixture
def client_bob(client, bob):
    from django.test import Client
    other = Client()
    other.force_login(bob)
    return other


@pytest.fixture
def setup(alice, bob, library):
    """A campaign Alice runs, with her warband "Reiklanders" and Bob's "Marienburgers" entered."""
    campaign = league.create_campaign(alice, "Autumn in Mordheim")
    a = league.enter_warband(campaign, alice, _warband(alice, library, "Reiklanders"))
    b = league.enter_warband(campaign, bob, _warband(bob, library, "Marienburgers"))
    return campaign, a, b


def side(result, **extra):
    """A side as the battle form posts it: everybody fought, five exploration dice entered (no site roll)."""
    data = {"result": result, "exploration_dice": "2 2 5 6 1"}
    for uid in UNITS:
        data[f"{uid}-fought"] = "on"
    data.update(extra)
    return data


# --- creating and joining ------------------------------------------------------------------------

def test_anyone_creates_a_campaign_and_is_shown_its_code(client_alice, alice):
    response = client_alice.post("/campaigns/", {"name": "  Autumn  "})
    campaign = Campaign.objects.get()
    assert (response.status_code, response["Location"]) == (302, f"/campaigns/{campaign.pk}/")
    assert (campaign.name, campaign.owner, len(campaign.join_code)) == ("Autumn", alice, 10)
    page = client_alice.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'<code id="join-code">{campaign.join_code}</code>' in page
    assert "Autumn is created; its join code is" in page


def test_a_campaign_without_a_name_is_refused(client_alice):
    response = client_alice.post("/campaigns/", {"name": "   "})
    assert response.status_code == 400 and Campaign.objects.count() == 0


def test_a_player_joins_with_the_code_and_their_warband(client_alice, client_bob, alice, bob, library):
    campaign = league.create_campaign(alice, "Autumn")
    mine = _warband(bob, library, "Marienburgers")
    response = client_bob.post("/campaigns/join/", {"code": campaign.join_code.upper(), "army_list": mine.pk})
    assert (response.status_code, response["Location"]) == (302, f"/campaigns/{campaign.pk}/")
    assert [(w.player, w.army_list) for w in campaign.warbands.all()] == [(bob, mine)]
    assert "Marienburgers" in client_bob.get(f"/campaigns/{campaign.pk}/").content.decode()


def test_a_wrong_code_is_said_and_joins_nothing(client_bob, alice, bob, library):
    campaign = league.create_campaign(alice, "Autumn")
    mine = _warband(bob, library, "Marienburgers")
    response = client_bob.post("/campaigns/join/", {"code": "zzzzzzzzzz", "army_list": mine.pk})
    assert response.status_code == 400
    assert "No campaign has that join code" in response.content.decode()
    assert campaign.warbands.count() == 0


def test_another_players_list_is_not_a_choice(client_bob, alice, library):
    campaign = league.create_campaign(alice, "Autumn")
    hers = _warband(alice, library, "Reiklanders")
    response = client_bob.post("/campaigns/join/", {"code": campaign.join_code, "army_list": hers.pk})
    assert response.status_code == 400 and "Choose one of your Mordheim warbands." in response.content.decode()


def test_a_list_of_another_game_is_not_entered(alice, legal_document, library):
    roster = parse_roster(legal_document)
    other = ArmyList(owner=alice)
    other.set_document(roster, validate(library.book(roster.system, roster.book, roster.book_version), roster))
    other.save()
    campaign = league.create_campaign(alice, "Autumn")
    with pytest.raises(league.CampaignError, match="Battles are recorded for Mordheim warbands of our books"):
        league.enter_warband(campaign, alice, other)


def test_a_warband_is_entered_once(setup, alice):
    campaign, a, _ = setup
    with pytest.raises(league.CampaignError, match="“Reiklanders” is already in Autumn in Mordheim."):
        league.enter_warband(campaign, alice, a.army_list)


def test_who_is_not_in_the_campaign_finds_nothing(client, django_user_model, setup):
    campaign, _, _ = setup
    client.force_login(django_user_model.objects.create_user("carol", password="x"))
    for path in ("", "standings.csv", "standings.pdf"):
        assert client.get(f"/campaigns/{campaign.pk}/{path}").status_code == 404


# --- a battle for both --------------------------------------------------------------------------

def test_a_battle_is_pending_until_the_other_side_confirms_then_recorded_for_both(client_alice, client_bob, setup):
    campaign, a, b = setup
    response = client_alice.post(f"/campaigns/{campaign.pk}/warbands/{a.pk}/battle/",
                                 side("won", opponent=b.pk, **{"captain-kills": "1"}))
    assert response.status_code == 302
    battle = CampaignBattle.objects.get()
    assert (battle.status, battle.first, battle.second) == ("pending", a, b)
    a.army_list.refresh_from_db()
    assert a.army_list.revision == 1  # nothing applied while pending
    page = client_bob.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Reiklanders won against Marienburgers" in page and f'id="confirm-{battle.pk}"' in page
    assert f'id="confirm-{battle.pk}"' not in client_alice.get(f"/campaigns/{campaign.pk}/").content.decode()

    form = client_bob.get(f"/campaigns/{campaign.pk}/battles/{battle.pk}/confirm/").content.decode()
    assert 'value="lost" required id="id_result_1" checked' in form  # the other side's result, proposed
    # the winner rolls one exploration die more (mordheim-campaign.md section 4): the loser's four
    response = client_bob.post(f"/campaigns/{campaign.pk}/battles/{battle.pk}/confirm/",
                               side("lost", exploration_dice="2 2 5 6"))
    assert response.status_code == 302
    battle.refresh_from_db()
    a.army_list.refresh_from_db()
    b.army_list.refresh_from_db()
    assert (battle.status, battle.first_revision, battle.second_revision) == ("recorded", 2, 2)
    ours, theirs = a.army_list.document["campaign"]["battles"][0], b.army_list.document["campaign"]["battles"][0]
    assert (ours["result"], theirs["result"]) == ("won", "lost")
    assert (ours["experience"]["captain"], theirs["experience"]["captain"]) == (3, 1)  # survived, leader won, 1 ooa
    assert (ours["opponent_rating"], theirs["opponent_rating"]) == (88, 88)  # each the other's rating before


def rating(army_list, library) -> int:
    army_list.refresh_from_db()
    roster = parse_roster(army_list.document)
    return validate(library.book(roster.system, roster.book, roster.book_version), roster).figures["rating"]


def test_the_underdog_reads_the_other_warbands_rating(setup, alice, bob, library):
    """Bob's warband 60 below Alice's: his survivors gain 1 (the 51-75 band, mordheim-campaign.md section 7)."""
    campaign, a, b = setup
    doc = a.army_list.document
    captain = next(u for u in doc["units"] if u["id"] == "captain")
    captain["experience"] = captain.get("experience", 20) + 60  # a captain starts with 20 (1999.2 book)
    a.army_list.document = doc
    a.army_list.save()
    assert (rating(a.army_list, library), rating(b.army_list, library)) == (148, 88)
    battle = league.enter_battle(campaign, alice, a, b, body("won"))
    league.confirm_battle(battle, bob, body("lost"))
    b.army_list.refresh_from_db()
    record = b.army_list.document["campaign"]["battles"][0]
    assert (record["rating"], record["opponent_rating"], record["experience"]["captain"]) == (88, 148, 2)
    assert "underdog, 60 below" in " ".join(record["log"])
    a.army_list.refresh_from_db()
    assert a.army_list.document["campaign"]["battles"][0]["opponent_rating"] == 88


def test_a_contradicting_result_is_said_to_both_and_records_nothing(client_alice, client_bob, setup):
    campaign, a, b = setup
    client_alice.post(f"/campaigns/{campaign.pk}/warbands/{a.pk}/battle/", side("won", opponent=b.pk))
    battle = CampaignBattle.objects.get()
    response = client_bob.post(f"/campaigns/{campaign.pk}/battles/{battle.pk}/confirm/", side("won"))
    assert response.status_code == 409
    assert ("Reiklanders entered a win, so this battle is a loss for Marienburgers, not a win. Nothing was recorded."
            in response.content.decode())
    battle.refresh_from_db()
    b.army_list.refresh_from_db()
    assert (battle.status, b.army_list.revision) == ("pending", 1)
    assert ("Marienburgers entered a win, but Reiklanders entered a win: one of you must change it"
            in client_alice.get(f"/campaigns/{campaign.pk}/").content.decode())


def test_a_draw_agrees_with_a_draw(setup, alice, bob):
    campaign, a, b = setup
    battle = league.enter_battle(campaign, alice, a, b, body("draw"))
    with pytest.raises(league.CampaignError, match="this battle is a draw for Marienburgers, not a loss"):
        league.confirm_battle(battle, bob, body("lost"))
    assert league.confirm_battle(battle, bob, body("draw")).status == "recorded"


def test_a_refusal_is_said_and_records_nothing(client_alice, client_bob, setup):
    campaign, a, b = setup
    client_alice.post(f"/campaigns/{campaign.pk}/warbands/{a.pk}/battle/", side("won", opponent=b.pk))
    battle = CampaignBattle.objects.get()
    response = client_bob.post(f"/campaigns/{campaign.pk}/battles/{battle.pk}/refuse/", {"why": "we never played"})
    assert response.status_code == 302
    battle.refresh_from_db()
    assert (battle.status, battle.note) == ("refused", "Refused by Marienburgers's player: we never played")
    assert "Refused by Marienburgers&#x27;s player: we never played" in \
        client_alice.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert client_bob.post(f"/campaigns/{campaign.pk}/battles/{battle.pk}/confirm/", side("lost")).status_code == 400
    a.army_list.refresh_from_db()
    assert a.army_list.revision == 1


def test_the_player_who_entered_it_cannot_confirm_the_other_side(setup, alice):
    campaign, a, b = setup
    battle = league.enter_battle(campaign, alice, a, b, {"result": "won", "models": {}})
    with pytest.raises(league.CampaignError, match="Only the other warband's player confirms this battle."):
        league.confirm_battle(battle, alice, {"result": "lost", "models": {}})


def test_a_side_naming_a_unit_the_warband_has_not_is_refused_when_entered(setup, alice):
    campaign, a, b = setup
    with pytest.raises(league.CampaignError, match=r"Reiklanders: is no unit of this warband \(captain, champion"):
        league.enter_battle(campaign, alice, a, b, {"result": "won", "models": {"ogre": {}}})
    assert CampaignBattle.objects.count() == 0


def test_a_warband_does_not_fight_itself_nor_enter_for_another_player(setup, alice, bob):
    campaign, a, b = setup
    with pytest.raises(league.CampaignError, match="A warband does not fight itself"):
        league.enter_battle(campaign, alice, a, a, {"result": "won", "models": {}})
    with pytest.raises(league.CampaignError, match="You enter a battle for one of your own warbands."):
        league.enter_battle(campaign, bob, a, b, {"result": "won", "models": {}})


def test_a_side_that_fails_on_confirmation_applies_to_neither_warband(setup, alice, bob):
    """Both warbands change in one transaction: the second side's failure leaves the first unchanged."""
    campaign, a, b = setup
    battle = league.enter_battle(campaign, alice, a, b, body("won"))
    with pytest.raises(league.CampaignError, match=r"Marienburgers: entered dice \[5\] were not needed"):
        league.confirm_battle(battle, bob, body("lost", rolls={"exploration": [1, 2, 3, 4, 5]}))
    a.army_list.refresh_from_db()
    assert a.army_list.revision == 1 and CampaignBattle.objects.get().status == "pending"


# --- standings ----------------------------------------------------------------------------------

def _recorded(setup, alice, bob, result="won"):
    campaign, a, b = setup
    battle = league.enter_battle(campaign, alice, a, b, body(result))
    league.confirm_battle(battle, bob, body(league.OPPOSITE[result]))
    return campaign


def test_standings_count_recorded_battles_only(setup, alice, bob, library):
    campaign = _recorded(setup, alice, bob)
    league.enter_battle(campaign, alice, setup[1], setup[2], {"result": "won", "models": {}})  # pending: not counted
    rows = league.standings(campaign)
    assert [(r.place, r.player, r.warband, r.battles, r.won, r.drawn, r.lost) for r in rows] == [
        (1, "alice", "Reiklanders", 1, 1, 0, 0), (2, "bob", "Marienburgers", 1, 0, 0, 1)]
    a, b = (ArmyList.objects.get(pk=r.list_id) for r in rows)
    assert [r.gold for r in rows] == [a.document["campaign"]["treasury"], b.document["campaign"]["treasury"]]
    assert [r.rating for r in rows] == [rating(a, library), rating(b, library)] == [101, 100]


def test_equal_wins_and_rating_share_a_place(setup, alice, bob):
    campaign = _recorded(setup, alice, bob, "draw")
    assert [(r.place, r.drawn) for r in league.standings(campaign)] == [(1, 1), (1, 1)]


def test_the_standings_csv(client_alice, setup, alice, bob):
    campaign = _recorded(setup, alice, bob)
    response = client_alice.get(f"/campaigns/{campaign.pk}/standings.csv")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    stored = [ArmyList.objects.get(name=name).document["campaign"] for name in ("Reiklanders", "Marienburgers")]
    gold, shards = [str(c["treasury"]) for c in stored], [str(c["wyrdstone"]) for c in stored]
    assert rows == [list(league.STANDING_COLUMNS),
                    ["1", "alice", "Reiklanders", "Reikland Mercenaries", "101", "1", "1", "0", "0", gold[0], shards[0]],
                    ["2", "bob", "Marienburgers", "Reikland Mercenaries", "100", "1", "0", "0", "1", gold[1], shards[1]]]


def test_the_standings_pdf(client_bob, setup, alice, bob):
    campaign = _recorded(setup, alice, bob)
    response = client_bob.get(f"/campaigns/{campaign.pk}/standings.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Autumn in Mordheim: standings" in text
    assert "2 warbands · 1 battle recorded · run by alice" in text
    gold = [r.gold for r in league.standings(campaign)]
    assert f"1 alice Reiklanders Reikland Mercenaries 101 1 1-0-0 {gold[0]} gc" in text
    assert f"2 bob Marienburgers Reikland Mercenaries 100 1 0-0-1 {gold[1]} gc" in text
    assert reader.metadata.title == "Autumn in Mordheim: standings"


def test_a_confirmation_racing_another_records_nothing_more(setup, alice, bob, monkeypatch):
    """Two confirmations at once (two windows): the one that finds the battle decided when it writes rolls
    both warbands back; each warband keeps one battle."""
    campaign, a, b = setup
    battle = league.enter_battle(campaign, alice, a, b, body("won"))
    real = league.record_battle
    calls = []

    def and_meanwhile(army_list, *args, **kwargs):
        calls.append(army_list.pk)
        if len(calls) == 2:  # the other window's confirmation lands between this one's two warbands
            CampaignBattle.objects.filter(pk=battle.pk).update(status=CampaignBattle.RECORDED)
        return real(army_list, *args, **kwargs)

    monkeypatch.setattr(league, "record_battle", and_meanwhile)
    with pytest.raises(league.CampaignError, match="This battle was decided meanwhile"):
        league.confirm_battle(battle, bob, body("lost"))
    a.army_list.refresh_from_db()
    b.army_list.refresh_from_db()
    assert (a.army_list.revision, b.army_list.revision) == (1, 1)


def test_an_opponent_outside_the_choices_is_400_with_why(client_alice, setup):
    campaign, a, _ = setup
    response = client_alice.post(f"/campaigns/{campaign.pk}/warbands/{a.pk}/battle/", side("won", opponent=a.pk))
    assert response.status_code == 400 and "Choose a warband of this campaign." in response.content.decode()
    assert CampaignBattle.objects.count() == 0


def test_a_battle_is_entered_only_for_ones_own_warband(client_alice, setup):
    campaign, a, b = setup
    assert client_alice.get(f"/campaigns/{campaign.pk}/warbands/{b.pk}/battle/").status_code == 404
    assert client_alice.get(f"/campaigns/{campaign.pk}/warbands/{a.pk}/battle/").status_code == 200
