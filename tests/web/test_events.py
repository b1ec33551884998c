"""Tournament events on the site: set-up, submissions (frozen copies), checking, review, uploads, exports
and who sees what."""
from __future__ import annotations

import copy
import csv
import io
import json
from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from armylists.lists.library.catalogue import report_for
from armylists.events.checking import check_event
from armylists.exports import checksum, export_text
from armylists.listfiles.reading import read_list_data
from armylists.models import Event, Submission, Team
from armylists.rules import parse_roster

from ..conftest import EXAMPLES
from .conftest import make_list

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _tasks_at_once(tasks_at_once):
    """Bulk work (checking every submission again, the muster PDF) runs as soon as it is queued here;
    tests/web/test_event_jobs.py runs it through the real database worker."""

WAR_MACHINES_MAX_1 = ("- {id: one-war-machine, type: count, params: {label: War Machines, "
                      "select: {troop_type: war-machine}, max: 1}}")


def illegal_document() -> dict:
    return json.loads((EXAMPLES / "empire-2400-illegal.json").read_text())


@pytest.fixture
def event(alice):
    return Event.objects.create(organiser=alice, name="Club GT", date=date.today() + timedelta(days=10),
                                system="t9a-0.11", books=["empire-of-sonnstahl", "ogre-khans"], points_limit=2400,
                                deadline=timezone.now() + timedelta(days=5))


@pytest.fixture
def bob_list(bob, legal_document):
    return make_list(bob, {**legal_document, "name": "Bob's Empire"})


def submit(client, event, army_list, team=None):
    """Submit `army_list`; with `team` (a registered Team), join it with its code first."""
    if team is not None:
        client.post(reverse("event-team-join", args=[event.pk]), {"team": team.pk, "code": team.join_code})
    return client.post(reverse("event-submit", args=[event.pk]), {"army_list": army_list.pk})


# --- setting an event up -------------------------------------------------------------------------

def event_form(**changes):
    day = date.today() + timedelta(days=30)
    data = {"name": "Spring Open", "date": day.isoformat(), "system": "the-old-world", "points_limit": "2000",
            "composition": "", "deadline": f"{(day - timedelta(days=7)).isoformat()}T18:00",
            "allowed_books": ["the-old-world/empire-of-man", "the-old-world/dwarfen-mountain-holds@2024.4"],
            "play_modes": ["the-old-world/combined-arms"],
            "rules_text": "- {id: no-named, type: count, params: {label: Named characters, select: {tag: named}, max: 0}}"}
    data.update(changes)
    return data


def test_an_organiser_sets_up_an_event(client, alice):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form())
    event = Event.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("event-detail", args=[event.pk])
    assert (event.organiser, event.name, event.system, event.points_limit) == (alice, "Spring Open", "the-old-world", 2000)
    assert event.books == ["empire-of-man", "dwarfen-mountain-holds@2024.4"]
    assert event.modes == ["combined-arms"]
    assert "no-named" in event.rules_text


@pytest.mark.parametrize("changes, field, message", [
    ({"rules_text": "- {id: x, type: count, params: {label: X, select: {entry: nobody}, max: 1}}"}, "rules_text",
     "rules[0].params.select.entry: unknown entry &#x27;nobody&#x27;"),
    ({"rules_text": "rules: ["}, "rules_text", "is not valid YAML at line 1"),
    ({"rules_text": "- {id: x, type: sorcery}"}, "rules_text", "unknown rule type &#x27;sorcery&#x27;"),
    ({"allowed_books": ["t9a-0.11/ogre-khans"]}, "allowed_books", "Ogre Khans is not a book of Warhammer: The Old World."),
    ({"play_modes": ["the-old-world/nonsense"]}, "play_modes", "Select a valid choice"),
    ({"composition": "atlantis"}, "composition", "No book of this system has a composition"),
    ({"points_limit": "0"}, "points_limit", "Ensure this value is greater than or equal to 1."),
    ({"deadline": f"{(date.today() + timedelta(days=40)).isoformat()}T18:00"}, "deadline", "on or before the event"),
])
def test_a_bad_event_form_says_why_and_saves_nothing(client, alice, changes, field, message):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Event.objects.exists()


