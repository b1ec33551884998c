"""One error shape for every 4xx answer of the API.

    {"error": {"status": 400, "code": "invalid", "message": "...",
               "fields": [{"path": "document.units[0].size", "message": "-1 is less than the minimum of 1"}]}}

`fields` lists every bad field with its path (empty when the error is not about a field).
"""
from __future__ import annotations

from typing import Any

from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from armylists.rules import ListDocumentError
from armylists.rules.errors import format_path


class PreconditionRequired(APIException):
    status_code = 428
    default_code = "precondition_required"
    default_detail = "Send the revision you read, in an If-Match header or a 'revision' field."


class StaleRevision(APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_code = "stale_revision"
    default_detail = "The list changed since you read it."


def document_error(exc: ListDocumentError, prefix: str = "document") -> ValidationError:
    """A ListDocumentError as a field error whose path points inside the request body."""
    inner = format_path(exc.path)
    path = prefix if inner == "(top level)" else f"{prefix}.{inner}" if prefix else inner
    return ValidationError({path: [exc.reason]})


def _fields(detail: Any, path: str = "") -> list[dict[str, str]]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            sub = key if key != "non_field_errors" else ""
            out += _fields(value, f"{path}.{sub}" if path and sub else path or sub)
        return out
    if isinstance(detail, list):
        if all(not isinstance(d, (dict, list)) for d in detail):
            return [{"path": path, "message": str(d)} for d in detail]
        out = []
        for i, value in enumerate(detail):
            out += _fields(value, f"{path}[{i}]")
        return out
    return [{"path": path, "message": str(detail)}]


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, ListDocumentError):
        exc = document_error(exc)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        fields = _fields(exc.detail)
        message = "; ".join(f"{f['path']}: {f['message']}" if f["path"] else f["message"] for f in fields)
        code = "invalid"
    else:
        fields = []
        detail = getattr(exc, "detail", str(exc))
        message = str(detail)
        code = detail.code if hasattr(detail, "code") else getattr(exc, "default_code", "error")
    response.data = {"error": {"status": response.status_code, "code": code, "message": message, "fields": fields}}
    return response


def api_not_found(request, exception=None):
    """Django's 404 for URLs that match no route: JSON in the API's shape under /api/, HTML elsewhere."""
    from django.http import JsonResponse
    from django.views.defaults import page_not_found

    if request.path.startswith("/api/"):
        body = {"error": {"status": 404, "code": "not_found", "message": "No such resource.", "fields": []}}
        return JsonResponse(body, status=404)
    return page_not_found(request, exception)


def bad_request(request, exception=None):
    """Django's 400 for a request it refuses before any view (SuspiciousOperation): the limit it passed, said
    in words (its own page is a bare "Bad Request (400)"); JSON in the API's shape under /api/, HTML elsewhere.
    Other refusals are named only generally: their text may quote the request's headers."""
    from django.conf import settings
    from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
    from django.http import HttpResponseBadRequest, JsonResponse
    from django.utils.html import escape

    from armylists.events.submitting import MAX_UPLOAD_FILES

    if isinstance(exception, TooManyFilesSent):
        message = (f"The request sends more than {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files; an upload takes at "
                   f"most {MAX_UPLOAD_FILES} list files at once. Nothing was stored.")
    elif isinstance(exception, TooManyFieldsSent):
        message = f"The request sends more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields. Nothing was stored."
    elif isinstance(exception, RequestDataTooBig):
        message = (f"The request's form data is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes (files "
                   f"aside). Nothing was stored.")
    else:
        message = "The request could not be read. Nothing was stored."
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"status": 400, "code": "bad_request", "message": message, "fields": []}},
                            status=400)
    return HttpResponseBadRequest(f'<!doctype html>\n<html lang="en"><head><title>Bad request (400)</title></head>'
                                  f"<body><h1>Bad request (400)</h1><p>{escape(message)}</p></body></html>\n")
