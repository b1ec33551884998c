"""Teams at an event (issue 25, item 3): registered by the organiser or a captain, joined with a code.
A player can no longer submit under another team's name to make its approved list illegal (magic items
once per team) and read that team's items in their own violations."""
from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from armylists.models import Event, Submission, Team, TeamMember

from .conftest import make_list

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_at_once")]

TEAM_ITEMS = "- {id: team-items, type: team_items_once}"
DUPLICATE = ("Giant Sword is also taken in {other}; a magic item may be taken in one list of the team only.")


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Team GT", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", books=["empire-of-sonnstahl"], points_limit=2400,
                                deadline=timezone.now() + timedelta(days=5), rules_text=TEAM_ITEMS)


@pytest.fixture
def mallory(django_user_model):
    return django_user_model.objects.create_user("mallory", "mallory@example.com", "mallory-password-1")


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def register(client, event, name):
    return client.post(reverse("event-team-new", args=[event.pk]), {"name": name}, follow=True)


def join(client, event, team, code):
    return client.post(reverse("event-team-join", args=[event.pk]), {"team": team.pk, "code": code}, follow=True)


def submit(client, event, user, document, **extra):
    army_list = make_list(user, {**document, "player": user.username.title()})
    return client.post(reverse("event-submit", args=[event.pk]), {"army_list": army_list.pk, **extra}, follow=True)


@pytest.fixture
def red(event, alice, bob, legal_document):
    """Team Red, registered by the organiser; Bob joined it and his list (Giant Sword and all) is approved."""
    register(as_user(alice), event, "Red")
    team = Team.objects.get(name="Red")
    bobs = as_user(bob)
    join(bobs, event, team, team.join_code)
    submit(bobs, event, bob, legal_document)
    Submission.objects.filter(player=bob).update(status=Submission.APPROVED)
    return team


def test_the_organiser_registers_a_team_and_sees_its_code_and_members(event, alice, red, bob):
    assert (red.captain, red.event, len(red.join_code)) == (None, event, 10)
    page = as_user(alice).get(reverse("event-detail", args=[event.pk]))
    assert page.context["team_rows"] == [(red, ["bob"])]
    assert (f'<tr id="team-{red.pk}"><td>Red</td><td><code>{red.join_code}</code></td><td>bob</td>'
            in page.content.decode())
    response = register(as_user(alice), event, "Blue")
    blue = Team.objects.get(name="Blue")
    assert messages_of(response) == [f"Blue is registered; its join code is {blue.join_code}. Give it to the team's players."]


def test_a_team_name_is_registered_once_whatever_its_case(event, alice, red, mallory):
    for user in (alice, mallory):
        response = register(as_user(user), event, "  rED ")
        assert messages_of(response) == ["A team named rED is already registered at this event; join it with its "
                                          "code, or choose another name."]
    assert list(Team.objects.values_list("name", flat=True)) == ["Red"]
    assert not TeamMember.objects.filter(user=mallory).exists()


def test_a_player_cannot_submit_under_a_team_they_did_not_join(event, red, bob, mallory, legal_document):
    """The sabotage of issue 25: Mallory names Red with the same Giant Sword as Bob's approved list."""
    client = as_user(mallory)
    response = submit(client, event, mallory, legal_document, team="Red")  # the old field: no longer read
    mine = Submission.objects.get(player=mallory)
    assert mine.team is None and mine.status == "legal" and mine.report["violations"] == []
    assert messages_of(response) == [f"Submitted (checksum {mine.checksum}); it is legal at this event."]
    bobs = Submission.objects.get(player=bob)
    assert (bobs.team, bobs.status, bobs.valid, bobs.report["violations"]) == (red, "approved", True, [])
    # Nothing of Red's list is shown to her: neither its items nor its player.
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Giant Sword is also taken" not in page and "Bob" not in page
    assert client.get(reverse("submission-detail", args=[event.pk, bobs.pk])).status_code == 404


