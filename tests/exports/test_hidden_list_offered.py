"""The hidden list is offered only where the game has one (issue 40 item 5): The 9th Age (000:L133-149)
says so in its system data (`hidden_list: true`, rules_data/t9a-0.11 and t9a-2); The Old World and Mordheim
have no hidden lists, and their lists' download links had offered "PDF, hidden list" all the same."""
from __future__ import annotations

import pytest

from armylists.exports.registry import download_links
from armylists.lists.library.catalogue import disk_library
from armylists.rules import Roster


def links(book) -> list[str]:
    roster = Roster(system=book.system.id, book=book.id, book_version=book.version, points_limit=2000)
    return [label for label, _ in download_links("/x/", book, roster)]


@pytest.mark.parametrize("system, hidden", [("t9a-0.11", True), ("t9a-2", True), ("the-old-world", False),
                                            ("mordheim", False)])
def test_the_systems_data_says_whether_it_has_hidden_lists(system, hidden):
    assert disk_library().systems[system].hidden_list is hidden


@pytest.mark.parametrize("system, expected", [
    ("t9a-0.11", ["Text", "JSON", "PDF roster", "PDF, compact", "PDF, hidden list"]),
    ("the-old-world", ["Text", "JSON", "PDF roster", "PDF, compact"]),
    ("mordheim", ["Text", "JSON", "PDF warband sheet", "PDF roster", "PDF, compact"]),
])
def test_a_lists_downloads_offer_the_hidden_list_only_where_the_game_has_one(system, expected):
    book = next(b for b in disk_library().books.values() if b.system.id == system)
    assert [label for label in links(book) if label in {"Text", "JSON"} or label.startswith("PDF")] == expected
