"""Rate limits on validate, writes, imports, exports and login, on the site and the API alike.

One count per scope and per user when signed in, per client address otherwise
(armylists/accounts/client_address.py), which every worker process shares and takes atomically
(armylists/accounts/rate_counts.py: a locked row of the database, or a script on Redis with REDIS_URL).
The API's views name their scope (`throttle_scope`, a scope or a {method: scope} map) and DRF asks
`ScopedThrottle`; the site's views
are named here, in `SITE_SCOPES`, and `RateLimitMiddleware` asks the same throttle before they run,
so a user's writes count once whether they come through the editor or the API.
"""
from __future__ import annotations

import math
from types import SimpleNamespace

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from rest_framework.throttling import ScopedRateThrottle

from armylists.accounts.client_address import client_address
from armylists.accounts.rate_counts import hit

WRITES = ("signup", "list-new", "list-rename", "list-clone", "list-delete", "list-share", "list-settings", "unit-add",
          "unit-update", "unit-remove", "unit-duplicate", "unit-move", "item-add", "item-remove", "event-new",
          "event-edit", "event-submit", "event-recheck", "event-publish", "submission-review", "tokens",
          "token-revoke", "event-team-new", "event-team-join",
          "event-team-remove", "game-data-add", "game-data-update", "list-upgrade", "list-restore", "shared-copy", "notice-read",
          "list-campaign", "list-campaign-undo", "campaign-list", "campaign-join", "campaign-detail",
          "campaign-battle-new", "campaign-battle-confirm", "campaign-battle-refuse")
# Exports count on GET (a download) and on POST (event-muster-start queues the PDF the download serves).
EXPORTS = ("list-download", "shared-download", "submission-download", "event-csv", "event-muster",
           "event-players-csv", "campaign-standings-csv", "campaign-standings-pdf")
SITE_SCOPES: dict[tuple[str, str], str] = {
    **{("POST", name): "write" for name in WRITES},
    **{("GET", name): "export" for name in EXPORTS},
    ("POST", "event-muster-start"): "export",
    ("POST", "event-upload"): "import",
    ("POST", "list-import"): "import",
    ("POST", "login"): "login",
    # Each guesses a password or spends a reset e-mail: counted with the logins.
    ("POST", "password_reset"): "login",
    ("POST", "password_change"): "login",
    ("POST", "password_reset_confirm"): "login",
}


class ScopedThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, with the scope chosen per method and the address from `client_address`."""

    def allow_request(self, request, view) -> bool:
        """DRF's decision, with the count taken atomically (rate_counts.hit) instead of read, then written."""
        scope = getattr(view, self.scope_attr, None)
        if isinstance(scope, dict):
            scope = scope.get(request.method)
        self.scope, self._wait = scope, None
        if not scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, SimpleNamespace(throttle_scope=scope))
        if self.key is None:
            return True
        self._wait = hit(self.key, self.num_requests, self.duration)
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait

    def get_ident(self, request) -> str:
        return client_address(request)


def too_many(request: HttpRequest, wait: float | None) -> HttpResponse:
    seconds = max(1, math.ceil(wait or 1))
    message = f"Too many requests: try again in {seconds} seconds."
    if request.path.startswith("/api/"):
        body = {"error": {"status": 429, "code": "throttled", "message": message, "fields": []}}
        response: HttpResponse = JsonResponse(body, status=429)
    else:
        response = HttpResponse(render_to_string("rate_limited.html", {"message": message}, request), status=429)
    response["Retry-After"] = str(seconds)
    return response


class RateLimitMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        match = request.resolver_match
        scope = SITE_SCOPES.get((request.method, match.url_name if match else ""))
        if scope is None:
            return None
        throttle = ScopedThrottle()
        if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
            return None
        return too_many(request, throttle.wait())
