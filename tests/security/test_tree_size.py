"""A roster tree's size is bounded at every door (docs/security.md): at most MAX_TREE_UNITS units (root
selections of every force) and MAX_TREE_SELECTIONS selections in all, so judging one stays within about a
second of CPU; one more is a 400 naming the limit, from the anonymous validator too, and nothing is stored."""
from __future__ import annotations

import pytest

from armylists.models import ArmyList
from armylists.rules import ListDocumentError, parse_roster
from armylists.rules.reading.selection_tree import MAX_TREE_SELECTIONS, MAX_TREE_UNITS


def tree(units: int, children: int = 0, forces: int = 1) -> dict:
    """A tree of `units` units spread over `forces` forces (a force holds at most 200 by the document's own
    reader), each unit with `children` selections."""
    selections = [{"id": f"s{i}", "entry": "unit", "selections": [{"id": f"s{i}-{j}", "entry": "model"}
                                                                     for j in range(children)]}
                  for i in range(units)]
    return {"format": "armylist/1", "system": "bs-x", "book": "bs-y", "book_version": "1", "points_limit": 2000,
            "units": [], "forces": [{"id": f"f{k}", "entry": "fe", "catalogue": "cat",
                                     "selections": selections[k::forces]} for k in range(forces)]}


def test_a_tree_at_the_limits_reads_and_one_more_is_refused_naming_it():
    assert sum(len(f.selections) for f in parse_roster(tree(MAX_TREE_UNITS, forces=2)).forces) == 200
    assert sum(1 for s in parse_roster(tree(200, 19)).forces[0].selections for _ in s.walk()) == MAX_TREE_SELECTIONS
    with pytest.raises(ListDocumentError) as units:
        parse_roster(tree(MAX_TREE_UNITS + 1, forces=2))
    assert (units.value.path, units.value.reason) == (
        ("forces",), "the list has 201 units (root selections); a list may have at most 200")
    with pytest.raises(ListDocumentError) as selections:
        parse_roster(tree(100, 40))
    assert (selections.value.path, selections.value.reason) == (
        ("forces",), "the list holds 4100 selections; a list may hold at most 4000")


@pytest.mark.django_db
@pytest.mark.parametrize("document", [tree(201, forces=2), tree(100, 40)], ids=["units", "selections"])
def test_every_door_refuses_a_tree_over_the_limits(client, api_alice, document):
    judged = client.post("/api/v1/validate/", document, content_type="application/json")
    assert judged.status_code == 400 and "a list may" in judged.content.decode()
    created = api_alice.post("/api/v1/lists/", {"document": document}, format="json")
    assert created.status_code == 400 and "a list may" in created.content.decode()
    imported = api_alice.post("/api/v1/lists/import/", document, format="json")
    assert imported.status_code == 400 and "a list may" in imported.content.decode()
    assert ArmyList.objects.count() == 0


def nested(levels: int, child_forces: int = 0) -> dict:
    """One unit whose selections nest `levels` deep (the root selection is the first level), in a force
    that sits `child_forces` forces deep (a force holds selections and is no level of them)."""
    selection: dict = {"id": f"s{levels}", "entry": "model"}
    for level in range(levels - 1, 0, -1):
        selection = {"id": f"s{level}", "entry": "model", "selections": [selection]}
    force = {"id": "f", "entry": "fe", "catalogue": "cat", "selections": [selection]}
    for k in range(child_forces):
        force = {"id": f"f{k}", "entry": "fe", "catalogue": "cat", "selections": [], "forces": [force]}
    document = tree(0)
    document["forces"] = [force]
    return document


def depth_of(roster) -> int:
    def down(s, level):
        return max([level, *(down(c, level + 1) for c in s.selections)])
    forces, deepest = list(roster.forces), 0
    while forces:
        force = forces.pop()
        forces += force.forces
        deepest = max([deepest, *(down(s, 1) for s in force.selections)])
    return deepest


@pytest.mark.parametrize("child_forces", [0, 1])
def test_selections_nested_12_deep_read_and_13_are_refused_as_the_docs_say(child_forces):
    """Issue 43: the force counted as a level, so 12 nested selections were refused where docs/security.md
    and docs/list-format.md allow 12; child forces add no level either."""
    from armylists.rules.reading.selection_tree import MAX_TREE_DEPTH
    assert MAX_TREE_DEPTH == 12
    assert depth_of(parse_roster(nested(12, child_forces))) == 12
    with pytest.raises(ListDocumentError) as refused:
        parse_roster(nested(13, child_forces))
    assert (refused.value.path, refused.value.reason) == (("forces",), "selections nest more than 12 levels deep")