def test_the_form_offers_the_system_first_and_compositions_by_name(client, alice):
    client.force_login(alice)
    form = client.get(reverse("event-new")).context["form"]
    assert list(form.fields)[0] == "system"
    groups = dict(c for c in form.fields["composition"].widget.choices if isinstance(c[1], list))
    assert ("the-old-world/city-state-of-nuln", "City-State of Nuln (Empire of Man)") in groups["Warhammer: The Old World"]
    response = client.post(reverse("event-new"), event_form(composition="the-old-world/city-state-of-nuln"))
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.composition == "city-state-of-nuln"
    edit = client.get(reverse("event-edit", args=[event.pk])).context["form"]
    assert edit.initial["composition"] == "the-old-world/city-state-of-nuln"


def test_after_an_error_the_form_offers_only_the_chosen_systems_choices(client, alice):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(points_limit="0"))
    assert response.status_code == 400
    form = response.context["form"]
    assert form["play_modes"].field.widget.choices == [("Warhammer: The Old World", [
        ("the-old-world/grand-melee", "Grand Melee"), ("the-old-world/combined-arms", "Combined Arms"),
        ("the-old-world/battle-march", "Battle March")])]
    assert [c[0] for c in form["allowed_books"].field.widget.choices] == ["Warhammer: The Old World"]
    assert [c[0] for c in form["composition"].field.widget.choices] == ["", "Warhammer: The Old World"]
    page = response.content.decode()
    assert "Campaign (after the founding)" not in page and 'value="mordheim/' not in page
    assert '<input type="checkbox" name="play_modes" value="the-old-world/combined-arms" id="id_play_modes_0_1" checked>' \
        in page


def test_a_new_event_form_offers_every_systems_choices_until_one_is_chosen(client, alice):
    client.force_login(alice)
    form = client.get(reverse("event-new")).context["form"]
    assert [c[0] for c in form["play_modes"].field.widget.choices] == ["Mordheim", "Warhammer: The Old World"]


def test_a_composition_of_another_system_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(composition="t9a-0.11/city-state-of-nuln"))
    assert response.status_code == 400
    assert response.context["form"].errors["composition"][0] == "That composition is not one of Warhammer: The Old World's."
    assert not Event.objects.exists()


def test_an_event_rule_built_in_the_form_is_added_to_the_rules_and_checked(client, alice):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(
        add_rule_kind="unit_max", add_rule_name="steam tank", add_rule_number="1"))
    assert response.status_code == 302
    event = Event.objects.get()
    assert event.rules_text.splitlines() == [
        "- {id: no-named, type: count, params: {label: Named characters, select: {tag: named}, max: 0}}",
        "- {id: unit-max-steam-tank, type: count, params: {label: Steam Tank, select: {entry: steam-tank}, max: 1}}"]
    client.post(reverse("event-edit", args=[event.pk]), {
        **event_form(rules_text=event.rules_text, add_rule_kind="item_ban", add_rule_name="Dawnstone")})
    event.refresh_from_db()
    assert event.rules_text.splitlines()[-1] == ("- {id: item-ban-dawnstone, type: count, params: {label: Dawnstone "
                                                 "(banned at this event), select: {item: dawnstone}, max: 0}}")


def test_an_event_rule_naming_what_no_book_has_suggests_the_closest(client, alice):
    client.force_login(alice)
    response = client.post(reverse("event-new"), event_form(add_rule_kind="unit_ban", add_rule_name="Steam Tonk"))
    assert response.status_code == 400
    assert response.context["form"].errors["add_rule_name"] == [
        'No unit "Steam Tonk" in this system\'s books; did you mean "Steam Tank"?']
    missing = client.post(reverse("event-new"), event_form(add_rule_kind="unit_max", add_rule_name="Steam Tank"))
    assert missing.context["form"].errors["add_rule_name"] == ["Give the number: how many at most."]
    assert not Event.objects.exists()


# --- submitting: a frozen copy ---------------------------------------------------------------------

def test_a_submission_is_a_frozen_copy_with_its_checksum(client, bob, event, bob_list):
    client.force_login(bob)
    response = submit(client, event, bob_list)
    assert response.status_code == 302
    sub = Submission.objects.get()
    roster = parse_roster(bob_list.document)
    assert (sub.player, sub.player_name, sub.status, sub.valid) == (bob, "bob", "legal", True)
    assert sub.checksum == checksum(roster) and len(sub.checksum) == 10
    assert sub.document == bob_list.document
    assert (sub.total_points, sub.army_name, sub.report["violations"]) == (2390, "Empire of Sonnstahl", [])
    # Bob edits his list afterwards: the event's copy does not move.
    edited = copy.deepcopy(bob_list.document)
    edited["units"] = edited["units"][:-1]
    bob_list.set_document(parse_roster(edited), report_for(parse_roster(edited)))
    bob_list.save()
    sub.refresh_from_db()
    assert sub.checksum == checksum(roster) and sub.document != bob_list.document


