"""No missing glyphs on a roster tree's PDF (issue 40 item 5): the data writes characters the embedded
Vera fonts lack (bullets in a rune's effect, 2nd-dwarvenHolds.cat:2473-2474; inch marks, a zero-width
space), printed as the nearest character the fonts have rather than as an empty box."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from armylists.exports.pdf_style import _covered, printable
from armylists.models import ArmyList
from tests.battlescribe.test_battlescribe_site_tree import BOOK, SYSTEM, T9A, VERSION, import_dwarven_holds

pytestmark = pytest.mark.django_db


@pytest.fixture
def dwarves(client, alice):
    """The Dwarven Holds data imported (from ../shared), and a new list of it: only for the test that prints one."""
    import_dwarven_holds()
    client.force_login(alice)
    made = client.post("/lists/new/", {"name": "Hold", "book": f"{SYSTEM}/{BOOK}/{VERSION}", "points_limit": "2000"})
    assert made.status_code == 302
    return ArmyList.objects.get(owner=alice)

RUNIC_ITEMS = "sel-4979-45c3-0009-3afd"          # the King's "Runic Special Items"
RUNE_OF_IRON = "1b0c-a4c6-be7f-037c"             # 2nd-dwarvenHolds.cat:2464, its effect a bulleted list


def test_a_character_the_fonts_lack_becomes_the_nearest_they_have():
    assert printable("+6\u2032\u2032, max. 18\u2033") == "+6'', max. 18\""
    assert printable("\u25cf A single Rune") == "\u2022 A single Rune"
    assert printable("\u200bAdd one") == "Add one"           # a zero-width space prints as nothing
    assert printable("Zo\u00eb \u00d7 \u2264") == "Zo\u00eb \u00d7 \u2264"   # what the fonts have stays
    assert printable("\u2981 \u2600") == "\u2022 ?"          # a bullet's look-alike, and what has no likeness
    assert all(ord(c) in _covered() for c in printable("\u2756\u2010\u2044\u2192\ufffd\x9d"))


@pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")
def test_the_tree_pdf_prints_the_datas_bullets_in_characters_its_fonts_have(dwarves, api_alice, client):
    answer = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json")
    assert answer.status_code == 201
    king = answer.json()["unit"]["id"]
    for field, value in ((RUNIC_ITEMS, "on"), (None, "1")):  # the rune is taken up to twice: a number
        dwarves.refresh_from_db()
        page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
        name = field or re.search(rf'name="(sel-[^"]*{RUNE_OF_IRON})"', page).group(1)
        done = client.post(f"/lists/{dwarves.pk}/units/{king}/", {"revision": dwarves.revision, "only": name,
                                                                   name: value})
        assert done.status_code == 302
    pdf = client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=full").content
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Rune of Iron" in text
    assert "\u2022 A single Rune of Iron gains +1 Armour.\u2022 Two or more Runes of Iron gains +2 Armour." in text
    assert "\u25cf" not in text
