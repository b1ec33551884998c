"""What a locked-out login sees (django-axes calls `lockout_response`; settings.AXES_LOCKOUT_CALLABLE).

After AXES_FAILURE_LIMIT failed log-ins for one account, or from one address, log-ins stop for
AXES_COOLOFF_TIME; the way out is waiting, or the password reset (which ends the lockout:
armylists/accounts/password_changes.py). The answer is a 429 with that message: the page for the site, the
API's error shape for the token endpoint.
"""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse


def cooloff_minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def lockout_message() -> str:
    return (f"Too many failed log-ins for this account or from your address: logging in is locked for "
            f"{cooloff_minutes()} minutes. Wait, or reset your password to unlock it at once.")


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    if request.path.startswith("/api/"):
        body = {"error": {"status": 429, "code": "locked_out", "message": lockout_message(), "fields": []}}
        return JsonResponse(body, status=429)
    return render(request, "registration/locked_out.html",
                  {"message": lockout_message(), "reset_url": reverse("password_reset")}, status=429)
