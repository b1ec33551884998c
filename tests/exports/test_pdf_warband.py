"""The Mordheim warband sheet (`variant="warband"`), read back with pypdf: every hero and henchman
group with its profile, equipment, experience and cost; the gold, the rating and the stamp."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from reportlab.lib.units import mm
from reportlab.platypus import KeepInFrame, KeepTogether, Table

from armylists.lists.plain_words import plain_message
from armylists.exports import checksum
from armylists.exports.pdf import default_variant, render_pdf
from armylists.exports.pdf_list import PrintedList
from armylists.exports.pdf_warband import ExperienceTrack, warband_story
from armylists.exports.warband import WarbandSheet, warband_maximum
from armylists.rules import parse_roster, validate

from tests.exports.pdf_artifacts import embedded_fonts, png_size, write_pngs
from tests.exports.test_pdf import A4_AT_80_DPI, EXAMPLES, PRINTED_ON, SHARE_URL, example, pages

WARBANDS = ("reikland-mercenaries", "witch-hunters", "sisters-of-sigmar", "undead", "skaven-of-clan-eshin",
            "cult-of-the-possessed")
MORDHEIM_EXAMPLES = [f"{w}-{kind}.json" for w in WARBANDS for kind in ("legal", "illegal")]


def sheet(book, roster, report, **kw) -> list[str]:
    return pages(render_pdf(book, roster, report, variant="warband", printed_on=PRINTED_ON, **kw))


def mordheim(library, units: list[dict], book: str = "reikland-mercenaries", **extra):
    roster = parse_roster({"format": "armylist/1", "system": "mordheim", "book": book, "book_version": "1999.2",
                           "points_limit": 500, "units": units, **extra})
    found = library.book("mordheim", book, "1999.2")
    return found, roster, validate(found, roster)


def test_the_sheet_has_the_header_every_hero_and_group_and_fits_one_page(library):
    book, roster, report = example(library, "reikland-mercenaries-legal.json")
    text = sheet(book, roster, report)
    assert len(text) == 1
    assert text[0].startswith("The Altdorf Blades Player: Example · Warband type: Reikland Mercenaries 1999.2 · "
                              "checksum 4d588f0c1c Gold budget Gold spent Gold left Warband rating Warriors "
                              "500 gc 500 gc 0 gc 88 12 of 15 LEGAL Not checked by the builder (check by hand): "
                              "Rare items (Hochland long rifle and other items outside the lists) may not be bought "
                              "at the founding; later trading is not modelled. Heroes 4 warriors · 195 gc ")
    assert report.figures["rating"] == 88
    assert text[0].endswith("The Altdorf Blades · checksum 4d588f0c1c 2026-11-21 page 1 of 1")


def test_a_hero_has_name_profile_equipment_skills_experience_and_cost(library):
    book, roster, report = example(library, "reikland-mercenaries-legal.json")
    text = sheet(book, roster, report)[0]
    # The free dagger, then what was bought; a line to write skills on (the founding has none);
    # the entry's starting experience.
    assert "Mercenary Captain 105 gc Name M WS BS S T W I A Ld 4 4 4 3 3 1 4 1 8 " \
           "Equipment Dagger (free), Sword, Pistol, Light armour Skills Experience 20 " in text
    # A second dagger bought is printed beside the free one.
    assert "Youngblood 20 gc Name M WS BS S T W I A Ld 4 2 2 3 3 1 3 1 6 " \
           "Equipment Dagger (free), Dagger, Hammer Skills Experience 0" in text


def test_a_henchman_group_has_its_number_kit_experience_and_cost_per_model_and_in_all(library):
    book, roster, report = example(library, "reikland-mercenaries-legal.json")
    text = sheet(book, roster, report)[0]
    assert "Henchmen 2 groups, 8 warriors · 305 gc " in text
    assert "5 × Warriors 200 gc Group name Number 5 M WS BS S T W I A Ld 4 3 3 3 3 1 3 1 7 " \
           "Equipment (each) Dagger (free), Spear, Shield Experience 0 each Cost 40 gc per model, 200 gc for 5" in text
    assert "3 × Marksmen 105 gc Group name Number 3 M WS BS S T W I A Ld 4 3 3 3 3 1 3 1 7 " \
           "Equipment (each) Dagger (free), Bow Experience 0 each Cost 35 gc per model, 105 gc for 3" in text


@pytest.mark.parametrize("name", MORDHEIM_EXAMPLES)
def test_every_example_warband_prints_every_warrior_item_and_figure(library, name):
    book, roster, report = example(library, name)
    text = sheet(book, roster, report)
    everything = " ".join(text)
    assert [e for e in (book.entries[u.entry].name for u in roster.units) if e not in everything] == []
    bought = {book.entries[u.entry].options[o].name for u in roster.units for o, _ in u.options
              if o in book.entries[u.entry].options}
    assert bought and [b for b in bought if b not in everything] == []
    assert f"Gold left Warband rating Warriors {report.points_limit} gc {report.total_points} gc " in everything
    warriors = sum(line.models for line in report.units if line.category != "hired-swords")  # not of the warband
    assert f" {report.figures['rating']} {warriors} of " in everything
    verdict = "LEGAL" if report.valid else f"NOT LEGAL ({len(report.errors)} errors)"
    assert f" {verdict} " in text[0]
    ids = [u.id for u in roster.units]  # printed without the units' ids
    assert [v.message for v in report.violations if " ".join(plain_message(v.message, ids).split()) not in everything] == []
    assert all(t.endswith(f"checksum {checksum(roster)} 2026-11-21 page {n} of {len(text)}")
               for n, t in enumerate(text, start=1))


@pytest.mark.parametrize("name, pages_printed", [
    # The Sisters' hired Halfling Scout is a seventh block, a fourth row; the Cult's sheet fits one page
    # since two lines of its "not checked" box (rising mutation costs, Hired Swords) became checked rules.
    ("reikland-mercenaries-legal.json", 1), ("witch-hunters-legal.json", 1), ("sisters-of-sigmar-legal.json", 2),
    ("undead-legal.json", 1), ("skaven-of-clan-eshin-legal.json", 1), ("cult-of-the-possessed-legal.json", 1)])
def test_a_founding_warband_fits_one_a4_page_unless_it_has_four_rows_of_boxes(library, name, pages_printed):
    book, roster, report = example(library, name)
    assert len(sheet(book, roster, report, share_url=SHARE_URL)) == pages_printed


def test_an_illegal_warband_shows_gold_over_and_each_violation_in_its_box_too(library):
    book, roster, report = example(library, "reikland-mercenaries-illegal.json")
    everything = " ".join(sheet(book, roster, report))
    assert "Gold left Warband rating Warriors 500 gc 528 gc 28 gc over 104 12 of 15 NOT LEGAL (6 errors)" in everything
    # Once in the stamp, once in the box of the unit it is about.
    message = "Swordsmen has 6 models; at most 5."  # printed without the unit's id
    assert everything.count(message) == 2
    assert "Cost 35 gc per model, 210 gc for 6 × " + message in everything


def test_models_of_a_group_with_different_kits_are_listed_one_by_one(library):
    book, roster, report = example(library, "reikland-mercenaries-illegal.json")
    everything = " ".join(sheet(book, roster, report))
    assert "2 × Marksmen 85 gc Group name Number 2 M WS BS S T W I A Ld 4 3 3 3 3 1 3 1 7 Equipment " \
           "Model 1: Dagger (free), Bow Model 2: Dagger (free), Crossbow Experience 0 each " \
           "Cost models cost differently, 85 gc for 2" in everything


def test_a_named_warrior_its_experience_and_spells_are_printed(library):
    book, roster, report = mordheim(library, [
        {"id": "vampire", "entry": "vampire", "label": "Count Ostrag", "experience": 27},
        {"id": "necromancer", "entry": "necromancer"},
        {"id": "zombies", "entry": "zombies", "size": 3, "label": "The Shamblers"},
    ], book="undead", name="Named")
    text = sheet(book, roster, report)[0]
    assert "Vampire 110 gc Name Count Ostrag M WS BS S T W I A Ld 6 4 4 4 4 2 5 2 8 " \
           "Equipment Dagger (free) Skills Experience 27" in text
    assert "Necromancer 35 gc Name M WS BS S T W I A Ld 4 3 3 3 3 1 3 1 7 Equipment Dagger (free) " \
           "Spells Necromancy Skills Experience 8" in text
    # Zombies carry nothing, not even a dagger.
    assert "3 × Zombies 45 gc Group name The Shamblers Number 3 M WS BS S T W I A Ld 4 2 0 3 3 1 1 1 5 " \
           "Equipment (each) none Experience 0 each Cost 15 gc per model, 45 gc for 3" in text
    # The rating counts each model's experience: the Vampire's 27, the Necromancer's starting 8.
    assert report.figures["rating"] == (5 + 27) + (5 + 8) + 3 * 5 == 60
    assert "Gold left Warband rating Warriors 500 gc 190 gc 310 gc 60 5 of 15" in text


def test_a_warrior_whose_entry_the_book_lacks_still_prints(library):
    book, roster, report = mordheim(library, [{"id": "captain", "entry": "captain"},
                                              {"id": "ghost", "entry": "ghost-captain"}])
    everything = " ".join(sheet(book, roster, report))
    assert "Not in Reikland Mercenaries 1999.2 1 group, 1 warrior · 0 gc 1 × ?entry:ghost-captain ? " \
           "Group name Number 1 Equipment (each) none Experience 0 each × Unit ghost names 'ghost-captain', " \
           "which is not in Reikland Mercenaries 1999.2." in everything


def test_it_prints_the_report_it_is_given(library):
    book, roster, report = example(library, "undead-legal.json")
    doctored = dataclasses.replace(report, total_points=321, figures={**report.figures, "rating": 999})
    text = sheet(book, roster, doctored)[0]
    assert "500 gc 321 gc 179 gc 999 12 of 15" in text


def test_the_warband_sheet_is_mordheims_default_and_full_is_still_the_full_roster(library):
    book, roster, report = example(library, "witch-hunters-legal.json")
    assert default_variant(book) == "warband"
    default = render_pdf(book, roster, report, printed_on=PRINTED_ON)
    assert default == render_pdf(book, roster, report, variant="warband", printed_on=PRINTED_ON)
    full = pages(render_pdf(book, roster, report, variant="full", printed_on=PRINTED_ON))
    assert "Points left 12 gc" in full[0] and "Gold left" not in " ".join(full)
    empire = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    assert default_variant(empire) == "full"


def test_the_warband_maximum_comes_from_the_books_count_rule_over_every_model(library, test_book):
    assert warband_maximum(library.book("mordheim", "reikland-mercenaries", "1999.2"), None) == 15
    assert warband_maximum(library.book("mordheim", "skaven-of-clan-eshin", "1999.2"), None) == 20
    assert warband_maximum(library.book("mordheim", "witch-hunters", "1999.2"), None) == 12
    assert warband_maximum(test_book, None) is None


def test_a_list_of_another_system_prints_without_rating_or_maximum(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    text = sheet(book, roster, report)
    assert "Gold budget Gold spent Gold left Warriors 2400 pts 2390 pts 10 pts 136 LEGAL" in text[0]
    assert WarbandSheet(PrintedList(book, roster, report)).maximum is None


def test_experience_boxes_run_to_more_rows_when_the_experience_needs_them():
    track = ExperienceTrack(20, 240, 8, rows=2)
    # (240 - 24 mm of label) // 3 mm a box
    assert (track.per_row, track.rows) == (20, 2)
    assert ExperienceTrack(40, 240, 8, rows=2).rows == 2
    assert ExperienceTrack(41, 240, 8, rows=2).rows == 3
    assert ExperienceTrack(0, 240, 8, rows=1, each=True).value == "0 each"


def test_every_font_is_embedded_truetype(library):
    book, roster, report = example(library, "sisters-of-sigmar-illegal.json")
    fonts = embedded_fonts(render_pdf(book, roster, report, variant="warband", share_url=SHARE_URL))
    assert fonts == {"/AAAAAA+BitstreamVeraSans-Roman": ("/TrueType", True),
                     "/AAAAAA+BitstreamVeraSans-Bold": ("/TrueType", True)}


def test_the_same_warband_prints_the_same_bytes(library):
    book, roster, report = example(library, "skaven-of-clan-eshin-legal.json")
    assert render_pdf(book, roster, report, printed_on=PRINTED_ON) == render_pdf(book, roster, report,
                                                                                 printed_on=PRINTED_ON)


# The sheets' pages: a legal founding warband fits one page; the Sisters' legal one and every illegal one
# take a second for their violations or their long equipment lines.
SHEET_PAGES = {name: 2 if name.endswith("-illegal.json") or name.startswith("sisters-") else 1
               for name in MORDHEIM_EXAMPLES}


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("name", MORDHEIM_EXAMPLES)
def test_it_renders_to_png_for_a_person_to_look_at(library, name):
    """Writes test-artifacts/pdf/<example>-warband-<page>.png (git-ignored) to look at by eye: every page
    an A4 picture, the first page's text opening with the warband's name, each page's closing with its number."""
    book, roster, report = example(library, name)
    data = render_pdf(book, roster, report, variant="warband", printed_on=PRINTED_ON,
                      share_url=SHARE_URL if name.endswith("-legal.json") else None)
    pngs = write_pngs(data, f"{Path(name).stem}-warband")
    text, count = pages(data), SHEET_PAGES[name]
    assert [png_size(p) for p in pngs] == [A4_AT_80_DPI] * count
    assert text[0].startswith(roster.name)
    assert [t[-len(f"{checksum(roster)} 2026-11-21 page 1 of {count}"):] for t in text] == [
        f"{checksum(roster)} 2026-11-21 page {n} of {count}" for n in range(1, count + 1)]


