"""Sign-up: the one account form of ours (log in, password change and reset are Django's)."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm


class SignUpForm(UserCreationForm):
    email = forms.EmailField(required=False, help_text="Optional; only used to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")
