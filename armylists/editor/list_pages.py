"""A player's lists: "My lists", a new list, the read-only page, rename, clone, delete, sharing and
downloads. The editor's own edits are in `editor/views.py`."""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armylists.lists.saved import edits
from armylists.campaigns.battles import keeps_campaign
from armylists.lists.saved.access import get_list_for_user, get_shared_list
from armylists.lists.library.catalogue import validate_roster
from armylists.lists.library.names import built, offered_books
from armylists.lists.library.data_as_of import data_as_of
from armylists.exports.registry import (Listed, battle_tavern_form, download_links, export, file_stem, find,
                                         stored_document_json)
from armylists.editor.forms import NewListForm, RenameForm, ShareForm
from armylists.lists.saved.edits import EditError
from armylists.models import ArmyList
from armylists.listfiles.formats import ListFileError
from armylists.rules import ListDocumentError

from armylists.editor.views import unavailable
from armylists.lists.kinds import kind_for_book
from armylists.lists.saved.stored import Loaded, Unavailable, load
from armylists.editor.kind_pages import pages_for
from armylists.editor.report_panel import report_panel
from armylists.editor import my_lists as my_lists_rows
from armylists.editor.shared_open import open_download, open_page
from armylists.events.notices import notice_text, unread

def _books() -> list:
    """The books offered, ours built and the imported ones named from their rows (lists/library/names.py
    `Offered`): the form built every imported book to print its name, 20 s on a fresh worker of a site
    with the community data (issue 39 item 2). Only the book chosen is built (`built`)."""
    return sorted(offered_books(), key=lambda b: (b.system.name, b.name, b.version))


# --- my lists -----------------------------------------------------------------------------------

@login_required
@require_GET
def my_lists(request: HttpRequest) -> HttpResponse:
    """The user's lists, searched (`q`) and sorted (`sort`) by the query string (editor/my_lists.py), and
    the notices of their events' submissions (events/notices.py)."""
    q, sort = request.GET.get("q", "")[:200], request.GET.get("sort", my_lists_rows.DEFAULT_SORT)
    lists = ArmyList.objects.filter(owner=request.user)
    found = my_lists_rows.rows(lists, q, sort)
    return render(request, "lists/my_lists.html", {
        "rows": found, "q": q, "sort": sort, "sort_links": my_lists_rows.sort_links(q, sort),
        "any_lists": bool(found) or lists.exists(), "notices": [(n, notice_text(n)) for n in unread(request.user)],
    })


@login_required
@require_http_methods(["GET", "POST"])
def new_list(request: HttpRequest) -> HttpResponse:
    books = _books()
    if request.method == "POST":
        form = NewListForm(books, request.POST)
        if form.is_valid():
            book, allies_book = built(form.cleaned_data["book_obj"]), built(form.cleaned_data["allies_book"])
            try:
                if book is None or (form.cleaned_data["allies_book"] is not None and allies_book is None):
                    raise EditError("That army book can no longer be read; choose another.", "book")
                # an imported BattleScribe book's new list is a roster tree (lists/kinds.py)
                roster = kind_for_book(book).start(book, form.cleaned_data["name"], form.cleaned_data["points_limit"],
                                                   form.cleaned_data["composition_id"])
                if form.cleaned_data["allies_book"] is not None:
                    roster, _ = edits.set_allies(book, roster, allies_book,
                                                      form.cleaned_data["allies_composition"])
            except EditError as exc:
                form.add_error(exc.field if exc.field in form.fields else None, exc.message)
            else:
                army_list = ArmyList(owner=request.user)
                army_list.set_document(roster, validate_roster(book, roster))
                army_list.save()
                return redirect("list-edit", army_list.pk)
        status = 400
        chosen = form.books.get(request.POST.get("book", ""))
    else:
        wanted = request.GET.get("book", "")
        chosen = next((b for b in books if f"{b.system.id}/{b.id}/{b.version}" == wanted), None)
        # No book, no game size: the limit's unit and usual size are the chosen book's (its system's data).
        initial: dict[str, Any] = {"name": "", "book": wanted if chosen else ""}
        if chosen is not None and chosen.default_limit:
            initial["points_limit"] = chosen.default_limit
        form = NewListForm(books, initial=initial)
        status = 200
    systems = {}
    for b in books:
        systems.setdefault(b.system.id, {"name": b.system.name, "unit": b.system.budget_unit,
                                         "default": b.system.default_limit or b.default_limit or ""})
    return render(request, "lists/new_list.html", {
        "form": form, "systems": systems.values(), "limit_unit": chosen.system.budget_unit if chosen else "",
        "book_meta": {f"{b.system.id}/{b.id}/{b.version}": {"unit": b.system.budget_unit,
                                                             "default": b.default_limit or ""} for b in books},
    }, status=status)