def test_the_examples_are_the_six_warbands_of_the_rules_data(library):
    assert sorted(b for (s, b, _) in library.books if s == "mordheim") == sorted(WARBANDS)
    assert all((EXAMPLES / name).is_file() for name in MORDHEIM_EXAMPLES)
    assert {json.loads((EXAMPLES / n).read_text())["system"] for n in MORDHEIM_EXAMPLES} == {"mordheim"}


def test_a_box_shows_its_first_three_violations_and_the_stamp_has_them_all(library):
    """A row of boxes cannot break across pages: however many violations, a box stays shorter than one."""
    unknown = {f"relic-{n}": 1 for n in range(50)}  # the most a list document may give a unit
    book, roster, report = mordheim(library, [{"id": "captain", "entry": "captain", "options": unknown},
                                              {"id": "warriors", "entry": "warriors", "size": 2}])
    messages = [plain_message(v.message, ["captain", "warriors"]) for v in report.violations_for("captain")]
    assert len(messages) == 50
    text = sheet(book, roster, report)
    everything = " ".join(text)
    assert [m for m in messages if m not in everything] == []
    box = everything[everything.index("Heroes 1 warrior"):]
    assert [m for m in messages if m in box] == messages[:3]
    assert "× and 47 more, in the stamp above" in box