def test_a_resubmission_replaces_the_copy_and_keeps_the_history(client, bob, event, bob_list):
    client.force_login(bob)
    submit(client, event, bob_list)
    first = Submission.objects.get()
    old_checksum = first.checksum
    illegal = make_list(bob, illegal_document())
    submit(client, event, illegal)
    sub = Submission.objects.get()
    assert sub.pk == first.pk and sub.checksum == checksum(parse_roster(illegal.document)) != old_checksum
    assert sub.status == "illegal" and not sub.valid
    assert [(h.checksum, h.status) for h in sub.history.all()] == [(old_checksum, "legal")]


def test_after_the_deadline_nothing_is_submitted(client, bob, event, bob_list):
    event.deadline = timezone.now() - timedelta(minutes=1)
    event.save()
    client.force_login(bob)
    response = submit(client, event, bob_list)
    assert response.status_code == 302
    assert not Submission.objects.exists()
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "has passed; ask the organiser." in page


def test_a_list_of_another_system_or_player_is_refused(client, bob, alice, event, legal_document):
    client.force_login(bob)
    alices = make_list(alice, legal_document)
    submit(client, event, alices)  # not in Bob's choices: the form refuses it
    mordheim = make_list(bob, json.loads((EXAMPLES / "witch-hunters-legal.json").read_text()))
    submit(client, event, mordheim)
    assert not Submission.objects.exists()
    assert "Choose one of your lists for this game system." in client.get(reverse("event-detail", args=[event.pk])).content.decode()


# --- review and statuses ---------------------------------------------------------------------------

def test_the_organiser_approves_a_legal_list_and_returns_one_with_a_note(client, alice, bob, event, bob_list):
    client.force_login(bob)
    submit(client, event, bob_list)
    sub = Submission.objects.get()
    client.force_login(alice)
    url = reverse("submission-review", args=[event.pk, sub.pk])
    client.post(url, {"action": "approve", "note": ""})
    sub.refresh_from_db()
    assert sub.status == "approved"
    response = client.post(url, {"action": "return", "note": ""})  # a return says why
    sub.refresh_from_db()
    assert sub.status == "approved"
    client.post(url, {"action": "return", "note": "Please name your General's Path."})
    sub.refresh_from_db()
    assert (sub.status, sub.note) == ("returned", "Please name your General's Path.")
    client.force_login(bob)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Returned by the organiser:</strong> Please name your General&#x27;s Path." in page
    assert response.status_code == 302


def test_an_illegal_list_cannot_be_approved_and_the_player_sees_why(client, alice, bob, event):
    client.force_login(bob)
    submit(client, event, make_list(bob, illegal_document()))
    sub = Submission.objects.get()
    client.force_login(alice)
    client.post(reverse("submission-review", args=[event.pk, sub.pk]), {"action": "approve", "note": ""})
    sub.refresh_from_db()
    assert sub.status == "illegal"
    client.force_login(bob)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    for v in sub.report["violations"]:
        assert v["code"] in page


def test_changing_the_event_rules_checks_everything_again(client, alice, bob, event, bob_list):
    client.force_login(bob)
    submit(client, event, bob_list)
    sub = Submission.objects.get()
    sub.status = "approved"
    sub.save()
    client.force_login(alice)
    data = {"name": event.name, "date": event.date.isoformat(), "system": "t9a-0.11", "points_limit": "2400",
            "composition": "", "deadline": timezone.localtime(event.deadline).strftime("%Y-%m-%dT%H:%M"),
            "allowed_books": ["t9a-0.11/empire-of-sonnstahl"], "rules_text": WAR_MACHINES_MAX_1}
    response = client.post(reverse("event-edit", args=[event.pk]), data)
    assert response.status_code == 302
    sub.refresh_from_db()
    # the list has a Cannon and a Rocket Battery: approval is withdrawn, and the report says why
    assert (sub.status, sub.valid) == ("illegal", False)
    assert [(v["code"], v["message"], v["rule"]) for v in sub.report["violations"]] == [
        ("count.max", "War Machines: 2 units taken; at most 1.", "one-war-machine")]
    event.refresh_from_db()
    event.rules_text = WAR_MACHINES_MAX_1.replace("max: 1", "max: 2")
    event.save()
    client.post(reverse("event-recheck", args=[event.pk]))
    sub.refresh_from_db()
    assert (sub.status, sub.valid, sub.report["violations"]) == ("legal", True, [])