def test_joining_with_a_wrong_code_is_refused_and_changes_nothing(event, red, mallory, legal_document):
    client = as_user(mallory)
    submit(client, event, mallory, legal_document)
    response = join(client, event, red, "0000000000")
    assert messages_of(response) == ["That is not the join code of Red; ask its captain or the organiser for it."]
    assert not TeamMember.objects.filter(user=mallory).exists()
    assert Submission.objects.get(player=mallory).team is None
    assert Submission.objects.get(player_name="bob").status == "approved"
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert red.join_code not in page
    assert "You are in no team." in page


def test_joining_a_team_of_another_event_is_refused(event, alice, red, mallory):
    other = Event.objects.create(organiser=alice, name="Other", date=event.date, system="t9a-0.11", points_limit=2400,
                                 deadline=event.deadline)
    response = join(as_user(mallory), other, red, red.join_code)
    assert messages_of(response) == ["Choose one of this event's teams."]
    assert not TeamMember.objects.filter(user=mallory).exists()


def test_a_joined_members_list_counts_with_the_team(event, red, bob, charlie, legal_document):
    client = as_user(charlie)
    response = join(client, event, red, red.join_code.upper())  # a code is read whatever its case
    assert messages_of(response) == ["You joined Red; your list counts with its lists."]
    response = submit(client, event, charlie, legal_document)
    subs = {s.player_name: s for s in Submission.objects.all()}
    assert (subs["charlie"].team, subs["charlie"].status) == (red, "illegal")
    assert [v["message"] for v in subs["charlie"].report["violations"] if v["code"] == "team.items_duplicate"][0] == \
        DUPLICATE.format(other="Bob")
    # Bob's list now shares its items with a team mate's: the approval is withdrawn, and he sees why.
    assert (subs["bob"].status, subs["bob"].valid) == ("illegal", False)
    assert DUPLICATE.format(other="Charlie") in [v["message"] for v in subs["bob"].report["violations"]]


def test_another_teams_approved_list_stays_legal(event, alice, red, bob, charlie, legal_document):
    register(as_user(alice), event, "Blue")
    blue = Team.objects.get(name="Blue")
    client = as_user(charlie)
    join(client, event, blue, blue.join_code)
    submit(client, event, charlie, legal_document)
    subs = {s.player_name: s for s in Submission.objects.all()}
    assert (subs["charlie"].team, subs["charlie"].status, subs["charlie"].report["violations"]) == (blue, "legal", [])
    assert (subs["bob"].status, subs["bob"].valid, subs["bob"].report["violations"]) == ("approved", True, [])


def test_a_player_creates_a_team_as_its_captain_and_only_they_see_its_code(event, bob, charlie, mallory):
    response = register(as_user(charlie), event, "Green")
    green = Team.objects.get(name="Green")
    assert messages_of(response) == [f"You created Green and joined it; give its join code, {green.join_code}, to "
                                     f"your team mates."]
    assert (green.captain, [m.user for m in green.members.all()]) == (charlie, [charlie])
    page = as_user(charlie).get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Your team: <strong>Green</strong> · join code <code>" + green.join_code in page
    join(as_user(bob), event, green, green.join_code)
    bobs_page = as_user(bob).get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Your team: <strong>Green</strong></p>" in bobs_page and green.join_code not in bobs_page
    assert green.join_code not in as_user(mallory).get(reverse("event-detail", args=[event.pk])).content.decode()


def test_moving_to_another_team_moves_the_list_and_checks_both_teams(event, alice, red, bob, charlie, legal_document):
    client = as_user(charlie)
    join(client, event, red, red.join_code)
    submit(client, event, charlie, legal_document)
    assert Submission.objects.get(player=bob).status == "illegal"
    register(as_user(alice), event, "Blue")
    blue = Team.objects.get(name="Blue")
    join(client, event, blue, blue.join_code)
    assert list(TeamMember.objects.filter(user=charlie).values_list("team__name", flat=True)) == ["Blue"]
    subs = {s.player_name: s for s in Submission.objects.all()}
    assert (subs["charlie"].team, subs["charlie"].status) == (blue, "legal")
    assert (subs["bob"].status, subs["bob"].report["violations"]) == ("legal", [])  # approval was withdrawn before


