"""The staff page's form: a source to add (input only; `sources.add_source` decides what is refused)."""
from __future__ import annotations

from django import forms

from armylists.models import GameDataSource


class SourceForm(forms.Form):
    where = forms.CharField(max_length=500, label="Repository or address",
                            help_text="OWNER/NAME on GitHub (e.g. BSData/mordheim), or an https:// address of a zip")
    kind = forms.ChoiceField(choices=[("", "Guess from the data")] + GameDataSource.KIND_CHOICES, required=False)
    maps_to = forms.CharField(max_length=80, required=False, label="Our system of the same game",
                              help_text="e.g. mordheim, the-old-world, t9a-2")