def test_a_returned_list_stays_returned_until_submitted_again(client, alice, bob, event, bob_list):
    client.force_login(bob)
    submit(client, event, bob_list)
    sub = Submission.objects.get()
    Submission.objects.filter(pk=sub.pk).update(status="returned", note="Wrong version")
    check_event(event)
    sub.refresh_from_db()
    assert sub.status == "returned"
    submit(client, event, bob_list)
    sub.refresh_from_db()
    assert (sub.status, sub.note) == ("legal", "")


def test_team_rules_read_a_teams_lists_together(client, alice, bob, charlie, event, legal_document):
    event.rules_text = "- {id: team-items, type: team_items_once}"
    event.save()
    red = Team.objects.create(event=event, name="Red")
    for user in (bob, charlie):
        client.force_login(user)
        submit(client, event, make_list(user, legal_document), team=red)
    subs = {s.player_name: s for s in Submission.objects.all()}
    codes = {name: sorted({v["code"] for v in s.report["violations"]}) for name, s in subs.items()}
    assert codes == {"bob": ["team.items_duplicate"], "charlie": ["team.items_duplicate"]}
    messages = [v["message"] for v in subs["bob"].report["violations"]]
    assert "Giant Sword is also taken in Example; a magic item may be taken in one list of the team only." in messages
    # another team is another matter
    Submission.objects.filter(player=charlie).update(team=Team.objects.create(event=event, name="Blue"))
    check_event(event)
    assert all(s.valid for s in Submission.objects.all())


# --- the organiser's table, CSV, muster PDF --------------------------------------------------------

@pytest.fixture
def three_players(client, event, bob, charlie, alice, legal_document, django_user_model):
    dave = django_user_model.objects.create_user("dave", "dave@example.com", "dave-password-1")
    for user, doc in ((bob, legal_document), (charlie, illegal_document()), (dave, legal_document)):
        client.force_login(user)
        submit(client, event, make_list(user, doc))
    Submission.objects.filter(player_name="dave").update(status="approved")
    client.force_login(alice)
    return client


def test_the_table_sorts_and_filters(three_players, event):
    client = three_players
    url = reverse("event-detail", args=[event.pk])
    page = client.get(url, {"sort": "player", "dir": "desc"}).content.decode()
    assert page.index('id="submission-') < page.index("dave") < page.index("charlie") < page.index(">bob<")
    illegal = client.get(url, {"verdict": "illegal"}).content.decode()
    assert "charlie" in illegal and ">bob<" not in illegal and "dave" not in illegal
    approved = client.get(url, {"status": "approved"}).content.decode()
    assert "dave" in approved and ">bob<" not in approved
    found = client.get(url, {"player": "CHAR"}).content.decode()
    assert "charlie" in found and ">bob<" not in found
    assert client.get(url, {"sort": "nonsense"}).status_code == 200


def test_the_csv_has_a_row_per_submission_with_percentages_and_violations(three_players, event):
    response = three_players.get(reverse("event-csv", args=[event.pk]))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="Club-GT-lists.csv"'
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == ["player", "team", "list", "army", "total_points", "points_limit", "categories",
                        "verdict", "status", "errors", "warnings", "violations", "note", "checksum", "submitted",
                        "data_as_of"]
    bob = next(r for r in table if r[0] == "bob")
    sub = Submission.objects.get(player_name="bob")
    # One column of name=percent pairs, only the categories holding points (issue 42: not 40 columns of 0.0%)
    shares = "; ".join(f"{c['name']}={c['percent']:.1f}" for c in sub.report["categories"] if c["points"])
    assert bob[:6] == ["bob", "", "Sonnstahl combined arms", "Empire of Sonnstahl 0.11.1", "2390", "2400"]
    assert bob[6] == shares and "=0.0" not in shares and bob[7:12] == ["legal", "legal", "0", "0", ""]
    assert bob[13] == sub.checksum
    charlie = next(r for r in table if r[0] == "charlie")
    illegal = Submission.objects.get(player_name="charlie")
    assert charlie[7] == "illegal" and int(charlie[9]) == len(illegal.report["violations"]) > 0
    assert charlie[11].split(" | ")[0] == f"{illegal.report['violations'][0]['code']}: {illegal.report['violations'][0]['message']}"
    filtered = three_players.get(reverse("event-csv", args=[event.pk]), {"verdict": "illegal"})
    assert [r[0] for r in csv.reader(io.StringIO(filtered.content.decode()))][1:] == ["charlie"]


