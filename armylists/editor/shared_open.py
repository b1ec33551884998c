"""A list shared as its hidden list's open part (The 9th Age, 000:L133-149): the page and the one download
a link of that kind gives.

Both players give the opponent the open part before the game (000:L136-138): magical items show only their
mundane type (000:L139-145), units alike but for hidden things carry a label (000:L146-149), unit points
leave out what the hidden items cost. Such a link shows no hidden item, no cost of one (no category
figures, no violations: they name items), never the hidden sheet, and offers no other download (the
JSON, the text and the other PDFs hold everything) and no copy. The owner and the organiser of an event
the list is submitted to see the whole list on their own pages.
"""
from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from armylists.exports.pdf_hidden import open_part
from armylists.exports.pdf_list import PrintedList
from armylists.exports.registry import PDF, Listed, export, file_stem
from armylists.lists.library.catalogue import validate_roster
from armylists.lists.library.data_as_of import data_as_of
from armylists.lists.saved.stored import Loaded
from armylists.models import ArmyList

VARIANT = "open"  # the PDF variant of the open part alone (exports/pdf_hidden.open_story)
LABEL = "PDF, open part"


def open_page(request: HttpRequest, loaded: Loaded, token: str) -> HttpResponse:
    """The open part as a page, for whoever holds the link."""
    roster, book = loaded.roster, loaded.book
    report = validate_roster(book, roster)
    stamp = data_as_of(roster.system, roster.book, roster.book_version, book.imported, book.name)
    printed = PrintedList(book, roster, report, loaded.allies, stamp["text"], loaded.kind.printing(roster))
    return render(request, "lists/shared_open.html", {
        "army_list": loaded.army_list, "roster": roster, "book": book, "report": report, "stamp": stamp["text"],
        "groups": open_part(printed), "shared": True,
        "downloads": [(LABEL, reverse("shared-download", args=[token, PDF.extension]))],
    })


def open_download(army_list: ArmyList, loaded: Loaded, fmt: str, share_url: str) -> HttpResponse:
    """The open part's PDF, whatever variant is asked for; any other format is not found."""
    if fmt not in (PDF.extension, *PDF.names):
        raise Http404("A link to the open part downloads only its PDF.")
    content = export(PDF, Listed(loaded.book, loaded.roster, allies=loaded.allies, share_url=share_url,
                                 kind=loaded.kind), VARIANT)
    response = HttpResponse(content, content_type=PDF.content_type)
    named = PDF.filename(file_stem(army_list.name, f"list-{army_list.pk}"), VARIANT)
    response["Content-Disposition"] = f'attachment; filename="{named}"'
    return response
