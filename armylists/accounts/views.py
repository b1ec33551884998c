"""Signing up. Logging in and out and the password pages are Django's own views (`accounts/` in urls.py),
with our templates in templates/registration/."""
from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from armylists.accounts.forms import SignUpForm


def _next_url(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure()):
        return wanted
    return ""


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("my-lists")
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_next_url(request) or "list-new")
        status = 400
    else:
        form = SignUpForm()
        status = 200
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)}, status=status)
