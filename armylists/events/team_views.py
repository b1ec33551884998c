"""Team pages of an event (events.teams): registering a team, and joining one with its join code.

The organiser registers teams; a player may create one, becoming its captain. Joining needs the team's
code, which only the organiser and the captain see, so nobody puts a list into a team they were not let
into.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from armylists.models import Event, Team

from armylists.events.checking import EventSetupError
from armylists.events.forms import JoinTeamForm, TeamForm
from armylists.events.teams import TeamError, join_team, register_team, remove_team


def _errors(request: HttpRequest, form) -> None:
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


@login_required
@require_POST
def team_new(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser registers a team; a player creates one and is its captain (and first member)."""
    event = get_object_or_404(Event, pk=pk)
    organiser = event.organiser_id == request.user.pk
    form = TeamForm(request.POST)
    if not form.is_valid():
        _errors(request, form)
        return redirect("event-detail", event.pk)
    try:
        team = register_team(event, form.cleaned_data["name"], captain=None if organiser else request.user)
    except (TeamError, EventSetupError) as exc:
        messages.error(request, str(exc))
        return redirect("event-detail", event.pk)
    messages.success(request, f"{team.name} is registered; its join code is {team.join_code}. Give it to the "
                              f"team's players." if organiser else
                     f"You created {team.name} and joined it; give its join code, {team.join_code}, to your team mates.")
    return redirect("event-detail", event.pk)


@login_required
@require_POST
def team_join(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    form = JoinTeamForm(event, request.POST)
    if not form.is_valid():
        _errors(request, form)
        return redirect("event-detail", event.pk)
    try:
        team = join_team(event, request.user, form.cleaned_data["team"], form.cleaned_data["code"])
    except (TeamError, EventSetupError) as exc:
        messages.error(request, str(exc))
        return redirect("event-detail", event.pk)
    messages.success(request, f"You joined {team.name}; your list counts with its lists.")
    return redirect("event-detail", event.pk)


@login_required
@require_POST
def team_remove(request: HttpRequest, pk: int, tid: int) -> HttpResponse:
    """The organiser removes a team; its lists are checked again without it."""
    event = get_object_or_404(Event, pk=pk)
    if event.organiser_id != request.user.pk:
        raise Http404("No such event.")
    team = get_object_or_404(Team, pk=tid, event=event)
    try:
        lists = remove_team(event, team)
    except EventSetupError as exc:
        messages.error(request, str(exc))
        return redirect("event-detail", event.pk)
    messages.success(request, f"{team.name} is removed; its {lists} list{'' if lists == 1 else 's'} "
                              f"{'is' if lists == 1 else 'are'} in no team now.")
    return redirect("event-detail", event.pk)
