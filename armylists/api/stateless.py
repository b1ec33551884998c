"""The validation endpoint's fast path: the common request answered without DRF's request machinery.

`POST /api/v1/validate/` is stateless (no account, no session, nothing saved), and most requests are a
good list document sent as JSON by a program. For those, `answer_plainly` reads the body with the typed
reader (rules/reading/list_reader.py), validates and writes the Report with msgspec, skipping DRF's request
wrapper, content negotiation, parsers and renderers. Anything else (another content type or Accept, a
body too large, a bad document, an unknown book, a throttled client) is handed to the DRF view
unchanged, so every error keeps its one shape and message (errors.py) and the OpenAPI schema still
describes the DRF view. The throttle is the API's own (rate_limits.ScopedThrottle: per trusted client
address), counted once per request.

`StatelessHandler` goes further for this one address: Django's WSGI handler with only the middleware
such a request needs (the site's security headers, settings.SECURITY_MIDDLEWARE, and host checks) and a URL configuration of one route; wsgi.py
sends the path to it. The rest of the site keeps its sessions, CSRF and messages.
"""
from __future__ import annotations

from functools import wraps
from typing import Callable

import msgspec
from django.core.handlers.wsgi import WSGIHandler
from django.http import HttpRequest, HttpResponse

from armylists.lists.kinds import kind_for_book
from armylists.lists.library.catalogue import book_for, validate_roster
from armylists.accounts.rate_limits import ScopedThrottle
from armylists.rules import ListDocumentError
from armylists.rules.reading.list_reader import decode_document
from armylists.rules.reading.roster import MAX_DOCUMENT_BYTES, roster_from_document

PATH = "/api/v1/validate/"
COMMON_MIDDLEWARE = "django.middleware.common.CommonMiddleware"  # after settings.SECURITY_MIDDLEWARE: every
# header the site's pages carry
URLCONF = "armylists.api.stateless_urls"
JSON_ACCEPTED = ("", "*/*", "application/json", "application/*")
_encode = msgspec.json.Encoder().encode


class _Client:
    """What ScopedThrottle reads of a request: no user (the endpoint takes none), the client's address."""
    user = None

    def __init__(self, request: HttpRequest):
        self.META = request.META
        self.headers = request.headers


def answer_plainly(request: HttpRequest, view_class: type) -> HttpResponse | None:
    """The Report of a good document as a JSON response, or None to let the DRF view answer."""
    if request.method != "POST" or request.content_type != "application/json" or \
            request.content_params.get("charset", "utf-8").lower() != "utf-8":
        return None
    if any(part.split(";")[0].strip() not in JSON_ACCEPTED for part in request.headers.get("Accept", "").split(",")):
        return None
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if not 0 < length <= MAX_DOCUMENT_BYTES:
        return None
    document = decode_document(request.body)
    if document is None:
        return None
    try:
        roster = roster_from_document(document, "")
        book = book_for(roster, "")
        roster = kind_for_book(book).take(book, roster, "")   # judged as a list of its book is: its tree
    except ListDocumentError:
        return None
    # Counted here, once: a request handed to the DRF view above is counted there.
    if not ScopedThrottle().allow_request(_Client(request), view_class):
        return None  # the DRF view refuses it again (a refusal is not counted) and says when to retry
    try:
        report = validate_roster(book, roster)
    except ListDocumentError:  # a roster tree naming what its data lacks: the DRF view words the 400 (and
        # counts it again: a refused document costs two of the client's rate)
        return None
    response = HttpResponse(_encode(report.to_dict()), content_type="application/json")
    response["Allow"] = "POST, OPTIONS"  # as DRF's answer says
    return response


def with_plain_answers(view: Callable) -> Callable:
    """The DRF view `view` (from as_view()) answering its common case plainly first. The wrapper keeps
    the view's attributes (`cls`, `csrf_exempt`), so URL tools and the OpenAPI schema see the DRF view."""
    @wraps(view)
    def answer(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        plain = answer_plainly(request, view.cls)
        return plain if plain is not None else view(request, *args, **kwargs)
    return answer


def middleware() -> list[str]:
    """The stateless handler's middleware: the site's security headers, then host checks."""
    from django.conf import settings
    return [*settings.SECURITY_MIDDLEWARE, COMMON_MIDDLEWARE]


class StatelessHandler(WSGIHandler):
    """Django's WSGI handler with the middleware of `middleware()` only, resolving URLs in URLCONF."""

    def load_middleware(self, is_async: bool = False) -> None:
        from django.conf import settings
        full = settings.MIDDLEWARE
        settings.MIDDLEWARE = middleware()  # read once here, at start-up, by the base class
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = full

    def get_response(self, request: HttpRequest) -> HttpResponse:
        request.urlconf = URLCONF
        return super().get_response(request)


def route_stateless(site: Callable, stateless: Callable) -> Callable:
    """A WSGI application sending PATH to `stateless` and everything else to `site`."""
    def application(environ, start_response):
        if environ.get("PATH_INFO") == PATH:
            return stateless(environ, start_response)
        return site(environ, start_response)
    return application
