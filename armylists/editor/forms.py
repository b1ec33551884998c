"""The list pages' forms. They check input (a number is a number, an id is one the book has); whether the
list is legal is the engine's question, and an illegal choice is saved and reported, never refused."""
from __future__ import annotations

from typing import Any, Iterable

from django import forms

from armylists.models import MAX_REVISION
from armylists.lists.saved.edits import BEARERS, COMMAND_PARTS, MAX_LABEL, MAX_LIMIT, MAX_NAME, MAX_SIZE
from armylists.rules import Book, RosterUnit
from armylists.lists.offers.entries import may_be_wizard, one_of_groups
from armylists.rules.native.book import Entry
from armylists.rules.reading.roster import Allies

COMMAND_NAMES = {"champion": "Champion", "musician": "Musician", "standard": "Standard Bearer"}


# --- lists ----------------------------------------------------------------------------------------

class RevisionForm(forms.Form):
    """Every edit carries the revision it was made on, so a stale edit is refused rather than lost."""
    revision = forms.IntegerField(min_value=1, max_value=MAX_REVISION, widget=forms.HiddenInput)


def book_key(book: Book) -> str:
    return f"{book.system.id}/{book.id}/{book.version}"


class NewListForm(forms.Form):
    name = forms.CharField(max_length=MAX_NAME, label="List name")
    book = forms.ChoiceField(label="Army book")
    composition = forms.ChoiceField(required=False, label="Composition")
    allies = forms.ChoiceField(required=False, label="Allies")
    # Left empty (no script fills it in when a book is chosen): the book's usual game size.
    points_limit = forms.IntegerField(min_value=1, max_value=MAX_LIMIT, label="Points limit", required=False)

    def __init__(self, books: list[Book], *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.books = {book_key(b): b for b in books}
        by_system: dict[str, list[tuple[str, str]]] = {}
        for b in books:
            by_system.setdefault(b.system.name, []).append((book_key(b), f"{b.name} ({b.version})"))
        self.fields["book"].choices = [("", "Choose an army book")] + list(by_system.items())
        compositions = [(f"{book_key(b)}/{cid}", f"{b.name}: {c.name}")
                        for b in books for cid, c in b.compositions.items()]
        self.fields["composition"].choices = [("", "Standard")] + compositions
        self.has_compositions = bool(compositions)
        # Allies as "<book key>/<allies key>", like compositions: each book offers what its system allows.
        self.allies_choices: dict[str, tuple[Book, Book, str | None]] = {}
        grouped: dict[str, list[tuple[str, str]]] = {}
        for b in books:
            for key, (ally, comp) in ally_options(b, books, None).items():
                value = f"{book_key(b)}/{key}"
                self.allies_choices[value] = (b, ally, comp)
                grouped.setdefault(f"{b.name} ({b.version})", []).append((value, ally_label(ally, comp)))
        self.fields["allies"].choices = [("", "No allies")] + list(grouped.items())
        self.fields["allies"].error_messages["invalid_choice"] = "%(value)s is not an army this book may take allies from."
        self.has_allies = bool(grouped)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        book = self.books.get(data.get("book", ""))
        data["book_obj"] = book
        if data.get("points_limit") is None and "points_limit" not in self.errors and book is not None:
            usual = book.default_limit or book.system.default_limit
            if usual:
                data["points_limit"] = usual
            else:
                self.add_error("points_limit", f"Give a limit: {book.name} has no usual game size.")
        composition = data.get("composition") or ""
        data["composition_id"] = None
        if composition and book is not None:
            prefix = book_key(book) + "/"
            if not composition.startswith(prefix):
                self.add_error("composition", f"That composition is not one of {book.name}'s.")
            else:
                data["composition_id"] = composition[len(prefix):]
        data["allies_book"], data["allies_composition"] = None, None
        chosen = self.allies_choices.get(data.get("allies") or "")
        if chosen is not None and book is not None:
            if chosen[0] is not book:
                self.add_error("allies", f"Those allies are for another army book, not {book.name}.")
            else:
                data["allies_book"], data["allies_composition"] = chosen[1], chosen[2]
        return data


class ListSettingsForm(RevisionForm):
    name = forms.CharField(max_length=MAX_NAME, label="Name")
    points_limit = forms.IntegerField(min_value=1, max_value=MAX_LIMIT, label="Limit")
    composition = forms.ChoiceField(required=False, label="Composition")

    def __init__(self, book: Book, *args: Any, books: Iterable[Book] = (), current: Allies | None = None,
                 **kwargs: Any):
        """`books`: the books a list may take allies from (those of `book`'s system the rules allow are
        offered); `current`: the list's allies, offered too so its other settings can still be saved."""
        super().__init__(*args, **kwargs)
        self.fields["composition"].choices = [("", "Standard")] + [(cid, c.name) for cid, c in book.compositions.items()]
        self.fields["points_limit"].label = f"Limit ({book.system.budget_unit})"
        if book.system.modes:
            self.fields["modes"] = forms.MultipleChoiceField(
                required=False, label="Matched play", choices=[(mid, m.name) for mid, m in book.system.modes.items()],
                error_messages={"invalid_choice": f"%(value)s is not a matched-play rule set of {book.system.name}."})
        self.allies_books: dict[str, tuple[Book, str | None]] = {}
        if book.system.allies is not None:
            self.allies_books = ally_options(book, books, current)
            self.fields["allies"] = forms.ChoiceField(
                required=False, label="Allies",
                choices=[("", "No allies")] + [(key, ally_label(b, c)) for key, (b, c) in self.allies_books.items()],
                error_messages={"invalid_choice": f"%(value)s is not an army {book.name} may take allies from."})

    def chosen_modes(self) -> list[str] | None:
        """The matched-play rules ticked (none: Open War); None when the form does not show them (a form
        without the `modes_shown` marker, whose unticked boxes would otherwise read as "none")."""
        if "modes" not in self.fields or "modes_shown" not in self.data:
            return None
        return list(self.cleaned_data.get("modes") or [])

    def chosen_allies(self) -> tuple[Book | None, str | None] | None:
        """The allies chosen (book, composition), (None, None) for none; None when the form does not say."""
        if "allies" not in self.fields or "allies" not in self.data:
            return None
        return self.allies_books.get(self.cleaned_data.get("allies") or "", (None, None))


def allies_key(book_id: str, version: str, composition: str | None) -> str:
    return f"{book_id}/{version}" + (f"/{composition}" if composition else "")


def ally_label(book: Book, composition: str | None) -> str:
    name = book.name
    if composition:
        name += f": {book.compositions[composition].name if composition in book.compositions else composition}"
    return f"{name} ({book.version})"


def ally_options(book: Book, books: Iterable[Book], current: Allies | None) -> dict[str, tuple[Book, str | None]]:
    """What the list of `book` may take allies from (`AlliesRules.allows`), every loaded version, by form value;
    and the list's `current` allies, even if not allowed (the Report says so)."""
    rules = book.system.allies
    found: dict[str, tuple[Book, str | None]] = {}
    for ally in books:
        if rules is None or ally.system.id != book.system.id:
            continue
        for allowed in rules.allowed.get(book.id, ()):
            if allowed.book == ally.id and (allowed.composition is None or allowed.composition in ally.compositions):
                found[allies_key(ally.id, ally.version, allowed.composition)] = (ally, allowed.composition)
        if current is not None and (current.book, current.book_version) == (ally.id, ally.version):
            found.setdefault(allies_key(current.book, current.book_version, current.composition),
                             (ally, current.composition))
    return found


class RenameForm(RevisionForm):
    name = forms.CharField(max_length=MAX_NAME, label="List name")
    player = forms.CharField(max_length=MAX_NAME, required=False, label="Player",
                             help_text="Printed on the roster; an event fills it in from your submission.")
    team = forms.CharField(max_length=MAX_NAME, required=False, label="Team (optional)",
                           help_text="Your team at a team event; printed beside your name.")


class AddUnitForm(RevisionForm):
    """An entry of the list's book, or with `allied` one of its allies book's (`allies`)."""
    entry = forms.ChoiceField()
    allied = forms.BooleanField(required=False)

    def __init__(self, book: Book, *args: Any, allies: Book | None = None,
                 entries: list[tuple[str, str]] | None = None, **kwargs: Any):
        """`entries`: (id, name) of what may be added instead of the book's entries (a roster tree's)."""
        super().__init__(*args, **kwargs)
        self.allies = allies
        from_book = book
        if self.data.get("allied") not in (None, "", "0", "false", "False"):
            from_book = allies
        self.fields["entry"].choices = [(e.id, e.name) for e in from_book.entries.values()] if from_book else []
        if entries is not None:
            self.fields["entry"].choices = entries

    def clean_allied(self) -> bool:
        allied = self.cleaned_data.get("allied", False)
        if allied and self.allies is None:
            raise forms.ValidationError("This list takes no allies; choose them in the list's settings first.")
        return allied


class MoveUnitForm(RevisionForm):
    direction = forms.ChoiceField(choices=[("up", "Up"), ("down", "Down")])


class ItemForm(RevisionForm):
    bearer = forms.ChoiceField(choices=[(b, b) for b in BEARERS])
    item = forms.CharField(max_length=80, error_messages={"required": "Choose an item."})

    def __init__(self, book: Book, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.book = book

    def clean_item(self) -> str:
        item = self.cleaned_data["item"]
        if item not in self.book.items:
            raise forms.ValidationError(f"{self.book.name} has no item {item!r}.")
        return item


class ShareForm(forms.Form):
    # share-open: the link shows only the hidden list's open part (editor/shared_open.py)
    action = forms.ChoiceField(choices=[("share", "Share"), ("share-open", "Share the open part"), ("revoke", "Revoke")])


# --- one unit --------------------------------------------------------------------------------------

class UnitForm(RevisionForm):
    """Everything about one unit but its items, built from its entry.

    Fields: `size`; `grp-<group>` (radio) for a group of alternatives; `opt-<option>` (checkbox, or a
    number when it may be taken more than once) for the others; `mount`; `cmd-<part>` for each part of
    the command group and `veteran_standard`; `general`; `path`; `label`. A field is only there when the
    entry has what it sets.

    Without JavaScript the whole form is submitted: every field is set, an unticked box is not taken.
    The editor's script sends one field at a time (`only=<field>`): that field alone is checked and
    applied to the unit as it is saved now, so quick changes in a row never undo each other.
    """

    label = forms.CharField(max_length=MAX_LABEL, required=False, label="Label")

    def __init__(self, book: Book, unit: RosterUnit, *args: Any, only: str | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.book = book
        self.unit = unit
        self.entry = entry = book.entries.get(unit.entry)
        self.groups: dict[str, list[str]] = {}
        self.only = only
        if entry is not None:
            self._add_entry_fields(book, unit, entry)
        if only:
            if only not in self.fields or only == "revision":
                self.unknown_only = only
                self.fields = {"revision": self.fields["revision"]}
            else:
                self.unknown_only = None
                self.fields = {name: self.fields[name] for name in ("revision", only)}

    def _add_entry_fields(self, book: Book, unit: RosterUnit, entry: Entry) -> None:
        if entry.size_max != entry.size_min:
            self.fields["size"] = forms.IntegerField(
                min_value=1, max_value=MAX_SIZE, label="Models",
                error_messages={"invalid": "Enter a whole number of models.",
                                "min_value": f"A unit has 1 to {MAX_SIZE} models.",
                                "max_value": f"A unit has 1 to {MAX_SIZE} models."})
        self.groups = one_of_groups(entry)
        in_group = {oid for ids in self.groups.values() for oid in ids}
        for gid, ids in self.groups.items():
            self.fields[f"grp-{gid}"] = forms.ChoiceField(
                required=False, label=entry.groups[gid].name,
                choices=[("", "None")] + [(oid, entry.options[oid].name) for oid in ids],
                error_messages={"invalid_choice": "%(value)s is not one of the choices."})
        for option in entry.options.values():
            if option.id in in_group:
                continue
            if option.max > 1:
                self.fields[f"opt-{option.id}"] = forms.IntegerField(
                    required=False, min_value=0, max_value=MAX_SIZE, label=option.name,
                    error_messages={"invalid": "Enter how many times, a whole number."})
            else:
                self.fields[f"opt-{option.id}"] = forms.BooleanField(required=False, label=option.name)
        if entry.mounts:
            self.fields["mount"] = forms.ChoiceField(
                required=False, label="Mount",
                choices=[("", "On foot")] + [(mid, c.mount.name) for mid, c in entry.mounts.items()],
                error_messages={"invalid_choice": "%(value)s is not one of its mounts."})
        for part in COMMAND_PARTS:
            if part in entry.command:
                self.fields[f"cmd-{part}"] = forms.BooleanField(required=False, label=COMMAND_NAMES[part])
        standard = entry.command.get("standard")
        if standard is not None and standard.veteran:
            self.fields["veteran_standard"] = forms.BooleanField(required=False, label="Veteran Standard Bearer")
        if entry.may_be_character and not any(o.role == "general" for o in entry.options.values()):
            self.fields["general"] = forms.BooleanField(required=False, label=book.system.general_word)
        if may_be_wizard(entry) or unit.path:
            paths = entry.paths or tuple(book.paths)
            names = {**book.system.paths, **book.paths}
            word = book.system.path_word  # Path of Magic, Lore of Magic, Spells: the system's own word
            self.fields["path"] = forms.ChoiceField(
                required=False, label=word, choices=[("", "Choose…")] + [(p, names.get(p, p)) for p in paths],
                error_messages={"invalid_choice": f"That is not one of its choices of {word}."})

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.only and self.unknown_only:
            self.add_error(None, f"{self.entry.name if self.entry else 'This unit'} has no field {self.unknown_only!r}.")
        if self.entry is not None:
            known = set(self.entry.options)
            for key in self.data:
                if key.startswith("opt-") and key[4:] not in known:
                    self.add_error(None, f"{self.entry.name} has no option {key[4:]!r}.")
        return data

    def changes(self) -> dict[str, Any]:
        """The fields submitted, as the edit `edits.update_unit` (lists/saved/edits.py) applies to the unit as saved now.

        Options, the command group and the rest start from the unit's current choices, so a form of
        one field changes that field only."""
        data = self.cleaned_data
        fields = self.fields
        unit, entry = self.unit, self.entry
        out: dict[str, Any] = {}
        if "label" in fields:
            out["label"] = data.get("label", "")
        if entry is None:
            return out
        if "size" in fields:
            out["size"] = data.get("size")
        if any(name.startswith(("opt-", "grp-")) for name in fields):
            options = {oid: n for oid, n in unit.options if oid in entry.options}
            for gid, ids in self.groups.items():
                if f"grp-{gid}" in fields:
                    for oid in ids:
                        options.pop(oid, None)
                    if data.get(f"grp-{gid}"):
                        options[data[f"grp-{gid}"]] = 1
            for name in fields:
                if name.startswith("opt-"):
                    if name not in self.data and entry.options[name[4:]].item_pool:
                        continue  # a pool item is taken in the item picker, not by the unit's form
                    value = data.get(name)
                    if value:
                        options[name[4:]] = 1 if value is True else int(value)
                    else:
                        options.pop(name[4:], None)
            out["options"] = options
        if "mount" in fields:
            out["mount"] = data.get("mount") or None
        if any(name.startswith("cmd-") for name in fields) or "veteran_standard" in fields:
            parts = set(unit.command)
            for part in COMMAND_PARTS:
                if f"cmd-{part}" in fields:
                    (parts.add if data.get(f"cmd-{part}") else parts.discard)(part)
            out["command"] = [p for p in COMMAND_PARTS if p in parts]
            out["veteran_standard"] = data.get("veteran_standard", False) if "veteran_standard" in fields \
                else unit.veteran_standard
        if "general" in fields:
            out["general"] = data.get("general", False)
        if "path" in fields:
            out["path"] = data.get("path") or None
        return out


def tree_field(offer: dict[str, Any], unit_id: str) -> str:
    """The form field of an option: `sel-<entry>` for the unit's own, `sel-<parent>~<entry>` deeper."""
    return f"sel-{offer['entry']}" if offer["parent"] == unit_id else f"sel-{offer['parent']}~{offer['entry']}"


def tree_choice(offer: dict[str, Any], unit_id: str) -> str | None:
    """The radio field of the one-of group an option sits in (a group of at most one), or None."""
    group = offer["groups"][-1] if offer["groups"] else None
    if group is None or group["max"] != 1:
        return None
    return f"one-{group['id']}" if offer["parent"] == unit_id else f"one-{offer['parent']}~{group['id']}"


class TreeUnitForm(RevisionForm):
    """The selections inside one unit of a roster tree (an imported BattleScribe book's list) and of
    its selected children: a field `sel-<entry id path>` per option (`sel-<parent>~<entry>` below the
    unit), a checkbox where it may be taken once, else a number; `one-<group>` for a group of at most
    one (radio: an entry id, or empty for none). As for UnitForm, the whole form sets every field (an
    unticked box is none), and the editor's script sends one field at a time (`only=<field>`)."""

    unit_id = ""  # the selection the form is about, for the editor to show it open with its errors

    def __init__(self, offers: list[dict[str, Any]], *args: Any, unit_id: str = "", only: str | None = None,
                 **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.unit_id = unit_id
        self.offers: dict[str, dict[str, Any]] = {}
        self.choices: dict[str, list[dict[str, Any]]] = {}
        for offer in offers:
            choice = tree_choice(offer, unit_id)
            if choice is not None:
                self.choices.setdefault(choice, []).append(offer)
                continue
            name = tree_field(offer, unit_id)
            self.offers[name] = offer
            if offer["max"] == 1:
                self.fields[name] = forms.BooleanField(required=False, label=offer["name"])
            else:
                self.fields[name] = forms.IntegerField(
                    required=False, min_value=0, max_value=offer["max"] or MAX_SIZE, label=offer["name"],
                    error_messages={"invalid": "Enter how many, a whole number."})
        for name, members in self.choices.items():
            self.fields[name] = forms.ChoiceField(
                required=False, label=members[0]["groups"][-1]["name"],
                choices=[("", "none")] + [(m["entry"], m["name"]) for m in members])
        self.unknown_only = None
        if only:
            if only not in self.fields or only == "revision":
                self.unknown_only = only
                self.fields = {"revision": self.fields["revision"]}
            else:
                self.fields = {name: self.fields[name] for name in ("revision", only)}

    def clean(self) -> dict[str, Any]:
        if self.unknown_only:
            raise forms.ValidationError(f"This unit has no option {self.unknown_only!r}.")
        return super().clean()

    def counts(self) -> dict[tuple[str, str], int]:
        """(parent selection, entry id path) -> how many, for every field the form set; a one-of
        group's others are set to none before its choice."""
        out: dict[tuple[str, str], int] = {}
        for name in self.fields:
            if name in self.offers:
                offer, value = self.offers[name], self.cleaned_data.get(name)
                out[(offer["parent"], offer["entry"])] = int(value or 0) if not isinstance(value, bool) else int(value)
            elif name in self.choices:
                chosen = self.cleaned_data.get(name) or ""
                for member in self.choices[name]:
                    if member["entry"] != chosen:
                        out[(member["parent"], member["entry"])] = 0
                for member in self.choices[name]:
                    if member["entry"] == chosen:
                        out[(member["parent"], member["entry"])] = 1
        return out
