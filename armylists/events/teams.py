"""Teams at a team event: the organiser's, not a name anyone types.

The organiser registers a team, or a player creates one and becomes its captain; either way the team
gets a join code, which only the organiser and the captain see and hand out. A player joins a team with
its code (one team per player at an event); their submission then belongs to it, and team rules
(`team_items_once`) read only the lists of the team's members and the lists the organiser uploaded into
it. A player can never put a list into a team they did not join, so no list can make another team's
lists illegal, nor see their items in its violations.
"""
from __future__ import annotations

import secrets

from django.db import IntegrityError, transaction

from armylists.models import Event, Submission, Team, TeamMember

from armylists.events.checking import check_event

MAX_TEAM_NAME = 200


class TeamError(Exception):
    """Why a team cannot be registered or joined, in one sentence for the person asking."""


def team_of(event: Event, user) -> Team | None:
    """The team `user` joined at `event`, if any."""
    found = TeamMember.objects.filter(event=event, user=user).select_related("team").first()
    return found.team if found else None


def register_team(event: Event, name: str, captain=None) -> Team:
    """A new team of `event` named `name`; a captain (a player creating it) joins it at once.

    The organiser registers teams with `captain` None. A name the event already has is refused, whatever
    its case: two teams that read alike would let a list pass as the other's."""
    name = " ".join(name.split())[:MAX_TEAM_NAME]
    if not name:
        raise TeamError("Give the team a name.")
    if event.teams.filter(name__iexact=name).exists():
        raise TeamError(f"A team named {name} is already registered at this event; join it with its code, or "
                        f"choose another name.")
    try:
        with transaction.atomic():
            team = Team.objects.create(event=event, name=name, captain=captain)
            if captain is not None:
                _move(event, captain, team)
    except IntegrityError:  # registered by somebody else in the meantime
        raise TeamError(f"A team named {name} is already registered at this event; join it with its code, or "
                        f"choose another name.") from None
    return team


def join_team(event: Event, user, team: Team, code: str) -> Team:
    """`user` joins `team` with its join code (leaving any other team of the event); a wrong code changes
    nothing. Their submission, if they have one, moves with them and is checked with its new team mates."""
    if team.event_id != event.pk:
        raise TeamError("No such team at this event.")
    if not secrets.compare_digest(code.strip().lower().encode(), team.join_code.encode()):
        raise TeamError(f"That is not the join code of {team.name}; ask its captain or the organiser for it.")
    with transaction.atomic():
        _move(event, user, team)
    return team


def _move(event: Event, user, team: Team) -> None:
    """Make `user` a member of `team` only, and move their submission (checked with both teams again).

    An approved list is locked (as against a resubmission) until the organiser reopens it."""
    sub = Submission.objects.filter(event=event, player=user).first()
    if sub is not None and sub.team_id != team.pk and sub.status == Submission.APPROVED:
        raise TeamError("Your list is approved, so it is locked in its team; ask the organiser to reopen it before "
                        "you change team.")
    TeamMember.objects.filter(event=event, user=user).exclude(team=team).delete()
    TeamMember.objects.get_or_create(event=event, user=user, defaults={"team": team})
    if sub is None or sub.team_id == team.pk:
        return
    old = sub.team_id
    Submission.objects.filter(pk=sub.pk).update(team=team)
    check_event(event, scope=event.submissions.filter(team_id__in=[t for t in (old, team.pk) if t is not None]))


def remove_team(event: Event, team: Team) -> int:
    """The organiser removes a team (a name squatted, a team that withdrew): its members are in no team,
    its lists in none, and they are checked again without it. Returns how many lists it had."""
    with transaction.atomic():
        lists = list(team.submissions.values_list("pk", flat=True))
        team.delete()  # memberships go with it; its submissions keep no team (SET_NULL)
        if lists:
            check_event(event, scope=event.submissions.filter(pk__in=lists))
    return len(lists)


def upload_team(event: Event, name: str) -> Team | None:
    """The team the organiser uploads lists into, by name: the registered one, or a new one they register."""
    name = " ".join(name.split())[:MAX_TEAM_NAME]
    if not name:
        return None
    return event.teams.filter(name__iexact=name).first() or register_team(event, name)


def teams_context(event: Event, user, organiser: bool) -> dict:
    """What the event page shows of the teams: the player's own team (its code when they are its
    captain), and to the organiser every team with its code and members."""
    own = team_of(event, user)
    context = {"own_team": own, "own_team_code": own is not None and (organiser or own.captain_id == user.pk),
               "teams": list(event.teams.all())}
    if organiser:
        members: dict[int, list[str]] = {}
        for team_id, username in TeamMember.objects.filter(event=event).values_list("team_id", "user__username"):
            members.setdefault(team_id, []).append(username)
        context["team_rows"] = [(team, members.get(team.pk, [])) for team in context["teams"]]
    return context
