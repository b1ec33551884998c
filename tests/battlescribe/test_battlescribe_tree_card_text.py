"""A unit card of a roster tree keeps the line breaks of the data's texts (issue 22 item 1): the Rune of
Iron's effect is two bulleted lines (2nd-dwarvenHolds.cat:2469-2474, "...engraved with\\n● A single Rune
of Iron gains +1 Armour.\\n● Two or more..."), which ran together in one line of the card's table (seen
by tests/browser/test_imported_dwarven_holds.py at 390 px)."""
from __future__ import annotations

import re

import pytest

from tests.battlescribe.test_battlescribe_site_tree import T9A, dwarves, imported  # noqa: F401
from tests.battlescribe.test_battlescribe_tree_cards import RUNIC_ITEMS

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]

RUNE_OF_IRON = "1b0c-a4c6-be7f-037c"


def test_a_profile_value_on_several_lines_keeps_them_on_the_card(dwarves, api_alice, client):
    king = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json").json()["unit"]
    url = f"/lists/{dwarves.pk}/units/{king['id']}/"
    assert client.post(url, {"revision": 2, "only": RUNIC_ITEMS, RUNIC_ITEMS: "on"}).status_code == 302
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    iron = re.search(rf'name="(sel-[^"]*{RUNE_OF_IRON})"', page).group(1)   # a box: at most 2 of it
    assert client.post(url, {"revision": 3, "only": iron, iron: "1"}).status_code == 302
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    assert ('<tr><th scope="row">Rune of Iron</th><td>Suit of Armour Enchantment</td><td>The wearer of an armour '
            'engraved with<br>● A single Rune of Iron gains +1 Armour.<br>● Two or more Runes of Iron gains +2 Armour.'
            '</td></tr>') in page
