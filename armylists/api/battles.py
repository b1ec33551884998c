"""`POST /api/v1/lists/{id}/battles/`: record a battle on one of my Mordheim warbands (the post-battle
sequence: injuries, experience and advances, exploration, selling shards, buying, upkeep), and
`POST /api/v1/lists/{id}/battles/undo/`: undo its last battle. Each is a new revision.

The body is at least `{"result": "won", "models": {"<unit id>": {"out_of_action": false,
"enemies_out_of_action": 2}}}`; docs/api.md lists the rest (entered `rolls`, `opponent_rating`, `choices`,
`sell_shards`, `buy`, a `seed` to replay). Answers 201 with the new `ETag`, the battle's `log`, each
warrior's `experience` gained, the campaign's summary (`rating`...) and the Report; 400 naming the field
for what cannot be applied (a die off its table, gold the treasury does not hold); 412 for a stale
`If-Match`; 404 for a list that is not the caller's.
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
from armylists.campaigns.battles import (BattleError, NotAWarband, Unavailable, campaign_summary, record_battle,
                                         undo_last_battle)
from armylists.rules.native.mordheim_campaign.state import CHARACTERISTICS

UNIT_ID = r"^[A-Za-z0-9_-]+$"
SLUG = r"^[a-z0-9]+([.-][a-z0-9]+)*$"


class ModelReportSerializer(serializers.Serializer):
    out_of_action = serializers.BooleanField(default=False)
    enemies_out_of_action = serializers.IntegerField(min_value=0, max_value=50, default=0)
    scenario_experience = serializers.IntegerField(min_value=0, max_value=10, default=0)
    models_out_of_action = serializers.IntegerField(min_value=1, max_value=20, required=False,
                                                    help_text="Of a henchman group: how many went out of action (all when absent).")


class ChoiceSerializer(serializers.Serializer):
    skill = serializers.RegexField(SLUG, max_length=80, required=False)
    characteristic = serializers.ChoiceField(CHARACTERISTICS, required=False)
    skill_lists = serializers.ListField(child=serializers.RegexField(SLUG, max_length=80), max_length=2, required=False)


class ExplorationSerializer(serializers.Serializer):
    gold = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    items = serializers.ListField(child=serializers.RegexField(SLUG, max_length=80), max_length=20, default=list)


class BuySerializer(serializers.Serializer):
    item = serializers.RegexField(SLUG, max_length=80)
    unit = serializers.RegexField(UNIT_ID, max_length=40, required=False, allow_null=True, default=None)
    price = serializers.IntegerField(min_value=0, max_value=10000, required=False)
    rarity = serializers.IntegerField(min_value=2, max_value=20, required=False)
    searcher = serializers.RegexField(UNIT_ID, max_length=40, required=False)


class BattleSerializer(serializers.Serializer):
    result = serializers.ChoiceField(["won", "lost", "draw"])
    models = serializers.DictField(child=ModelReportSerializer(), default=dict)
    opponent_rating = serializers.IntegerField(min_value=0, max_value=100000, required=False)
    rolls = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField(), max_length=60),
                                  default=dict, help_text="Entered dice per purpose (injury:<unit>, advance:<unit>, "
                                                          "exploration, rarity:<unit>); the site rolls the rest.")
    choices = serializers.DictField(child=ChoiceSerializer(), default=dict)
    exploration = ExplorationSerializer(required=False)
    sell_shards = serializers.IntegerField(min_value=0, max_value=100, default=0)
    buy = serializers.ListField(child=BuySerializer(), max_length=30, default=list)
    seed = serializers.IntegerField(min_value=0, max_value=2**48, required=False,
                                    help_text="Replay a battle: the seed its record shows.")

    def validate_models(self, value):
        if len(value) > 200:
            raise ValidationError("at most 200 units.")
        return value


def _refused(exc: Exception) -> ValidationError:
    if isinstance(exc, BattleError):
        field = ".".join(str(p) for p in exc.path) or "battle"
        return ValidationError({field: [exc.message]})
    return ValidationError({"list": [str(exc)]})


def _expected(request: Request, army_list) -> int:
    expected = _expected_revision(request, None) if request.headers.get("If-Match", "").strip() else army_list.revision
    if expected != army_list.revision:
        raise StaleRevision(f"The list is at revision {army_list.revision}; you sent {expected}. Read it again.")
    return expected


def _answer(recorded, status_code: int) -> Response:
    loaded, report = recorded.loaded, recorded.report
    body = {"revision": loaded.army_list.revision,
            "campaign": recorded.summary or campaign_summary(loaded.army_list.document, report), "report": report.to_dict()}
    if recorded.outcome is not None:
        # As the saved list names its warriors (a BSData warband's new lad by the id his selection got).
        body.update(log=list(recorded.log or recorded.outcome.log),
                    experience=dict(loaded.army_list.document["campaign"]["battles"][-1]["experience"]),
                    seed=recorded.outcome.battle.get("seed"))
    return _with_etag(Response(body, status=status_code), loaded.army_list)


class ListBattlesView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=BattleSerializer, parameters=[IF_MATCH],
                   responses={201: OpenApiResponse(description="{revision, log, experience, seed, campaign, report}"),
                              412: OpenApiResponse(ErrorSerializer), **_errors(400, 401, 403, 404, 406, 415, 429)},
                   summary="Record a battle on a Mordheim warband (its post-battle sequence)")
    def post(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        write = BattleSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        battle = dict(write.validated_data)
        seed = battle.pop("seed", None)
        expected = _expected(request, army_list)
        try:
            recorded = record_battle(army_list, battle, expected, seed)
        except (BattleError, NotAWarband, Unavailable) as exc:
            raise _refused(exc) from None
        if recorded is None:
            raise StaleRevision("The list changed while the battle was recorded; nothing was saved. Read it again.")
        return _answer(recorded, status.HTTP_201_CREATED)


class ListBattleUndoView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=None, parameters=[IF_MATCH],
                   responses={201: OpenApiResponse(description="{revision, campaign, report}"),
                              412: OpenApiResponse(ErrorSerializer), **_errors(400, 401, 403, 404, 406, 429)},
                   summary="Undo a warband's last battle (a new revision: the document as it was before it)")
    def post(self, request: Request, pk: int) -> Response:
        army_list = _owned(request, pk)
        expected = _expected(request, army_list)
        try:
            recorded = undo_last_battle(army_list, expected)
        except (BattleError, NotAWarband, Unavailable) as exc:
            raise _refused(exc) from None
        if recorded is None:
            raise StaleRevision("The list changed meanwhile; nothing was undone. Read it again.")
        return _answer(recorded, status.HTTP_201_CREATED)
