"""A unit's card in the editor: its profile, its choices' costs and its roles, in the words a player reads."""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from ..conftest import EXAMPLES
from .conftest import make_list

pytestmark = pytest.mark.django_db


def card(client, army_list, unit_id: str) -> str:
    """The HTML of one unit's card on the editor page, up to the next unit's <details>."""
    content = client.get(reverse("list-edit", args=[army_list.pk]), {"unit": unit_id}).content.decode()
    start = content.index(f'id="unit-{unit_id}"')
    end = content.find('<details class="unit', start)
    return content[start:end if end > 0 else len(content)]


def costs(html: str) -> dict[str, str]:
    """Each choice's name -> its cost as the card shows it."""
    return dict(re.findall(r'<span class="choice-name">([^<]+)</span> <span class="cost">([^<]+)</span>', html))


@pytest.fixture
def warband(alice):
    document = json.loads((EXAMPLES / "witch-hunters-legal.json").read_text())
    document["units"][0]["general"] = True
    return make_list(alice, document)


class TestProfile:
    def test_a_mounted_characters_table_has_no_column_of_flags(self, client_alice, alice_list):
        # The Marshal on Horse: the horse's profile is flagged `mount: true` in the data, which is no characteristic.
        html = card(client_alice, alice_list, "marshal")
        head = re.search(r"<thead>(.*?)</thead>", html).group(1)
        assert re.findall(r'<th scope="col">([^<]+)</th>', head) == \
            ["Profile", "M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"]
        assert "True" not in html
        assert "<tr><th scope=\"row\">Horse</th><td>8</td><td>3</td><td>-</td><td>3</td><td>3</td><td>1</td>" \
               "<td>3</td><td>1</td><td>3</td></tr>" in html


class TestCosts:
    def test_a_single_heros_equipment_is_not_priced_per_model(self, client_alice, warband):
        captain = costs(card(client_alice, warband, "captain"))
        assert captain["Pistol"] == "+15 gc"
        assert captain["Sword"] == "+10 gc"
        assert "per model" not in card(client_alice, warband, "captain")

    def test_a_group_of_henchmen_pays_for_every_model(self, client_alice, warband):
        assert costs(card(client_alice, warband, "zealots"))["Sword"] == "+10 gc per model"


class TestRoles:
    def test_mordheims_leader_is_called_by_its_own_word(self, client_alice, warband):
        html = card(client_alice, warband, "captain")
        assert '<span class="unit-roles"><span class="tag">Leader</span></span>' in html
        assert 'title="The army&#x27;s Leader; choosing it here takes it from any other unit."' in html
        assert '<span class="choice-name">Leader</span>' in html
        assert "General" not in html

    def test_an_old_world_or_t9a_general_stays_the_general(self, client_alice, alice_list):
        html = card(client_alice, alice_list, "marshal")
        assert '<span class="unit-roles"><span class="tag">General</span>' in html
        assert '<span class="choice-name">General</span>' in html
