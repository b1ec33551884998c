"""The REST API, version 1: rules (public, read-only), a user's lists, and stateless validation.

Views stay thin: they check input, call the engine through the catalogue, and save through the model.
"""
from __future__ import annotations

import json

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.lists.kinds import kind_for_book
from armylists.lists.library.catalogue import book_for, common_item_lists, get_book, validate_roster
from armylists.lists.library.names import book_summaries, one_system, shelved_books, site_systems
from armylists.lists.library.data_as_of import data_as_of
from armylists.listfiles.formats import ListFileError, format_of
from armylists.listfiles.importing import ImportProblem, import_list
from armylists.exports import ListTextError, parse_list_text
from armylists.exports import registry
from armylists.models import MAX_REVISION, ArmyList
from armylists.rules import Book, ListDocumentError, Roster
from armylists.rules.errors import format_path
from armylists.rules.reading.archives import unpack_budget
from armylists.rules.reading.plain_data import UnstorableData, check_plain
from armylists.rules.reading.roster import parse_roster
from armylists.importers.battlescribe.roster_files import RosterFileError, read_roster_data

from armylists.api.errors import PreconditionRequired, StaleRevision, document_error
from armylists.api.parsers import LimitedJSONParser, PlainTextParser, RosterFile, RosterXMLParser, RosterZipParser
from armylists.api.stateless import with_plain_answers
from armylists.api.serializers import (
    ArmyListSerializer, ArmyListSummarySerializer, BookSummarySerializer, ErrorSerializer, ListWriteSerializer,
    ReportSerializer, SystemSerializer,
)

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 405, 406, 409, 415, 429)}


def _errors(*codes: int) -> dict:
    return {code: ERRORS[code] for code in codes}


# Every write to a stored list takes the revision read, as an ETag (a 412 when the list changed since).
IF_MATCH = OpenApiParameter("If-Match", str, OpenApiParameter.HEADER,
                            description="The ETag you read (or send `revision` in the body where it has one); "
                                        "412 if the list changed since.")


# --- rules ------------------------------------------------------------------------------------

# The systems and books are answered from columns (lists/library/names.py): no imported book is built to
# say its name (on a site with the community data, every book built was 20 s and 700 MB; issue 39 item 2).
def _system_data(system, shelved=None) -> dict:
    books = sorted((b for b in (shelved if shelved is not None else shelved_books(system.id))
                    if b.system.id == system.id), key=lambda b: (b.id, b.version))
    return {
        "id": system.id, "name": system.name, "version": system.version, "budget_unit": system.budget_unit,
        "categories": [{"id": c.id, "name": c.name, "character": c.character} for c in system.categories],
        "books": [{"id": b.id, "version": b.version, "name": b.name} for b in books],
    }


class SystemListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: SystemSerializer(many=True), **_errors(406)}, summary="Game systems")
    def get(self, request: Request) -> Response:
        shelved = shelved_books()
        return Response([_system_data(s, shelved) for s in site_systems().values()])


class SystemDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: SystemSerializer, **_errors(404, 406)}, summary="One game system")
    def get(self, request: Request, system: str) -> Response:
        found = one_system(system)
        if found is None:
            raise NotFound(f"No game system {system!r}.")
        return Response(_system_data(found))


class BookListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: BookSummarySerializer(many=True), **_errors(406)}, summary="Army books")
    def get(self, request: Request) -> Response:
        books = sorted(shelved_books(), key=lambda b: (b.system.id, b.id, b.version))
        summaries = book_summaries(books)  # the entries counted by the database, never a book built
        return Response([{"system": b.system.id, "id": b.id, "version": b.version, "name": b.name,
                          "entries": summaries[b.key].entries if b.key in summaries else 0, "imported": b.imported}
                         for b in books])


class BookDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **_errors(404, 406)},
                   summary="One army book: every entry, option, mount and item",
                   description="The book as its rules data file has it (docs/book-format.md), plus `common_items`, "
                               "the items every book of its system may use.")
    def get(self, request: Request, system: str, book: str, version: str) -> Response:
        found = get_book(system, book, version)
        if found is None:
            raise NotFound(f"No army book {book!r} version {version!r} in {system!r}.")
        common = common_item_lists(found)
        return Response({**found.data, "common_items": [i for data in common for i in data["items"]]})


# --- lists ------------------------------------------------------------------------------------

class UnreadableList(APIException):
    """A stored list whose document cannot be read back (a row corrupted outside the site: NUL or a lone
    surrogate, which every door refuses): 409, as the pages answer (editor/views.unavailable); it was a 500
    (a lone surrogate cannot be written as UTF-8) or a 400 blaming a request that was fine."""
    status_code = status.HTTP_409_CONFLICT
    default_code = "unreadable_list"