def test_an_approved_list_cannot_change_team_until_reopened(event, alice, red, bob):
    register(as_user(alice), event, "Blue")
    blue = Team.objects.get(name="Blue")
    response = join(as_user(bob), event, blue, blue.join_code)
    assert messages_of(response) == ["Your list is approved, so it is locked in its team; ask the organiser to "
                                     "reopen it before you change team."]
    assert list(TeamMember.objects.filter(user=bob).values_list("team__name", flat=True)) == ["Red"]
    assert (Submission.objects.get(player=bob).team, Submission.objects.get(player=bob).status) == (red, "approved")


def test_only_the_organiser_removes_a_team_and_its_lists_are_checked_without_it(event, alice, red, bob, charlie,
                                                                                 legal_document):
    client = as_user(charlie)
    join(client, event, red, red.join_code)
    submit(client, event, charlie, legal_document)
    url = reverse("event-team-remove", args=[event.pk, red.pk])
    for user in (bob, charlie):
        assert as_user(user).post(url).status_code == 404
    assert Team.objects.filter(pk=red.pk).exists()
    response = as_user(alice).post(url, follow=True)
    assert messages_of(response) == ["Red is removed; its 2 lists are in no team now."]
    assert not Team.objects.exists() and not TeamMember.objects.exists()
    subs = {s.player_name: s for s in Submission.objects.all()}
    assert [(s.team, s.status, s.report["violations"]) for s in subs.values()] == [(None, "legal", [])] * 2


def test_an_upload_into_a_team_registers_it_for_the_organiser(client, event, alice, red, legal_document):
    import json
    from django.core.files.uploadedfile import SimpleUploadedFile
    client.force_login(alice)
    files = [SimpleUploadedFile("erin.json", json.dumps({**legal_document, "player": "Erin"}).encode())]
    client.post(reverse("event-upload", args=[event.pk]), {"files": files, "team": "red"})
    erin = Submission.objects.get(player_name="Erin")
    assert (erin.team, erin.status) == (red, "illegal")  # Bob's Giant Sword, in the same team
    files = [SimpleUploadedFile("finn.json", json.dumps({**legal_document, "player": "Finn"}).encode())]
    client.post(reverse("event-upload", args=[event.pk]), {"files": files, "team": "Yellow"})
    assert (Submission.objects.get(player_name="Finn").team.name, Team.objects.get(name="Yellow").captain) == ("Yellow", None)


@pytest.mark.django_db(transaction=True)
def test_existing_free_text_teams_become_registered_teams(django_user_model):
    """Migrations 0006-0008: each event's free-text team names become its teams, their players its members."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("armylists", "0005_merge")], [("armylists", "0008_drop_free_text_team")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    organiser = old.get_model("auth", "User").objects.create(username="org")
    players = [old.get_model("auth", "User").objects.create(username=name) for name in ("ann", "ben")]
    old_event = old.get_model("armylists", "Event").objects.create(
        organiser_id=organiser.pk, name="Old GT", date=date.today(), system="t9a-0.11", points_limit=2400,
        deadline=timezone.now())
    for player, name, team in ((players[0], "ann", "Red"), (players[1], "ben", "Red"), (None, "upload", "Blue"),
                               (None, "solo", "")):
        old.get_model("armylists", "Submission").objects.create(
            event_id=old_event.pk, player_id=player.pk if player else None, player_name=name, team=team, document={},
            checksum="x", book="b", book_version="1", submitted_at=timezone.now())
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    teams = {s.player_name: s.team.name if s.team else None for s in Submission.objects.select_related("team")}
    assert teams == {"ann": "Red", "ben": "Red", "upload": "Blue", "solo": None}
    assert sorted(TeamMember.objects.values_list("user__username", "team__name")) == [("ann", "Red"), ("ben", "Red")]
    assert sorted(Team.objects.values_list("event__name", "name")) == [("Old GT", "Blue"), ("Old GT", "Red")]
    assert all(len(code) == 10 for code in Team.objects.values_list("join_code", flat=True))
