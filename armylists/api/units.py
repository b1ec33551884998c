"""`POST /api/v1/lists/{id}/units/`: add a unit to one of my lists, as the editor adds it.

Body `{"entry": "<entry id or exact name>", "size": 10}` (size optional). Answers 201 with the unit as
added (what it selected by itself included), the list's new `ETag` and its Report; 400 naming the
closest entry for an unknown one; 412 when `If-Match` names a revision the list has left (nothing is
saved); without `If-Match` the current revision is used, read again when another write lands first;
404 for a list that is not the caller's.
"""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.api.errors import StaleRevision
from armylists.api.serializers import ErrorSerializer
from armylists.api.views import IF_MATCH, _errors, _expected_revision, _owned, _with_etag
from armylists.lists.saved.adding import add_named_unit, unit_document
from armylists.lists.saved.edits import EditError
from armylists.lists.saved.stored import Unavailable, load, save_edit


# Attempts of an add without If-Match while other writes keep landing first: 30 adds at once need at most
# 30; past this many the caller is told to try again (412), still with nothing lost.
MAX_ATTEMPTS = 50


class AddUnitSerializer(serializers.Serializer):
    entry = serializers.CharField(max_length=400, help_text="The entry's id, or its exact name.")
    size = serializers.IntegerField(min_value=1, max_value=10000, required=False,
                                    help_text="Models in the unit; the entry's smallest size when absent.")


class ListUnitsView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=AddUnitSerializer,
                   parameters=[IF_MATCH],
                   responses={201: OpenApiResponse(description="{unit, report}; the new ETag in the header"),
                              412: OpenApiResponse(ErrorSerializer), **_errors(400, 401, 403, 404, 406, 409, 415, 429)},
                   summary="Add a unit to a list, as the editor does")
    def post(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        write = AddUnitSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        pinned = bool(request.headers.get("If-Match", "").strip())
        if pinned:
            expected = _expected_revision(request, None)
            if expected != army_list.revision:
                raise StaleRevision(f"The list is at revision {army_list.revision}; you sent {expected}. "
                                    f"Read it again and redo your change.")
        # Without If-Match the current revision is used (docs/api.md): a write saved by another request
        # between our read and our save is not the caller's business, so the unit is added again to the
        # list as it now is. Each attempt still saves only over the revision it read, so no update is lost.
        for attempt in range(1 if pinned else MAX_ATTEMPTS):
            if attempt:
                army_list = _owned(request, pk)
            saved = self._add(army_list, write.validated_data, expected if pinned else army_list.revision)
            if saved is not None:
                break
        else:
            raise StaleRevision("The list changed while the unit was added; nothing was saved. Read it again.")
        loaded, report, unit_id = saved
        body = {"unit": unit_document(loaded.roster, unit_id), "report": report.to_dict()}
        return _with_etag(Response(body, status=status.HTTP_201_CREATED), loaded.army_list)

    @staticmethod
    def _add(army_list, data: dict, expected: int):
        """(the list as saved, its report, the unit's id), or None when another write was saved first."""
        try:
            loaded = load(army_list)
            roster, unit_id = add_named_unit(loaded.book, loaded.roster, data["entry"], data.get("size"))
        except Unavailable as exc:
            raise ValidationError({"list": [str(exc)]}) from None
        except EditError as exc:
            raise ValidationError({exc.field if exc.field in ("entry", "size") else "entry": [exc.message]}) from None
        saved = save_edit(loaded, roster, expected)
        return None if saved is None else (*saved, unit_id)