def test_the_muster_pdf_prints_the_approved_lists_after_a_cover_table(three_players, event):
    three_players.post(reverse("event-muster-start", args=[event.pk]))
    response = three_players.get(reverse("event-muster", args=[event.pk]))
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    cover = reader.pages[0].extract_text()
    dave = Submission.objects.get(player_name="dave")
    assert "Club GT" in cover and "1 approved list" in cover and "dave" in cover and dave.checksum in cover
    everything = "\n".join(p.extract_text() for p in reader.pages)
    assert "bob" not in everything and "charlie" not in everything  # only approved lists are printed
    assert "Marshal" in everything and "LEGAL" in everything.upper()


# --- bulk upload ------------------------------------------------------------------------------------

def test_a_bulk_upload_checks_the_good_files_and_names_the_bad_one(client, alice, event, legal_document, empire):
    client.force_login(alice)
    roster = parse_roster({**legal_document, "player": ""})
    text = export_text(empire, roster, report_for(roster))
    files = [
        SimpleUploadedFile("erin.json", json.dumps({**legal_document, "player": "Erin"}).encode()),
        SimpleUploadedFile("frank.txt", text.encode()),
        SimpleUploadedFile("broken.json", b'{"format": "armylist/1", "units": ['),
        SimpleUploadedFile("gina.json", json.dumps(illegal_document() | {"player": "Gina"}).encode()),
    ]
    response = client.post(reverse("event-upload", args=[event.pk]), {"files": files, "team": ""})
    assert response.status_code == 200
    page = response.content.decode()
    assert "3 lists stored; the event's lists are checked in the background" in page
    assert "<strong>broken.json</strong>: (top level): is not valid JSON" in page
    subs = {s.player_name: s for s in Submission.objects.all()}
    assert sorted(subs) == ["Erin", "Gina", "frank"]
    assert (subs["Erin"].status, subs["frank"].status, subs["Gina"].status) == ("legal", "legal", "illegal")
    assert subs["frank"].checksum == checksum(read_list_data(text.encode(), "frank.txt")[0])
    assert subs["Erin"].player is None


def test_an_upload_error_names_the_file_once(client, alice, event):
    client.force_login(alice)
    response = client.post(reverse("event-upload", args=[event.pk]),
                           {"files": [SimpleUploadedFile("garbage.txt", b"garbage\n")]})
    page = response.content.decode()
    assert page.count("garbage.txt") == 1
    assert ("<li><strong>garbage.txt</strong>: line 1: expected a header line &quot;&lt;field&gt;: &lt;value&gt;&quot; "
            "with a field among List, Player, Team, System, Book, Composition, Matched play, Allies, Points limit, "
            "not &quot;garbage&quot;</li>") in page


def test_an_upload_of_only_bad_files_stores_nothing(client, alice, event):
    client.force_login(alice)
    response = client.post(reverse("event-upload", args=[event.pk]),
                           {"files": [SimpleUploadedFile("x.txt", b"\xff\xfe nonsense")]})
    assert response.status_code == 400
    assert "<li><strong>x.txt</strong>: is not UTF-8 text: invalid start byte</li>" in response.content.decode()
    assert not Submission.objects.exists()


