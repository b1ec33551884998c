"""The warband sheet is offered for BSData's Mordheim roster trees too (issue 40 item 5), through the list's
kind (lists/kinds.py: `print_variant`), not a test of the document: the game system BSData's Mordheim.gst
declares is mapped onto ours (rules_data/battlescribe_systems.yaml), whose own sheet is the warband's.

Real data: ../shared/external/battlescribe/mordheim (BSData/mordheim)."""
from __future__ import annotations

from pathlib import Path

import pytest

from armylists.exports.registry import download_links
from armylists.lists.saved.stored import load
from armylists.models import ArmyList, RulesFile
from tests.battlescribe.imported import import_battlescribe

pytestmark = pytest.mark.django_db
MORDHEIM = Path(__file__).resolve().parents[3] / "shared" / "external" / "battlescribe" / "mordheim"


@pytest.mark.skipif(not MORDHEIM.is_dir(), reason="../shared/external/battlescribe/mordheim is absent")
def test_a_bsdata_mordheim_tree_offers_and_prints_the_warband_sheet_first(client_alice, alice):
    import_battlescribe(*(MORDHEIM / n for n in ("Mordheim.gst", "Reiklanders.cat", "data.cat", "Characters.cat")))
    book = RulesFile.objects.filter(kind="book").first()
    response = client_alice.post("/lists/new/", {"name": "Reik", "book": f"{book.system}/{book.slug}/{book.version}",
                                                 "points_limit": "500"})
    assert response.status_code == 302
    army_list = ArmyList.objects.get(owner=alice)
    loaded = load(army_list)
    assert loaded.kind.name == "tree" and loaded.kind.print_variant(loaded.book, loaded.roster) == "warband"
    labels = [label for label, _ in download_links("/x/", loaded.book, loaded.roster) if label.startswith("PDF")]
    assert labels[0] == "PDF warband sheet"
    pdf = client_alice.get(f"/lists/{army_list.pk}/download/pdf/?variant=warband")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
