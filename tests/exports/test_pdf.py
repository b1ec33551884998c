"""The printed roster, read back with pypdf: what it says, how many pages, and the fonts it embeds."""
from __future__ import annotations

import dataclasses
import io
import json
import re
import shutil
from datetime import date
from pathlib import Path

import pytest
from pypdf import PdfReader

from armylists.lists.plain_words import plain_message
from armylists.exports import checksum
from armylists.exports.pdf import render_pdf
from armylists.exports.pdf_header import qr_code
from armylists.rules import parse_roster, validate
from armylists.rules.report import Violation

from tests.exports.pdf_artifacts import embedded_fonts, png_size, write_pngs
from tests.conftest import ROOT, list_document

EXAMPLES = ROOT / "docs" / "examples"
PRINTED_ON = date(2026, 11, 21)
SHARE_URL = "https://armylists.example/l/abc123"


def example(library, name: str):
    roster = parse_roster(json.loads((EXAMPLES / name).read_text()))
    book = library.book(roster.system, roster.book, roster.book_version)
    return book, roster, validate(book, roster)


def pages(data: bytes) -> list[str]:
    """Each page's text with every run of whitespace made one space (wrapped lines read as one)."""
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages]


def render(book, roster, report, **kw) -> bytes:
    return render_pdf(book, roster, report, printed_on=PRINTED_ON, **kw)


def item_names(book, roster) -> set[str]:
    return {book.items[i].name for u in roster.units for i in u.items + u.standard_items + u.champion_items}