# --- one list, read-only --------------------------------------------------------------------------

def _read_only_context(request: HttpRequest, loaded: Loaded, link_base: str) -> dict[str, Any]:
    report = validate_roster(loaded.book, loaded.roster)
    names = {u.id: u.name for u in report.units}
    return {
        "army_list": loaded.army_list, "roster": loaded.roster, "book": loaded.book,
        "sections": pages_for(loaded).sections(loaded, report),
        "panel": report_panel(report, names, system=loaded.book.system,
                              data_as_of=data_as_of(loaded.roster.system, loaded.roster.book, loaded.roster.book_version,
                                                    loaded.book.imported, loaded.book.name)),
        "downloads": download_links(link_base, loaded.book, loaded.roster),
        # a list of The Old World: sent to Battle Tavern by the player's browser (exports/owb_list.py)
        "battle_tavern": battle_tavern_form(loaded.book, loaded.roster, settings.BATTLE_TAVERN_PORT),
    }


@login_required
@require_GET
def list_detail(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    context = _read_only_context(request, loaded, reverse("list-download", args=[pk, "x"])[:-2])
    context.update(can_edit=True, share_url=_share_url(request, army_list), share_open=army_list.share_open,
                   keeps_campaign=keeps_campaign(loaded))  # a Mordheim warband's battles (issue 41)
    return render(request, "lists/list_detail.html", context)


@require_GET
def shared_detail(request: HttpRequest, token: str) -> HttpResponse:
    army_list = get_shared_list(token)
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    if army_list.share_open:  # the hidden list's open part only (editor/shared_open.py)
        response = open_page(request, loaded, token)
    else:
        context = _read_only_context(request, loaded, reverse("shared-download", args=[token, "x"])[:-2])
        context.update(can_edit=False, shared=True, share_token=token)
        response = render(request, "lists/list_detail.html", context)
    response["X-Robots-Tag"] = "noindex"  # unlisted: not for search engines
    # The token is the secret: links out must not carry it. "same-origin" rather than "no-referrer", which
    # makes the browser send `Origin: null` with the page's own forms ("Copy to my lists"), refused by CSRF.
    response["Referrer-Policy"] = "same-origin"
    return response


def _share_url(request: HttpRequest, army_list: ArmyList) -> str:
    if not army_list.share_token:
        return ""
    return request.build_absolute_uri(reverse("shared-list", args=[army_list.share_token]))


# --- rename, clone, delete, share ---------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def rename_list(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    if request.method == "POST":
        form = RenameForm(request.POST)
        if form.is_valid():
            expected = form.cleaned_data["revision"]
            try:
                loaded = load(army_list)
                roster = edits.rename(loaded.roster, form.cleaned_data["name"])
                if "player" in form.data or "team" in form.data:  # a form without them keeps them
                    roster = edits.set_player(roster, form.cleaned_data.get("player", ""),
                                                   form.cleaned_data.get("team", ""))
            except EditError as exc:
                form.add_error("name", exc.message)
            except Unavailable as exc:
                return unavailable(request, army_list, str(exc))
            else:
                army_list.set_document(roster, validate_roster(loaded.book, roster))
                if army_list.save_if_revision(expected):
                    return redirect("my-lists")
                # Stale: nothing was saved. Show the form again on the current revision.
                army_list.refresh_from_db()
                data = request.POST.copy()
                data["revision"] = str(army_list.revision)
                form = RenameForm(data)
                form.is_valid()
                form.add_error(None, f"This list was changed in another window since this page was loaded "
                                     f"(it is now called {army_list.name!r}); nothing was renamed. Save again "
                                     f"to rename it.")
        return render(request, "lists/rename.html", {"army_list": army_list, "form": form}, status=400)
    player = {key: army_list.document.get(key, "") for key in ("player", "team")}
    form = RenameForm(initial={"name": army_list.name, "revision": army_list.revision, **player})
    return render(request, "lists/rename.html", {"army_list": army_list, "form": form})


@login_required
@require_POST
def clone_list(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    copy = _copy_for(request.user, loaded, edits.rename(loaded.roster, f"{army_list.name} (copy)"[:edits.MAX_NAME]))
    return redirect(f"{reverse('my-lists')}#list-{copy.pk}")


def _copy_for(user, loaded: Loaded, roster) -> ArmyList:
    try:   # a flattened list of an imported book is copied as its tree (one it has no place for stays as is)
        roster = kind_for_book(loaded.book).take(loaded.book, roster)
    except ListDocumentError:
        pass
    copy = ArmyList(owner=user)
    copy.set_document(roster, validate_roster(loaded.book, roster))
    copy.save()
    return copy


@login_required
@require_POST
def copy_shared(request: HttpRequest, token: str) -> HttpResponse:
    """A list shared with the user, copied to their own lists (issue 42 item 4): the copy is theirs to
    edit, under the list's name, without the sharer's player and team; the shared list stays as it is."""
    army_list = get_shared_list(token)
    if army_list.share_open:  # a copy would hold the hidden items the link keeps from its holder
        raise Http404("A link to the open part of a list cannot be copied.")
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        return unavailable(request, army_list, str(exc))
    copy = _copy_for(request.user, loaded, edits.set_player(loaded.roster, "", ""))
    return redirect(f"{reverse('my-lists')}#list-{copy.pk}")


@login_required
@require_http_methods(["GET", "POST"])
def delete_list(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    if request.method == "POST":
        army_list.delete()
        return redirect("my-lists")
    return render(request, "lists/delete.html", {"army_list": army_list})


@login_required
@require_POST
def share_list(request: HttpRequest, pk: int) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    form = ShareForm(request.POST)
    if not form.is_valid():
        raise Http404("Unknown sharing action.")
    if form.cleaned_data["action"] in ("share", "share-open"):
        army_list.share(open_part=form.cleaned_data["action"] == "share-open")
    else:
        army_list.unshare()
    return redirect(f"{reverse('list-detail', args=[pk])}#share")


# --- downloads ----------------------------------------------------------------------------------

def _download(request: HttpRequest, army_list: ArmyList, fmt: str, share_url: str | None = None) -> HttpResponse:
    """The list as the export `fmt` names (exports/registry.py), named for the list: a list that cannot be
    opened downloads only as its stored document (JSON)."""
    entry = find(fmt)
    if entry is None:
        raise Http404("Unknown download format.")
    try:
        loaded = load(army_list)
    except Unavailable as exc:
        if entry.needs_book:
            return unavailable(request, army_list, str(exc))
        loaded = None
    variant = ""
    if loaded is None:
        content: str | bytes = stored_document_json(army_list.document)
    elif not entry.applies(loaded.roster, loaded.book):
        raise Http404("Unknown download format.")
    else:
        variant = entry.variant(loaded.book, request.GET.get("variant", ""))  # Mordheim prints its warband sheet
        try:
            content = export(entry, Listed(loaded.book, loaded.roster, allies=loaded.allies, share_url=share_url,
                                           kind=loaded.kind),
                             variant)
        except ListFileError as exc:
            return unavailable(request, army_list, str(exc))
    response = HttpResponse(content, content_type=entry.content_type)
    named = entry.filename(file_stem(army_list.name, f"list-{army_list.pk}"), variant)
    response["Content-Disposition"] = f'attachment; filename="{named}"'
    return response


@login_required
@require_GET
def download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    army_list = get_list_for_user(request, pk)
    return _download(request, army_list, fmt, _share_url(request, army_list) or None)


@require_GET
def shared_download(request: HttpRequest, token: str, fmt: str) -> HttpResponse:
    army_list = get_shared_list(token)
    if army_list.share_open:
        try:
            loaded = load(army_list)
        except Unavailable as exc:
            return unavailable(request, army_list, str(exc))
        response = open_download(army_list, loaded, fmt, _share_url(request, army_list))
    else:
        response = _download(request, army_list, fmt, _share_url(request, army_list))
    response["X-Robots-Tag"] = "noindex"
    return response