def test_a_row_of_boxes_taller_than_a_page_is_shrunk_to_fit_rather_than_failing(library):
    """A list may give a group a hundred models each with its own kit: a box no page can hold."""
    close, missile = ["sword", "axe", "mace", "hammer", "spear"], ["bow", "crossbow", "handgun", "pistol"]
    kits = [{close[m % 5]: 1, missile[m % 4]: 1, "heavy-armour": 1, "buckler": 1, "helmet": 1} for m in range(100)]
    book, roster, report = mordheim(library, [{"id": "captain", "entry": "captain"},
                                              {"id": "mob", "entry": "warriors", "size": 5, "model_options": kits}])
    text = sheet(book, roster, report)
    everything = " ".join(text)
    assert len(text) == 2
    assert "Model 100: Dagger (free), Spear, Pistol, Heavy armour, Buckler, Helmet Experience 0 each" in everything
    assert "Cost models cost differently, 9370 gc for 5" in everything


def test_the_experience_track_stops_at_five_rows_and_the_number_says_the_rest():
    assert ExperienceTrack(1000, 240, 8, rows=2).rows == ExperienceTrack.MAX_ROWS == 5


def test_only_a_row_taller_than_a_page_is_shrunk_any_other_moves_whole_to_the_next_page(library):
    book, roster, report = example(library, "sisters-of-sigmar-illegal.json")
    printed = PrintedList(book, roster, report)
    story = warband_story(printed, None, checksum(roster), 180 * mm, 250 * mm)
    # A section's first row is kept with its heading (a KeepTogether).
    flowables = [g for f in story for g in (f._content if isinstance(f, KeepTogether) else [f])]
    rows = [f for f in flowables if isinstance(f, Table) and len(f._cellvalues[0]) == 3]
    assert len(rows) == 5 and not any(isinstance(f, KeepInFrame) for f in flowables)
    # Its third row of heroes starts the second page, at full size.
    text = sheet(book, roster, report)
    assert text[1].startswith("Sister Superior 35 gc Name M WS BS S T W I A Ld 4 4 3 3 3 1 3 1 7")


