"""The home page's books (issue 39 item 5): grouped by game (our system, then the imported systems that
play it), filtered by `q` from a plain GET form (htmx swaps only the books as one types), and listed from
the rows' columns: an imported book is named without building it from its stored JSON."""
from __future__ import annotations

import re

import pytest

from armylists.lists.library import catalogue
from armylists.models import GameDataSource, GameDataVersion, RulesFile

pytestmark = pytest.mark.django_db


def names(page: str) -> list[str]:
    return re.findall(r'<td><a href="/books/[^"]+">([^<]+)</a></td>', page)


def imported_book(system: str, slug: str, version: str, name: str) -> RulesFile:
    # No data a book could be built from: a page that built it would fail.
    return RulesFile.objects.create(kind="book", system=system, slug=slug, version=version, name=name,
                                    content_hash=f"{slug}-{version}", data={}, imported=True)


def test_books_are_grouped_by_game_each_system_under_its_heading(client):
    page = client.get("/").content.decode()
    games = re.findall(r"<summary><strong>([^<]+)</strong> <span class=\"muted small\">(\d+) books?</span>", page)
    assert games == [("Mordheim", "6"), ("The 9th Age: Fantasy Battles v0.11.9.3", "2"),
                     ("The 9th Age: Fantasy Battles, 2nd edition", "0"), ("Warhammer: The Old World", "3")]
    assert names(page)[:2] == ["Cult of the Possessed", "Reikland Mercenaries"]
    assert 'name="q"' in page and 'method="get"' in page and 'hx-get="/"' in page


def test_q_keeps_the_books_whose_name_id_or_system_holds_it_in_any_case(client):
    page = client.get("/", {"q": "EMPIRE"}).content.decode()
    assert names(page) == ["Empire of Sonnstahl", "Empire of Man"]
    assert "2 books match &ldquo;EMPIRE&rdquo;." in page and 'value="EMPIRE"' in page
    assert names(client.get("/", {"q": "ogre-khans"}).content.decode()) == ["Ogre Khans"]
    assert len(names(client.get("/", {"q": "mordheim"}).content.decode())) == 6   # the system's name
    nothing = client.get("/", {"q": "zzz"}).content.decode()
    assert names(nothing) == [] and "No book matches &ldquo;zzz&rdquo;." in nothing


def test_an_htmx_request_gets_the_books_alone(client):
    response = client.get("/", {"q": "undead"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and body.startswith('<div id="book-groups">') and "<html" not in body
    assert names(body) == ["The Undead"]


def test_a_long_q_is_cut_not_refused(client):
    response = client.get("/", {"q": "x" * 5000})
    assert response.status_code == 200 and f'value="{"x" * 100}"' in response.content.decode()


def test_imported_books_are_named_from_their_rows_newest_version_under_our_game(client, monkeypatch):
    source = GameDataSource.objects.create(repository="BSData/mordheim", maps_to="mordheim")
    GameDataVersion.objects.create(source=source, ref="v1.0", ref_kind="release", status=GameDataVersion.OK,
                                   books=[{"system": "bs-mordheim", "book": "bs-raiders", "version": "r1",
                                           "name": "Raiders"}])
    RulesFile.objects.create(kind="system", system="bs-mordheim", slug="bs-mordheim", version="r1",
                             name="Mordheim (BSData)", content_hash="s", data={})
    imported_book("bs-mordheim", "bs-raiders", "r1", "Raiders")
    imported_book("bs-mordheim", "bs-raiders", "r2", "Raiders")

    def no_build(*args, **kwargs):
        raise AssertionError("the home page built a book")

    monkeypatch.setattr(catalogue, "build_from_stored", no_build)
    page = client.get("/", {"q": "raiders"}).content.decode()
    assert names(page) == ["Raiders"] and 'href="/books/bs-mordheim/bs-raiders/r2/"' in page
    assert re.findall(r"<summary><strong>([^<]+)</strong>", page) == ["Mordheim"]
    assert "<h3>Mordheim (imported data, BSData/mordheim)</h3>" in page
