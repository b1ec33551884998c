"""A Dwarven Holds 4500 list of New Recruit's T9A data built to legal on the site (issue 40 items 5 and 6):
made with the new-list form, its units added through the API with their sizes, the King's choices set with
the editor's unit form; then its tournament text read back to the same list, and its PDF read with pypdf
(its pages, none near empty, every unit's profile). Dwarven Holds at the bundle's head (b543015), read from
../shared/external/new-recruit-t9a at run time."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from armylists.models import ArmyList

from tests.importers.nr_summaries import LATER, needs_data, store
from tests.importers.test_nr_t9a_prices import books

pytestmark = [needs_data, pytest.mark.django_db]
# (entry, size): 4,495 pts as added with these sizes, the King as below
UNITS = [("king", None), ("thane", None), ("runic-smith", None), ("clan-warriors", 30), ("clan-warriors", 30),
         ("clan-warriors", 30), ("clan-marksmen", 10), ("greybeards", 10), ("greybeards", 10), ("kings-guard", 15),
         ("kings-guard", 15), ("hold-guardians", 3), ("hold-guardians", 3), ("field-artillery", None),
         ("field-artillery", None), ("seekers", 10), ("seekers", 10), ("miners", 10), ("forge-wardens", 10),
         ("rangers", 10), ("steam-copters", None)]
# The King: Shield Bearers (80) rather than Light Troops in its group, Ancient Grudge (40), a Rune of Steel (50)
KING = {"grp-g1": "shield-bearers", "opt-ancient-grudge-1": "1", "opt-rune-of-steel": "1"}
FOOTER = re.compile(r"Holds · checksum \S+ \S+ page \d+ of \d+")


def units(army: ArmyList, book) -> list:
    """The list's units as (entry, size, options, General); a size not written is the entry's smallest."""
    return sorted((u["entry"], u.get("size") or book.entries[u["entry"]].size_min,
                   sorted((u.get("options") or {}).items()), bool(u.get("general"))) for u in army.document["units"])


def test_a_dwarven_holds_4500_list_is_built_to_legal_and_its_text_and_pdf_say_the_same_list(client_alice, api_alice):
    store(LATER, "dh.json")
    book = books("dh")["dh"]
    made = client_alice.post("/lists/new/", {"name": "Holds", "book": f"t9a-2/{book.id}/{book.version}",
                                             "points_limit": "4500"})
    assert made.status_code == 302
    army = ArmyList.objects.get(name="Holds")
    ids = {}
    for entry, size in UNITS:
        answer = api_alice.post(f"/api/v1/lists/{army.pk}/units/", {"entry": entry, **({"size": size} if size else {})},
                                format="json")
        assert answer.status_code == 201, answer.content
        ids.setdefault(entry, answer.json()["unit"]["id"])
    for field, value in KING.items():
        army.refresh_from_db()
        done = client_alice.post(f"/lists/{army.pk}/units/{ids['king']}/", {"revision": army.revision, "only": field,
                                                                             field: value})
        assert done.status_code == 302
    report = api_alice.get(f"/api/v1/lists/{army.pk}/report/").json()
    assert (report["total_points"], report["valid"]) == (4495, True)
    assert [v["code"] for v in report["violations"] if v["severity"] == "error"] == []
    army.refresh_from_db()
    king = next(u for u in army.document["units"] if u["entry"] == "king")
    assert king["options"] == {"general": 1, "shield-bearers": 1, "ancient-grudge-1": 1, "rune-of-steel": 1}

    # The tournament text names every unit with its size and choices, and reads back to the same list.
    text = client_alice.get(f"/lists/{army.pk}/download/txt/").content.decode()
    assert "370 - King, General, Ancient Grudge (1), Shield Bearers, Rune of Steel" in text
    assert text.count("345 - 30 Clan Warriors\n") == 3 and "170 - 10 Clan Marksmen, Crossbow (4+)" in text
    back = api_alice.post("/api/v1/lists/import/", text, content_type="text/plain")
    assert back.status_code == 201, back.content
    again = ArmyList.objects.get(pk=back.json()["id"])
    assert units(again, book) == units(army, book) and (again.total_points, again.valid) == (4495, True)

    # The PDF: every page holds units (none near empty), every unit's profile printed.
    pdf = client_alice.get(f"/lists/{army.pk}/download/pdf/?variant=full").content
    pages = [FOOTER.sub("", p.extract_text()).strip() for p in PdfReader(io.BytesIO(pdf)).pages]
    assert len(pages) >= 3 and min(len(p) for p in pages) > 250
    printed = " ".join(" ".join(p.split()) for p in pages)
    assert "LEGAL" in printed and "NOT LEGAL" not in printed
    assert printed.count("Ad Ma Di HP Df Re Arm At Of St AP Ag") == len(UNITS)
    for row in ("King 3 4 10 3 7 5 3 4 7 4 1 4", "Clan Warrior 3 4 9 1 4 4 2 1 4 3 0 2",
                "Hold Guardian 5 5 10 3 4 5 4 3 4 5 2 1", "Crew 0 4 9 5 1 4 2 3 5 4 1 2"):
        assert row in printed
