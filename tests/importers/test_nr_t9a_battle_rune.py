"""New Recruit T9A: a Battle Rune chosen as a Wizard's Path is (issue 40 item 6). Dwarven Holds' King and
Engineer may take "Battle Rune" (dh.json: `magic: {amount: "1", spells: [six Battle Runes]}`), whose rule
says "Select a single Battle Rune and write it on your Army List" (the data's own text, dh.json and
ruledefs.json; as a Path "must be noted on the army list", 000:L263-264, and a Lore chosen "when writing
your muster list", 001:L599). It had been one checkbox whose text listed the six; now the six are a "choose one" group
under it, one needed where it is taken. The Runic Smith's "Battle Runes" (`amount: "x"`: as many runes as
it is taken) stays a count. Dwarven Holds at the bundle's head (b543015), read from ../shared at run time;
the first test needs no data."""
from __future__ import annotations

from armylists.importers.nr_t9a.spells import chosen_spells
from armylists.rules import parse_roster, validate

from tests.importers.test_nr_t9a_prices import books
from tests.importers.nr_summaries import needs_data

RUNES = ["Rune of Revocation", "Rune of Reckoning", "Rune of Oaths", "Rune of Resolve", "Rune of Gleaming",
         "Rune of Resilience"]


def test_a_choice_is_fewer_spells_than_offered():
    paths = {"runes": {"ref": "runes", "name": "Battle Runes", "spells": [{"ref": "a", "name": "A"}, {"ref": "b", "name": "B"}]}}
    two = [{"path": "runes", "ref": "a"}, {"path": "runes", "ref": "b"}]
    assert chosen_spells({"amount": "1", "spells": two}, paths) == (1, ["A", "B"])
    assert chosen_spells({"amount": 1, "spells": two}, paths) == (1, ["A", "B"])
    assert chosen_spells({"amount": "2", "spells": two}, paths) is None   # as many as offered: no choice
    three = two + [{"path": "runes", "ref": "c"}]
    assert chosen_spells({"amount": "2", "spells": three}, paths) is None  # two of three (a Wizard Conclave): text
    assert chosen_spells({"amount": "x", "spells": two}, paths) is None   # one per time taken: a count
    assert chosen_spells({"amount": "0", "spells": two}, paths) is None
    assert chosen_spells(None, paths) is None


def errors(book, unit):
    doc = {"format": "armylist/1", "system": "t9a-2", "book": book.id, "book_version": book.version,
           "points_limit": 4500, "units": [unit]}
    report = validate(book, parse_roster(doc))
    return [(v.code, v.message) for v in report.violations if "Battle Rune" in v.message]


@needs_data
def test_the_kings_battle_rune_is_one_rune_chosen():
    book = books("dh")["dh"]
    king = book.entries["king"]
    runes = [o for o in king.options.values() if o.requires == ("battle-rune",) and o.name in RUNES]
    assert [o.name for o in runes] == RUNES and {o.cost for o in runes} == {0}
    assert len({o.group for o in runes}) == 1 and king.groups[runes[0].group].max == 1
    # taken without a rune: said, as a Wizard without a Path is
    assert errors(book, {"id": "k", "entry": "king", "options": {"battle-rune": 1}}) == [
        ("tally.min", "Battle Rune: which (choose 1): 0 taken in King (k); at least 1.")]
    assert errors(book, {"id": "k", "entry": "king", "options": {"battle-rune": 1, "rune-of-resolve": 1}}) == []
    # not taken: nothing to choose, and no rune without it
    assert errors(book, {"id": "k", "entry": "king"}) == []
    said = errors(book, {"id": "k", "entry": "king", "options": {"rune-of-resolve": 1, "rune-of-oaths": 1,
                                                                  "battle-rune": 1}})
    assert ("tally.max", "Battle Rune: which (choose 1): 2 taken in King (k); at most 1.") in said


@needs_data
def test_the_engineer_chooses_too_and_the_runic_smith_counts():
    book = books("dh")["dh"]
    engineer = [o.name for o in book.entries["engineer"].options.values() if o.requires == ("battle-rune",)]
    assert engineer == RUNES
    smith = book.entries["runic-smith"]
    assert not [o for o in smith.options.values() if o.name in RUNES]
    assert smith.options["battle-runes"].max == 3
