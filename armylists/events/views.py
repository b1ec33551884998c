"""Tournament pages: events, submitting a list, the organiser's table, review, uploads and exports.

Who sees what (one place, `_event_for` and `_submission_for`): the organiser sees and does everything
for their event; a signed-in player sees the event, submits, and sees only their own submission, plus
the approved lists once the organiser publishes them. Anybody else's submission is "not found".
"""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from armylists.lists.library.names import book_label, one_system, site_systems
from armylists.lists.library.data_as_of import newest_data_version, version_label
from armylists.events.checking import EventSetupError, allowed_books, evaluate, next_status, ruleset_for, system_books
from armylists.events.forms import EventForm, JoinTeamForm, ReviewForm, SubmitForm, TeamForm, UploadForm
from armylists.events.jobs import jobs_context, start_job
from armylists.events.notices import dismiss, tell_organiser, tell_player
from armylists.events.rule_words import Names, plural, rules_sentences
from armylists.events.reporting import (
    STATUSES, SORTS, players_csv, shown_violations, status_counts, table, table_csv,
)
from armylists.events.submitting import (
    MAX_UPLOAD_FILES, SubmissionError, UploadResult, deadline_passed, resubmissions, submit_list, upload_files,
)
from armylists.events.teams import TeamError, teams_context, upload_team
from armylists.exports import export_text
from armylists.exports.registry import Listed, download_links, export, file_stem, find, stored_document_json
from armylists.listfiles.formats import ListFileError
from armylists.models import Event, EventJob, Submission

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # per file; a list document is far smaller


def _event_for(request: HttpRequest, pk: int, organiser: bool = False) -> Event:
    event = get_object_or_404(Event.objects.select_related("organiser", "data_version__source"), pk=pk)
    if organiser and event.organiser_id != request.user.pk:
        raise Http404("No such event.")
    return event


def _is_player(event: Event, user) -> bool:
    return event.submissions.filter(player=user).exists()


def _submission_for(request: HttpRequest, event: Event, sid: int) -> Submission:
    sub = get_object_or_404(Submission, pk=sid, event=event)
    user = request.user
    if event.organiser_id == user.pk or sub.player_id == user.pk:
        return sub
    if event.published and sub.status == Submission.APPROVED and _is_player(event, user):
        return sub
    raise Http404("No such submission.")


def _system_name(event: Event) -> str:
    found = one_system(event.system)
    return found.name if found is not None else event.system


def _named(events) -> list[Event]:
    """The events, each with its system's name as `system_name` for the table (the systems read once, no
    book built: lists/library/names.py)."""
    events = list(events)
    systems = site_systems() if events else {}
    for event in events:
        found = systems.get(event.system)
        event.system_name = found.name if found is not None else event.system
    return events


# --- events ---------------------------------------------------------------------------------------

@login_required
@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    mine = Event.objects.filter(organiser=request.user)
    entered = Event.objects.filter(submissions__player=request.user).exclude(organiser=request.user).distinct()
    others = Event.objects.exclude(Q(organiser=request.user) | Q(submissions__player=request.user)).distinct()[:100]
    return render(request, "events/event_list.html", {"mine": _named(mine), "entered": _named(entered),
                                                      "others": _named(others)})


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        event = form.save(commit=False)
        event.organiser = request.user
        if event.data_version is None:  # the newest game data of its system, as of the day it is made
            event.data_version = newest_data_version(event.system)
        event.save()
        messages.success(request, f"{event.name} is set up. Players can submit their lists now.")
        return redirect("event-detail", event.pk)
    return render(request, "events/event_form.html", {"form": form, "event": None},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, organiser=True)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        event = form.save()
        start_job(event, EventJob.RECHECK)  # new rules, new answers: every submission is checked again
        messages.success(request, "Saved. Every submission is being checked again against the new settings; "
                                  "the progress is below.")
        return redirect("event-detail", event.pk)
    return render(request, "events/event_form.html", {"form": form, "event": event},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_GET
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk)
    organiser = event.organiser_id == request.user.pk
    own = event.submissions.filter(player=request.user).first()
    context = {
        "event": event, "organiser": organiser, "own": own, "system_name": _system_name(event),
        "data_version": version_label(event.data_version) if event.data_version_id else "",
        "book_names": [book_label(event.system, b) for b in event.books],
        "deadline_passed": deadline_passed(event),
        "submit_form": SubmitForm(request.user, event),
        "own_violations": shown_violations(event, own.report) if own is not None else [],
        # The event's own rules as sentences (events/rule_words.py): players never read the YAML.
        "rule_sentences": rules_sentences(event.rules_text, Names.of(system_books(event.system, allowed_books(event))))
        if event.rules_text.strip() else [],
        "team_form": TeamForm(), "join_form": JoinTeamForm(event), **teams_context(event, request.user, organiser),
    }
    if organiser:
        sort = request.GET.get("sort", "player")
        filters = {k: request.GET.get(k, "") for k in ("status", "army", "verdict", "player")}
        descending = request.GET.get("dir") == "desc"
        kept = {k: v for k, v in filters.items() if v}
        context.update(
            rows=table(event, sort if sort in SORTS else "player", descending, **filters),
            sort_urls={key: "?" + urlencode({**kept, "sort": key, "dir": "desc" if key == sort and not descending else "asc"})
                       for key in SORTS},
            filter_query=urlencode({**kept, "sort": sort, "dir": "desc" if descending else "asc"}),
            sort=sort, descending=descending, filters=filters, statuses=STATUSES,
            armies=sorted({book: name or book for book, name in event.submissions.values_list("book", "army_name")}
                          .items(), key=lambda a: a[1]),  # (book id for the filter, the army's name)
            counts=status_counts(event),
            **jobs_context(event),
        )
    if event.published and (organiser or own is not None):
        context["published"] = event.submissions.filter(status=Submission.APPROVED).order_by("player_name")
    return render(request, "events/event_detail.html", context)