def _owned(request: Request, pk: int, *, readable: bool = True) -> ArmyList:
    """The user's own list; anybody else's is 'not found', so its existence is not revealed. `readable`:
    its stored document must read back (UnreadableList otherwise); replacing or deleting it need not."""
    found = ArmyList.objects.filter(pk=pk, owner=request.user).first()
    if found is None:
        raise NotFound("No such list.")
    if readable:
        try:
            check_plain(found.document)
        except UnstorableData as exc:
            where = format_path(exc.path)
            raise UnreadableList(f"List {pk} as stored cannot be read (document.{where}: {exc.reason}); replace its "
                                 "document (PUT) or delete it.") from None
    return found


def _expected_revision(request: Request, body_revision: int | None) -> int:
    header = request.headers.get("If-Match", "").strip()
    if header:
        revision = header.removeprefix("W/").strip('"')
        if not revision.isascii() or not revision.isdigit() or len(revision) > 10 \
                or not 1 <= int(revision) <= MAX_REVISION:
            raise ValidationError({"If-Match": ["must be the ETag you read, such as \"3\"."]})
        return int(revision)
    if body_revision is not None:
        return body_revision
    raise PreconditionRequired()


def _with_etag(response: Response, army_list: ArmyList) -> Response:
    response["ETag"] = f'"{army_list.revision}"'
    return response


class ListCollectionView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(responses={200: ArmyListSummarySerializer(many=True), **_errors(401, 403, 406)},
                   summary="My lists")
    def get(self, request: Request) -> Response:
        lists = ArmyList.objects.filter(owner=request.user).order_by("-updated", "-id")
        return Response(ArmyListSummarySerializer(lists, many=True).data)

    @extend_schema(request=ListWriteSerializer,
                   responses={201: ArmyListSerializer, **_errors(400, 401, 403, 406, 415, 429)}, summary="Create a list")
    def post(self, request: Request) -> Response:
        write = ListWriteSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        roster = write.validated_data["document"]
        army_list = ArmyList(owner=request.user)
        army_list.set_document(roster, validate_roster(book_for(roster), roster))
        army_list.save()
        return _with_etag(Response(ArmyListSerializer(army_list).data, status=status.HTTP_201_CREATED), army_list)


