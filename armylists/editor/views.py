"""The list editor: one page, and one small POST per change.

Every change goes one way through three places (`run_edit`): access (the owner only) and the form
(input only) here -> what the edit does to the document, `armylists.lists.saved.edits` (pure) -> re-checked
by the engine and saved with the revision the form carried, `armylists.lists.saved.stored.save_edit` (a stale
edit changes nothing and says so) -> rendered here: for htmx the units and the report panel again,
otherwise a redirect back. An illegal list is saved and marked; only input the list document cannot
hold is refused (400), with the error next to its field.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from django import forms
from django.contrib import messages as django_messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_GET, require_POST

from armylists.lists.saved import edits
from armylists.lists.saved.access import get_list_for_user
from armylists.lists.library.catalogue import listed_books, validate_roster
from armylists.lists.library.data_as_of import book_data_as_of
from armylists.editor.forms import (
    AddUnitForm, ItemForm, ListSettingsForm, MoveUnitForm, RevisionForm, TreeUnitForm, UnitForm, allies_key,
    ally_label, ally_options,
)
from armylists.lists.saved.edits import EditError
from armylists.lists.saved.stored import Loaded, Unavailable, load, save_edit
from armylists.models import ArmyList
from armylists.rules import ListDocumentError, Report, Roster

from armylists.editor.changes import Placed, catalogue_changes, changed_units, placed_changes
from armylists.editor.kind_pages import pages_for
from armylists.editor.report_panel import report_panel
from armylists.exports.registry import download_links


def unavailable(request: HttpRequest, army_list: ArmyList, reason: str) -> HttpResponse:
    return render(request, "lists/unavailable.html", {"army_list": army_list, "reason": reason}, status=409)


# --- the page -----------------------------------------------------------------------------------

def editor_context(request: HttpRequest, loaded: Loaded, report: Report, *, open_ids: set[str] | None = None,
                   bound_form: UnitForm | None = None, item_errors: Mapping[str, Mapping[str, list[str]]] | None = None,
                   messages: list[str] | None = None, settings_form: ListSettingsForm | None = None,
                   focus: str | None = None, stale: bool = False, scroll_to: str = "",
                   refresh_catalogue: bool = False, forms_for: set[str] | None = None,
                   sections: list | None = None) -> dict[str, Any]:
    roster, book, army_list = loaded.roster, loaded.book, loaded.army_list
    if sections is None:   # else drawn already (answer_edit compared them with the list's before)
        sections = editor_sections(loaded, report, open_ids, focus, bound_form=bound_form, item_errors=item_errors,
                                   forms_for=forms_for)
    names = {}
    for u in roster.units:
        entries = loaded.book_of(u).entries
        names[u.id] = entries[u.entry].name if u.entry in entries else u.entry
    allies = roster.allies
    current_allies = allies_key(allies.book, allies.book_version, allies.composition) if allies else ""
    if settings_form is None:
        settings = {"name": roster.name or army_list.name, "points_limit": roster.points_limit,
                    "composition": roster.composition or "", "allies": current_allies, "modes": list(roster.modes),
                    "errors": {}}
    else:
        settings = {key: settings_form.data.get(key, "") for key in ("name", "points_limit", "composition")}
        settings["allies"] = settings_form.data.get("allies", current_allies)
        settings["modes"] = (settings_form.data.getlist("modes") if "modes_shown" in settings_form.data
                             else list(roster.modes))
        settings["errors"] = {key: list(errs) for key, errs in settings_form.errors.items()}
    ally_choices = []
    if book.system.allies is not None:
        # the system's books only: ally_options takes none of another system (issue 39)
        ally_choices = [(key, ally_label(b, c))
                        for key, (b, c) in ally_options(book, listed_books(book.system.id), allies).items()]
    return {
        "army_list": army_list, "book": book, "roster": roster, "revision": army_list.revision,
        "sections": sections, "panel": report_panel(report, names, system=book.system,
                                                     data_as_of=book_data_as_of(book)),
        "settings": settings,
        "compositions": [(cid, c.name) for cid, c in book.compositions.items()] if loaded.kind.has_compositions else [],
        "mode_choices": [(mid, m.name) for mid, m in book.system.modes.items()],
        "takes_allies": book.system.allies is not None, "ally_choices": ally_choices, "allies_book": loaded.allies,
        "messages_": messages or [], "focus": focus or "", "stale": stale, "scroll_to": scroll_to,
        # Counted by the list's kind: a roster tree keeps its units in forces, not in `roster.units`.
        "unit_count": loaded.kind.unit_count(roster), "refresh_catalogue": refresh_catalogue,
        "army_rules": loaded.kind.army_rules(book, roster),   # said once on the army, under its header
        # the Download menu: every export offered for this list, as its page offers them
        "downloads": download_links(reverse("list-download", args=[army_list.pk, "x"])[:-2], book, roster),
        # One hidden CSRF field, made once: the editor has a hundred forms (Django's tag builds each anew).
        "csrf_input": format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)),
    }


def editor_sections(loaded: Loaded, report: Report, open_ids: set[str] | None = None, focus: str | None = None,
                    **kwargs: Any) -> list:
    """The list's units by section as the editor draws them (its kind's presenter), `focus` open."""
    open_ids = set(open_ids or ())
    if focus:
        open_ids.add(focus)
    unit_url = reverse("unit-update", args=[loaded.army_list.pk, "UNIT"]).replace("UNIT", "{unit}")
    return pages_for(loaded).sections(loaded, report, editable=True, open_ids=open_ids, unit_url=unit_url, **kwargs)


def render_editor(request: HttpRequest, loaded: Loaded, report: Report | None = None, status: int = 200,
                  changed: set[str] | None = None, placed: Placed | None = None, catalogue: list | None = None,
                  entries: list | None = None, **kwargs: Any) -> HttpResponse:
    """The whole page, or for htmx the part that changes (units, settings, report panel); with `changed`
    (editor/changes.py), only those units' cards, the headings, the status and the report panel; with
    `placed`, the new cards placed and the removed ones dropped too; with `catalogue`, the catalogue's
    entries as they are now (what the list holds back changed), with `entries` those of them that changed."""
    report = report or validate_roster(loaded.book, loaded.roster)
    if placed is not None:
        changed = placed.changed | set(placed.added)
    context = editor_context(request, loaded, report, forms_for=changed, **kwargs)
    if request.htmx and changed is not None:
        if placed is not None:
            for section in context["sections"]:
                for card in section.units:
                    card.placed = placed.added.get(card.id, "")   # where a new card goes (editor_changes.html)
        response = render(request, "lists/editor_changes.html",
                          {**context, "changed": changed, "placed": placed or Placed(), "catalogue": catalogue,
                           "oob_catalogue": catalogue is not None, "entries": entries or []}, status=status)
        response["HX-Reswap"] = "none"  # every part comes out of band; the list itself stays
        response["X-List-Revision"] = str(loaded.army_list.revision)
        if context["scroll_to"]:
            response["X-Scroll-To"] = context["scroll_to"]   # a new card: the editor's script scrolls to it
        return response
    if request.htmx:
        # the allies changed (their entries are redrawn too), or the catalogue says what the list allows now
        if context["refresh_catalogue"] or pages_for(loaded).catalogue_follows_list:
            context.update(catalogue=_catalogue_of(loaded, ""), query="", refresh_catalogue=True)
        response = render(request, "lists/editor_main.html", {**context, "oob": True}, status=status)
        response["X-List-Revision"] = str(loaded.army_list.revision)  # the editor's script sends it next
        return response
    query = request.GET.get("q", "").strip()
    context.update(catalogue=_catalogue_of(loaded, query), query=query)
    return render(request, "lists/editor.html", context, status=status)


def _catalogue_of(loaded: Loaded, query: str) -> list[dict[str, Any]]:
    return pages_for(loaded).catalogue(loaded, query)


@login_required
@require_GET
def editor(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    unit = request.GET.get("unit", "")
    return render_editor(request, loaded, open_ids={unit} if unit else None)


# --- one edit, the same way every time ------------------------------------------------------------

Change = Callable[[Loaded, Any], "tuple[Roster, str | None] | tuple[Roster, str | None, dict[str, Any]]"]


def run_edit(request: HttpRequest, pk: int, make_form: Callable[[Loaded], forms.Form], change: Change,
             errors_at: Callable[[forms.Form], dict[str, Any]]) -> HttpResponse:
    """Access, input, the edit, validation, the revision-checked save and the answer, for every edit.

    `change(loaded, form)` (a valid form) returns the new roster and the unit to show open afterwards (and
    optionally what to say: {"message": ..., "refresh_catalogue": True}); `errors_at(form)` says where a bad form's errors are shown (context for `render_editor`).
    """
    army_list = get_list_for_user(request, pk)
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    form = make_form(loaded)
    if not form.is_valid():
        return render_editor(request, loaded, status=400, **errors_at(form))
    expected = form.cleaned_data["revision"]
    if expected != army_list.revision:
        return stale(request, loaded, expected)
    try:
        roster, focus, *more = change(loaded, form)  # what the edit does to the document
        said: dict[str, Any] = more[0] if more else {}
        saved = save_edit(loaded, roster, expected)  # re-checked and stored
    except EditError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        return render_editor(request, loaded, status=400, **errors_at(form))
    except ListDocumentError as exc:
        form.add_error(None, f"This change would make the list unreadable: {exc.reason}")
        return render_editor(request, loaded, status=400, **errors_at(form))
    if saved is None:
        army_list.refresh_from_db()
        return stale(request, load(army_list), expected)
    return answer_edit(request, loaded, saved, focus, said)


def answer_edit(request: HttpRequest, before: Loaded, saved: "tuple[Loaded, Report]", focus: str | None,
                said: dict[str, Any]) -> HttpResponse:
    """The editor after a saved edit: for htmx the parts it changed, otherwise a redirect back to the page."""
    after, report = saved
    army_list, roster = after.army_list, after.roster
    if request.htmx:
        # A unit that is new (added, duplicated) is scrolled to; an edited one stays where it is.
        is_new = bool(focus) and before.kind.unit_of(before.roster, focus) is None
        changed, placed, sections, catalogue, entries = None, None, None, None, None
        pages = pages_for(after)
        if not said and ((focus and not is_new) or pages.cards_read_the_army):
            before_report = validate_roster(before.book, before.roster)
            if focus and not is_new:  # one unit changed: answer with what it changed
                changed = changed_units(after.kind, before.roster, before_report, roster, report, after.book)
                if changed is not None:
                    changed.add(focus)  # drawn open, as the player left it
            if changed is None and pages.cards_read_the_army:
                # the cards as drawn before and after, compared (editor/changes.py: placed_changes)
                sections = editor_sections(after, report, focus=focus)
                placed = placed_changes(editor_sections(before, before_report, focus=focus), sections)
                if placed is not None and focus and focus not in placed.added:
                    placed.changed.add(focus)  # drawn open, as the player left it
            if (changed is not None or placed is not None) and pages.catalogue_follows_list:
                # what the catalogue greys follows the list: its entries that changed, else the whole of it
                now, was = pages.catalogue(after), pages.catalogue(before)
                entries = catalogue_changes(was, now)
                catalogue = now if entries is None else None
        return render_editor(request, after, report, focus=focus,
                             scroll_to=focus if is_new else "", refresh_catalogue=bool(said.get("refresh_catalogue")),
                             messages=[said["message"]] if said.get("message") else None, changed=changed,
                             placed=placed, catalogue=catalogue, entries=entries, sections=sections)
    if said.get("message"):
        django_messages.info(request, said["message"])
    url = reverse("list-edit", args=[army_list.pk])
    return redirect(f"{url}?unit={focus}#unit-{focus}" if focus else url)


def stale(request: HttpRequest, loaded: Loaded, expected: int) -> HttpResponse:
    message = (f"This list was changed in another window since this page was loaded (it is at revision "
               f"{loaded.army_list.revision}, the page had {expected}). Your last change was not applied, so "
               f"nothing was overwritten; the list below is as it is now. Please make the change again.")
    return render_editor(request, loaded, status=409, messages=[message], stale=True)


def messages_from(form: forms.Form) -> dict[str, Any]:
    return {"messages": [f"{form.fields[k].label + ': ' if k in form.fields and form.fields[k].label else ''}{e}"
                         for k, errs in form.errors.items() for e in errs]}


# --- the edits ----------------------------------------------------------------------------------

@login_required
@require_POST
def edit_settings(request: HttpRequest, pk: int) -> HttpResponse:
    def change(loaded: Loaded, form: ListSettingsForm) -> tuple[Roster, str | None]:
        data = form.cleaned_data
        if not loaded.kind.has_compositions and data.get("composition"):   # a tree's forces say what the army is
            raise EditError("A list kept as a BattleScribe roster has forces, not a composition.", "composition")
        roster = edits.set_list_settings(loaded.book, loaded.roster, data["name"], data["points_limit"],
                                              data.get("composition") or None)
        modes = form.chosen_modes()
        if modes is not None:
            roster = edits.set_modes(loaded.book, roster, modes)
        chosen = form.chosen_allies()
        if chosen is None or chosen == (loaded.allies, roster.allies.composition if roster.allies else None):
            return roster, None
        allies, composition = chosen
        roster, removed = edits.set_allies(loaded.book, roster, allies, composition)
        said: dict[str, Any] = {"refresh_catalogue": True}
        if removed:
            said["message"] = (f"{removed} allied unit{'' if removed == 1 else 's'} "
                               f"({', '.join(u.id for u in loaded.roster.units if u.allied)}) "
                               f"{'was' if removed == 1 else 'were'} removed with "
                               f"{'the allies' if allies is None else 'the previous allies book'}.")
        return roster, None, said

    def make_form(loaded: Loaded) -> ListSettingsForm:
        return ListSettingsForm(loaded.book, request.POST, books=listed_books(loaded.book.system.id),
                                current=loaded.roster.allies)

    return run_edit(request, pk, make_form, change, lambda form: {"settings_form": form})


@login_required
@require_POST
def add_unit(request: HttpRequest, pk: int) -> HttpResponse:
    def change(loaded: Loaded, form: AddUnitForm) -> tuple[Roster, str | None]:
        allied = form.cleaned_data["allied"]
        return loaded.kind.add_unit(loaded.allies if allied else loaded.book, loaded.roster,
                                    form.cleaned_data["entry"], allied=allied)

    def make_form(loaded: Loaded) -> AddUnitForm:
        return AddUnitForm(loaded.book, request.POST, allies=loaded.allies,
                           entries=pages_for(loaded).add_entries(loaded))

    return run_edit(request, pk, make_form, change, messages_from)


def _unit_of(loaded: Loaded, unit_id: str):
    return loaded.kind.unit_of(loaded.roster, unit_id)  # a tree's unit is a root selection of a force


@login_required
@require_POST
def update_unit(request: HttpRequest, pk: int, unit_id: str) -> HttpResponse:
    def make_form(loaded: Loaded) -> forms.Form:
        unit = _unit_of(loaded, unit_id)
        if unit is None:
            return _missing_unit_form(request, unit_id)
        return pages_for(loaded).unit_form(loaded, unit, request.POST, request.POST.get("only") or None)

    def change(loaded: Loaded, form: forms.Form) -> tuple[Roster, str | None]:
        return pages_for(loaded).update_unit(loaded, form, unit_id), unit_id

    def errors_at(form: forms.Form) -> dict[str, Any]:
        return {"bound_form": form} if isinstance(form, (UnitForm, TreeUnitForm)) else messages_from(form)

    return run_edit(request, pk, make_form, change, errors_at)


class _MissingUnitForm(RevisionForm):
    def __init__(self, unit_id: str, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.unit_id = unit_id

    def clean(self) -> dict[str, Any]:
        raise forms.ValidationError(f"This list has no unit {self.unit_id!r}; it may have been removed in another window.")


def _missing_unit_form(request: HttpRequest, unit_id: str) -> forms.Form:
    return _MissingUnitForm(unit_id, request.POST)


def _unit_action(request: HttpRequest, pk: int, unit_id: str, form_class: type[forms.Form],
                 apply: Change) -> HttpResponse:
    def make_form(loaded: Loaded) -> forms.Form:
        if _unit_of(loaded, unit_id) is None:
            return _missing_unit_form(request, unit_id)
        return form_class(request.POST)

    return run_edit(request, pk, make_form, apply, messages_from)


@login_required
@require_POST
def remove_unit(request: HttpRequest, pk: int, unit_id: str) -> HttpResponse:
    def change(loaded: Loaded, form: forms.Form) -> tuple[Roster, str | None]:
        return loaded.kind.remove_unit(loaded.roster, unit_id), None

    return _unit_action(request, pk, unit_id, RevisionForm, change)


@login_required
@require_POST
def duplicate_unit(request: HttpRequest, pk: int, unit_id: str) -> HttpResponse:
    def change(loaded: Loaded, form: forms.Form) -> tuple[Roster, str | None]:
        return loaded.kind.duplicate_unit(loaded.roster, unit_id)

    return _unit_action(request, pk, unit_id, RevisionForm, change)


@login_required
@require_POST
def move_unit(request: HttpRequest, pk: int, unit_id: str) -> HttpResponse:
    def apply(loaded: Loaded, form: MoveUnitForm) -> tuple[Roster, str | None]:
        book, roster = loaded.book, loaded.roster
        allied = book.system.allies.category if book.system.allies else ""
        categories = {u.id: allied if u.allied else
                      (book.entries[u.entry].category_in(roster.composition) if u.entry in book.entries else "")
                      for u in roster.units}
        step = -1 if form.cleaned_data["direction"] == "up" else 1
        return edits.move_unit(roster, unit_id, step, categories), unit_id

    return _unit_action(request, pk, unit_id, MoveUnitForm, apply)


def _item_edit(request: HttpRequest, pk: int, unit_id: str, adding: bool) -> HttpResponse:
    def make_form(loaded: Loaded) -> forms.Form:
        unit = _unit_of(loaded, unit_id)
        if unit is None:
            return _missing_unit_form(request, unit_id)
        return ItemForm(loaded.book_of(unit), request.POST)

    def apply(loaded: Loaded, form: ItemForm) -> tuple[Roster, str | None]:
        data = form.cleaned_data
        if adding:
            return edits.add_item(form.book, loaded.roster, unit_id, data["bearer"], data["item"]), unit_id
        return edits.remove_item(loaded.roster, unit_id, data["bearer"], data["item"]), unit_id

    def errors_at(form: forms.Form) -> dict[str, Any]:
        if not isinstance(form, ItemForm):
            return messages_from(form)
        bearer = form.data.get("bearer", "model")
        return {"item_errors": {unit_id: {bearer: [e for errs in form.errors.values() for e in errs]}}}

    return run_edit(request, pk, make_form, apply, errors_at)


@login_required
@require_POST
def add_item(request: HttpRequest, pk: int, unit_id: str) -> HttpResponse:
    return _item_edit(request, pk, unit_id, adding=True)


@login_required
@require_POST
def remove_item(request: HttpRequest, pk: int, unit_id: str) -> HttpResponse:
    return _item_edit(request, pk, unit_id, adding=False)
