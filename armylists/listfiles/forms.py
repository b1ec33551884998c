"""The import page's form: a file or pasted text; what it holds is the list files part's question."""
from __future__ import annotations

from typing import Any

from django import forms


class ImportListForm(forms.Form):
    """A list to bring in: a file, or text pasted (one of the two)."""

    file = forms.FileField(required=False, label="A file",
                           help_text="Our JSON or text, Old World Builder's .owb.json or text export, a "
                                     "BattleScribe / New Recruit roster (.ros, .rosz), or New Recruit's "
                                     "tournament summary of one T9A list (one JSON line)")
    text = forms.CharField(required=False, label="Or paste the list", widget=forms.Textarea(attrs={"rows": 14}),
                           max_length=8 * 1024 * 1024)

    # The date of the game data to read the list with, where several are stored (New Recruit's T9A data);
    # offered by the view only then (`importing.data_dates`).
    data_as_of = forms.ChoiceField(required=False, label="Game data of",
                                   help_text="For a New Recruit summary: the data of its tournament's date unless "
                                             "you choose another")

    def __init__(self, *args: Any, dates: list[str] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["data_as_of"].choices = [("", "the list's own date"), *((d, d) for d in dates)]
        if len(dates) < 2:
            del self.fields["data_as_of"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("file") and not (data.get("text") or "").strip():
            raise forms.ValidationError("Choose a file or paste a list.")
        if data.get("file") and (data.get("text") or "").strip():
            raise forms.ValidationError("Choose a file or paste a list, not both.")
        return data
