"""Issue 17: the book page reads as the editor's catalogue does: an entry's cost as first added, its troop
type by the system's name, and "5+" for a unit with no maximum size."""
from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from armylists.lists.library.catalogue import get_book
from armylists.lists.offers.entries import entry_costs

pytestmark = pytest.mark.django_db


def rows(client, system: str, book: str, version: str) -> list[str]:
    page = client.get(reverse("book-detail", args=[system, book, version])).content.decode()
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", row)).split())
            for row in re.findall(r"<tr>(.*?)</tr>", page, flags=re.S)]


def test_artillery_priced_by_its_choice_shows_what_the_catalogue_does(client):
    found = rows(client, "t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    costs = entry_costs(get_book("t9a-0.11", "empire-of-sonnstahl", "0.11.1"))
    # Light and Heavy Artillery cost 0 per model: their price is the compulsory weapon (the book's data).
    assert f"Light Artillery War Machine {costs['light-artillery']} pts 1" in found
    assert f"Heavy Artillery War Machine {costs['heavy-artillery']} pts 1" in found
    assert costs["light-artillery"] > 0 and costs["heavy-artillery"] > 0
    assert "Heavy Infantry Infantry 50 pts (+5 pts each) 10–60" in found  # 10 models at 5 pts, up to 60


def test_troop_types_by_name_and_an_open_maximum_as_a_plus(client):
    found = rows(client, "the-old-world", "empire-of-man", "2024.4")
    assert "State Troops Regular Infantry 50 pts (+5 pts each) 10+" in found
    assert "Empire Archers Regular Infantry 35 pts (+7 pts each) 5+" in found
    text = " ".join(found)
    assert "regular-infantry" not in text and "heavy-cavalry" not in text and "–+" not in text
