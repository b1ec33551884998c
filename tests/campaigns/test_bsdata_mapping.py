"""rules_data/mordheim/campaign/bsdata.yaml against the BSData catalogues it names and our books it maps
them onto: every mapped catalogue is one of ../shared's, every mapped id a root entry of it whose BSData
category (Heroes, Henchmen) is our entry's category, every `models` id a child entry of that root entry,
and a hero's Experience child's minimum (BSData's starting experience) is our entry's `experience` (the
Mordheim rulebook's starting experience, e.g. Captain 20, Champion 8: rules_data/mordheim/books/*.yaml).

Real data: ../shared/external/battlescribe/mordheim (BSData/mordheim b18aa66)."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from armylists.rules.native.mordheim_campaign.trees import bsdata_mapping

MORDHEIM = Path(__file__).resolve().parents[3] / "shared" / "external" / "battlescribe" / "mordheim"
NS = {"b": "http://www.battlescribe.net/schema/catalogueSchema"}
CATEGORY = {"Heroes": "heroes", "Henchmen": "henchmen"}  # BSData's category names -> ours


def catalogues() -> dict[str, ET.Element]:
    if not MORDHEIM.is_dir():
        return {}
    roots = (ET.parse(p).getroot() for p in sorted(MORDHEIM.glob("*.cat")))
    return {r.get("id"): r for r in roots}


@pytest.mark.skipif(not MORDHEIM.is_dir(), reason="../shared/external/battlescribe/mordheim is absent")
@pytest.mark.parametrize("catalogue", sorted(bsdata_mapping()["catalogues"]))
def test_each_mapped_entry_is_the_catalogues_and_our_books(catalogue, library):
    mapped = bsdata_mapping()["catalogues"][catalogue]
    data = catalogues()[catalogue]
    assert data.get("name") == mapped["name"]
    book = library.book("mordheim", mapped["book"], mapped["book_version"])
    experience_ids = set(bsdata_mapping()["experience"])
    roots = {e.get("id"): e for e in data.findall("b:selectionEntries/b:selectionEntry", NS)}
    for entry_id, ours in mapped["entries"].items():
        root = roots[entry_id]
        entry = book.entries[ours["entry"]]
        assert root.get("name") == ours["name"]
        primary = [c.get("name") for c in root.findall("b:categoryLinks/b:categoryLink", NS) if c.get("primary") == "true"]
        assert [CATEGORY[n] for n in primary] == [entry.category], entry_id
        if "models" in ours:
            assert ours["models"] in {c.get("id") for c in root.findall("b:selectionEntries/b:selectionEntry", NS)}
        links = [link for link in root.findall("b:entryLinks/b:entryLink", NS) if link.get("targetId") in experience_ids]
        minimum = max((int(float(c.get("value"))) for link in links for c in link.findall("b:constraints/b:constraint", NS)
                       if c.get("type") == "min"), default=0)
        assert minimum == (entry.experience or 0), (entry_id, ours["entry"])
