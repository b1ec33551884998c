"""A list of an imported BattleScribe book that is no roster tree (its book imported before its game data
was kept, or a unit unflatten could not place) is never legal: the data's own rules judge roster trees only,
and the flattened rules that once judged such lists are retired (issue 37, "one semantics"). Every door says
so: the report, the API's validation, the PDF, check_lists and an event's check. Roster trees of such books
everywhere the hand-written books go: tests/battlescribe/test_battlescribe_site_tree.py."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from armylists.lists.library.catalogue import report_for
from armylists.lists.trees import battlescribe_data
from armylists.models import BookGameData, Event, Submission
from armylists.rules import parse_roster

from tests.battlescribe.battlescribe_samples import GST, catalogue

pytestmark = pytest.mark.django_db
SYSTEM, BOOK, VERSION = "bs-test-battles", "bs-test-knights", "r7"
NOT_A_TREE = ("This list is kept in the shape lists of Test Knights had before they were roster trees, so the "
              "data's own rules do not check it (its notes say what could not be placed); import it again from a "
              ".ros or .rosz, or build it again (a book imported before its BattleScribe data was kept: import its "
              "catalogue again first).")


@pytest.fixture(autouse=True)
def imported(tmp_path):
    (tmp_path / "test.gst").write_text(GST)
    (tmp_path / "knights.cat").write_text(catalogue())
    call_command("import_battlescribe", str(tmp_path), verbosity=0)
    BookGameData.objects.all().delete()   # as a book imported before its game data was kept
    battlescribe_data.clear()
    yield
    battlescribe_data.clear()


def document(knights: int = 1, limit: int = 2000) -> dict:
    return {"format": "armylist/1", "name": "Imported knights", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
            "points_limit": limit, "units": [{"id": "c", "entry": "captain"}]
            + [{"id": f"k{i}", "entry": "knights", "size": 3, "options": {"lance": 1}} for i in range(knights)]}


def test_the_report_leads_with_why_the_list_is_not_checked_and_is_never_legal():
    report = report_for(parse_roster(document()))
    assert [(v.code, v.message) for v in report.violations] == [("list.not_a_tree", NOT_A_TREE)]
    assert not report.valid and report.total_points == 100 + 10 + 3 * 22


def test_the_api_validation_and_the_pdf_say_so(api_alice, tmp_path):
    body = api_alice.post("/api/v1/validate/", document(), format="json").json()
    assert body["valid"] is False and [(i["code"], i["message"]) for i in body["violations"]] == [
        ("list.not_a_tree", NOT_A_TREE)]
    path = tmp_path / "list.json"
    path.write_text(json.dumps(document()))
    call_command("export_list", str(path), "--format", "pdf", "--output", str(tmp_path / "list.pdf"))
    from pypdf import PdfReader
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(tmp_path / "list.pdf").pages).split())
    assert "NOT LEGAL" in text.upper() and "roster trees, so the data's own rules do not check it" in text


def test_check_lists_and_an_event_call_it_illegal(tmp_path, capsys, alice):
    from armylists.events.checking import check_event

    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "old.json").write_text(json.dumps(document()))
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(tmp_path / "lists"), "--system", SYSTEM, "--points", "2000")
    out = capsys.readouterr().out
    assert stop.value.code == 1 and "roster trees, so the data's own rules do not check it" in out
    event = Event.objects.create(organiser=alice, name="Imported cup", date=timezone.now().date(), system=SYSTEM,
                                 books=[BOOK], points_limit=2000, deadline=timezone.now() + timedelta(days=3))
    Submission.objects.create(event=event, player_name="Ann", document=document(), checksum="Ann", book=BOOK,
                              book_version=VERSION, submitted_at=timezone.now())
    check_event(event)
    assert [(s.player_name, s.valid, s.status) for s in event.submissions.all()] == [("Ann", False, "illegal")]
