"""The organiser's and the players' forms for events. Event rules are read here with the engine's own
reader, so a bad rules file is a form error naming the line's path, never a broken event."""
from __future__ import annotations

import re
from typing import Any

from django import forms

from armylists.lists.library.names import Shelved, book_compositions, book_label, shelved_books, site_systems
from armylists.lists.saved.edits import MAX_LIMIT, MAX_NAME
from armylists.lists.library.data_as_of import holds_system, version_label
from armylists.models import ArmyList, Event, GameDataVersion, Team
from armylists.rules import RulesDataError, System
from armylists.rules.errors import format_path

from armylists.events.checking import allowed_books, read_rules, system_books
from armylists.events.rule_builder import KINDS, RuleBuildError, build_rule


# The choices name every system's books from their rows' columns (lists/library/names.py): building each
# imported book to print its name made the new-event form 20 s and 700 MB on a fresh worker (issue 39).
def _book_choices(books: list[Shelved]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Allowed-book choices, grouped by system: "system/book" (any version) and "system/book@version"."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for book in sorted(books, key=lambda b: (b.system.name, b.name, b.version)):
        choices = groups.setdefault(book.system.name, [])
        any_version = (f"{book.system.id}/{book.id}", f"{book.name} (any version)")
        if any_version not in choices:
            choices.append(any_version)
        choices.append((f"{book.system.id}/{book.id}@{book.version}", f"{book.name} {book.version} only"))
    return list(groups.items())


def _composition_choices(books: list[Shelved]) -> list[tuple[str, list[tuple[str, str]]] | tuple[str, str]]:
    """Compositions by name, grouped by system: "system/composition" -> "Knightly Order (Empire of Man)"."""
    compositions = book_compositions(books)
    groups: dict[str, dict[str, tuple[str, list[str]]]] = {}
    for book in sorted(books, key=lambda b: (b.system.name, b.name)):
        found = groups.setdefault(book.system.name, {})
        for cid, name in compositions.get(book.key, ()):
            key = f"{book.system.id}/{cid}"
            name, names = found.setdefault(key, (name, []))
            if book.name not in names:
                names.append(book.name)
    return [("", "Any composition"), *((system, [(key, f"{name} ({', '.join(books)})")
                                                  for key, (name, books) in found.items()])
                                        for system, found in groups.items() if found)]


def _mode_choices(systems: dict[str, System]) -> list[tuple[str, list[tuple[str, str]]]]:
    return [(s.name, [(f"{s.id}/{m.id}", m.name) for m in s.modes.values()])
            for s in sorted(systems.values(), key=lambda s: s.name) if s.modes]


class EventForm(forms.ModelForm):
    """An event's settings. Books and modes are offered for every system and must match the one chosen."""

    points_limit = forms.IntegerField(min_value=1, max_value=MAX_LIMIT, label="Points limit")
    allowed_books = forms.MultipleChoiceField(required=False, label="Allowed army books",
                                              help_text="None chosen: every book of the system.",
                                              widget=forms.SelectMultiple(attrs={"size": 8}))
    # A rule built here rather than typed (events/rule_builder.py): added to the rules text on saving.
    add_rule_kind = forms.ChoiceField(required=False, label="Add an event rule",
                                      choices=[("", "No rule to add")] + list(KINDS.items()))
    add_rule_name = forms.CharField(required=False, max_length=200, label="Unit, option, item, category or tag",
                                    help_text="As the army book names it, e.g. Steam Tank, Core, named; "
                                              "nothing for a rule on any unit.")
    add_rule_number = forms.IntegerField(required=False, min_value=0, max_value=MAX_LIMIT, label="N",
                                         help_text="For “at most N”: how many (units, times), points or percent.")
    data_version = forms.ModelChoiceField(
        queryset=GameDataVersion.objects.filter(status=GameDataVersion.OK).select_related("source"),
        required=False, label="Game data version",
        help_text="Imported books are checked at this version (docs/game-data.md). A new event plays the newest "
                  "of its system unless you pick one; moving it checks every submission again.")
    play_modes = forms.MultipleChoiceField(required=False, label="Matched-play rules",
                                           help_text="Every list is checked with these, whatever it chose.",
                                           widget=forms.CheckboxSelectMultiple)

    class Meta:
        model = Event
        fields = ["name", "date", "system", "points_limit", "composition", "deadline", "rules_text", "data_version"]
        labels = {"rules_text": "Event rules (advanced: YAML)", "composition": "Required composition", "deadline": "Submission deadline"}
        help_texts = {
            "rules_text": "The event's rules written out, as the rule builder above writes them, for example: "
                          "- {id: no-allies, type: count, params: {label: Allies, select: {category: allies}, max: 0}}",
            "composition": "The composition every list must use; none chosen: any.",
        }
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
            "rules_text": forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "code"}),
            "system": forms.Select(attrs={"data-event-system": "1"}),
            "composition": forms.Select(),
        }

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._systems = site_systems()  # read once for the form: its choices and its checks
        self._books = shelved_books()
        self.fields["system"].widget.choices = [(s.id, s.name) for s in sorted(self._systems.values(),
                                                                               key=lambda s: s.name)]
        self.fields["allowed_books"].choices = _book_choices(self._books)
        self.fields["play_modes"].choices = _mode_choices(self._systems)
        self.fields["composition"].widget.choices = _composition_choices(self._books)
        self.fields["name"].max_length = MAX_NAME
        # The system first: the books, compositions and matched-play rules offered below follow it
        # (static/armylists/event_form.js hides the other systems').
        self.fields["data_version"].label_from_instance = version_label
        self.order_fields(["system", "name", "date", "points_limit", "allowed_books", "data_version", "composition",
                           "play_modes",
                           "deadline", "add_rule_kind", "add_rule_name", "add_rule_number", "rules_text"])
        self._offer_only(self.data.get("system") if self.is_bound else None)
        if self.instance.pk:
            system = self.instance.system
            self.initial["allowed_books"] = [f"{system}/{b}" for b in self.instance.books]
            self.initial["play_modes"] = [f"{system}/{m}" for m in self.instance.modes]
            if self.instance.composition:
                self.initial["composition"] = f"{system}/{self.instance.composition}"

    def _offer_only(self, system: str | None) -> None:
        """Shown again after an error, the form offers the chosen system's books, compositions and
        matched-play rules only (not Mordheim's Campaign for an Old World event): the widgets show them,
        the fields still know every system's, so a choice of another system is refused by name in clean()."""
        found = self._systems.get(system or "")
        if found is None:
            return
        for name in ("allowed_books", "composition", "play_modes"):
            widget = self.fields[name].widget
            widget.choices = [c for c in widget.choices if not isinstance(c[1], list) or c[0] == found.name]

    def clean_system(self) -> str:
        system = self.cleaned_data["system"]
        if system not in self._systems:
            raise forms.ValidationError("Choose one of the game systems.")
        return system

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        system = data.get("system")
        if not system:
            return data
        books, modes = [], []
        system_name = self._systems[system].name
        for choice in data.get("allowed_books", []):
            chosen_system, _, book = choice.partition("/")
            if chosen_system != system:
                self.add_error("allowed_books", f"{book_label(chosen_system, book, self._books)} is not a "
                                                f"book of {system_name}.")
            books.append(book)
        for choice in data.get("play_modes", []):
            chosen_system, _, mode = choice.partition("/")
            if chosen_system != system:
                self.add_error("play_modes", f"{mode} is not a matched-play rule of {system_name}.")
            modes.append(mode)
        data["books"], data["modes"] = books, modes
        pinned = data.get("data_version")
        if pinned is not None and not holds_system(pinned, system):
            self.add_error("data_version", f"{version_label(pinned)} holds no book of {system_name}.")
        if data.get("add_rule_kind"):
            self._add_built_rule(data, system, books)
        probe = Event(books=books)  # the allowed books read the way the check reads them
        try:
            read_rules(system, data.get("rules_text", ""), allowed_books(probe), "event rules")
        except RulesDataError as exc:
            self.add_error("rules_text", f"{format_path(exc.path)}: {exc.reason}")
        composition = data.get("composition", "").strip()
        if "/" in composition:  # chosen by name: "system/composition"
            chosen_system, _, composition = composition.partition("/")
            if chosen_system != system:
                self.add_error("composition", f"That composition is not one of {system_name}'s.")
        data["composition"] = composition
        offered = book_compositions([b for b in self._books if b.system.id == system])
        if composition and not any(composition == cid for listed in offered.values() for cid, _ in listed):
            self.add_error("composition", f"No book of this system has a composition {composition!r}.")
        deadline, day = data.get("deadline"), data.get("date")
        if deadline and day and deadline.date() > day:
            self.add_error("deadline", "The deadline must be on or before the event's date.")
        return data

    def _add_built_rule(self, data: dict[str, Any], system: str, books: list[str]) -> None:
        """The rule the "Add an event rule" fields describe, appended to the rules text (or their error)."""
        allowed = {b.partition("@")[0]: frozenset() for b in books}  # any version of a named book
        text = data.get("rules_text", "") or ""
        try:  # the rule names a unit or item of the allowed books: those alone are built
            line = build_rule(data["add_rule_kind"], data.get("add_rule_name", ""), data.get("add_rule_number"),
                              system_books(system, allowed), re.findall(r"\bid:\s*([\w-]+)", text))
        except RuleBuildError as exc:
            self.add_error("add_rule_name", str(exc))
            return
        data["rules_text"] = (text.rstrip() + "\n" if text.strip() else "") + line + "\n"

    def save(self, commit: bool = True) -> Event:
        event = super().save(commit=False)
        event.books, event.modes = self.cleaned_data["books"], self.cleaned_data["modes"]
        event.composition = event.composition.strip()
        if commit:
            event.save()
        return event