@login_required
@require_POST
def event_submit(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk)
    form = SubmitForm(request.user, event, request.POST)
    if not form.is_valid():
        messages.error(request, "Choose one of your lists for this game system.")
        return redirect("event-detail", event.pk)
    again = event.submissions.filter(player=request.user).exists()
    try:
        sub = submit_list(event, request.user, form.cleaned_data["army_list"])
    except (SubmissionError, EventSetupError) as exc:
        messages.error(request, str(exc))
        return redirect("event-detail", event.pk)
    if again:  # the organiser hears of a list handed in again (a returned one, mostly)
        tell_organiser(sub, request.build_absolute_uri(reverse("submission-detail", args=[event.pk, sub.pk])))
    verdict = "legal" if sub.valid else \
        f"not legal ({plural(sum(v['severity'] == 'error' for v in sub.report['violations']), 'problem')})"
    messages.success(request, f"Submitted (checksum {sub.checksum}); it is {verdict} at this event.")
    return redirect("event-detail", event.pk)


def _start_job(request: HttpRequest, pk: int, kind: str, started: str, waiting: str) -> HttpResponse:
    """Queue the organiser's bulk work of `kind` (or find it queued already) and say which on the event page."""
    event = _event_for(request, pk, organiser=True)
    _, new = start_job(event, kind)
    messages.success(request, started if new else waiting)
    return redirect("event-detail", event.pk)


@login_required
@require_POST
def event_recheck(request: HttpRequest, pk: int) -> HttpResponse:
    return _start_job(request, pk, EventJob.RECHECK, "Every submission is being checked again; the progress is below.",
                      "A check of every submission is already waiting to start.")


@login_required
@require_POST
def event_muster_start(request: HttpRequest, pk: int) -> HttpResponse:
    return _start_job(request, pk, EventJob.MUSTER, "The muster PDF is being made; the progress is below.",
                      "A muster PDF is already waiting to be made.")


