"""The warband sheet of a warband in its campaign (exports/warband.py, pdf_warband.py), read back with
pypdf: the treasury, shards, stash and battles in the header; each warrior's skills, advances, injuries
and state; the experience track's marks (the thick boxes of the official roster)."""
from __future__ import annotations

from armylists.exports.pdf import render_pdf
from armylists.exports.pdf_list import PrintedList
from armylists.exports.warband import WarbandSheet
from armylists.rules import parse_roster, validate
from tests.campaigns.conftest import warband
from tests.exports.test_pdf import PRINTED_ON, pages

HERO_MARKS = (2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 41, 46, 51, 57, 63, 69, 76, 83, 90)


def campaign_doc():
    return warband({
        "founding_gold": 0, "treasury": 35, "wyrdstone": 2, "stash": {"sword": 2, "hochland-long-rifle": 1},
        "warriors": {
            "champion": {"advances": [{"at": 11, "gain": "S"}],
                         "injuries": [{"id": "arm-wound", "roll": 23, "follow_up": "arm-mends"}],
                         "state": "misses-next-game", "games_to_miss": 1},
            "youngblood": {"advances": [{"at": 2, "skill": "strike-to-injure"}]}},
        "fallen": [{"unit": "y9", "entry": "youngblood", "name": "Youngblood", "battle": 1}],
        "battles": [{"number": 1, "result": "won", "gold_in": 35, "experience": {"champion": 3, "youngblood": 2}}],
    }, champion=11, youngblood=2)


def render(library, doc):
    roster = parse_roster(doc)
    book = library.book("mordheim", "reikland-mercenaries", "1999.2")
    report = validate(book, roster)
    return book, roster, report, pages(render_pdf(book, roster, report, variant="warband", printed_on=PRINTED_ON))


def test_the_header_prints_treasury_shards_battles_and_stash(library):
    *_, text = render(library, campaign_doc())
    assert "Treasury Wyrdstone Battles" in text[0] and "35 gc 2 1 (1 won)" in text[0]
    assert "Stash hochland long rifle, sword x2 · Fallen Youngblood (y9)" in text[0]


def test_each_warrior_prints_skills_advances_injuries_and_state(library):
    *_, text = render(library, campaign_doc())
    page = " ".join(text)
    assert "Advances +1 S Injuries Arm wound / Light arm wound Misses the next game Experience 11" in page
    assert "Skills strike to injure Experience 2" in page


def test_the_tracks_carry_their_thresholds(library):
    book, roster, report, _ = render(library, campaign_doc())
    sheet = WarbandSheet(PrintedList(book, roster, report))
    by_id = {w.unit.words.unit.id: w for _, _, ws in sheet.sections for w in ws}
    assert by_id["captain"].campaign.marks == HERO_MARKS
    assert by_id["warriors"].campaign.marks == (2, 5, 9, 14)


def test_a_founding_sheet_prints_no_campaign_figures(library):
    doc = warband()
    doc.pop("modes")
    *_, text = render(library, doc)
    assert "Treasury" not in text[0] and "Skills Experience 20" in text[0]