def test_the_full_roster_names_every_unit_item_and_figure(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    text = pages(render(book, roster, report))
    everything = " ".join(text)
    assert len(text) == 3
    assert [book.entries[u.entry].name for u in roster.units if book.entries[u.entry].name not in everything] == []
    assert sorted(item_names(book, roster)) == ["Banner of Discipline", "Dispel Scroll", "Giant Sword", "Rending Banner",
                                                "Talisman of Greater Shielding"]
    assert [name for name in item_names(book, roster) if name not in everything] == []
    assert text[0].startswith("Sonnstahl combined arms Player Example Game system The 9th Age: Fantasy Battles v0.11.9.3 "
                              "Army book Empire of Sonnstahl 0.11.1 Composition none (Standard army) Points limit 2400 pts "
                              "Total 2390 pts Points left 10 pts Army 15 Units, 136 Models, 4 Characters, 11 Deployment drops, 1 Wizards, "
                              "2 Wizard levels Checksum 67aff9afa7 LEGAL Categories")
    assert "Lords 2 314 13.1% - 35%" in text[0] and "Total 15 2390 99.6%" in text[0]
    assert "Marshal General 203 pts Options: Shield Mount: Horse Items: Giant Sword, Talisman of Greater Shielding" in text[0]
    assert "30 Heavy Infantry 235 pts Options: Halberd Command: Champion, Musician, Veteran Standard Bearer " \
           "(Banner of Discipline)" in everything
    # The item reference: name, category, the price its bearer paid (the Lord price for the Marshal), who, what.
    assert "Giant Sword Magical Weapons 60 Marshal +3 Strength" in everything
    assert [t[-len("checksum 67aff9afa7 2026-11-21 page 1 of 3"):] for t in text] == [
        f"checksum 67aff9afa7 2026-11-21 page {n} of 3" for n in (1, 2, 3)]


def test_a_profile_is_printed_for_the_unit_and_its_mount(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    text = pages(render(book, roster, report))[0]
    assert "M WS BS S T W I A Ld Field Marshal 4 5 5 4 4 3 5 3 9 Horse 8 3 - 3 3 1 3 1 3 " \
           "Rules: Orders, Mount's Protection (6+)" in text


def test_an_illegal_list_is_stamped_with_every_violation(library):
    book, roster, report = example(library, "empire-2400-illegal.json")
    first = pages(render(book, roster, report))[0]
    assert "NOT LEGAL (11 errors) × Total 1903 pts is 497 pts under the 2400 pts limit" in first
    # Printed in a player's words: no unit ids, the source as the rulebook's section, no code.
    ids = [u.id for u in roster.units]
    assert [v.message for v in report.violations
            if " ".join(plain_message(v.message, ids).split()) not in first] == []
    assert "[Rulebook, Army composition]" in first and "one_of_a_kind.max" not in first and "000:L" not in first


def test_it_prints_the_report_it_is_given_and_works_nothing_out_again(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    invented = Violation("test.invented", "Invented by the test: a rule the engine never had.", unit="marshal")
    doctored = dataclasses.replace(report, total_points=1234, violations=(invented,))
    text = pages(render(book, roster, doctored))
    assert "Total 1234 pts" in text[0] and "NOT LEGAL (1 error)" in text[0]
    # Once in the stamp and once under the Marshal, the unit it names.
    assert " ".join(text).count("Invented by the test: a rule the engine never had.") == 2


def test_the_compact_roster_is_one_page_with_a_line_per_unit(library):
    book, roster, report = example(library, "ogre-khans-2400-illegal.json")
    text = pages(render(book, roster, report, variant="compact"))
    assert len(text) == 1
    assert "225 Mammoth Hunter, General, Lance, Rottenjaw, Tusker" in text[0]
    assert "NOT LEGAL (11 errors)" in text[0] and text[0].endswith("checksum d80571a4b1 2026-11-21 page 1 of 1")


def test_the_compact_roster_of_a_long_list_still_fits_one_page(test_book):
    roster = parse_roster(list_document([{"entry": "core-blob", "size": n + 1} for n in range(150)], 20000))
    data = render(test_book, roster, validate(test_book, roster), variant="compact")
    text = pages(data)
    assert len(text) == 1
    assert "150 150 Core Blob" in text[0]


def test_the_header_says_which_matched_play_rules_the_list_was_built_for(library):
    book, roster, _ = example(library, "empire-of-man-legal.json")
    chosen = dataclasses.replace(roster, modes=("combined-arms", "grand-melee"))
    text = pages(render(book, chosen, validate(book, chosen)))[0]
    assert "Army book Empire of Man 2024.4 Composition none Matched play Combined Arms, Grand Melee " \
           "Points limit 2000 pts" in text
    compact = pages(render(book, chosen, validate(book, chosen), variant="compact"))[0]
    assert "Warhammer: The Old World \u00b7 Combined Arms, Grand Melee \u00b7 " in compact
    # A list that chose none is an Open War list, and says so.
    text = pages(render(book, roster, validate(book, roster)))[0]
    assert "Composition none Matched play Open War Points limit 2000 pts" in text


def test_a_system_without_matched_play_rules_prints_no_such_row(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    assert not book.system.modes
    for variant in ("full", "compact", "hidden"):
        text = pages(render(book, roster, report, variant=variant))[0]
        assert "Matched play" not in text and "Open War" not in text


def hidden_list(library):
    book = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    roster = parse_roster(list_document([
        {"entry": "marshal", "general": True, "items": ["giant-sword", "talisman-of-greater-shielding"]},
        {"entry": "imperial-guard", "size": 20, "command": ["musician", "standard"],
         "standard_items": ["banner-of-discipline"], "label": "red banner"},
        {"entry": "imperial-guard", "size": 20, "command": ["musician", "standard"]},
        {"entry": "steam-tank"}, {"entry": "steam-tank"},
    ], book="empire-of-sonnstahl", version="0.11.1", name="Hidden test"))
    return book, roster, validate(book, roster)


def test_the_hidden_list_shows_only_mundane_types_and_labels_then_a_sheet_of_the_items(library):
    book, roster, report = hidden_list(library)
    text = pages(render(book, roster, report, variant="hidden"))
    sheet = next(i for i, t in enumerate(text) if t.startswith("Hidden sheet"))
    open_part = " ".join(text[:sheet])
    assert sheet == len(text) - 1
    assert [name for name in item_names(book, roster) if name in open_part] == []
    # The Giant Sword shows as its type; the talisman and the banner have none (000:L143-145).
    assert "Marshal General 90 pts + hidden Items: Hand Weapon, hidden item" in open_part
    # Units alike but for a Magical Standard are told apart (000:L146-149): its own label, else a letter.
    assert "20 Imperial Guard [red banner] 200 pts + hidden Command: Musician, Standard Bearer (hidden item)" in open_part
    assert "20 Imperial Guard [A] 200 pts Command: Musician, Standard Bearer M" in open_part
    assert "Steam Tank [A] 300 pts" in open_part and "Steam Tank [B] 300 pts" in open_part
    assert "Unit Carried by Item Category Shown as Cost Marshal - Giant Sword Magical Weapons Hand Weapon 60 " \
           "Marshal - Talisman of Greater Shielding Talismans hidden item 30 Imperial Guard [red banner] " \
           "Standard Bearer Banner of Discipline Magical Standards hidden item 25" in text[sheet]


def test_the_hidden_list_keeps_violations_which_name_items_for_the_sheet(library):
    book, roster, report = example(library, "empire-2400-illegal.json")
    text = pages(render(book, roster, report, variant="hidden"))
    assert "Armour of Destiny" not in " ".join(text[:-1])
    assert "NOT LEGAL (11 errors) Hidden list:" in text[0]
    assert "cannot take Magical Armour (Armour of Destiny)" in text[-1]


@pytest.mark.parametrize("name", ["empire-2400-illegal.json", "empire-of-man-illegal.json"])
def test_the_hidden_list_says_its_rules_in_plain_words(library, name):
    # Issue 17: no seed citation ("000:L150-159") or file name on any page, whatever the system.
    book, roster, report = example(library, name)
    text = " ".join(pages(render(book, roster, report, variant="hidden")))
    assert "reveal each item the first time it is used" in text
    assert re.findall(r"\d{3}:L\d+|[\w-]+\.md\b", text) == []


def test_accents_and_apostrophes_print_as_written(test_book):
    roster = parse_roster(list_document([{"entry": "lord", "general": True, "items": ["bluffers-helm"]}],
                                        name="Zoë's army", player="Zoë"))
    text = pages(render(test_book, roster, validate(test_book, roster)))
    assert text[0].startswith("Zoë's army Player Zoë ")
    assert "Bluffer's Helm" in text[0]


@pytest.mark.parametrize("variant", ["full", "compact", "hidden"])
def test_every_font_is_embedded_truetype(library, variant):
    book, roster, report = example(library, "empire-2400-illegal.json")
    fonts = embedded_fonts(render(book, roster, report, variant=variant, share_url=SHARE_URL))
    # The subset prefix is reportlab's; only the two weights the roster uses are embedded.
    assert fonts == {"/AAAAAA+BitstreamVeraSans-Roman": ("/TrueType", True),
                     "/AAAAAA+BitstreamVeraSans-Bold": ("/TrueType", True)}


def rectangles(data: bytes) -> int:
    content = PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data().decode("latin-1")
    return len(re.findall(r" re\b", content))


def test_a_share_link_prints_its_qr_code_and_no_link_prints_none(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    with_link = render(book, roster, report, share_url=SHARE_URL)
    without = render(book, roster, report)
    assert SHARE_URL in pages(with_link)[0].replace(" ", "")
    assert "https://" not in pages(without)[0]
    # One rectangle per run of dark modules, as the QR widget draws them.
    assert rectangles(with_link) - rectangles(without) == len(qr_code(SHARE_URL).contents[0].draw().contents) == 213


def test_the_same_list_prints_the_same_bytes(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    assert render(book, roster, report) == render(book, roster, report)


def test_the_footer_carries_the_checksum_of_the_list(library):
    book, roster, report = example(library, "ogre-khans-2400-legal.json")
    text = pages(render(book, roster, report))
    assert checksum(roster) == "5044ef9523"
    assert all(t.endswith(f"page {n} of {len(text)}") and "Khans of the avalanche · checksum 5044ef9523 2026-11-21" in t
               for n, t in enumerate(text, start=1))


def test_an_unknown_variant_is_refused(library):
    book, roster, report = example(library, "empire-2400-legal.json")
    with pytest.raises(ValueError) as caught:
        render_pdf(book, roster, report, variant="poster")
    assert str(caught.value) == "unknown variant 'poster'; choose one of full, compact, hidden, open, warband"


A4_AT_80_DPI = (662, 936)  # 210 x 297 mm, as pdftoppm -r 80 rounds them


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("name, variant, count", [
    ("empire-2400-legal.json", "full", 3), ("empire-2400-legal.json", "compact", 1),
    ("empire-2400-legal.json", "hidden", 4), ("empire-2400-illegal.json", "full", 3),
    ("empire-2400-illegal.json", "compact", 1), ("empire-2400-illegal.json", "hidden", 3)])
def test_it_renders_to_png_for_a_person_to_look_at(library, name, variant, count):
    """Writes test-artifacts/pdf/<example>-<variant>-<page>.png (git-ignored) to look at by eye: every page
    an A4 picture, the first page's text opening with the list's name, each page's closing with its number."""
    book, roster, report = example(library, name)
    data = render(book, roster, report, variant=variant, share_url=SHARE_URL if variant == "full" else None)
    pngs = write_pngs(data, f"{Path(name).stem}-{variant}")
    text = pages(data)
    assert [png_size(p) for p in pngs] == [A4_AT_80_DPI] * count
    assert text[0].startswith(roster.name)
    assert [t[-len(f"{checksum(roster)} 2026-11-21 page 1 of {count}"):] for t in text] == [
        f"{checksum(roster)} 2026-11-21 page {n} of {count}" for n in range(1, count + 1)]


def test_a_long_list_name_is_shortened_in_the_footer_but_keeps_the_checksum(test_book):
    roster = parse_roster(list_document([{"entry": "lord", "general": True}], name="The Grand Army of " + "Zoë " * 30))
    footer = pages(render(test_book, roster, validate(test_book, roster)))[0].split("Army of Zoë Zoë")[-1]
    assert footer.endswith(f"... · checksum {checksum(roster)} 2026-11-21 page 1 of 1")
