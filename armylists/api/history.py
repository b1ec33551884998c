"""The API's routes for a list's history and its move to newer data: every revision (with its editing
session), two compared, one restored, and the upgrade's preview and accept. Owner only; the same services
as the pages (lists/saved/history.py)."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.gamedata.removed import removed_book
from armylists.lists.library.data_as_of import data_as_of
from armylists.lists.saved.history import (SESSION_MINUTES, NotRestorable, compare_revisions, history, preview,
                                           restore, upgrade_target)
from armylists.lists.saved.stored import Loaded, Unavailable, load, save_edit
from armylists.models import MAX_REVISION, ArmyList

from armylists.api.errors import StaleRevision
from armylists.api.serializers import ArmyListSerializer, ErrorSerializer
from armylists.api.views import IF_MATCH, _errors, _expected_revision, _owned, _with_etag


def _loaded(army_list: ArmyList) -> Loaded:
    try:
        return load(army_list)
    except Unavailable as exc:
        raise ValidationError({"book": [str(exc)]}) from None


class ListRevisionsView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("before", int, description="Only revisions older than this one.")],
                   responses={200: OpenApiTypes.OBJECT, **_errors(400, 401, 403, 404, 406)},
                   summary="The saved revisions of one of my lists, newest first, 50 a page",
                   description="The newest 50 (with `before`, the 50 before that revision); a `Link` header with "
                               "rel=\"next\" names the next, older page while there is one. Each: `revision`, `saved_at`, `book_version`, `data_as_of` (the book and the game "
                               "data version it came from), `verdict` (`valid`, `total_points`, `errors`, `warnings`; "
                               "null when it cannot be checked), `changes` (what changed since the one before, in a "
                               "player's words) and `session` (the newest revision of its editing session: saves "
                               f"less than {SESSION_MINUTES} minutes apart are one session, one entry of the history page).")
    def get(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        query = RevisionsPage(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = history(army_list, query.validated_data.get("before"))
        response = _with_etag(Response([
            {"revision": s.revision, "saved_at": s.saved_at.isoformat().replace("+00:00", "Z"),
             "book_version": s.book_version, "data_as_of": s.data_as_of, "verdict": s.verdict, "changes": s.changes,
             "session": s.session}
            for s in page.steps]), army_list)
        if page.older is not None:  # the next (older) page, as RFC 8288 links it
            response["Link"] = f'<{request.build_absolute_uri(request.path)}?before={page.older}>; rel="next"'
        return response


class RevisionsPage(serializers.Serializer):
    before = serializers.IntegerField(min_value=1, max_value=MAX_REVISION, required=False,
                                      help_text="Only revisions older than this one (the next page's link gives it).")


class RevisionsQuery(serializers.Serializer):
    # The query's `from` and `to` ("from" is a Python keyword, so the fields have other names).
    first = serializers.IntegerField(min_value=1, max_value=MAX_REVISION)
    second = serializers.IntegerField(min_value=1, max_value=MAX_REVISION)


class ListRevisionsDiffView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("from", int, required=True, description="The earlier revision."),
                               OpenApiParameter("to", int, required=True, description="The later revision.")],
                   responses={200: OpenApiTypes.OBJECT, **_errors(400, 401, 403, 404, 406)},
                   summary="Two revisions of one of my lists compared, in a player's words",
                   description="docs/api.md, \"A list's history\": `changes`, `units_added`, `units_removed`, "
                               "`units_changed`, `unit_points`, `categories`, `total_points`, `verdict`, "
                               "`violations_gained`, `violations_lost`, `problem`.")
    def get(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        query = RevisionsQuery(data={"first": request.query_params.get("from"),
                                     "second": request.query_params.get("to")})
        if not query.is_valid():
            names = {"first": "from", "second": "to"}
            raise ValidationError({names[k]: v for k, v in query.errors.items()})
        first, second = query.validated_data["first"], query.validated_data["second"]
        found = compare_revisions(army_list, first, second)
        if found is None:
            raise NotFound(f"The list keeps no revision {first} or no revision {second}.")
        return Response({"from": first, "to": second, **found})


class RestoreWrite(serializers.Serializer):
    revision = serializers.IntegerField(min_value=1, max_value=MAX_REVISION, required=False,
                                        help_text="The list's revision you read (or send If-Match).")


class ListRevisionRestoreView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=RestoreWrite, parameters=[IF_MATCH],
                   responses={200: ArmyListSerializer, 412: OpenApiResponse(ErrorSerializer),
                              428: OpenApiResponse(ErrorSerializer), **_errors(400, 401, 403, 404, 406, 415, 429)},
                   summary="Make one of my list's revisions the list again",
                   description="Saves revision `n`'s document as a new revision, checked as any edit; the "
                               "revisions between stay in the history. 404 when the list keeps no revision `n`, "
                               "400 when it cannot be opened now (its book is not on the site), 412 when the list "
                               "changed since the revision you sent; nothing is saved then.")
    def post(self, request: Request, pk: int, n: int) -> Response:
        army_list = _owned(request, pk, readable=False)   # an unreadable list is what a restore repairs
        write = RestoreWrite(data=request.data)
        write.is_valid(raise_exception=True)
        expected = _expected_revision(request, write.validated_data.get("revision"))
        if not army_list.revisions.filter(revision=n).exists():
            raise NotFound(f"The list keeps no revision {n}.")
        try:
            saved = restore(army_list, n, expected)
        except NotRestorable as exc:
            raise ValidationError({"revision": [str(exc)]}) from None
        if saved is None:
            raise StaleRevision(f"The list is at revision {ArmyList.objects.get(pk=pk).revision}; you sent {expected}. "
                                f"Nothing was restored.")
        return _with_etag(Response(ArmyListSerializer(saved[0].army_list).data), saved[0].army_list)


class UpgradeWrite(serializers.Serializer):
    book_version = serializers.CharField(max_length=40, help_text="The version the preview offered.")
    revision = serializers.IntegerField(min_value=1, max_value=MAX_REVISION, required=False,
                                        help_text="The revision you read (or send If-Match).")


class ListUpgradeView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    def _offer(self, loaded: Loaded) -> dict:
        target = upgrade_target(loaded)
        roster = loaded.roster
        answer = {"book": roster.book, "book_version": roster.book_version, "revision": loaded.army_list.revision,
                  "offered": None, "problem": "", "changes": [], "diff": None, "removed": None}
        if target is None:
            removed = removed_book(roster.system, roster.book)  # the data dropped it: no newer one will come
            answer["removed"] = removed.sentence if removed is not None else None
            return answer
        shown = preview(loaded, target)
        answer.update(offered={"book_version": target.version, "name": target.name,
                               "data_as_of": data_as_of(target.system.id, target.id, target.version, target.imported,
                                                         target.name)},
                      problem=shown.problem, changes=shown.changes, diff=shown.diff)
        return answer

    @extend_schema(responses={200: OpenApiTypes.OBJECT, **_errors(400, 401, 403, 404, 406)},
                   summary="Newer data for one of my lists: what moving to it would change",
                   description="`offered` is null when the list's book version is the one new lists get, or "
                               "when the data no longer has its book (`removed` then says so, with the dates). Else "
                               "`changes` (sentences), `diff` (as the revisions' diff) and `problem` (why it cannot "
                               "move: a unit or option the newer version no longer has, with the closest name).")
    def get(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        return _with_etag(Response(self._offer(_loaded(army_list))), army_list)

    @extend_schema(request=UpgradeWrite,
                   parameters=[IF_MATCH],
                   responses={200: ArmyListSerializer, 412: OpenApiResponse(ErrorSerializer),
                              428: OpenApiResponse(ErrorSerializer), **_errors(400, 401, 403, 404, 406, 415, 429)},
                   summary="Move one of my lists to the newer data the preview offered",
                   description="Saves the list at that version as a new revision. Refused with 400 when another "
                               "version is offered now or the list cannot move, 412 when the list changed since the "
                               "revision you sent; nothing is saved.")
    def post(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        write = UpgradeWrite(data=request.data)
        write.is_valid(raise_exception=True)
        expected = _expected_revision(request, write.validated_data.get("revision"))
        loaded = _loaded(army_list)
        target = upgrade_target(loaded)
        asked = write.validated_data["book_version"]
        if target is None or target.version != asked:
            now = f"{target.version} is offered now" if target else "no newer version is offered now"
            raise ValidationError({"book_version": [f"{asked} is not the version offered: {now}. Look at the "
                                                    f"preview again."]})
        shown = preview(loaded, target)
        if shown.problem:
            raise ValidationError({"book_version": [f"The list cannot move to {target.version}: {shown.problem}"]})
        saved = save_edit(Loaded(army_list, shown.roster, target, loaded.allies), shown.roster, expected, was=loaded)
        if saved is None:
            raise StaleRevision(f"The list is at revision {ArmyList.objects.get(pk=pk).revision}; you sent {expected}. "
                                f"Nothing was moved: look at the preview again.")
        return _with_etag(Response(ArmyListSerializer(saved[0].army_list).data), saved[0].army_list)
