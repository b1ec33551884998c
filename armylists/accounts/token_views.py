"""The API tokens page: a user's tokens (name, first characters, made, expires), a form to make one
(shown once, then only its hash is kept) and a button to revoke each (armylists/accounts/tokens.py)."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from armylists.models import ApiToken
from armylists.accounts.tokens import TokenLimit, create_token, default_days, revoke_token

EXPIRY_CHOICES = [("30", "in 30 days"), ("90", "in 90 days"), ("365", "in a year"), ("never", "never")]


class NewTokenForm(forms.Form):
    name = forms.CharField(max_length=80, label="Name", help_text="Say where you use it, e.g. \"my list script\".")
    expires = forms.ChoiceField(choices=EXPIRY_CHOICES, label="Expires")

    def days(self) -> int | None:
        value = self.cleaned_data["expires"]
        return None if value == "never" else int(value)


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    form = NewTokenForm(request.POST or None, initial={"expires": str(default_days() or "never")})
    created = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                created = create_token(request.user, form.cleaned_data["name"], form.days())
            except TokenLimit as exc:
                form.add_error(None, str(exc))
                status = 400
            else:
                form = NewTokenForm(initial={"expires": str(default_days() or "never")})
        else:
            status = 400
    return render(request, "accounts/tokens.html", {
        "form": form, "tokens": ApiToken.objects.filter(user=request.user),
        "created": created[0] if created else None, "created_token": created[1] if created else "",
    }, status=status)


@login_required
@require_POST
def token_revoke(request: HttpRequest, key: str) -> HttpResponse:
    if revoke_token(request.user, key):
        messages.success(request, "The token is revoked: it no longer works.")
    else:
        messages.error(request, "No such token.")
    return redirect("tokens")
