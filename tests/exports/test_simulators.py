"""Issue 42 item 6: a Mordheim warband as Tabletop Simulator model cards, laid out as Mordheim Roster
Builder writes them (its js/tts.js): the profile in its colour, "Special Rules:", then "Equipment:", in
Tabletop Simulator's colour markup (`[RRGGBB]text[-]`), which the test reads back as Tabletop Simulator
does: every colour opened is a six-digit hex colour and closed before the next opens."""
from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from armylists.exports.registry import Listed, download_links, export, find
from armylists.lists.library.catalogue import disk_library
from armylists.rules import parse_roster

from ..conftest import EXAMPLES
from ..web.conftest import make_list

MARKUP = re.compile(r"\[([0-9A-Fa-f]{6})\](.*?)\[-\]")
STATLINE = re.compile(r"^M \S+   WS \S+   BS \S+   S \S+   T \S+   W \S+   I \S+   A \S+   Ld \S+$")


def cards(name: str) -> str:
    document = json.loads((EXAMPLES / name).read_text())
    book = disk_library().book(document["system"], document["book"], document["book_version"])
    return export(find("tts"), Listed(book, parse_roster(document)))


def as_tabletop_simulator_reads(text: str) -> str:
    """The text with its colour markup read: each `[RRGGBB]...[-]` its inner text; anything else left over
    (an unclosed colour, a bad code) would show as it is written, and fails here."""
    plain = MARKUP.sub(lambda m: m.group(2), text)
    assert not re.search(r"\[[0-9A-Fa-f]{6}\]|\[-\]", plain), plain
    return plain


def test_a_heros_card_is_its_profile_rules_and_kit_in_mordheim_roster_builders_layout():
    text = cards("reikland-mercenaries-legal.json")
    captain = text.split("== ")[1]
    assert captain == (
        "Mercenary Captain ==\n"
        "[7AD1A4]M 4   WS 4   BS 4   S 3   T 3   W 1   I 4   A 1   Ld 8[-]\n"
        "[5ACFFF]Special Rules:[-]\n"
        "\u2022 Leader\n"
        "[5ACFFF]Equipment:[-] Dagger, Sword, Pistol, Light armour\n"
        "XP: 20\n\n")


def test_every_card_reads_back_as_tabletop_simulator_shows_it():
    for example in ("reikland-mercenaries-legal.json", "undead-legal.json", "witch-hunters-legal.json"):
        plain = as_tabletop_simulator_reads(cards(example))
        blocks = plain.split("\n\n")[1:]
        assert blocks and all(b.startswith("== ") for b in blocks)
        for block in blocks:
            lines = block.splitlines()
            profiles = [line for line in lines[1:] if line.startswith("M ")]
            assert profiles and all(STATLINE.match(p) for p in profiles), block
            assert "Special Rules:" in lines and any(line.startswith("Equipment: ") for line in lines), block


def test_a_group_of_henchmen_is_one_card_for_its_models():
    text = cards("reikland-mercenaries-legal.json")
    document = json.loads((EXAMPLES / "reikland-mercenaries-legal.json").read_text())
    groups = [u for u in document["units"] if (u.get("size") or 1) > 1]
    assert groups  # the example has henchmen groups
    for group in groups:
        assert f" \u00d7 {group['size']} ==" in text


def test_only_a_warband_is_offered_simulator_cards():
    library = disk_library()
    for example, offered in (("reikland-mercenaries-legal.json", True), ("empire-2400-legal.json", False),
                             ("empire-of-man-legal.json", False)):
        document = json.loads((EXAMPLES / example).read_text())
        book = library.book(document["system"], document["book"], document["book_version"])
        links = dict(download_links("/x/", book, parse_roster(document)))
        assert (links.get("Tabletop Simulator cards") == "/x/tts.txt/") is offered, example


@pytest.mark.django_db
def test_the_download_is_the_cards_and_a_list_of_another_system_has_none(client, alice):
    client.force_login(alice)
    warband = make_list(alice, json.loads((EXAMPLES / "reikland-mercenaries-legal.json").read_text()))
    response = client.get(reverse("list-download", args=[warband.pk, "tts.txt"]))
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"].endswith('.tts.txt"')
    assert response.content.decode() == cards("reikland-mercenaries-legal.json")
    army = make_list(alice, json.loads((EXAMPLES / "empire-2400-legal.json").read_text()))
    assert client.get(reverse("list-download", args=[army.pk, "tts.txt"])).status_code == 404
