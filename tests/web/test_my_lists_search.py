"""Issue 42 item 4: "My lists" searched and sorted by the query string alone (no JavaScript), each list
with its system's mark."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

from armylists.editor.my_lists import mark_of, parse_sort
from armylists.models import ArmyList

from ..conftest import EXAMPLES
from .conftest import make_list

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(alice, legal_document):
    illegal = json.loads((EXAMPLES / "empire-2400-illegal.json").read_text())
    made = [make_list(alice, {**legal_document, "name": "Bravo"}),
            make_list(alice, {**illegal, "name": "alpha knights"}),
            make_list(alice, {**legal_document, "name": "Charlie", "units": legal_document["units"][:3]})]
    # last changed: Bravo newest, then Charlie, then alpha
    for n, army_list in enumerate((made[1], made[2], made[0])):
        ArmyList.objects.filter(pk=army_list.pk).update(updated=f"2026-01-0{n + 1}T12:00:00Z")
    return made


def names(client, **query):
    return [r["list"].name for r in client.get(reverse("my-lists"), query).context["rows"]]


@pytest.mark.parametrize("sort, expected", [
    ("", ["Bravo", "Charlie", "alpha knights"]),  # last changed first
    ("changed", ["alpha knights", "Charlie", "Bravo"]),
    ("name", ["alpha knights", "Bravo", "Charlie"]),  # case aside
    ("-name", ["Charlie", "Bravo", "alpha knights"]),
    ("points", ["Charlie", "alpha knights", "Bravo"]),
    ("legal", ["Bravo", "alpha knights", "Charlie"]),  # legal first, then by name
    ("-legal", ["Charlie", "alpha knights", "Bravo"]),
    ("nonsense", ["Bravo", "Charlie", "alpha knights"]),
])
def test_it_sorts_by_the_query_string(client_alice, three, sort, expected):
    points = {a.name: (a.total_points, a.valid) for a in ArmyList.objects.all()}
    # what the orders stand on: Charlie's three characters cost least and are no legal army
    assert points == {"Charlie": (points["Charlie"][0], False), "alpha knights": (1903, False), "Bravo": (2390, True)}
    assert points["Charlie"][0] < 1903
    assert names(client_alice, **({"sort": sort} if sort else {})) == expected


def test_it_searches_name_army_and_system_by_every_word(client_alice, three):
    assert names(client_alice, q="KNIGHTS") == ["alpha knights"]
    assert names(client_alice, q="sonnstahl", sort="name") == ["alpha knights", "Bravo", "Charlie"]
    assert names(client_alice, q="9th age bravo") == ["Bravo"]
    page = client_alice.get(reverse("my-lists"), {"q": "dragons"}).content.decode()
    assert "None of your lists holds “dragons”." in page and 'id="list-search"' in page


def test_the_header_links_turn_the_direction_and_keep_the_search(client_alice, three):
    page = client_alice.get(reverse("my-lists"), {"q": "a", "sort": "name"}).content.decode()
    assert 'href="?q=a&amp;sort=-name" id="sort-name"' in page
    assert 'href="?q=a&amp;sort=points" id="sort-points"' in page
    assert '<option value="name" selected>' in page


def test_each_list_carries_its_systems_mark(client_alice, three):
    page = client_alice.get(reverse("my-lists")).content.decode()
    mark = mark_of("t9a-0.11", "The 9th Age: Fantasy Battles v0.11.9.3")
    assert f'<span class="system-mark mark-{mark.colour}" aria-hidden="true">T9A</span>' in page
    assert page.count("system-mark mark-") == 3


def test_marks_are_made_from_the_systems_name():
    assert mark_of("the-old-world", "Warhammer: The Old World").letters == "TOW"
    assert mark_of("t9a-2", "The 9th Age: Fantasy Battles, 2nd edition").letters == "T9A"
    assert mark_of("mordheim", "Mordheim").letters == "M"
    assert mark_of("t9a-2", "x").colour == mark_of("t9a-2", "y").colour  # the colour follows the id


def test_a_bad_sort_is_the_default():
    assert parse_sort("-changed") == ("changed", True)
    assert parse_sort("--name") == ("changed", True)
    assert parse_sort("points") == ("points", False)