def test_the_sheet_counts_the_warbands_warriors_and_not_its_hired_swords(library):
    """Hired Swords are not of the warband (Mordheim rulebook, Hired Swords); the Sisters' hired Halfling
    Scout cooks for one more warrior (Cook): 12 warriors of 16."""
    book, roster, report = example(library, "sisters-of-sigmar-legal.json")
    assert report.figures["models"] == 13
    text = " ".join(sheet(book, roster, report))
    assert "Warband rating Warriors 500 gc 481 gc 19 gc 101 12 of 16" in text


def test_a_stamp_taller_than_a_page_breaks_across_pages(library):
    # An imported BattleScribe warband once printed its notes of what is not checked as one paragraph
    # in the stamp; a box row cannot break, so a long enough note failed to lay out (a 500 on download).
    book, roster, report = example(library, "reikland-mercenaries-legal.json")
    notes = tuple(f"Note {n}: a rule of the data that the builder does not evaluate, written out at some length "
                  f"so that the notes together run far past one page of the sheet." for n in range(200))
    text = sheet(book, roster, dataclasses.replace(report, unchecked=notes))
    assert len(text) > 2
    whole = " ".join(text)
    assert "Not checked by the builder (check by hand): Note 0: a rule" in whole
    assert "Note 199: a rule of the data that the builder does not evaluate" in whole