class ListItemView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"PUT": "write", "DELETE": "write"}

    @extend_schema(responses={200: ArmyListSerializer, **_errors(401, 403, 404, 406, 409)}, summary="One of my lists")
    def get(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        return _with_etag(Response(ArmyListSerializer(army_list).data), army_list)

    @extend_schema(request=ListWriteSerializer,
                   parameters=[IF_MATCH],
                   responses={200: ArmyListSerializer, 412: OpenApiResponse(ErrorSerializer),
                              428: OpenApiResponse(ErrorSerializer), **_errors(400, 401, 403, 404, 406, 415, 429)},
                   summary="Replace a list's document",
                   description="Refused with 412 if the list changed since the revision you read; nothing is saved.")
    def put(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk, readable=False)  # a new document is how a corrupt row is mended
        write = ListWriteSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        expected = _expected_revision(request, write.validated_data.get("revision"))
        roster = write.validated_data["document"]
        army_list.set_document(roster, validate_roster(book_for(roster), roster))
        if not army_list.save_if_revision(expected):
            raise StaleRevision(f"The list is at revision {ArmyList.objects.get(pk=pk).revision}; "
                                f"you sent {expected}. Read it again and redo your change.")
        return _with_etag(Response(ArmyListSerializer(army_list).data), army_list)

    @extend_schema(responses={204: None, 412: OpenApiResponse(ErrorSerializer), **_errors(401, 403, 404, 406, 429)},
                   summary="Delete a list")
    def delete(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk, readable=False)
        header = request.headers.get("If-Match")
        if header and _expected_revision(request, None) != army_list.revision:
            raise StaleRevision("The list changed since you read it; nothing was deleted.")
        army_list.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class ListReportView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "validate"  # it validates the list, as POST /validate/ does

    @extend_schema(responses={200: ReportSerializer, **_errors(401, 403, 404, 406, 409, 429)},
                   summary="A list's Report (the same the editor shows)")
    def get(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        roster = parse_roster(army_list.document, f"list {pk}")
        book = book_for(roster)
        report = validate_roster(book, roster).to_dict()
        report["data_as_of"] = data_as_of(roster.system, roster.book, roster.book_version, book.imported, book.name)
        return Response(report)


def _export_names() -> list[str]:
    """The export formats (exports/registry.py) by their names, the default (json) first."""
    return ["json", *(name for name in registry.names() if name != "json")]


class ListExportView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = "export"

    @extend_schema(parameters=[OpenApiParameter("as", str, enum=_export_names(),
                                                description="Export format (json); ros and rosz for a list kept as a "
                                                            "BattleScribe roster tree; txt is text too.")],
                   responses={(200, "application/json"): OpenApiTypes.OBJECT,
                              (200, "text/plain"): OpenApiTypes.STR,
                              (200, "application/pdf"): OpenApiTypes.BINARY,
                              **_errors(400, 401, 403, 404, 406, 409, 429)},
                   summary="Export a list: its JSON document, tournament text or the printed PDF roster")
    def get(self, request: Request, pk: int) -> HttpResponse:
        army_list = _owned(request, pk)
        kind = request.query_params.get("as", "json")
        entry = registry.find(kind)
        if entry is None:
            raise ValidationError({"as": [f"unknown export format {kind!r}; one of: {', '.join(_export_names())}."]})
        roster = parse_roster(army_list.document, f"list {pk}")
        book = book_for(roster) if entry.needs_book else None
        if book is not None and not entry.applies(roster, book):
            raise ValidationError({"as": [f"only {entry.only} can be written as .{entry.extension}"]})
        try:
            content = registry.export(entry, registry.Listed(book, roster), entry.variant(book) if book else "")
        except ListFileError as exc:
            raise ValidationError({"as": [str(exc)]}) from None
        response = HttpResponse(content, content_type=entry.content_type)
        # The API's PDF is the book's own variant, not named in the file (docs/exports.md)
        response["Content-Disposition"] = f'attachment; filename="{entry.filename(f"list-{pk}")}"'
        return response


class ListImportView(APIView):
    """Create a list from a list document (JSON), another tool's JSON list the import page reads (New
    Recruit's tournament summary, Old World Builder's saved list), tournament text (text/plain) or a
    BattleScribe / New Recruit roster (.ros as application/xml, .rosz as application/zip). The answer's
    `warnings` are what the reader says the player should know (the import page's messages)."""
    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser, PlainTextParser, RosterXMLParser, RosterZipParser]
    throttle_scope = "import"

    @extend_schema(request={"application/json": OpenApiTypes.OBJECT, "text/plain": OpenApiTypes.STR,
                            "application/xml": OpenApiTypes.BINARY, "application/zip": OpenApiTypes.BINARY},
                   responses={201: ArmyListSerializer, **_errors(400, 401, 403, 406, 415, 429)},
                   summary="Import a list document, another tool's list or a list in the tournament text shape")
    def post(self, request: Request) -> Response:
        warnings: list[str] = []
        try:
            if isinstance(request.data, dict) and "format" not in request.data:
                # Another tool's JSON (a New Recruit tournament summary): read as the import page reads it
                data = json.dumps(request.data, ensure_ascii=False).encode("utf-8")
                if format_of(data, "body") is not None:
                    try:
                        roster, book, _, warnings = import_list(data, "body")
                    except ImportProblem as exc:
                        raise ValidationError({"": [ListFileError(str(exc)).without_source("body")]}) from None
                    return self._created(request, roster, book, warnings)
            if isinstance(request.data, RosterFile):
                with unpack_budget("request"):  # a .rosz unpacks within the request's one budget
                    roster, book = read_roster_data(bytes(request.data), "roster")
            elif isinstance(request.data, str):
                # the books by name (columns): only the one the header names is built
                roster = parse_list_text(request.data, shelved_books(), "text", lookup=get_book)
            elif isinstance(request.data, dict):
                roster = parse_roster(request.data, "")
            else:
                raise ValidationError({"": ["The body must be a list document (a JSON object) or text."]})
            if not isinstance(request.data, RosterFile):
                book = book_for(roster, "")
                roster = kind_for_book(book).take(book, roster, "")   # a list of an imported book is its tree
        except RosterFileError as exc:
            raise ValidationError({"roster": [str(exc)]}) from None
        except ListTextError as exc:
            raise ValidationError({f"line {exc.line}": [exc.reason]}) from None
        except ListDocumentError as exc:
            raise document_error(exc, prefix="") from None
        return self._created(request, roster, book, warnings)

    def _created(self, request: Request, roster: Roster, book: Book, warnings: list[str]) -> Response:
        army_list = ArmyList(owner=request.user)
        army_list.set_document(roster, validate_roster(book, roster))
        army_list.save()
        # what the reader says the player should know (another tool's figures that differ from ours)
        answer = {**ArmyListSerializer(army_list).data, "warnings": warnings}
        return _with_etag(Response(answer, status=status.HTTP_201_CREATED), army_list)


# --- stateless validation -----------------------------------------------------------------------

class ValidateView(APIView):
    """POST a list document, get its Report. No account needed; throttled per client."""
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_scope = "validate"

    @extend_schema(request=OpenApiTypes.OBJECT,
                   responses={200: ReportSerializer, **_errors(400, 406, 415, 429)},
                   summary="Validate a list document",
                   description="The body is a list document (docs/list-format.md). Answers its Report; saves nothing.")
    def post(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise ValidationError({"": ["The body must be a list document (a JSON object)."]})
        try:
            roster = parse_roster(request.data, "")
            book = book_for(roster, "")
            roster = kind_for_book(book).take(book, roster, "")   # judged as a list of its book is: its tree
            # Judging a roster tree builds it from the document: an entry, selection or catalogue the book's
            # data does not have is found there, and is a 400 as on create and PUT.
            report = validate_roster(book, roster)
        except ListDocumentError as exc:
            raise document_error(exc, prefix="") from None  # the body is the document itself
        return Response(report.to_dict())


# The common request (a good document, as JSON) is answered without DRF's request machinery (stateless.py).
validate_view = with_plain_answers(ValidateView.as_view())
