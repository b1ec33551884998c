"""editor/changes.py: what an edit's answer redraws of a list, worked out from its sections as drawn before
and after (placed_changes) and from its catalogue (catalogue_changes). Each case at its boundary: a card
placed after the one before it, else before the first kept one, else its section drawn whole; a unit moved,
a section come or gone, a list empty before or after: the whole list drawn again (None)."""
from __future__ import annotations

from armylists.editor.changes import Placed, catalogue_changes, placed_changes
from armylists.editor.unit_cards import Section, UnitCard


def card(uid: str, points: int = 10, **more) -> UnitCard:
    return UnitCard(id=uid, name=uid, label="", size=None, points=points, roles=[], summary="", errors=[],
                    warnings=[], category="c", **more)


def section(sid: str, *cards: UnitCard) -> Section:
    return Section(sid, sid, sum(c.points for c in cards), 0.0, "", "ok", list(cards))


def test_a_card_added_after_another_is_placed_after_it():
    before = [section("chars", card("a")), section("core", card("b"))]
    after = [section("chars", card("a"), card("a2")), section("core", card("b"))]
    assert placed_changes(before, after) == Placed(added={"a2": "afterend:#unit-a"})


def test_cards_added_one_after_another_are_placed_in_turn():
    before = [section("core", card("b"))]
    after = [section("core", card("b"), card("c"), card("d"))]
    assert placed_changes(before, after).added == {"c": "afterend:#unit-b", "d": "afterend:#unit-c"}


def test_a_card_added_first_of_its_section_goes_before_the_first_kept_one():
    before = [section("core", card("b"))]
    after = [section("core", card("n"), card("b"))]
    assert placed_changes(before, after).added == {"n": "beforebegin:#unit-b"}


def test_a_section_empty_before_or_after_is_drawn_whole():
    before = [section("chars", card("a")), section("core")]
    assert placed_changes(before, [section("chars", card("a")), section("core", card("b"))]) == Placed(sections={"core"})
    assert placed_changes([section("chars", card("a")), section("core", card("b"))], before) == Placed(sections={"core"})


def test_a_section_whose_every_card_is_replaced_is_drawn_whole():
    before = [section("chars", card("k")), section("core", card("b"))]
    after = [section("chars", card("k")), section("core", card("c"))]
    assert placed_changes(before, after) == Placed(sections={"core"})


def test_a_removed_card_is_dropped_and_a_changed_one_redrawn():
    before = [section("core", card("b"), card("c"), card("d"))]
    after = [section("core", card("b", points=12), card("d"))]
    assert placed_changes(before, after) == Placed(changed={"b"}, removed=["c"])


def test_a_card_s_place_at_its_section_s_ends_counts_only_where_it_has_move_buttons():
    tree_before = [section("core", card("b", last=True))]
    tree_after = [section("core", card("b"), card("c", last=True))]
    assert placed_changes(tree_before, tree_after) == Placed(added={"c": "afterend:#unit-b"})
    moves = {"move": "/move/"}
    ours_before = [section("core", card("b", last=True, urls=moves))]
    ours_after = [section("core", card("b", urls=moves), card("c", last=True, urls=moves))]
    assert placed_changes(ours_before, ours_after) == Placed(changed={"b"}, added={"c": "afterend:#unit-b"})


def test_the_whole_list_is_drawn_again_when_units_move_or_sections_change():
    a, b = card("a"), card("b")
    assert placed_changes([section("core", a, b)], [section("core", b, a)]) is None   # moved
    assert placed_changes([section("core", a), section("rare", b)], [section("core", a, b), section("rare")]) is None
    assert placed_changes([section("core", a)], [section("core", a), section("rare", b)]) is None   # a section came
    assert placed_changes([section("core")], [section("core", a)]) is None   # the list was empty: its note goes
    assert placed_changes([section("core", a)], [section("core")]) is None   # the list is empty: its note comes


def entry(eid: str, detail: str = "") -> dict:
    return {"id": eid, "name": eid, "cost": "10 pts", "detail": detail, "unavailable": detail, "search": eid}


def test_the_catalogue_s_changed_entries_are_swapped_by_their_buttons():
    before = [{"id": "s", "entries": [entry("monks", "needs a Plague Priest in the army"), entry("rats")],
               "allied": False}]
    after = [{"id": "s", "entries": [entry("monks"), entry("rats")], "allied": False}]
    assert catalogue_changes(before, after) == [{"e": entry("monks"), "allied": False}]
    assert catalogue_changes(after, after) == []
    gone = [{"id": "s", "entries": [entry("rats")], "allied": False}]
    assert catalogue_changes(before, gone) is None   # an entry went: the whole catalogue drawn again


def test_a_unit_id_a_selector_cannot_name_redraws_the_list():
    """A roster read from a .ros keeps the file's selection ids; one with a dot or a colon would make the
    answer's "afterend:#unit-<id>" a broken selector."""
    assert placed_changes([section("core", card("a.1"))], [section("core", card("a.1"), card("b"))]) is None
    assert placed_changes([section("core", card("a-1_x"))], [section("core", card("a-1_x"), card("b"))]) == \
        Placed(added={"b": "afterend:#unit-a-1_x"})
