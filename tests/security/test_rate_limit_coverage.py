"""Every route that changes something, imports or exports is rate limited (armylists/accounts/rate_limits.py):
a new site view that takes POST, or a new API method that writes, fails here until it is given a
scope or put, with the reason, on the allow-list below (issue 15)."""
from __future__ import annotations

from typing import Any, Callable, Iterator

from django.urls import URLPattern, URLResolver, get_resolver

from armylists.accounts.rate_limits import SITE_SCOPES

# Site views that accept POST and must not be limited, each with why.
NOT_LIMITED = {
    "logout": "ends the caller's own session; refusing it would keep them signed in",
}
# Site views that take no decorator limiting their methods: a POST is answered as a GET (they read
# `request.method` nowhere), so it writes nothing. Listed so that a new undecorated view fails here
# until someone looks at it.
READ_ONLY_WITHOUT_METHOD_CHECK = {
    "home", "health", "book-detail", "my-lists", "list-detail", "shared-list", "list-edit", "event-list",
    "event-detail", "event-jobs",
}
WRITING_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def routes(patterns, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def accepted_methods(callback: Callable[..., Any]) -> set[str] | None:
    """The methods a site view answers, or None for any: a class view's handlers, else the list
    `require_http_methods` (require_GET, require_POST) keeps in its closure, through login_required."""
    view_class = getattr(callback, "view_class", None)
    if view_class is not None:
        return {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)}
    layer = callback
    while layer is not None:
        cells = dict(zip(layer.__code__.co_freevars, (c.cell_contents for c in layer.__closure__ or ())))
        if "request_method_list" in cells:
            return set(cells["request_method_list"])
        layer = getattr(layer, "__wrapped__", None)
    return None


def site_routes() -> list[tuple[str, URLPattern]]:
    return [(route, p) for route, p in routes(get_resolver().url_patterns)
            if not route.startswith(("api/", "admin/"))]


def test_every_site_view_that_takes_post_has_a_scope():
    unlimited = []
    for route, pattern in site_routes():
        methods = accepted_methods(pattern.callback)
        if methods is None:
            if pattern.name not in READ_ONLY_WITHOUT_METHOD_CHECK:
                unlimited.append(f"{route} ({pattern.name}): any method")
        elif "POST" in methods and ("POST", pattern.name) not in SITE_SCOPES and pattern.name not in NOT_LIMITED:
            unlimited.append(f"{route} ({pattern.name}): POST")
    assert unlimited == []


def test_the_walk_sees_the_routes_it_must():
    """The walk is not vacuous: it finds the decorated views' methods and the routes of this issue."""
    found = {p.name: accepted_methods(p.callback) for _, p in site_routes()}
    assert found["list-import"] == {"GET", "POST"} and found["token-revoke"] == {"POST"}
    assert found["event-players-csv"] == {"GET"} and found["event-muster-start"] == {"POST"}
    assert found["logout"] == {"POST", "OPTIONS"} and found["home"] is None
    assert {"list-import", "token-revoke", "event-muster-start"} <= {n for (m, n) in SITE_SCOPES if m == "POST"}
    assert ("GET", "event-players-csv") in SITE_SCOPES
    assert READ_ONLY_WITHOUT_METHOD_CHECK <= set(found)


def test_every_api_method_that_writes_or_validates_has_a_scope():
    """The API: each writing method names its scope, and so do the views that validate or export."""
    unlimited = []
    for route, pattern in routes(get_resolver().url_patterns):
        view_class = getattr(pattern.callback, "view_class", None) or getattr(pattern.callback, "cls", None)
        if not route.startswith("api/v1/") or view_class is None:
            continue
        scope = getattr(view_class, "throttle_scope", None)
        for method in {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)} & WRITING_METHODS:
            if not (scope.get(method) if isinstance(scope, dict) else scope):
                unlimited.append(f"{route}: {method}")
    assert unlimited == []
    from armylists.api.views import ListExportView, ListReportView
    assert (ListReportView.throttle_scope, ListExportView.throttle_scope) == ("validate", "export")
