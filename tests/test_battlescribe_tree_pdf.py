"""Exploration."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from tests.test_battlescribe_site_tree import GENERAL, T9A, dwarves, imported  # noqa: F401

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]
RUNIC_ITEMS = "sel-4979-45c3-0009-3afd"


def test_explore(dwarves, api_alice, client):
    king = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json").json()["unit"]
    url = f"/lists/{dwarves.pk}/units/{king['id']}/"
    assert client.post(url, {"revision": 2, "only": f"sel-{GENERAL}", f"sel-{GENERAL}": "on"}).status_code == 302
    assert client.post(url, {"revision": 3, "only": RUNIC_ITEMS, RUNIC_ITEMS: "on"}).status_code == 302
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    rune = re.search(r'name="(sel-[^"]*8bfb-fbc9-b4bb-25d1)"', page).group(1)
    assert client.post(url, {"revision": 4, "only": rune, rune: "on"}).status_code == 302
    for name in ("Thane", "Cannon", "Clan Marksmen", "Seekers"):
        r = api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": name}, format="json")
        print(name, r.status_code)
    pdf = client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=full").content
    open("/tmp/treepdf/dwarves.pdf", "wb").write(pdf)
    for p in PdfReader(io.BytesIO(pdf)).pages:
        print(p.extract_text())
    dwarves.refresh_from_db()
    import json
    open("/tmp/treepdf/dwarves.json", "w").write(json.dumps(dwarves.document))
