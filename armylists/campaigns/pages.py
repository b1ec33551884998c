"""A warband's campaign page: its state, its last battle's log, and the next battle, a step at a time.

`GET /lists/<pk>/campaign/` shows it at the first step of the post-battle sequence (forms.STEPS: the
result and who fought, injuries, experience and advances, exploration, selling, buying, the review).
Each step is its own form, posted with `go=next` or `go=back` and the step shown; the other steps'
answers ride along as hidden fields, so nothing is kept on the server and Back (or the browser's) loses
nothing until the battle is committed. After each step the battle so far is applied to a copy of the
warband with the page's seed, and its log shown: the dice the site rolls are the ones it then records.
With htmx a step answers the campaign panel alone; without JavaScript the whole page.

`POST` with `go=record` (or without `go`: the whole battle at once, as before) records it
(armylists/campaigns/battles.py) and redirects back to the page; `POST .../undo/` undoes the last
battle. A battle that cannot be applied re-shows its step with why, 400; a stale one (the list changed
in another window) says so, 409, and saves nothing.
"""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from armylists.campaigns.battles import (BattleError, NotAWarband, Unavailable, campaign_summary, new_seed, open_warband,
                                         preview_battle, record_battle, undo_last_battle)
from armylists.campaigns.forms import STEP_NAMES, STEPS, BattleForm
from armylists.lists.saved.access import get_list_for_user


def warriors(opened) -> list[tuple[str, str, bool]]:
    """(unit id, name, hero) of each warrior, as the campaign reads the warband (a BSData tree's selections
    under their ids, named as the tree names them)."""
    document = opened.document
    heroes = (document.get("campaign") or {}).get("warriors", {})
    out = []
    for unit in document["units"]:
        entry = opened.book.entries.get(unit["entry"])
        if entry is None:
            continue
        size = unit.get("size", 1)
        shown = opened.warband.names.get(unit["id"], entry.name)
        name = f"{shown}{f' ({size})' if size > 1 else ''} · {unit['id']}"
        out.append((unit["id"], name, bool(entry.character or heroes.get(unit["id"], {}).get("hero"))))
    return out


def _context(army_list, loaded, form=None, error: str = "", step: str = "result", preview=None) -> dict:
    report = loaded.report()
    document = loaded.document
    campaign = document.get("campaign") or {}
    battles = campaign.get("battles", [])
    form = form or BattleForm(initial={"revision": army_list.revision, "result": "won", "seed": new_seed()},
                              warriors=warriors(loaded))
    at = STEP_NAMES.index(step)
    return {"army_list": army_list, "summary": campaign_summary(document, report), "last": battles[-1] if battles else None,
            "fallen": campaign.get("fallen", []), "form": form, "error": error,
            "violations": [v for v in report.violations if v.code.startswith("campaign.")],
            "step": step, "step_number": at + 1, "step_title": STEPS[at][1], "steps": STEPS,
            "hidden": form.hidden_for(step), "preview": preview,
            # a BSData warband: what it is read as, its root selections no warrior, what its campaign lacks
            "read_as": None if loaded.book.id == loaded.loaded.book.id else
            f"{loaded.warband.catalogue} (BSData), read as our {loaded.book.name}",
            "not_read": loaded.warband.not_read, "lacks": loaded.warband.lacks,
            "out_of_action": form.out_of_action() if step == "injuries" else []}


def _step(request: HttpRequest, army_list, loaded, form: BattleForm, go: str, shown: str) -> HttpResponse:
    """The step after (or before) `shown`, the battle so far previewed; an invalid step, or one the
    battle cannot be applied with, is shown again with why (400)."""
    at = STEP_NAMES.index(shown)
    if go == "back":
        form.is_valid()  # the answers so far, kept as typed; nothing is said of them going back
        return _page(request, _context(army_list, loaded, form, step=STEP_NAMES[max(0, at - 1)]))
    if not form.is_valid():
        return _page(request, _context(army_list, loaded, form, step=form.step_of_first_error() or shown), status=400)
    seed = form.cleaned_data.get("seed")
    try:
        preview = preview_battle(loaded, form.battle(), new_seed() if seed is None else seed)
    except BattleError as exc:
        where = ".".join(map(str, exc.path))
        return _page(request, _context(army_list, loaded, form, error=f"{where}: {exc.message}" if where else exc.message,
                                       step=shown), status=400)
    return _page(request, _context(army_list, loaded, form, step=STEP_NAMES[min(len(STEPS) - 1, at + 1)],
                                   preview=preview))


def _page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    template = "campaigns/campaign_panel.html" if request.headers.get("HX-Request") else "campaigns/campaign.html"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def campaign(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    try:
        loaded = open_warband(army_list)
    except (NotAWarband, Unavailable) as exc:
        return render(request, "campaigns/not_a_warband.html", {"army_list": army_list, "why": str(exc)}, status=400)
    if request.method == "GET":
        return _page(request, _context(army_list, loaded))
    form = BattleForm(request.POST, warriors=warriors(loaded))
    go, shown = request.POST.get("go", "record"), request.POST.get("step", "review")
    if go in ("next", "back") and shown in STEP_NAMES:
        return _step(request, army_list, loaded, form, go, shown)
    if not form.is_valid():
        return _page(request, _context(army_list, loaded, form, step=form.step_of_first_error() or "review"),
                     status=400)
    try:
        recorded = record_battle(army_list, form.battle(), form.cleaned_data["revision"], form.cleaned_data.get("seed"))
    except BattleError as exc:
        form.add_error(None, f"{'.'.join(map(str, exc.path))}: {exc.message}" if exc.path else exc.message)
        return _page(request, _context(army_list, loaded, form, step="review"), status=400)
    if recorded is None:
        army_list.refresh_from_db()
        return _page(request, _context(army_list, open_warband(army_list), error=(
            "This warband was changed in another window since this page was loaded; nothing was recorded. "
            "Enter the battle again.")), status=409)
    if request.headers.get("HX-Request"):
        return _page(request, _context(recorded.loaded.army_list, open_warband(recorded.loaded.army_list)))
    return redirect("list-campaign", pk=pk)


@login_required
@require_POST
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    try:
        loaded = open_warband(army_list)
        recorded = undo_last_battle(army_list, int(request.POST.get("revision") or army_list.revision))
    except (NotAWarband, Unavailable, BattleError, ValueError) as exc:
        return render(request, "campaigns/not_a_warband.html", {"army_list": army_list,
                                                                "why": getattr(exc, "message", str(exc))}, status=400)
    if recorded is None:
        return _page(request, _context(army_list, loaded, error="The warband changed meanwhile; nothing was undone."),
                     status=409)
    if request.headers.get("HX-Request"):
        return _page(request, _context(recorded.loaded.army_list, open_warband(recorded.loaded.army_list)))
    return redirect("list-campaign", pk=pk)
