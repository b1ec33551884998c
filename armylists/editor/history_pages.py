"""A list's history (every saved revision, what changed, in the player's words, grouped into editing
sessions), restoring one of its revisions, and moving it to the book version new lists get: a preview of
what changes, then "Move the list" (lists/saved/history.py)."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armylists.lists.saved.access import get_list_for_user
from armylists.lists.saved.history import (SESSION_MINUTES, NotRestorable, compare_revisions, diff_sentences,
                                           history, preview, restore, upgrade_target)
from armylists.lists.saved.stored import Loaded, Unavailable, load, save_edit
from armylists.models import MAX_REVISION

from armylists.editor.views import unavailable


class RestoreForm(forms.Form):
    revision = forms.IntegerField(min_value=1, max_value=MAX_REVISION, widget=forms.HiddenInput)
    expected = forms.IntegerField(min_value=1, max_value=MAX_REVISION, widget=forms.HiddenInput)


class UpgradeForm(forms.Form):
    revision = forms.IntegerField(min_value=1, max_value=MAX_REVISION, widget=forms.HiddenInput)
    version = forms.CharField(max_length=40, widget=forms.HiddenInput)


@login_required
@require_GET
def list_history(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    before = request.GET.get("before", "")
    if before and not (before.isdigit() and len(before) <= 10):
        messages.error(request, "Older revisions are asked for by a revision number.")
        return render(request, "lists/history.html", {"army_list": army_list, "steps": []}, status=400)
    page = history(army_list, int(before) if before else None)   # the newest 50, then older ones (issue 39)
    steps = page.steps
    context = {"army_list": army_list, "steps": steps, "sessions": page.sessions, "session_minutes": SESSION_MINUTES,
               "older": page.older, "paged": bool(before),
               "compare_from": steps[1].revision if len(steps) > 1 else "", "compare_to": steps[0].revision if steps else ""}
    first, second = request.GET.get("from", ""), request.GET.get("to", "")
    status = 200
    if first or second:  # two revisions compared, as the API's revisions/diff/ gives it
        if not (first.isdigit() and second.isdigit() and len(first) <= 10 and len(second) <= 10):
            messages.error(request, "Compare two revision numbers.")
            status = 400
        else:
            context["compare_from"], context["compare_to"] = int(first), int(second)
            compared = compare_revisions(army_list, int(first), int(second))
            if compared is None:
                context["compare_missing"] = f"{first} or {second}"
                status = 404
            else:
                context["compared"] = compared
                context["compared_lines"] = diff_sentences(compared)
    return render(request, "lists/history.html", context, status=status)


@login_required
@require_POST
def list_restore(request: HttpRequest, pk: int) -> HttpResponse:
    """A revision of the history saved again as the list's newest (the history page's "Restore")."""
    army_list = get_list_for_user(request, pk)
    form = RestoreForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Restore a revision by its number, from the history page.")
        return redirect("list-history", pk)
    revision = form.cleaned_data["revision"]
    try:
        saved = restore(army_list, revision, form.cleaned_data["expected"])
    except NotRestorable as exc:
        messages.error(request, str(exc))
        return redirect("list-history", pk)
    if saved is None:
        messages.error(request, "The list changed since you looked; nothing was restored. Look again.")
        return redirect("list-history", pk)
    messages.success(request, f"Revision {revision} restored: it is revision {saved[0].army_list.revision} now.")
    return redirect("list-edit", pk)


@login_required
@require_http_methods(["GET", "POST"])
def list_upgrade(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    target = upgrade_target(loaded)
    shown = preview(loaded, target) if target is not None else None
    status = 200
    if request.method == "POST":
        form = UpgradeForm(request.POST)
        if not form.is_valid() or target is None or form.cleaned_data["version"] != target.version:
            messages.error(request, "The version offered has changed; look at the preview again.")
            status = 400
        elif shown.problem:
            status = 400
        else:
            saved = save_edit(Loaded(army_list, shown.roster, target, loaded.allies), shown.roster,
                              form.cleaned_data["revision"], was=loaded)
            if saved is None:
                messages.error(request, "The list changed since you looked; nothing was moved. Look again.")
                return redirect("list-upgrade", pk)
            messages.success(request, f"The list now uses {target.name} {target.version}.")
            return redirect("list-edit", pk)
    form = UpgradeForm(initial={"revision": army_list.revision, "version": target.version if target else ""})
    return render(request, "lists/upgrade.html", {"army_list": army_list, "book": loaded.book, "target": target,
                                                  "preview": shown, "form": form}, status=status)
