"""The editor's answer to a change of one unit: only the parts of the page it changed (htmx out-of-band
swaps), and the whole list when the change touches what every card shows."""
from __future__ import annotations

import re

import pytest

from armylists.rules import parse_roster

from .conftest import unit_of

pytestmark = pytest.mark.django_db


def swapped(response) -> dict[str, str]:
    """The ids of the elements the answer swaps out of band, with their tag."""
    return {m.group(2): m.group(1) for m in re.finditer(r'<(\w+)[^>]*\sid="([^"]+)"[^>]*hx-swap-oob=', response.content.decode())}


def test_a_unit_size_answers_its_card_the_headings_the_status_and_the_report(edit, alice_list):
    response = edit(alice_list, "unit-update", {"only": "size", "size": 31}, "halberds", htmx=True)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert unit_of(alice_list, "halberds")["size"] == 31
    parts = swapped(response)
    assert {k for k in parts if k.startswith("unit-")} == {"unit-halberds"}  # no other unit's card
    assert {"editor-status", "report", "editor-messages"} <= set(parts)
    assert {f"section-{c}-title" for c in ("lords", "heroes", "core", "special", "rare")} <= set(parts)
    assert "editor-main" not in response.content.decode()
    assert response["X-List-Revision"] == str(alice_list.revision)
    html = response.content.decode()
    assert re.search(r'id="unit-halberds" open hx-swap-oob="true"', html)  # drawn open, as it was left
    assert alice_list.total_points == 2396 and "<strong>2,396</strong>" in html  # the new total, 6 pts more
    assert len(response.content) < 20_000


def test_another_unit_whose_violations_change_is_redrawn_too(edit, alice_list, legal_document):
    legal_document["units"][2]["general"] = True  # the prelate is named General too: general.multiple is his
    from armylists.lists.library.catalogue import report_for
    roster = parse_roster(legal_document)
    alice_list.set_document(roster, report_for(roster))
    alice_list.save()
    response = edit(alice_list, "unit-update", {"only": "general"}, "marshal", htmx=True)
    assert "general" not in unit_of(alice_list, "marshal")
    assert {k for k in swapped(response) if k.startswith("unit-")} == {"unit-marshal", "unit-prelate"}


def test_an_item_taken_redraws_the_whole_list(edit, alice_list):
    """Items offered depend on what the rest of the army took: every card may change."""
    response = edit(alice_list, "item-add", {"bearer": "model", "item": "dispel-scroll"}, "prelate", htmx=True)
    assert "dispel-scroll" in unit_of(alice_list, "prelate").get("items", [])
    assert "HX-Reswap" not in response and 'id="editor-main"' in response.content.decode()
    assert {"unit-halberds", "unit-marshal"} <= {m for m in re.findall(r'id="(unit-[^"]+)"', response.content.decode())}


def test_every_part_the_answer_swaps_is_on_the_editor_page(client_alice, edit, alice_list):
    """htmx logs oobErrorNoTarget for an out-of-band part the page lacks (#editor-messages, when no message
    was shown): each one must be there to be swapped."""
    from django.urls import reverse

    page = client_alice.get(reverse("list-edit", args=[alice_list.pk])).content.decode()
    assert '<div id="editor-messages">\n  </div>' in page  # empty: nothing said yet
    response = edit(alice_list, "unit-update", {"only": "size", "size": 31}, "halberds", htmx=True)
    parts = swapped(response)
    assert parts["editor-messages"] == "div"
    assert '<div id="editor-messages" hx-swap-oob="innerHTML"></div>' in response.content.decode()
    missing = [part for part in parts if f'id="{part}"' not in page]
    assert missing == []