def test_an_upload_takes_up_to_max_upload_files_and_one_more_is_refused_by_name(client, alice, event,
                                                                              legal_document):
    """The boundary of MAX_UPLOAD_FILES (200, as docs/events.md says): Django's own limit on files in one
    request (DATA_UPLOAD_MAX_NUMBER_FILES, 100 by default) refused 101 with a bare 400 before the view."""
    from armylists.events.submitting import MAX_UPLOAD_FILES

    assert MAX_UPLOAD_FILES == 200
    client.force_login(alice)
    good = SimpleUploadedFile("erin.json", json.dumps({**legal_document, "player": "Erin"}).encode())
    bad = [SimpleUploadedFile(f"x{i}.txt", b"\xff") for i in range(MAX_UPLOAD_FILES - 1)]
    response = client.post(reverse("event-upload", args=[event.pk]), {"files": [good, *bad], "team": ""})
    assert response.status_code == 200  # every file read: one stored, each of the others named
    page = response.content.decode()
    assert "199 files could not be used" in page and "<strong>x198.txt</strong>: is not UTF-8 text" in page
    assert list(Submission.objects.values_list("player_name", flat=True)) == ["Erin"]
    Submission.objects.all().delete()
    files = [SimpleUploadedFile(f"y{i}.json", json.dumps({**legal_document, "player": f"P{i}"}).encode())
             for i in range(MAX_UPLOAD_FILES + 1)]
    response = client.post(reverse("event-upload", args=[event.pk]), {"files": files, "team": ""})
    assert response.status_code == 400
    assert "<strong>(upload)</strong>: 201 files; at most 200 at once" in response.content.decode()
    assert not Submission.objects.exists()


# --- who sees what --------------------------------------------------------------------------------

@pytest.fixture
def entered(client, event, bob, charlie, legal_document):
    """Bob and Charlie each submitted; Bob's list is approved."""
    subs = {}
    for user in (bob, charlie):
        client.force_login(user)
        submit(client, event, make_list(user, legal_document))
        subs[user.username] = Submission.objects.get(player=user)
    Submission.objects.filter(player=bob).update(status="approved")
    client.logout()
    return subs


ORGANISER_ONLY = ["event-edit", "event-upload", "event-csv", "event-jobs"]


def test_anonymous_visitors_are_sent_to_log_in(client, event, entered):
    urls = [reverse("event-list"), reverse("event-detail", args=[event.pk]),
            *[reverse(name, args=[event.pk]) for name in ORGANISER_ONLY],
            reverse("submission-detail", args=[event.pk, entered["bob"].pk])]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url


def test_only_the_organiser_reaches_the_organisers_pages(client, event, entered, bob, alice, django_user_model):
    outsider = django_user_model.objects.create_user("olga", "", "olga-password-1")
    for user, expected in ((alice, 200), (bob, 404), (outsider, 404)):
        client.force_login(user)
        for name in ORGANISER_ONLY:
            assert client.get(reverse(name, args=[event.pk])).status_code == expected, (user, name)
        for name in ("event-recheck", "event-publish", "event-muster-start"):
            assert client.post(reverse(name, args=[event.pk])).status_code == (302 if user == alice else 404)
        review = client.post(reverse("submission-review", args=[event.pk, entered["charlie"].pk]), {"action": "approve"})
        assert review.status_code == (302 if user == alice else 404)
    fresh = Client()  # no messages left over from the organiser's actions above
    fresh.force_login(outsider)
    page = fresh.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Club GT" in page  # the outsider sees the event, not the lists
    assert 'id="submissions"' not in page and "charlie" not in page and 'id="submission-' not in page


def test_a_player_sees_only_their_own_submission_until_published(client, event, entered, bob, charlie, django_user_model):
    bob_sub, charlie_sub = entered["bob"], entered["charlie"]
    client.force_login(charlie)
    assert client.get(reverse("submission-detail", args=[event.pk, charlie_sub.pk])).status_code == 200
    assert client.get(reverse("submission-detail", args=[event.pk, bob_sub.pk])).status_code == 404
    assert client.get(reverse("submission-download", args=[event.pk, bob_sub.pk, "json"])).status_code == 404
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert 'id="published"' not in page and 'id="submissions"' not in page
    event.published = True
    event.save()
    # published: the approved list (Bob's) is visible to the event's players, Charlie's own is not Bob's to see
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert 'id="published"' in page and reverse("submission-detail", args=[event.pk, bob_sub.pk]) in page
    assert client.get(reverse("submission-detail", args=[event.pk, bob_sub.pk])).status_code == 200
    client.force_login(bob)
    assert client.get(reverse("submission-detail", args=[event.pk, charlie_sub.pk])).status_code == 404
    outsider = django_user_model.objects.create_user("olga", "", "olga-password-1")
    client.force_login(outsider)
    assert client.get(reverse("submission-detail", args=[event.pk, bob_sub.pk])).status_code == 404
    assert 'id="published"' not in client.get(reverse("event-detail", args=[event.pk])).content.decode()


