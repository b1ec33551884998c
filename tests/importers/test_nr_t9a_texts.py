"""New Recruit's T9A data in a player's words (issue 40 item 6): a weapon's table (ruledefs.json) kept as
a table, a line a row, where dropping its HTML ran it into one word; a condition names the unit or option
that meets it ("only for a Runic Smith"), not the data's ref ("needs runic_smith"). Dwarven Holds at the
bundle's head (b543015), read from ../shared/external/new-recruit-t9a at run time."""
from __future__ import annotations

from armylists.importers.nr_t9a.groups import plain_ref
from armylists.importers.nr_t9a.texts import plain
from armylists.lists.offers.rule_texts import book_rule_texts

from tests.importers.test_nr_t9a_prices import books
from tests.importers.nr_summaries import needs_data


def test_a_table_keeps_its_rows_and_cells():
    assert plain("<table><tr><th>Name</th><th>Aim</th><th>Range</th></tr><tr><td>Repeater Handbow</td><td>X</td>"
                 "<td>12\"</td></tr></table><br> Then a sentence.") == (
        "Name | Aim | Range\nRepeater Handbow | X | 12\"\nThen a sentence.")
    assert plain("<b>Attack</b> <i>Attributes</i>: Accurate<br/>More") == "Attack Attributes: Accurate\nMore"
    assert plain(None) == ""


def test_a_ref_in_words():
    assert plain_ref("runic_smith") == "runic smith"
    assert plain_ref("tag_Light Armour") == "light armour"


@needs_data
def test_the_forge_guns_table_and_the_runic_smiths_runes_in_a_players_words():
    book = books("dh")["dh"]
    assert book_rule_texts(book)["Forge Gun"] == (
        "Aim | Range | Shots | Str | AP\n3 | 18 | 1 | 4 | 0\n"
        "Attack Attributes: March and Shoot, Flaming Attacks, Stand and Shoot, Always hits on 3+")
    labels = {limit["label"] for rule in book.rules for limit in (rule.params.get("limits") or [])}
    assert {"Rune of Devouring (only for a Runic Smith)", "Rune of Grounding (only for a Runic Smith)",
            "Runic Standard of Grudges (not for Core units)"} <= labels
    assert not [label for label in labels if "runic_smith" in label or "core_unit" in label]


def test_an_army_wide_limit_is_labelled_by_the_words_the_converter_gives():
    from armylists.importers.nr_t9a.limits import Limits
    named = Limits(words=lambda refs: " or ".join({"generalEnvy": "a Kuulima's Deceiver with General"}[r] for r in refs))
    named.army_has(["generalEnvy"], "own", "Piercing Spike")
    named.army_has_not([{"refs": ["generalEnvy"], "perPoints": 700, "amount": 2}], ["generalEnvy"], "own", "X")
    assert sorted(limit["label"] for limit in named.limits.values()) == [
        "Piercing Spike (needs a Kuulima's Deceiver with General in the army)",
        "a Kuulima's Deceiver with General per 700 points"]
    bare = Limits()  # no converter: the refs themselves, as before
    bare.army_has(["generalEnvy"], "own", "Piercing Spike")
    assert [limit["label"] for limit in bare.limits.values()] == ["Piercing Spike (needs generalEnvy in the army)"]


@needs_data
def test_army_wide_limits_name_the_unit_and_option_not_the_datas_ref():
    """Daemon Legions' sin items need a General of that sin, a ref (`generalEnvy`) that a Kuulima's
    Deceiver's General option carries; Dwarven Holds' one General and Gorgons' models (a unit's "Number")."""
    found = books("dl", "dh", "de")

    def army_labels(book):
        return {limit["label"] for rule in book.rules if rule.id == "nr-limits"
                for limit in rule.params["limits"] if limit.get("scope") != "unit"}
    dl, dh, de = (army_labels(found[a]) for a in ("dl", "dh", "de"))
    assert {"Piercing Spike (needs a Kuulima's Deceiver with General in the army)",
            "Digestive Vomit (needs a Maw of Akaan with General in the army)",
            "Favoured of Pride (needs an Omen of Savar with General in the army)"} <= dl
    assert "General" in dh and "engines of war per 500 points" in dh
    assert "Gorgons" in de
    raw = [label for label in dl | dh | de if any(ref in label for ref in ("generalEnvy", "army_general", "army_bsb",
                                                                            "gorgon_numbers", "engines_of_war"))]
    assert raw == []
