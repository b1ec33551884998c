"""Books imported from BattleScribe work everywhere the hand-written ones do: the new-list form, the API,
the PDF, text export and import, events and check_lists. What their import could not map (the book's
`unchecked`) is listed on the book's page, and a list, its Report and its PDF say only that there is some
(issue 22 item 4)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from armylists.lists.library.catalogue import get_book, report_for
from armylists.exports import export_text
from armylists.exports import parse_list_text
from armylists.models import ArmyList, BookGameData, Event, Submission
from armylists.rules import parse_roster

from tests.battlescribe.battlescribe_samples import GST, catalogue

pytestmark = pytest.mark.django_db
SYSTEM, BOOK, VERSION = "bs-test-battles", "bs-test-knights", "r7"
UNCHECKED = "Not checked, name or profile modifier (display only): Test Knights > Captain"
SAID = "This book's data has rules the site cannot check: see the book's page."


@pytest.fixture(autouse=True)
def imported(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(tmp_path), verbosity=0)
    # A book imported before its game data was kept: its lists stay in our flattened shape, judged by our
    # engine (a book with its game data makes roster trees: tests/battlescribe/test_battlescribe_site_tree.py).
    BookGameData.objects.all().delete()


def document(knights: int = 1, limit: int = 2000) -> dict:
    return {"format": "armylist/1", "name": "Imported knights", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
            "points_limit": limit, "units": [{"id": "c", "entry": "captain"}]
            + [{"id": f"k{i}", "entry": "knights", "size": 3, "options": {"lance": 1}} for i in range(knights)]}


def test_the_new_list_form_offers_the_book_and_makes_a_list_of_it(client, alice):
    client_alice = client
    client_alice.force_login(alice)
    page = client_alice.get(reverse("list-new")).content.decode()
    assert f'value="{SYSTEM}/{BOOK}/{VERSION}"' in page and "Test Knights (r7)" in page
    response = client_alice.post(reverse("list-new"), {"name": "Mine", "book": f"{SYSTEM}/{BOOK}/{VERSION}",
                                                        "points_limit": "2000"})
    saved = ArmyList.objects.get(owner=alice)
    assert response.status_code == 302 and (saved.system, saved.book, saved.book_version) == (SYSTEM, BOOK, VERSION)
    client_alice.post(reverse("unit-add", args=[saved.pk]), {"entry": "knights", "revision": saved.revision})
    saved.refresh_from_db()
    assert [u["entry"] for u in saved.document["units"]] == ["knights"] and saved.total_points == 10 + 3 * 20
    editor = client_alice.get(reverse("list-edit", args=[saved.pk])).content.decode()
    assert "Banner of Speed" in editor and "+2 pts per model" in editor  # the Lance, per model of the unit
    # The report panel says there is something not checked, and where to read it; never the importer's notes.
    assert "Test Knights &gt; Captain" not in editor and "name or profile modifier" not in editor
    assert ("<li>This book&#x27;s data has rules the site cannot check: see the book&#x27;s page.</li>" in editor
            and f'<a href="/books/{SYSTEM}/{BOOK}/{VERSION}/#not-checked">The book\'s page</a>' in editor)


def test_the_api_describes_the_book_and_validates_a_list_of_it(api_alice):
    data = api_alice.get(f"/api/v1/books/{SYSTEM}/{BOOK}/{VERSION}/").json()
    assert data["imported"] is True and [e["id"] for e in data["entries"]] == ["knights", "captain"]
    assert data["unchecked"] == [UNCHECKED]
    response = api_alice.post("/api/v1/validate/", document(knights=5), format="json")
    body = response.json()
    assert response.status_code == 200 and body["valid"] is False
    assert [(i["code"], i["message"]) for i in body["violations"]] == [
        ("tally.max", "Knights: 5 taken in the army; at most 4.")]


def test_the_report_and_the_pdf_say_that_something_is_not_checked_and_not_what(tmp_path, capsys):
    report = report_for(parse_roster(document()))
    assert report.valid and report.total_points == 100 + 10 + 3 * 22 and report.unchecked == (SAID,)
    path = tmp_path / "list.json"
    path.write_text(json.dumps(document()))
    call_command("export_list", str(path), "--format", "pdf", "--output", str(tmp_path / "list.pdf"))
    from pypdf import PdfReader
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "list.pdf").pages)
    text = " ".join(text.split())
    assert "Test Knights" in text and SAID in text
    assert "Test Knights > Captain" not in text and "Not checked," not in text


def test_the_books_page_lists_what_is_not_checked_in_plain_words(client):
    page = " ".join(client.get(f"/books/{SYSTEM}/{BOOK}/{VERSION}/").content.decode().split())
    assert ('<h2 id="not-checked">What the site does not check</h2> <p class="muted">These parts of the book\'s '
            'data have no form in the site\'s checks: a list of this book is checked without them.</p>') in page
    assert ('<li>A name or profile changed by a modifier (shown only; no rule depends on it) (1) <details>'
            '<summary>Where</summary><ul><li>Test Knights &gt; Captain</li></ul></details></li>') in page
    assert "Not checked," not in page


def test_text_export_reads_back_as_the_same_list():
    roster = parse_roster(document(knights=2))
    book = get_book(SYSTEM, BOOK, VERSION)
    text = export_text(book, roster, report_for(roster))
    again = parse_list_text(text, [book], "text", lookup=get_book)
    assert (again.book, again.book_version, sorted((u.entry, u.size, u.options) for u in again.units)) == \
        (BOOK, VERSION, sorted((u.entry, u.size, u.options) for u in roster.units))


def test_check_lists_checks_an_event_folder_of_imported_lists(tmp_path, capsys):
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "legal.json").write_text(json.dumps(document()))
    (tmp_path / "lists" / "illegal.json").write_text(json.dumps(document(knights=5)))
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(tmp_path / "lists"), "--system", SYSTEM, "--points", "2000")
    out = capsys.readouterr().out
    assert stop.value.code == 1
    assert "Knights: 5 taken in the army; at most 4." in out
    rows = {line.split()[0]: line for line in out.splitlines() if line.startswith(("legal.json", "illegal.json"))}
    assert rows["legal.json"].endswith(" legal") and rows["illegal.json"].endswith(" illegal (1 error)")


def test_an_event_of_the_imported_system_checks_its_submissions(alice):
    from armylists.events.checking import check_event

    event = Event.objects.create(organiser=alice, name="Imported cup", date=timezone.now().date(), system=SYSTEM,
                                 books=[BOOK], points_limit=2000, deadline=timezone.now() + timedelta(days=3))
    for name, doc in (("Ann", document()), ("Ben", document(knights=5))):
        Submission.objects.create(event=event, player_name=name, document=doc, checksum=name, book=BOOK,
                                  book_version=VERSION, submitted_at=timezone.now())
    check_event(event)
    assert [(s.player_name, s.valid, s.status) for s in event.submissions.order_by("player_name")] == [
        ("Ann", True, "legal"), ("Ben", False, "illegal")]
