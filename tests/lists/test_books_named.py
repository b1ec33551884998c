"""Only the books a request or a command names are built (issue 37 item 5, issue 39 items 2 and 5): check_lists,
an event's check and pages, the new-list form, the API's systems and books, and text reading name the others
from their rows' columns (lists/library/names.py). Builds are counted through the library's own build from the
database (catalogue.build_from_stored), on a site holding three imported BattleScribe books of one system."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from armylists.exports import export_text
from armylists.listfiles.reading import read_list_data
from armylists.lists.kinds import kind_for_book
from armylists.lists.library import catalogue
from armylists.lists.library.catalogue import get_book, report_for
from armylists.lists.library.names import book_label, book_summaries, offered_books, shelved_books, site_systems
from armylists.lists.trees import battlescribe_data
from armylists.models import ArmyList, Event, Submission
from armylists.rules import roster_to_dict

from tests.battlescribe.battlescribe_samples import GST, catalogue as knights_catalogue

pytestmark = pytest.mark.django_db
SYSTEM, SYSTEM_NAME = "bs-test-battles", "Test Battles (BattleScribe)"
# The sample catalogue (tests/battlescribe/battlescribe_samples.py) under three ids and names: three books.
BOOKS = {"bs-test-knights": ("cat-1", "Test Knights"), "bs-test-squires": ("cat-2", "Test Squires"),
         "bs-test-archers": ("cat-3", "Test Archers")}


@pytest.fixture(autouse=True)
def three_books(tmp_path):
    for slug, (cat_id, name) in BOOKS.items():
        text = knights_catalogue().replace('id="cat-1" name="Test Knights"', f'id="{cat_id}" name="{name}"')
        (tmp_path / f"{slug}.cat").write_text(text)
    (tmp_path / "test.gst").write_text(GST)
    call_command("import_battlescribe", str(tmp_path), verbosity=0)
    assert sorted(b for s, b, _ in catalogue.imported_book_keys(SYSTEM)) == sorted(BOOKS)
    battlescribe_data.clear()
    catalogue._stored_books.clear()
    yield
    battlescribe_data.clear()


@pytest.fixture
def builds(monkeypatch):
    """The books built from the database from now on, by id, in order."""
    made: list[str] = []
    real = catalogue.build_from_stored

    def recording(system_data, items, book_data, source):
        made.append(book_data["id"])
        return real(system_data, items, book_data, source)
    catalogue._stored_books.clear()
    monkeypatch.setattr(catalogue, "build_from_stored", recording)
    return made


def version(book: str) -> str:
    return next(v for s, b, v in catalogue.imported_book_keys(SYSTEM) if b == book)


def squires_tree() -> dict:
    """A new roster tree of Test Squires (a Captain, as a new list of it starts), as a document."""
    book = get_book(SYSTEM, "bs-test-squires", version("bs-test-squires"))
    roster = kind_for_book(book).start(book, "Squires", 2000, None)
    return roster_to_dict(roster)


def test_check_lists_of_lists_naming_one_book_builds_that_book_alone(tmp_path, capsys, builds):
    document = squires_tree()
    (tmp_path / "lists").mkdir()
    for n in range(3):
        (tmp_path / "lists" / f"list-{n}.json").write_text(json.dumps({**document, "name": f"Squires {n}"}))
    builds.clear()
    catalogue._stored_books.clear()
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(tmp_path / "lists"), "--system", SYSTEM, "--points", "2000", "--jobs", "1")
    out = capsys.readouterr().out
    assert stop.value.code in (0, 1) and "3 lists:" in out
    assert builds == ["bs-test-squires"]     # once, for three lists; the other two books never built


def test_check_lists_of_a_text_list_builds_the_book_its_header_names(tmp_path, capsys, builds):
    document = squires_tree()
    from armylists.rules import parse_roster
    roster = parse_roster(document)
    text = export_text(get_book(SYSTEM, "bs-test-squires", version("bs-test-squires")), roster, report_for(roster))
    builds.clear()
    catalogue._stored_books.clear()
    read, book = read_list_data(text.encode(), "squires.txt")
    assert (book.id, read.book, [u.entry for u in read.units]) == ("bs-test-squires", "bs-test-squires",
                                                                   [u.entry for u in roster.units])
    assert builds == ["bs-test-squires"]


def test_a_text_list_naming_an_unknown_book_builds_none_and_lists_the_books_by_name(builds):
    from armylists.listfiles.formats import ListFileError

    text = ("System: Test Battles (BattleScribe)\nBook: Test Lancers r1\nPoints limit: 2000\n\n")
    with pytest.raises(ListFileError) as error:
        read_list_data(text.encode(), "lancers.txt")
    assert 'no book "Test Lancers" in Test Battles (BattleScribe)' in str(error.value)
    assert builds == []


def test_an_event_is_set_up_checked_and_shown_building_only_its_submissions_books(client_alice, alice, builds):
    assert client_alice.get(reverse("event-new")).status_code == 200
    assert client_alice.get(reverse("event-list")).status_code == 200
    assert builds == []                     # every system and book of the form named from columns
    event = Event.objects.create(organiser=alice, name="Squires cup", date=timezone.now().date() + timedelta(days=9),
                                 system=SYSTEM, points_limit=2000, deadline=timezone.now() + timedelta(days=3))
    document = squires_tree()
    builds.clear()
    catalogue._stored_books.clear()
    for player in ("Ann", "Ben"):
        Submission.objects.create(event=event, player_name=player, document=document, checksum=player,
                                  book="bs-test-squires", book_version=document["book_version"],
                                  submitted_at=timezone.now())
    from armylists.events.checking import check_event
    checked = check_event(event)
    assert [s.army_name for s in checked] == ["Test Squires", "Test Squires"]
    page = client_alice.get(reverse("event-detail", args=[event.pk]))
    csv = client_alice.get(reverse("event-csv", args=[event.pk]))
    edit = client_alice.get(reverse("event-edit", args=[event.pk]))
    assert (page.status_code, csv.status_code, edit.status_code) == (200, 200, 200)
    assert "Test Squires" in csv.content.decode()
    assert builds == ["bs-test-squires"]


def test_event_rules_build_the_allowed_books_only_when_there_are_rules(alice, builds):
    from armylists.events.checking import ruleset_for

    event = Event.objects.create(organiser=alice, name="Cup", date=timezone.now().date(), system=SYSTEM,
                                 points_limit=2000, deadline=timezone.now(), books=["bs-test-archers"])
    ruleset = ruleset_for(event)
    assert (ruleset.system_name, ruleset.book_names) == (SYSTEM_NAME, {"bs-test-archers": "Test Archers"})
    assert builds == []
    event.rules_text = "rules:\n  - {id: three-of-each, type: each_entry_max, params: {max: 3}}\n"
    assert [r.id for r in ruleset_for(event).event.rules] == ["three-of-each"]
    assert builds == ["bs-test-archers"]    # the allowed book, not the system's other two


def test_the_new_list_form_offers_every_book_and_builds_only_the_one_chosen(client_alice, alice, builds):
    page = client_alice.get(reverse("list-new")).content.decode()
    assert all(f"{name} (" in page for _, name in BOOKS.values())
    assert builds == []
    key = f"{SYSTEM}/bs-test-archers/{version('bs-test-archers')}"
    response = client_alice.post(reverse("list-new"), {"name": "Archers", "book": key, "points_limit": "2000"})
    assert response.status_code == 302
    made = ArmyList.objects.get(owner=alice, name="Archers")
    assert (made.book, made.points_limit) == ("bs-test-archers", 2000)
    assert builds == ["bs-test-archers"]


def test_the_apis_systems_and_books_build_no_book_and_count_entries_as_built(api_alice, builds):
    systems = {s["id"]: s for s in api_alice.get("/api/v1/systems/").json()}
    assert [b["id"] for b in systems[SYSTEM]["books"]] == sorted(BOOKS)
    assert api_alice.get(f"/api/v1/systems/{SYSTEM}/").json()["name"] == SYSTEM_NAME
    listed = [b for b in api_alice.get("/api/v1/books/").json() if b["system"] == SYSTEM]
    assert builds == []
    assert [(b["id"], b["name"], b["imported"]) for b in listed] == [
        ("bs-test-archers", "Test Archers", True), ("bs-test-knights", "Test Knights", True),
        ("bs-test-squires", "Test Squires", True)]
    built = {b["id"]: len(get_book(SYSTEM, b["id"], b["version"]).entries) for b in listed}
    assert {b["id"]: b["entries"] for b in listed} == built and all(built.values())


def test_the_names_are_the_built_books_names(builds):
    shelved = [b for b in shelved_books() if b.system.id == SYSTEM]
    offered = {b.id: b for b in offered_books() if b.system.id == SYSTEM}
    assert builds == []
    assert site_systems()[SYSTEM].name == SYSTEM_NAME
    assert book_label(SYSTEM, "bs-test-knights@r7") == "Test Knights r7"
    assert book_label(SYSTEM, "bs-no-such") == "bs-no-such"
    for listing in shelved:
        book = get_book(*listing.key)
        assert (listing.name, listing.system.name) == (book.name, book.system.name)
        assert book_summaries([listing])[listing.key].compositions == tuple(
            (c.id, c.name) for c in book.compositions.values())
        assert (offered[listing.id].default_limit, list(offered[listing.id].compositions)) == (
            book.default_limit, list(book.compositions))


def test_a_book_of_a_system_only_the_database_holds_reads_none_of_our_books(builds):
    key = (SYSTEM, "bs-test-knights", version("bs-test-knights"))
    caches = (catalogue.disk_library, catalogue._book_file, catalogue._system_part)
    for cache in caches:
        cache.cache_clear()
    try:
        book = get_book(*key)
        assert (book.key, book.name, builds) == (key, "Test Knights", ["bs-test-knights"])
        assert catalogue.disk_library.cache_info().currsize == 0     # not one book of rules_data read
        assert catalogue._book_file.cache_info().currsize == 0
    finally:
        for cache in caches:
            cache.cache_clear()


def event_form(**changes) -> dict:
    day = timezone.now().date() + timedelta(days=30)
    data = {"name": "Knights open", "date": day.isoformat(), "system": SYSTEM, "points_limit": "2000",
            "composition": "", "deadline": f"{(day - timedelta(days=7)).isoformat()}T18:00",
            "allowed_books": [f"{SYSTEM}/bs-test-knights"], "rules_text": ""}
    data.update(changes)
    return data


def test_an_event_of_an_imported_system_is_set_up_and_refused_by_name_without_a_book_built(client_alice, builds):
    # A composition no book of the system has: refused with the form's message (the books' compositions read
    # from their rows, not built), and a book of another system named from its row.
    refused = client_alice.post(reverse("event-new"), event_form(composition="nope",
                                                                 allowed_books=["t9a-0.11/ogre-khans"]))
    page = refused.content.decode()
    assert refused.status_code == 400
    assert "No book of this system has a composition &#x27;nope&#x27;." in page
    assert f"Ogre Khans is not a book of {SYSTEM_NAME}." in page
    made = client_alice.post(reverse("event-new"), event_form())
    assert made.status_code == 302
    event = Event.objects.get()
    assert (event.system, event.books) == (SYSTEM, ["bs-test-knights"])
    assert builds == []
    # With rules to read, the allowed book alone is built to read them.
    rules = "- {id: captains, type: count, params: {label: Captains, select: {entry: captain}, max: 1}}"
    again = client_alice.post(reverse("event-edit", args=[event.pk]), event_form(rules_text=rules))
    assert again.status_code == 302, again.content.decode()[:2000]
    assert builds == ["bs-test-knights"]


def test_check_lists_looks_for_a_composition_in_the_books_rows_without_building_them(tmp_path, capsys, builds):
    (tmp_path / "squires.json").write_text(json.dumps(squires_tree()))
    builds.clear()
    catalogue._stored_books.clear()
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(tmp_path / "squires.json"), "--system", SYSTEM, "--points", "2000",
                     "--composition", "grand-army", "--jobs", "1")
    assert stop.value.code == 2
    assert capsys.readouterr().err.strip() == ("--composition: no book of the event has the composition "
                                               "'grand-army'; known: none")
    assert builds == []