@login_required
@require_GET
def event_jobs(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's bulk work and its progress: the part of the event page htmx polls while it runs.

    When a poll finds everything finished, the page reloads so the table shows the new verdicts."""
    event = _event_for(request, pk, organiser=True)
    context = jobs_context(event)
    response = render(request, "events/event_jobs.html", {"event": event, **context})
    if request.GET.get("polling") and not context["jobs_busy"]:
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
def event_publish(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, organiser=True)
    event.published = request.POST.get("published") == "1"
    event.save(update_fields=["published"])
    messages.success(request, "The approved lists are now visible to the event's players." if event.published
                     else "The lists are hidden from the players again.")
    return redirect("event-detail", event.pk)


@login_required
@require_http_methods(["GET", "POST"])
def event_upload(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, organiser=True)
    form = UploadForm(request.POST or None, request.FILES or None)
    result = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            files, too_big = [], []
            for upload in form.cleaned_data["files"][: MAX_UPLOAD_FILES + 1]:
                if upload.size > MAX_UPLOAD_BYTES:
                    too_big.append((upload.name, f"is {upload.size} bytes; at most {MAX_UPLOAD_BYTES}"))
                    continue
                files.append((upload.name, upload.read()))
            # The lists and the job that checks them are stored together or not at all: a worker killed
            # half-way leaves no list "submitted" that no job will ever check.
            try:
                with transaction.atomic():
                    result = upload_files(event, files, upload_team(event, form.cleaned_data["team"]))
                    if result.stored:  # checked in the background, with the rest of the event (team rules)
                        start_job(event, EventJob.RECHECK)
            except TeamError as exc:
                result = UploadResult(failed=[("(team)", str(exc))])
            for sub in result.stored:
                sub.refresh_from_db()
            result.failed[:0] = too_big
            status = 400 if result.failed and not result.stored else 200  # some stored: the page reports both
        else:
            status = 400
    return render(request, "events/upload.html", {"event": event, "form": form, "result": result,
                                                  "max_files": MAX_UPLOAD_FILES}, status=status)


# --- exports --------------------------------------------------------------------------------------

def _slug(name: str) -> str:
    return file_stem(name, "event")


@login_required
@require_GET
def event_csv(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, organiser=True)
    filters = {k: request.GET.get(k, "") for k in ("status", "army", "verdict", "player")}
    content = table_csv(event, table(event, request.GET.get("sort", "player"), request.GET.get("dir") == "desc",
                                     **filters))
    response = HttpResponse(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_slug(event.name)}-lists.csv"'
    return response


@login_required
@require_GET
def event_players_csv(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event_for(request, pk, organiser=True)
    response = HttpResponse(players_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_slug(event.name)}-players.csv"'
    return response


@login_required
@require_GET
def event_muster(request: HttpRequest, pk: int) -> HttpResponse:
    """The newest muster PDF the worker finished (made by `event_muster_start`)."""
    event = _event_for(request, pk, organiser=True)
    job = EventJob.objects.filter(event=event, kind=EventJob.MUSTER, state=EventJob.DONE).first()
    if job is None:
        messages.error(request, "No muster PDF is ready yet: make one first.")
        return redirect("event-detail", event.pk)
    response = HttpResponse(bytes(job.pdf), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{_slug(event.name)}-approved-lists.pdf"'
    return response


# --- one submission -------------------------------------------------------------------------------

@login_required
@require_GET
def submission_detail(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    event = _event_for(request, pk)
    sub = _submission_for(request, event, sid)
    organiser = event.organiser_id == request.user.pk
    found = _checked(event, sub)
    list_text = export_text(found.book, found.roster, found.report, found.allies) if found.report is not None else ""
    # Each earlier submission with what the next one changed (the organiser's and the player's own view).
    history = resubmissions(sub, list(sub.history.all())) if organiser or sub.player_id == request.user.pk else []
    # The list page's downloads (its system's own sheet first, a Mordheim warband sheet too), at the
    # submission's addresses; only the JSON when the book is no longer loaded (nothing else can be made).
    link_base = reverse("submission-download", args=[event.pk, sub.pk, "json"]).removesuffix("json/")
    downloads = download_links(link_base, found.book if found.report is not None else None, found.roster)
    return render(request, "events/submission.html", {
        "event": event, "sub": sub, "organiser": organiser, "list_text": list_text, "history": history, "downloads": downloads,
        "violations": shown_violations(event, sub.report), "review_form": ReviewForm(initial={"note": sub.note}),
    })


def _checked(event: Event, sub: Submission):
    try:
        return evaluate([sub], ruleset_for(event))[sub.pk]
    except EventSetupError as exc:
        raise PermissionDenied(str(exc)) from None


@login_required
@require_POST
def submission_review(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    event = _event_for(request, pk, organiser=True)
    sub = get_object_or_404(Submission, pk=sid, event=event)
    form = ReviewForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("submission-detail", event.pk, sub.pk)
    if form.cleaned_data["action"] == "approve":
        if not sub.valid:
            messages.error(request, "Only a legal list can be approved; return it with a note instead.")
            return redirect("submission-detail", event.pk, sub.pk)
        sub.status, sub.note = Submission.APPROVED, form.cleaned_data["note"].strip()
        messages.success(request, f"{sub.player_name}'s list is approved.")
    elif form.cleaned_data["action"] == "reopen":
        # Approval locks a list (events/submitting.py); reopening unlocks it and keeps the verdict.
        sub.status = next_status(Submission.SUBMITTED, sub.valid)
        messages.success(request, f"{sub.player_name}'s list is reopened; it can be replaced again.")
    else:
        sub.status, sub.note = Submission.RETURNED, form.cleaned_data["note"].strip()
        messages.success(request, f"{sub.player_name}'s list is returned with your note.")
    sub.save(update_fields=["status", "note"])
    tell_player(sub, request.build_absolute_uri(reverse("event-detail", args=[event.pk])))
    return redirect("event-detail", event.pk)


@login_required
@require_POST
def notice_read(request: HttpRequest, nid: int) -> HttpResponse:
    """A notice dismissed from the user's lists; somebody else's is "not found"."""
    if not dismiss(request.user, nid):
        raise Http404("No such notice.")
    return redirect("my-lists")


@login_required
@require_GET
def submission_download(request: HttpRequest, pk: int, sid: int, fmt: str) -> HttpResponse:
    event = _event_for(request, pk)
    sub = _submission_for(request, event, sid)
    found = _checked(event, sub)
    entry = find(fmt)
    if entry is None or (found.report is None and entry.needs_book) \
            or (found.report is not None and not entry.applies(found.roster, found.book)):
        raise Http404("No such download.")
    variant = ""
    if found.report is None:  # the book is gone: the document as it was submitted
        content: str | bytes = (export(entry, Listed(found.book, found.roster)) if found.roster is not None
                                else stored_document_json(sub.document))
    else:
        variant = entry.variant(found.book, request.GET.get("variant", ""))
        try:
            content = export(entry, Listed(found.book, found.roster, found.report, found.allies), variant)
        except ListFileError as exc:
            raise Http404(str(exc)) from None
    response = HttpResponse(content, content_type=entry.content_type)
    named = entry.filename(f"{_slug(sub.player_name)}-{sub.checksum}", variant)
    response["Content-Disposition"] = f'attachment; filename="{named}"'
    return response
