"""The API's game data routes, for the site's staff: the sources with their versions, adding one, and
queuing an update (the same services as the staff page, armylists/gamedata/)."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.gamedata.jobs import queue_update
from armylists.gamedata.sources import KINDS, Refused, add_source
from armylists.gamedata.updating import current
from armylists.models import GameDataSource, GameDataVersion

from armylists.api.serializers import ErrorSerializer

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 415, 429)}


class VersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameDataVersion
        fields = ["id", "ref", "ref_kind", "date", "status", "message", "kind", "systems", "books", "coverage",
                  "skipped", "imported_at"]
        read_only_fields = fields


class SourceSerializer(serializers.ModelSerializer):
    current = serializers.SerializerMethodField(help_text="The version new lists get: the held one, else the newest.")
    held = serializers.CharField(source="held.ref", allow_null=True, default=None, read_only=True)
    versions = VersionSerializer(many=True, read_only=True)

    class Meta:
        model = GameDataSource
        fields = ["id", "repository", "url", "kind", "maps_to", "held", "current", "last_checked", "last_message",
                  "busy_since", "versions"]
        read_only_fields = fields

    def get_current(self, source: GameDataSource) -> str | None:
        version = current(source)
        return version.ref if version else None


class NewSourceSerializer(serializers.Serializer):
    where = serializers.CharField(max_length=500, help_text="OWNER/NAME on GitHub, or an https URL of a zip")
    kind = serializers.ChoiceField(choices=KINDS, required=False, default="")
    maps_to = serializers.CharField(max_length=80, required=False, default="")


class SourceCollectionView(APIView):
    permission_classes = [IsAdminUser]
    throttle_scope = {"POST": "write"}

    @extend_schema(responses={200: SourceSerializer(many=True), **ERRORS}, summary="Game data sources (staff)")
    def get(self, request: Request) -> Response:
        sources = GameDataSource.objects.select_related("held").prefetch_related("versions")
        return Response(SourceSerializer(sources, many=True).data)

    @extend_schema(request=NewSourceSerializer, responses={201: SourceSerializer, **ERRORS},
                   summary="Add a game data source and queue its first update (staff)")
    def post(self, request: Request) -> Response:
        data = NewSourceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            source = add_source(data.validated_data["where"], data.validated_data["kind"], data.validated_data["maps_to"])
        except Refused as exc:
            raise ValidationError({"where": [str(exc)]}) from None
        queue_update(source)
        return Response(SourceSerializer(source).data, status=status.HTTP_201_CREATED)


class SourceUpdateView(APIView):
    permission_classes = [IsAdminUser]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=None, responses={202: OpenApiResponse(description="Queued"), **ERRORS},
                   summary="Queue an update of a game data source (staff)")
    def post(self, request: Request, pk: int) -> Response:
        source = GameDataSource.objects.filter(pk=pk).first()
        if source is None:
            raise NotFound("No such source.")
        queue_update(source)
        return Response({"queued": True, "source": str(source)}, status=status.HTTP_202_ACCEPTED)
