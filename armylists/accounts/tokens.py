"""API tokens a user lists, names, creates and revokes, on the site (accounts/token_views.py) and through the
API (api/tokens.py). django-rest-knox keeps only a hash of each token; the token itself is shown once,
when it is made. `token_key` (its first 15 characters, not enough to use it) names it in addresses."""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from armylists.models import ApiToken

MAX_TOKEN_DAYS = 3650
MAX_TOKENS = 50  # per user: a token is made by hand, not per request


class TokenLimit(Exception):
    """The user has as many tokens as allowed; the message says so."""


def create_token(user, name: str, days: int | None) -> tuple[ApiToken, str]:
    """A new token for `user`: (the stored token, the token itself, to show once). `days` None: never expires."""
    if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
        raise TokenLimit(f"You have {MAX_TOKENS} tokens, the most allowed; revoke one you no longer use.")
    return ApiToken.objects.create(user, expiry=timedelta(days=days) if days else None, name=name.strip())


def default_days() -> int | None:
    """Days until a new token expires unless its maker says otherwise; None (API_TOKEN_DAYS=0): never."""
    return settings.API_TOKEN_DAYS or None


def revoke_token(user, key: str) -> bool:
    """Revoke the user's token named by `key`; False when they have none such."""
    deleted, _ = ApiToken.objects.filter(user=user, token_key=key).delete()
    return bool(deleted)
