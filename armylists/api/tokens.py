"""The API's token endpoints: get one with a username and password (login-limited: django-axes and the
`login` rate), and list, name, create and revoke your own (armylists/accounts/tokens.py)."""
from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from armylists.accounts.login_lockout import lockout_message
from armylists.models import ApiToken
from armylists.accounts.tokens import MAX_TOKEN_DAYS, TokenLimit, create_token, default_days, revoke_token

from armylists.api.parsers import LimitedJSONParser
from armylists.api.serializers import ErrorSerializer


class LockedOut(APIException):
    status_code = 429
    default_code = "locked_out"


class TokenSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="token_key", read_only=True, help_text="Names the token; not usable as one.")

    class Meta:
        model = ApiToken
        fields = ["id", "name", "created", "expiry"]
        read_only_fields = fields


class NewTokenSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False, default="API token")
    expires_in_days = serializers.IntegerField(min_value=1, max_value=MAX_TOKEN_DAYS, required=False, allow_null=True,
                                               help_text="Days until it expires; null: never. Default: the site's.")


class LoginSerializer(NewTokenSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class CreatedTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The token itself: shown this once, only its hash is kept.")

    class Meta(TokenSerializer.Meta):
        fields = TokenSerializer.Meta.fields + ["token"]
        read_only_fields = fields


def _created(instance: ApiToken, token: str) -> Response:
    return Response({**TokenSerializer(instance).data, "token": token}, status=status.HTTP_201_CREATED)


def _new_token(user, data: dict) -> Response:
    days = data["expires_in_days"] if "expires_in_days" in data else default_days()
    try:
        return _created(*create_token(user, data["name"], days))
    except TokenLimit as exc:
        raise ValidationError({"": [str(exc)]}) from None


ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 415, 429)}


@extend_schema(request=LoginSerializer, responses={201: CreatedTokenSerializer, **ERRORS},
               summary="Get an API token",
               description="Send username and password (and a name for the token); answers the token once. "
                           "Use it as `Authorization: Token <token>`. Five failed log-ins for an account or from an "
                           "address lock log-ins for 15 minutes (429).")
class TokenView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    parser_classes = [LimitedJSONParser, FormParser, MultiPartParser]
    throttle_scope = "login"

    def post(self, request: Request) -> Response:
        data = LoginSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Django's request, not DRF's: django-axes counts failures and marks a lockout on it.
        django_request = request._request
        user = authenticate(django_request, username=data.validated_data["username"],
                            password=data.validated_data["password"])
        if getattr(django_request, "axes_locked_out", False):
            raise LockedOut(lockout_message())
        if user is None:
            raise ValidationError({"": ["Unable to log in with that username and password."]})
        return _new_token(user, data.validated_data)


class TokenCollectionView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"POST": "write"}

    @extend_schema(responses={200: TokenSerializer(many=True), **ERRORS}, summary="My API tokens")
    def get(self, request: Request) -> Response:
        return Response(TokenSerializer(ApiToken.objects.filter(user=request.user), many=True).data)

    @extend_schema(request=NewTokenSerializer, responses={201: CreatedTokenSerializer, **ERRORS},
                   summary="Create an API token")
    def post(self, request: Request) -> Response:
        data = NewTokenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return _new_token(request.user, data.validated_data)


class TokenItemView(APIView):
    permission_classes = [IsAuthenticated]
    throttle_scope = {"DELETE": "write"}

    @extend_schema(responses={204: None, **ERRORS}, summary="Revoke an API token")
    def delete(self, request: Request, key: str) -> Response:
        if not revoke_token(request.user, key):
            raise NotFound("No such token.")
        return Response(status=status.HTTP_204_NO_CONTENT)
