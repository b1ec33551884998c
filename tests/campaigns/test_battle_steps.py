"""The campaign page a step at a time (armylists/campaigns/pages.py, forms.STEPS): each step its own form,
the other steps' answers carried along, a preview of the battle so far after each step rolled from the
page's seed (so what is recorded is what was shown), Back without losing anything, with and without htmx."""
from __future__ import annotations

import re

import pytest

from armylists.campaigns.forms import STEP_NAMES

pytestmark = pytest.mark.django_db

UNITS = ["captain", "champion", "youngblood", "warriors", "marksmen", "youngblood-2"]
SEED = 4141


@pytest.fixture
def warband(stored_warband):
    return stored_warband


def answers(**extra):
    """Every step's answers as the page carries them: all fought, the Champion out of action."""
    data = {"revision": 1, "seed": SEED, "result": "won", "champion-ooa": "on", "captain-kills": "1"}
    for uid in UNITS:
        data[f"{uid}-fought"] = "on"
    data.update(extra)
    return data


def step(client, warband, shown, go="next", **data):
    return client.post(f"/lists/{warband.pk}/campaign/", {**answers(**data), "step": shown, "go": go})


def shown_step(response) -> str:
    return re.search(r'<input type="hidden" name="step" value="([a-z]+)">', response.content.decode()).group(1)


def preview(response) -> list[str]:
    part = response.content.decode().split('id="battle-preview"')[1]
    return re.findall(r"<li>(.*?)</li>", part.split("</ol>")[0])


def test_the_first_step_carries_a_seed_and_names_every_step(client_alice, warband):
    text = client_alice.get(f"/lists/{warband.pk}/campaign/").content.decode()
    assert re.search(r'<input type="hidden" name="seed" value="\d+"', text)
    assert '<li aria-current="step" class="current">The result and who fought</li>' in text
    assert [s for s in re.findall(r"<li(?: [^>]*)?>([A-Z][^<]+)</li>", text)][:7] == [
        "The result and who fought", "Serious injuries", "Experience and advances", "Exploration", "Selling shards",
        "Buying and rarity rolls", "The battle, to record"]


def test_next_goes_through_every_step_in_the_rulebooks_order(client_alice, warband):
    for shown, after in zip(STEP_NAMES, STEP_NAMES[1:]):
        response = step(client_alice, warband, shown, **{"champion-injury": "23 2", "exploration_dice": "4 4 1 2"})
        assert (response.status_code, shown_step(response)) == (200, after)
    warband.refresh_from_db()
    assert warband.revision == 1  # nothing saved by a step


def test_the_injuries_step_asks_the_warriors_out_of_action_and_previews_their_dice(client_alice, warband):
    response = step(client_alice, warband, "result")
    text = response.content.decode()
    assert shown_step(response) == "injuries" and "Champion · champion: injury dice" in text
    assert "Mercenary Captain · captain: injury dice" not in text  # he stood
    response = step(client_alice, warband, "injuries", **{"champion-injury": "23 2"})
    assert shown_step(response) == "experience"
    assert ("Champion (champion) out of action: D66 23, Arm wound; D6 2: Light arm wound, misses the next game."
            in preview(response))


def test_injury_dice_that_do_not_read_stay_at_their_step_with_why(client_alice, warband):
    response = step(client_alice, warband, "injuries", **{"champion-injury": "twenty"})
    assert (response.status_code, shown_step(response)) == (400, "injuries")
    assert "Write the dice as numbers, the D66 first (23 2)." in response.content.decode()


def test_dice_not_needed_stay_at_the_step_with_why(client_alice, warband):
    response = step(client_alice, warband, "exploration", exploration_dice="1 2 3 4 5 6")
    assert (response.status_code, shown_step(response)) == (400, "exploration")
    assert "rolls.exploration: entered dice [5, 6] were not needed" in response.content.decode()


def test_back_keeps_every_answer(client_alice, warband):
    response = step(client_alice, warband, "exploration", go="back", **{"champion-injury": "23 2",
                                                                        "exploration_dice": "4 4 1 2"})
    text = response.content.decode()
    assert (response.status_code, shown_step(response)) == (200, "experience")
    assert '<input type="hidden" name="champion-injury" value="23 2"' in text
    assert '<input type="hidden" name="exploration_dice" value="4 4 1 2"' in text
    assert '<input type="hidden" name="result" value="won"' in text


def test_what_is_recorded_is_what_the_review_showed(client_alice, warband):
    """No die entered: the site rolls every one from the page's seed, in the preview and in the record."""
    review = step(client_alice, warband, "buying")
    assert shown_step(review) == "review" and 'id="record-battle"' in review.content.decode()
    shown = preview(review)
    response = step(client_alice, warband, "review", go="record")
    assert response.status_code == 302
    warband.refresh_from_db()
    battle = warband.document["campaign"]["battles"][0]
    assert (battle["seed"], battle["log"]) == (SEED, shown)


def test_a_step_with_htmx_answers_the_panel(client_alice, warband):
    response = client_alice.post(f"/lists/{warband.pk}/campaign/", {**answers(), "step": "result", "go": "next"},
                                 HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text and 'id="step-injuries"' in text