class SubmitForm(forms.Form):
    """A player's list to submit; their team is the one they joined (events.teams), never typed here."""

    army_list = forms.ModelChoiceField(queryset=ArmyList.objects.none(), label="Your list", empty_label=None)

    def __init__(self, user, event: Event, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["army_list"].queryset = ArmyList.objects.filter(owner=user, system=event.system).order_by("name")


class TeamForm(forms.Form):
    """A new team: registered by the organiser, or created by a player who becomes its captain."""

    name = forms.CharField(max_length=200, label="Team name")


class JoinTeamForm(forms.Form):
    """Joining one of the event's registered teams with the code its captain or the organiser gave."""

    team = forms.ModelChoiceField(queryset=Team.objects.none(), label="Team", empty_label=None,
                                  error_messages={"invalid_choice": "Choose one of this event's teams."})
    code = forms.CharField(max_length=20, label="Join code", widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, event: Event, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = event.teams.all()


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Several files in one field (Django's documented recipe)."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class UploadForm(forms.Form):
    files = MultipleFileField(label="List files (.json documents or tournament text)")
    team = forms.CharField(max_length=200, required=False, label="Team, for all these lists (optional)")


class ReviewForm(forms.Form):
    action = forms.ChoiceField(choices=[("approve", "Approve"), ("return", "Return to the player"),
                                        ("reopen", "Reopen (the player may replace it)")])
    note = forms.CharField(required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3}),
                           label="Note to the player")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "return" and not data.get("note", "").strip():
            self.add_error("note", "Say why the list is returned; the player sees this note.")
        return data
