"""GET /healthz: what a load balancer asks each app server before sending it requests.

200 when the database answers; 503 (with the reason) when it does not. The body also says whether this
process has the compiled rules in memory (it should: gunicorn warms them before the first request),
which cache holds them, and a count kept in that cache by every server sharing it, so one can see
from outside that two servers share one cache (the CI stage `scale` does).
"""
from __future__ import annotations

import os
import socket

from django.core.cache import caches
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from armylists.lists.library.books_cache import CACHE_ALIAS
from armylists.lists.library.catalogue import disk_library

COUNT_KEY = "healthz:answered"


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    body: dict = {
        "server": f"{socket.gethostname()}:{os.getpid()}",
        "rules_in_memory": disk_library.cache_info().currsize > 0,
        "caches": {alias: type(caches[alias]).__name__ for alias in ("default", CACHE_ALIAS)},
    }
    books = caches[CACHE_ALIAS]
    try:
        books.add(COUNT_KEY, 0, timeout=None)
        body["answered_by_all"] = books.incr(COUNT_KEY)
    except Exception as exc:  # the cache is an optimisation: say so, the server still serves
        body["answered_by_all"] = None
        body["cache_error"] = type(exc).__name__
    try:
        connection.ensure_connection()
    except DatabaseError as exc:
        return JsonResponse({**body, "status": "error", "database": str(exc)}, status=503)
    return JsonResponse({**body, "status": "ok"})