def test_the_submitted_copy_downloads_in_every_format(client, event, entered, bob):
    client.force_login(bob)
    sub = entered["bob"]
    doc = client.get(reverse("submission-download", args=[event.pk, sub.pk, "json"]))
    assert json.loads(doc.content) == sub.document
    assert doc["Content-Disposition"] == f'attachment; filename="bob-{sub.checksum}.json"'
    text = client.get(reverse("submission-download", args=[event.pk, sub.pk, "txt"])).content.decode()
    assert "Marshal" in text
    pdf = client.get(reverse("submission-download", args=[event.pk, sub.pk, "pdf"]))
    assert pdf.content.startswith(b"%PDF") and sub.checksum in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert client.get(reverse("submission-download", args=[event.pk, sub.pk, "exe"])).status_code == 404


def test_the_submission_page_offers_the_list_pages_downloads(client, event, entered, bob, alice):
    # Issue 17: the list page's links at the submission's addresses; The 9th Age has no warband sheet.
    sub = entered["bob"]
    base = reverse("submission-download", args=[event.pk, sub.pk, "json"]).removesuffix("json/")
    client.force_login(bob)
    response = client.get(reverse("submission-detail", args=[event.pk, sub.pk]))
    assert response.context["downloads"] == [
        ("Text", f"{base}txt/"), ("JSON", f"{base}json/"), ("PDF roster", f"{base}pdf/?variant=full"),
        ("PDF, compact", f"{base}pdf/?variant=compact"), ("PDF, hidden list", f"{base}pdf/?variant=hidden")]
    assert "variant=warband" not in response.content.decode()


def test_a_mordheim_submission_offers_its_warband_sheet_first(client, alice, bob):
    # Issue 17: the submission page offered only the full, compact and hidden PDFs.
    event = Event.objects.create(organiser=alice, name="Mordheim night", date=date.today() + timedelta(days=10),
                                 system="mordheim", books=["witch-hunters"], points_limit=500,
                                 deadline=timezone.now() + timedelta(days=5))
    client.force_login(bob)
    submit(client, event, make_list(bob, json.loads((EXAMPLES / "witch-hunters-legal.json").read_text())))
    sub = Submission.objects.get()
    base = reverse("submission-download", args=[event.pk, sub.pk, "json"]).removesuffix("json/")
    for user in (bob, alice):
        client.force_login(user)
        response = client.get(reverse("submission-detail", args=[event.pk, sub.pk]))
        pdfs = [(label, url) for label, url in response.context["downloads"] if "pdf/" in url]
        assert pdfs[0] == ("PDF warband sheet", f"{base}pdf/?variant=warband")
        assert f'<a href="{base}pdf/?variant=warband">PDF warband sheet</a>' in response.content.decode()
    sheet = client.get(f"{base}pdf/?variant=warband")
    assert sheet["Content-Disposition"].endswith('-warband.pdf"')
    assert sheet.content.startswith(b"%PDF")


# --- organisers, round two: counts that add up, players for pairing tools ----------------------


def test_the_counts_say_how_many_lists_are_in_and_each_status(three_players, event):
    # Three lists in: bob's legal, charlie's illegal, dave's approved; none waits for its check.
    page = three_players.get(reverse("event-detail", args=[event.pk]))
    assert page.context["counts"] == [("lists in", 3), ("not yet checked", 0), ("legal", 1), ("illegal", 1),
                                      ("approved", 1), ("returned", 0)]
    assert "<span>lists in: 3</span>" in page.content.decode()


def test_the_players_csv_has_player_team_and_faction(client, event, bob, charlie, alice, legal_document):
    client.force_login(bob)
    submit(client, event, make_list(bob, legal_document), team=Team.objects.create(event=event, name="Reikland Reavers"))
    client.force_login(charlie)
    submit(client, event, make_list(charlie, illegal_document()))
    client.force_login(alice)
    response = client.get(reverse("event-players-csv", args=[event.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="Club-GT-players.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    statuses = dict(Submission.objects.values_list("player_name", "status"))
    assert rows == [["player", "team", "faction", "list", "status"],
                    ["bob", "Reikland Reavers", "Empire of Sonnstahl", "Sonnstahl combined arms", statuses["bob"]],
                    ["charlie", "", rows[2][2], rows[2][3], statuses["charlie"]]]
    assert rows[2][2]  # a faction, whatever the illegal example's army is


def test_only_the_organiser_gets_the_players_csv(client, event, bob):
    client.force_login(bob)
    assert client.get(reverse("event-players-csv", args=[event.pk])).status_code in (403, 404)
