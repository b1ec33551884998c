"""Campaigns of several players over the API (campaigns/league.py; docs/api.md "Campaigns").

    GET  /api/v1/campaigns/                         the campaigns I run or play in
    POST /api/v1/campaigns/                         {"name"}: create one (201, with its join code)
    POST /api/v1/campaigns/join/                    {"code", "list"}: enter my warband with the code
    GET  /api/v1/campaigns/{id}/                    standings and battles
    POST /api/v1/campaigns/{id}/battles/            {"list", "opponent", "battle"}: my side, pending (201)
    POST /api/v1/campaigns/{id}/battles/{b}/confirm/  {"battle"}: the other side; recorded for both (200)
    POST /api/v1/campaigns/{id}/battles/{b}/refuse/   {"why"}: refused, nothing applied (200)

`battle` is the body `POST /lists/{id}/battles/` takes, less `opponent_rating` (the campaign knows it) and
`seed`. A campaign I am not in is 404; a refused action is 400 at the field; a result contradicting the
other side's is 409.
"""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.api.battles import BattleSerializer
from armylists.api.views import _errors
from armylists.campaigns import league
from armylists.campaigns.models import Campaign, CampaignBattle, CampaignWarband
from armylists.models import ArmyList


class ConflictingSide(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflicting_result"


class SideSerializer(BattleSerializer):
    """A warband's side of a campaign battle: the battle body, without what the campaign decides."""
    opponent_rating = None
    seed = None


class CampaignWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=20)
    list = serializers.IntegerField(min_value=1)


class EnterBattleSerializer(serializers.Serializer):
    list = serializers.IntegerField(min_value=1, help_text="My warband's list id (entered in this campaign).")
    opponent = serializers.IntegerField(min_value=1, help_text="The other warband's list id (in this campaign).")
    battle = SideSerializer()


class ConfirmSerializer(serializers.Serializer):
    battle = SideSerializer()


class RefuseSerializer(serializers.Serializer):
    why = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


def _campaign(request: Request, pk: int) -> Campaign:
    found = league.campaign_for(request.user, pk)
    if found is None:
        raise NotFound("No such campaign.")
    return found


def _entry(campaign: Campaign, list_id: int, field: str) -> CampaignWarband:
    found = campaign.warbands.select_related("army_list").filter(army_list_id=list_id).first()
    if found is None:
        raise ValidationError({field: [f"List {list_id} is not a warband of this campaign."]})
    return found


def _battle_data(b: CampaignBattle) -> dict:
    return {"id": b.pk, "status": b.status, "first": b.first.army_list_id, "second": b.second.army_list_id,
            "result": b.first_side["result"], "note": b.note, "first_revision": b.first_revision,
            "second_revision": b.second_revision}


def _campaign_data(campaign: Campaign, request: Request, full: bool = True) -> dict:
    data = {"id": campaign.pk, "name": campaign.name, "owner": campaign.owner.get_username(),
            "join_code": campaign.join_code}
    if full:
        data["standings"] = [{**s.__dict__} for s in league.standings(campaign)]
        data["battles"] = [_battle_data(b) for b in league.battles_of(campaign)]
    return data


def _refused(exc: league.CampaignError) -> APIException:
    return ConflictingSide(exc.message) if exc.conflict else ValidationError({"battle": [exc.message]})


class CampaignCollectionView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(responses={200: OpenApiResponse(description="[{id, name, owner, join_code}]"), **_errors(401, 403)},
                   summary="The campaigns I run or play in", operation_id="v1_campaigns_list")
    def get(self, request: Request) -> Response:
        return Response([_campaign_data(c, request, full=False) for c in league.campaigns_of(request.user)])

    @extend_schema(request=CampaignWriteSerializer,
                   responses={201: OpenApiResponse(description="{id, name, owner, join_code, standings, battles}"),
                              **_errors(400, 401, 403, 429)}, summary="Create a campaign")
    def post(self, request: Request) -> Response:
        write = CampaignWriteSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        name = write.validated_data["name"].strip()
        if not name:
            raise ValidationError({"name": ["Give the campaign a name."]})
        return Response(_campaign_data(league.create_campaign(request.user, name), request), status=201)


class CampaignJoinView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=JoinSerializer, responses={201: OpenApiResponse(description="the campaign"),
                                                      **_errors(400, 401, 403, 429)},
                   summary="Join a campaign with its code, entering one of my warbands")
    def post(self, request: Request) -> Response:
        write = JoinSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        campaign = league.by_code(write.validated_data["code"])
        if campaign is None:
            raise ValidationError({"code": ["No campaign has that join code."]})
        army_list = ArmyList.objects.filter(pk=write.validated_data["list"], owner=request.user).first()
        if army_list is None:
            raise ValidationError({"list": ["No such list of yours."]})
        try:
            league.enter_warband(campaign, request.user, army_list)
        except league.CampaignError as exc:
            raise ValidationError({"list": [exc.message]}) from None
        return Response(_campaign_data(campaign, request), status=201)


class CampaignItemView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenApiResponse(description="{id, name, owner, join_code, standings, battles}"),
                              **_errors(401, 403, 404)}, summary="A campaign's standings and battles")
    def get(self, request: Request, pk: int) -> Response:
        return Response(_campaign_data(_campaign(request, pk), request))


class CampaignBattlesView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=EnterBattleSerializer, responses={201: OpenApiResponse(description="the battle, pending"),
                                                             **_errors(400, 401, 403, 404, 429)},
                   summary="Enter a battle of my warband against another of the campaign (pending until confirmed)")
    def post(self, request: Request, pk: int) -> Response:
        campaign = _campaign(request, pk)
        write = EnterBattleSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        data = write.validated_data
        mine, theirs = _entry(campaign, data["list"], "list"), _entry(campaign, data["opponent"], "opponent")
        try:
            battle = league.enter_battle(campaign, request.user, mine, theirs, dict(data["battle"]))
        except league.CampaignError as exc:
            raise _refused(exc) from None
        return Response(_battle_data(battle), status=201)


def _battle(request: Request, pk: int, bid: int) -> CampaignBattle:
    """A battle of a campaign the user is in (404 otherwise)."""
    battle = CampaignBattle.objects.filter(pk=bid, campaign=_campaign(request, pk)).first()
    if battle is None:
        raise NotFound("No such battle.")
    return battle


class CampaignBattleConfirmView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=ConfirmSerializer, responses={200: OpenApiResponse(description="the battle, recorded"),
                                                         409: OpenApiResponse(description="the results contradict"),
                                                         **_errors(400, 401, 403, 404, 429)},
                   summary="Confirm my side of a pending battle: it is recorded for both warbands")
    def post(self, request: Request, pk: int, bid: int) -> Response:
        battle = _battle(request, pk, bid)
        write = ConfirmSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        try:
            battle = league.confirm_battle(battle, request.user, dict(write.validated_data["battle"]))
        except league.CampaignError as exc:
            raise _refused(exc) from None
        return Response(_battle_data(battle))


class CampaignBattleRefuseView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(request=RefuseSerializer, responses={200: OpenApiResponse(description="the battle, refused"),
                                                        **_errors(400, 401, 403, 404, 429)},
                   summary="Refuse (or withdraw) a pending battle; nothing is applied")
    def post(self, request: Request, pk: int, bid: int) -> Response:
        battle = _battle(request, pk, bid)
        write = RefuseSerializer(data=request.data)
        write.is_valid(raise_exception=True)
        try:
            battle = league.refuse_battle(battle, request.user, write.validated_data["why"])
        except league.CampaignError as exc:
            raise _refused(exc) from None
        return Response(_battle_data(battle))
