"""No near-empty page on a printed roster (issue 40 item 6): a New Recruit T9A Dwarven Holds list grown a
unit at a time (the book's entries in order) had printed, at 15, 25 and 34 units, a last page holding only
the "Not checked by the builder" note (or that note's one sentence under a heading left on the page before),
and at 38 units a blank page before the hidden list's hidden sheet. Every page of every variant, read with
pypdf, now holds more than a note: its units' profiles among it."""
from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from armylists.exports.pdf import render_pdf
from armylists.lists.saved import edits
from armylists.lists.saved.edits import EditError
from armylists.rules import validate

from tests.importers.test_nr_t9a_prices import books
from tests.importers.nr_summaries import needs_data

pytestmark = needs_data
FOOTER = re.compile(r"Hold · checksum \S+ \S+ page \d+ of \d+")
NEAR_EMPTY = 250  # characters: a note, a heading and a sentence; a unit with its profile is more


def grown(book, count: int):
    roster = edits.start_roster(book, "Hold", 4500, None)
    entries = list(book.entries)
    for i in range(count):
        try:
            roster, _ = edits.add_unit(book, roster, entries[i % len(entries)])
        except EditError:
            continue
    return roster


def pages(pdf: bytes) -> list[str]:
    return [FOOTER.sub("", page.extract_text()).strip() for page in PdfReader(io.BytesIO(pdf)).pages]


@pytest.mark.parametrize("count", [15, 25, 34, 38])
def test_no_page_of_a_grown_list_holds_a_note_alone_or_nothing(count):
    book = books("dh")["dh"]
    roster = grown(book, count)
    report = validate(book, roster)
    full = pages(render_pdf(book, roster, report, "full"))
    assert len(full) > 1 and [len(p) for p in full if len(p) < NEAR_EMPTY] == []
    assert "Not checked by the builder (check these by hand)" in full[-1]
    assert "Ad Ma Di HP Df Re Arm At Of St AP Ag" in full[-1]   # a unit's profile is on the note's page
    hidden = pages(render_pdf(book, roster, report, "hidden"))
    assert "" not in hidden   # no blank page before the hidden sheet
    assert all("Ad Ma Di HP" in page for page in hidden[:-1] if "Hidden sheet" not in page)
