"""The Old World: every unit of our three books carries its characteristics profile, a line per model
(rank and file, champion, crew, steed), not only the Characters (issue 40 item 5: "our Old World units'
profiles printed").

The figures are New Recruit's Old World catalogues' (vflam/Warhammer-The-Old-World at 0708997,
../shared/external/battlescribe/the-old-world-nr: `Dwarfen Mountain Holds.cat` `Dwarf Warrior`, `The Empire
of Man.cat` `Great Cannon`...), facts rewritten in our format (the books' `sources:`, rules_data/CREDITS.md).
The last tests read those catalogues at run time and compare a sample, so a figure mistyped here fails; they
skip without ../shared.
"""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from armylists.exports.pdf import render_pdf
from armylists.lists.saved import edits
from armylists.rules import validate

from tests.conftest import ROOT

SYSTEM, VERSION = "the-old-world", "2024.4"
BOOKS = ("dwarfen-mountain-holds", "empire-of-man", "orc-and-goblin-tribes")
CHARACTERISTICS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
NR = ROOT.parent / "shared" / "external" / "battlescribe" / "the-old-world-nr"
NS = "{http://www.battlescribe.net/schema/catalogueSchema}"


def line(name, *values):
    """A profile line as the book has it: the characteristics given, in order, `None` where the book has "-"."""
    return {"name": name, **{c: v for c, v in zip(CHARACTERISTICS, values) if v is not None}}


@pytest.fixture(scope="module")
def books(library):
    return {b: library.book(SYSTEM, b, VERSION) for b in BOOKS}


def test_every_unit_that_is_not_a_character_has_a_profile(books):
    missing = [(b, e.id) for b, book in books.items() for e in book.entries.values()
               if e.category != "characters" and not e.profiles]
    assert missing == []
    # each line named, with at least one characteristic, and no key beyond the nine
    lines = [p for book in books.values() for e in book.entries.values() for p in e.profiles]
    assert all(p.get("name") and set(p) - {"name", "mount"} and set(p) <= {"name", "mount", *CHARACTERISTICS}
               for p in lines)


def test_a_regiment_its_champion_a_war_machine_its_crew_and_knights_their_steeds(books):
    dwarfs, empire, orcs = (books[b].entries for b in BOOKS)
    assert [dict(p) for p in dwarfs["dwarf-warriors"].profiles] == [
        line("Dwarf Warrior", 3, 4, 3, 3, 4, 1, 2, 1, 9), line("Veteran", 3, 4, 3, 3, 4, 1, 2, 2, 9)]
    assert [dict(p) for p in empire["great-cannon"].profiles] == [
        line("Great Cannon", None, None, None, None, 6, 3), line("Gun Crew", 4, 3, 3, 3, 3, 3, 3, 3, 7)]
    assert [dict(p) for p in empire["empire-knights"].profiles] == [
        line("Empire Knight", None, 4, 3, 3, 3, 1, 3, 1, 8), line("Preceptor", None, 4, 3, 3, 3, 1, 3, 2, 8),
        line("Barded Warhorse", 7, 3, None, 3, None, None, 3, 1)]
    # New Recruit names the Orc Mob's Boss first; the book's order is the rank and file, then its champion
    assert [dict(p) for p in orcs["orc-mob"].profiles] == [
        line("Orc Boy", 4, 3, 3, 3, 4, 1, 3, 1, 6), line("Boss", 4, 3, 3, 3, 4, 1, 3, 2, 7)]
    # a champion New Recruit gives by a modifier of the model's line (+1 A, its name): a line of its own
    assert [dict(p) for p in orcs["black-orc-mob"].profiles] == [
        line("Black Orc", 4, 4, 3, 4, 4, 1, 3, 1, 8), line("Black Orc Boss", 4, 4, 3, 4, 4, 1, 3, 2, 8)]
    # a random characteristic is kept as the book writes it
    assert dict(orcs["mangler-squigs"].profiles[0]) == line("Mangler Squigs", "3D6", 4, 0, 6, 5, 4, 3, "D6", 4)


def test_a_units_profile_does_not_make_it_a_general(books):
    """Leadership is read for the General only from Characters (system.yaml `general`): Dwarf Warriors' 9 is
    not a candidate. The unit's own leadership is its best non-mount line, as a Character's."""
    assert books["dwarfen-mountain-holds"].entries["dwarf-warriors"].leadership == 9
    assert books["empire-of-man"].entries["empire-knights"].leadership == 8


def test_the_pdf_prints_a_regiments_profile(books):
    book = books["dwarfen-mountain-holds"]
    roster = edits.start_roster(book, "Hold", 2000)
    roster, _ = edits.add_unit(book, roster, "dwarf-warriors")
    roster, _ = edits.add_unit(book, roster, "cannon")
    pdf = render_pdf(book, roster, validate(book, roster), "full")
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "M WS BS S T W I A Ld" in text
    assert "Dwarf Warrior 3 4 3 3 4 1 2 1 9" in text and "Veteran 3 4 3 3 4 1 2 2 9" in text
    assert "Cannon - - - - 7 3 - - -" in text and "Dwarf Crew 3 3 3 3 4 3 2 3 9" in text


# --- against the source, read at run time ------------------------------------------------------------

def catalogue_profile(file: str, name: str) -> dict:
    """The catalogue's shared Model profile of that name, as our line (its "-" left out)."""
    root = ET.parse(NR / file).getroot()
    for profile in root.iter(NS + "profile"):
        if profile.get("name") == name and profile.get("typeName") == "Model":
            values = {c.get("name"): (c.text or "").strip() for c in profile.iter(NS + "characteristic")}
            return {"name": name, **{k: int(v) if v.isdigit() else v for k, v in values.items()
                                     if k in CHARACTERISTICS and v not in ("", "-")}}
    raise AssertionError(f"{file} has no Model profile {name!r}")


@pytest.mark.skipif(not NR.is_dir(), reason="New Recruit's Old World catalogues are not in ../shared/external")
@pytest.mark.parametrize("book, entry, file, name", [
    ("dwarfen-mountain-holds", "dwarf-warriors", "Dwarfen Mountain Holds.cat", "Dwarf Warrior"),
    ("dwarfen-mountain-holds", "long-beards", "Dwarfen Mountain Holds.cat", "Longbeard"),
    ("dwarfen-mountain-holds", "ironbreakers", "Dwarfen Mountain Holds.cat", "Ironbreaker"),
    ("dwarfen-mountain-holds", "thunderers", "Dwarfen Mountain Holds.cat", "Thunderer"),
])
def test_a_sample_matches_new_recruits_catalogue(books, book, entry, file, name):
    assert dict(books[book].entries[entry].profiles[0]) == catalogue_profile(file, name)
