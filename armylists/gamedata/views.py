"""The staff's "Game data" page: add a source, see every source's versions (coverage, what was skipped
and why, when it was last checked), and queue an update as a background task. Staff only."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
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


def version_label(version: GameDataVersion) -> str:
    """A version as staff tell them apart: a release by its tag and date, a commit or an archive by its
    date, its sha after ("v1.0 of 2026-03-04", "the data of 2026-03-04 (commit 0123456789ab)")."""
    day = f"{version.date:%Y-%m-%d}" if version.date else ""
    if version.ref_kind == "release":
        return f"{version.ref} of {day}" if day else version.ref
    short = f"{version.ref_kind} {version.ref[:12]}"
    return f"the data of {day} ({short})" if day else short


def source_rows(pk: int | None = None) -> list[dict]:
    """Each source with its versions, newest first, and the one new lists get; an update whose worker died
    is said failed first (`recover_stale`)."""
    recover_stale()
    versions = Prefetch("versions", queryset=GameDataVersion.objects.order_by("-imported_at", "-id"))
    rows = []
    sources = GameDataSource.objects.select_related("held").prefetch_related(versions)
    for source in sources.filter(pk=pk) if pk is not None else sources:
        all_versions = list(source.versions.all())
        now = current(source)
        rows.append({"source": source, "current": now, "current_label": version_label(now) if now else "",
                     "versions": all_versions, "labelled": [(v, version_label(v)) for v in all_versions],
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


@staff_only
@require_GET
def game_data_source(request: HttpRequest, pk: int) -> HttpResponse:
    """One source's part of the page, as it is now: htmx polls it while an update runs (issue 38 item 6)."""
    rows = source_rows(pk)
    if not rows:
        raise Http404("No such game data source.")
    return render(request, "gamedata/game_data_source.html", {"row": rows[0]})
