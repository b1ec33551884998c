"""Refuse, before any view runs, a request whose address, query or form fields hold text no database
can store (armylists/rules/reading/plain_data.py): PostgreSQL refuses NUL in any text, so a NUL reaching a
lookup is a 500 there. Django already turns bytes that are not UTF-8 into U+FFFD, so a surrogate cannot
arrive this way; JSON bodies are checked by the API's parser, uploaded files by the list readers.

And answer a write to an address missing its trailing slash with a 404 that names the address with it
(`TrailingSlashMiddleware`), where Django's APPEND_SLASH raises RuntimeError under DEBUG (a 500) and
otherwise redirects, which turns the POST into a GET and loses its body.
"""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.common import CommonMiddleware

from armylists.rules.reading.plain_data import text_problem

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
WRITES = ("DELETE", "POST", "PUT", "PATCH")  # the methods Django cannot redirect with their body


def _problem(request: HttpRequest) -> str | None:
    problem = text_problem(request.path)
    if problem:
        return f"The address {problem}."
    fields = [("query", request.GET)]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        fields.append(("form", request.POST))
    for where, values in fields:
        for key, items in values.lists():
            for text in (key, *items):
                problem = text_problem(text)
                if problem:
                    return f"The {where} field {key!r} {problem}." if text is not key else f"A {where} field name {problem}."
    return None


class UnstorableTextMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = _problem(request)
        if problem is None:
            return self.get_response(request)
        return _refusal(request, 400, "parse_error", problem)


def _refusal(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    """The API's one error shape under /api/, plain text elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": {"status": status, "code": code, "message": message, "fields": []}}
        return JsonResponse(body, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class TrailingSlashMiddleware(CommonMiddleware):
    """Django's CommonMiddleware, but a write (WRITES) to an address that exists only with a trailing
    slash is a 404 saying so; a GET is still redirected to the address with the slash."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.status_code == 404 and request.method in WRITES and self.should_redirect_with_slash(request):
            refusal = _refusal(request, 404, "not_found", f"{request.method} {request.path}: there is nothing at this "
                                                          f"address; the address ends with a slash: {request.path}/")
            refusal.headers["Content-Length"] = str(len(refusal.content))
            return refusal  # not to Django's process_response: it would redirect this 404 (or raise, under DEBUG)
        return super().process_response(request, response)
