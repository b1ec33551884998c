"""Refuse, before any view runs, a request whose address, query or form fields hold text no database
can store (armylists/rules/plain_data.py): PostgreSQL refuses NUL in any text, so a NUL reaching a
lookup is a 500 there. Django already turns bytes that are not UTF-8 into U+FFFD, so a surrogate cannot
arrive this way; JSON bodies are checked by the API's parser, uploaded files by the list readers.
"""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

from armylists.rules.plain_data import text_problem

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


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
        if request.path.startswith("/api/"):
            body = {"error": {"status": 400, "code": "parse_error", "message": problem, "fields": []}}
            return JsonResponse(body, status=400)
        return HttpResponse(problem, status=400, content_type="text/plain; charset=utf-8")
