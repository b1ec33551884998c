"""The staff's "Game data" page: add a source, see every source's versions (coverage, what was skipped
and why, when it was last checked), and queue an update as a background task. Staff only."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from armylists.models import GameDataSource, GameDataVersion

from armylists.gamedata.forms import SourceForm
from armylists.gamedata.jobs import queue_update
from armylists.gamedata.sources import Refused, add_source
from armylists.gamedata.updating import current, recover_stale

SKIPPED_SHOWN = 20  # rows of "skipped and why" on the page per version; the API gives them all


def staff_only(view):
    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_staff:
            raise PermissionDenied("Only the site's staff manage game data.")
        return view(request, *args, **kwargs)
    return login_required(wrapper)


def source_rows() -> list[dict]:
    """Each source with its versions, newest first, and the one new lists get; an update whose worker died
    is said failed first (`recover_stale`)."""
    recover_stale()
    versions = Prefetch("versions", queryset=GameDataVersion.objects.order_by("-imported_at", "-id"))
    rows = []
    for source in GameDataSource.objects.select_related("held").prefetch_related(versions):
        all_versions = list(source.versions.all())
        rows.append({"source": source, "current": current(source), "versions": all_versions,
                     "skipped_shown": SKIPPED_SHOWN})
    return rows


def _page(request: HttpRequest, form: SourceForm, status: int = 200) -> HttpResponse:
    return render(request, "gamedata/game_data.html", {"form": form, "rows": source_rows()}, status=status)


@staff_only
@require_GET
def game_data(request: HttpRequest) -> HttpResponse:
    return _page(request, SourceForm())


@staff_only
@require_POST
def game_data_add(request: HttpRequest) -> HttpResponse:
    form = SourceForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        source = add_source(form.cleaned_data["where"], form.cleaned_data["kind"], form.cleaned_data["maps_to"].strip())
    except Refused as exc:
        form.add_error("where", str(exc))
        return _page(request, form, status=400)
    queue_update(source)
    messages.success(request, f"Added {source}; its latest data is being fetched.")
    return redirect("game-data")


@staff_only
@require_POST
def game_data_update(request: HttpRequest, pk: int) -> HttpResponse:
    source = get_object_or_404(GameDataSource, pk=pk)
    queue_update(source)
    messages.success(request, f"An update of {source} is queued.")
    return redirect("game-data")
