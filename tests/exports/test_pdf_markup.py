"""Names with markup characters print as plain text in every PDF: reportlab's Paragraph reads a mini
markup language, so an unescaped `<font>` would change the print or fail it, and `&` would vanish."""
from __future__ import annotations

import pytest

from armylists.exports.pdf import render_pdf
from armylists.rules import parse_roster, validate

from tests.exports.test_pdf import PRINTED_ON, pages

HOSTILE = 'Tom & Jerry <font size="40">Big</font> <b> < 3 &amp;'


def printed(book, roster, variant: str) -> str:
    report = validate(book, roster)
    return " ".join(pages(render_pdf(book, roster, report, variant=variant, printed_on=PRINTED_ON,
                                     share_url="https://armylists.example/s/<x>&y")))


@pytest.mark.parametrize("variant", ["full", "compact", "hidden"])
def test_an_army_list_prints_markup_in_names_as_written(library, variant):
    roster = parse_roster({"format": "armylist/1", "system": "t9a-0.11", "book": "empire-of-sonnstahl",
                           "book_version": "0.11.1", "points_limit": 2400, "name": HOSTILE, "player": HOSTILE,
                           "notes": HOSTILE,
                           "units": [{"entry": "marshal", "general": True, "label": HOSTILE}]})
    book = library.book("t9a-0.11", "empire-of-sonnstahl", "0.11.1")
    text = printed(book, roster, variant)
    assert text.count(HOSTILE) >= (2 if variant != "compact" else 1), text[:600]
    assert "https://armylists.example/s/<x>&y" in text.replace(" ", ""), text[text.find("armylists.ex") - 40:][:120]


def test_a_warband_sheet_prints_markup_in_names_as_written(library):
    roster = parse_roster({"format": "armylist/1", "system": "mordheim", "book": "reikland-mercenaries",
                           "book_version": "1999.2", "points_limit": 500, "name": HOSTILE, "player": HOSTILE,
                           "units": [{"entry": "mercenary-captain", "label": HOSTILE}]})
    book = library.book("mordheim", "reikland-mercenaries", "1999.2")
    text = printed(book, roster, "warband")
    assert text.count(HOSTILE) >= 3, text[:600]


@pytest.mark.django_db
def test_the_events_muster_prints_markup_in_names_as_written(alice, legal_document):
    from datetime import date, timedelta

    from django.utils import timezone

    from armylists.events.checking import check_event
    from armylists.events.reporting import muster_pdf
    from armylists.events.submitting import store
    from armylists.models import Event, Submission, Team

    event = Event.objects.create(organiser=alice, name=HOSTILE, date=date.today() + timedelta(days=10),
                                 system="t9a-0.11", points_limit=2400, deadline=timezone.now() + timedelta(days=5))
    store(event, parse_roster({**legal_document, "name": HOSTILE}), HOSTILE[:200],
          team=Team.objects.create(event=event, name=HOSTILE[:200]))
    check_event(event)
    Submission.objects.update(status=Submission.APPROVED)
    text = " ".join(pages(muster_pdf(event)))
    assert text.count(HOSTILE) >= 4, text[:800]
