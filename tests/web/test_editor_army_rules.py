"""Issue 40 item 1 (the army's own rules said on the army): the editor names a book's army rules once,
under the list's header, each text folded open on demand, asked of the list's kind (lists/kinds.py:
army_rules). Our Dwarfen Mountain Holds book states two (rules_data/the-old-world/books/
dwarfen-mountain-holds.yaml:52-56, `special_rules`); a book that states none shows no such section, and an
imported book's rule texts (New Recruit's ruledefs.json) stay on the cards of the units that name them."""
from __future__ import annotations

import re

import pytest

from armylists.lists.kinds import NATIVE
from armylists.lists.library.catalogue import book_for
from armylists.models import ArmyList
from armylists.rules import parse_roster

pytestmark = pytest.mark.django_db


def new_list(client, book: str) -> ArmyList:
    response = client.post("/lists/new/", {"name": "Rules", "book": book, "points_limit": "2000"})
    assert response.status_code == 302, response.content[:300]
    return ArmyList.objects.latest("pk")


def army_rules(page: str) -> list[tuple[str, str]]:
    found = re.search(r'<section class="army-rules".*?</section>', page, re.S)
    if not found:
        return []
    return re.findall(r'<details class="army-rule"><summary>([^<]*)</summary><p>(.*?)</p></details>', found.group(0))


def test_a_book_s_army_rules_are_named_under_the_list_s_header(client_alice):
    army_list = new_list(client_alice, "the-old-world/dwarfen-mountain-holds/2024.4")
    page = client_alice.get(f"/lists/{army_list.pk}/edit/").content.decode()
    book = book_for(parse_roster(army_list.document))
    stated = [(r["name"], r["text"].replace("'", "&#x27;")) for r in book.data["special_rules"]]
    assert [name for name, _text in stated] == ["Runic items", "Runic tattoos"]
    assert army_rules(page) == stated
    # under the list's header and status, before the first section of units
    assert page.index('id="editor-status"') < page.index('id="army-rules"') < page.index('class="units-section"')


def test_a_book_stating_no_army_rules_shows_none(client_alice):
    army_list = new_list(client_alice, "the-old-world/empire-of-man/2024.4")
    page = client_alice.get(f"/lists/{army_list.pk}/edit/").content.decode()
    assert 'id="army-rules"' not in page


def test_an_imported_book_s_rule_texts_are_not_army_rules():
    """An imported book's `special_rules` is the glossary of its units' rules (importers/nr_t9a/texts.py)."""
    book = type("B", (), {"imported": True, "data": {"special_rules": [{"name": "Devastating Charge", "text": "x"}]}})
    assert NATIVE.army_rules(book, None) == []
