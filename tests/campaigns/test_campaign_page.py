"""The campaign page (armylists/campaigns/pages.py): a battle recorded from the form, with and without
htmx, its log shown, bad input re-shown with why, the last battle undone."""
from __future__ import annotations

import pytest

from armylists.models import ArmyList
from armylists.rules import parse_roster, validate

pytestmark = pytest.mark.django_db

UNITS = ["captain", "champion", "youngblood", "warriors", "marksmen", "youngblood-2"]


@pytest.fixture
def warband(stored_warband):
    return stored_warband


def form(revision, **extra):
    data = {"revision": revision, "result": "won", "exploration_dice": "2 2 5 6 1"}
    for uid in UNITS:
        data[f"{uid}-fought"] = "on"
    data.update(extra)
    return data


def test_the_page_shows_the_warband_and_the_form(client_alice, warband):
    response = client_alice.get(f"/lists/{warband.pk}/campaign/")
    assert response.status_code == 200
    text = response.content.decode()
    assert 'id="campaign-rating">88<' in text and 'id="step-result"><h3>1. The result and who fought</h3>' in text
    assert 'id="step-next"' in text and 'id="record-battle"' not in text  # one step at a time (test_battle_steps.py)
    assert "Mercenary Captain · captain" in text and "Warriors (5) · warriors" in text
    assert '<a href="/campaigns/" id="campaigns-link">' in text  # a campaign of several players (league_pages.py)


def test_a_battle_from_the_form_is_saved_and_redirects(client_alice, warband):
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", form(1, **{"captain-kills": "1"}))
    assert response.status_code == 302 and response["Location"] == f"/lists/{warband.pk}/campaign/"
    warband.refresh_from_db()
    battle = warband.document["campaign"]["battles"][0]
    assert (warband.revision, battle["result"], battle["exploration"]) == (
        2, "won", {"dice": [2, 2, 5, 6, 1], "result": "shop"})
    assert battle["experience"]["captain"] == 3
    page = client_alice.get(f"/lists/{warband.pk}/campaign/").content.decode()
    assert "Battle 1: won" in page and "Exploration: 5 dice, 2 2 5 6 1 = 16: 3 shards; Shop (twos x2)." in page


def test_with_htmx_it_answers_the_panel(client_alice, warband):
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", form(1), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    text = response.content.decode()
    assert "<html" not in text and 'id="battle-log"' in text and 'id="campaign-battles">1 (1 won)<' in text


def test_bad_dice_are_shown_with_why_and_nothing_is_saved(client_alice, warband):
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", form(1, exploration_dice="7 7"))
    assert response.status_code == 400
    assert "Write the dice as numbers 1 to 6" in response.content.decode()
    warband.refresh_from_db()
    assert warband.revision == 1


def test_too_few_dice_is_shown_with_why(client_alice, warband):
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", form(1, exploration_dice="1 2 3 4 5 6"))
    assert response.status_code == 400
    assert "rolls.exploration: entered dice [6] were not needed" in response.content.decode()


def test_a_stale_form_is_409_and_saves_nothing(client_alice, warband):
    client_alice.post(f"/lists/{warband.pk}/campaign/", form(1))
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", form(1))
    assert response.status_code == 409
    assert "changed in another window" in response.content.decode()
    warband.refresh_from_db()
    assert len(warband.document["campaign"]["battles"]) == 1


def test_undo_takes_the_last_battle_back(client_alice, warband):
    client_alice.post(f"/lists/{warband.pk}/campaign/", form(1))
    response = client_alice.post(f"/lists/{warband.pk}/campaign/undo/", {"revision": 2})
    assert response.status_code == 302
    warband.refresh_from_db()
    assert "campaign" not in warband.document and warband.revision == 3


def test_someone_elses_warband_is_404(client, bob, warband):
    client.force_login(bob)
    assert client.get(f"/lists/{warband.pk}/campaign/").status_code == 404


def test_a_list_of_another_game_is_told_plainly(client_alice, alice, legal_document, library):
    roster = parse_roster(legal_document)
    army_list = ArmyList(owner=alice)
    army_list.set_document(roster, validate(library.book(roster.system, roster.book, roster.book_version), roster))
    army_list.save()
    response = client_alice.get(f"/lists/{army_list.pk}/campaign/")
    assert response.status_code == 400 and "keeps no campaign" in response.content.decode()


def test_dice_rolled_at_the_table_are_used(client_alice, warband):
    data = form(1, exploration_dice="1 2 3 4", table_dice="injury:champion 23 2\n",
                **{"champion-ooa": "on"})
    assert client_alice.post(f"/lists/{warband.pk}/campaign/", data).status_code == 302
    warband.refresh_from_db()
    assert warband.document["campaign"]["warriors"]["champion"]["injuries"][0] == {
        "id": "arm-wound", "roll": 23, "follow_up": "arm-mends", "battle": 1}


def test_table_dice_that_do_not_read_are_shown_with_why(client_alice, warband):
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", form(1, table_dice="champion hurt"))
    assert response.status_code == 400
    assert "Line 1: write the step and the warrior, then the dice" in response.content.decode()


def test_the_list_page_links_a_warbands_campaign_and_no_other_lists(client_alice, alice, warband, legal_document,
                                                                    library):
    assert f'href="/lists/{warband.pk}/campaign/" id="campaign-link"' in \
        client_alice.get(f"/lists/{warband.pk}/").content.decode()
    roster = parse_roster(legal_document)
    other = ArmyList(owner=alice)
    other.set_document(roster, validate(library.book(roster.system, roster.book, roster.book_version), roster))
    other.save()
    assert "campaign-link" not in client_alice.get(f"/lists/{other.pk}/").content.decode()
