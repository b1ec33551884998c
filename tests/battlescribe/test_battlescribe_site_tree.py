"""A list of an imported BattleScribe book is a roster tree on the site (issue 21 item 1): made by the
new-list form, units added through the API as the editor adds them (what minimums and defaults select
comes with them), judged by the tree evaluator everywhere, written as .ros/.rosz and read back the same."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command

from armylists.importers.battlescribe.roster_files import read_roster_data
from armylists.lists.trees import battlescribe_data
from armylists.models import ArmyList
from armylists.rules import parse_roster, roster_to_dict
from tests.battlescribe.imported import import_battlescribe

ROOT = Path(__file__).resolve().parents[2]
T9A = ROOT.parent / "shared" / "external" / "battlescribe" / "the-9th-age-2nd"
SYSTEM, BOOK, VERSION = "bs-the-9th-age-fantasy-battles-2nd-edition-2024", "bs-dwarven-holds-2024", "r57"
FORCE, CATALOGUE = "1332-e68c-203e-bad0", "041b-e72b-1f30-5a89"
KING, THANE = "e197-83e0-bb7b-35be", "9625-ede6-a9d4-bacb"

pytestmark = [pytest.mark.django_db,
              pytest.mark.skipif(not T9A.is_dir(), reason="../shared/external/battlescribe/the-9th-age-2nd is absent")]

# The army's own limits, as the data carries them, for a list of two characters and nothing else (the first
# character added is made the Army General: issue 40 item 2).
ARMY = [("bs.constraint.min", "Core: 0 pts, 0% of the 2000 pts limit; at least 25% (500 pts).", "error")]


def under(total: int) -> tuple[str, str, str]:
    """Our system's rule the catalogue lacks (rules_data/t9a-2, points-shortfall: at most 40 pts under)."""
    return ("points.under_limit", f"Total {total} pts is {2000 - total} pts under the 2000 pts limit; an army may "
                                  f"be at most 40 pts under it.", "error")


def import_dwarven_holds() -> None:
    """The 2nd edition's game system and the Dwarven Holds catalogue, as import_battlescribe stores them."""
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-dwarvenHolds.cat")


@pytest.fixture(autouse=True)
def imported():
    import_dwarven_holds()


@pytest.fixture
def dwarves(client, alice) -> ArmyList:
    """A new list of the book made with the new-list form: a roster tree with one Dwarven Holds force."""
    client.force_login(alice)
    response = client.post("/lists/new/", {"name": "Hold", "book": f"{SYSTEM}/{BOOK}/{VERSION}",
                                            "points_limit": "2000"})
    assert response.status_code == 302
    return ArmyList.objects.get(owner=alice)


def violations(report: dict) -> list[tuple[str, str, str]]:
    return [(v["code"], v["message"], v["severity"]) for v in report["violations"]]


def test_the_new_list_form_makes_a_roster_tree(dwarves):
    document = dwarves.document
    assert document["units"] == [] and document["points_limit"] == 2000
    [force] = document["forces"]
    assert (force["entry"], force["catalogue"], force["selections"]) == (FORCE, CATALOGUE, [])
    assert (dwarves.total_points, dwarves.valid) == (0, False)


def test_a_king_and_a_thane_added_through_the_api_come_with_their_compulsory_gear(dwarves, api_alice):
    url = f"/api/v1/lists/{dwarves.pk}/units/"
    king = api_alice.post(url, {"entry": "King"}, format="json", HTTP_IF_MATCH=f'"{dwarves.revision}"')
    assert king.status_code == 201 and king["ETag"] == f'"{dwarves.revision + 1}"'
    body = king.json()
    # The King's own minimums select Plate Armour and a Hand Weapon (its armour and weapon groups' defaults);
    # the first character is made the Army General (issue 40 item 2), as our books' editor does.
    assert [(s["entry"], s["number"]) for s in body["unit"]["selections"]] == [
        ("8f27-7811-b46f-a278::f49b-1010-24f1-f23b", 1), ("a5ba-3d6a-9115-afff::d5a4-4049-60de-5914", 1),
        ("8b2a-88ab-99be-3be9::d664-b973-594c-5971", 1)]
    assert (body["unit"]["entry"], body["unit"]["force"]) == (KING, body["unit"]["force"])
    assert (body["report"]["total_points"], violations(body["report"])) == (215, ARMY + [under(215)])
    thane = api_alice.post(url, {"entry": THANE}, format="json", HTTP_IF_MATCH=king["ETag"])
    assert thane.status_code == 201
    report = thane.json()["report"]
    assert (report["total_points"], violations(report)) == (325, ARMY + [under(325)])   # 215 + 110, both legal as added
    categories = {c["id"]: (c["name"], c["points"], c["percent"], c["units"]) for c in report["categories"]}
    assert [(u["name"], u["points"], categories[u["category"]][0]) for u in report["units"]] == [
        ("King", 215, "Characters"), ("Thane", 110, "Characters")]
    # Every category of the force with units or a limit (issue 22 item 3: tests/battlescribe/test_battlescribe_tree_cards.py).
    assert list(categories.values()) == [("Characters", 325, 16.2, 2), ("Core", 0, 0.0, 0),
                                         ("Clan's Thunder", 0, 0.0, 0), ("Engines of War", 0, 0.0, 0)]
    dwarves.refresh_from_db()
    assert (dwarves.total_points, dwarves.revision) == (325, 3)
    # The stored list's Report, the API's report route, is the same.
    assert api_alice.get(f"/api/v1/lists/{dwarves.pk}/report/").json()["violations"] == report["violations"]


def test_adding_a_unit_refuses_what_it_cannot_do_and_saves_nothing(dwarves, api_alice, api_bob):
    url = f"/api/v1/lists/{dwarves.pk}/units/"
    unknown = api_alice.post(url, {"entry": "Kinng"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["error"]["fields"] == [
        {"path": "entry", "message": "Dwarven Holds has no unit entry 'Kinng'; the closest is 'King'."}]
    stale = api_alice.post(url, {"entry": "King"}, format="json", HTTP_IF_MATCH=f'"{dwarves.revision + 5}"')
    assert stale.status_code == 412
    assert api_bob.post(url, {"entry": "King"}, format="json").status_code == 404
    dwarves.refresh_from_db()
    assert (dwarves.revision, dwarves.document["forces"][0]["selections"]) == (1, [])


def test_the_list_goes_out_as_ros_and_rosz_and_reads_back_the_same(dwarves, api_alice, client):
    for entry in ("King", "Thane", "Clan Warriors"):
        assert api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": entry}, format="json").status_code == 201
    dwarves.refresh_from_db()
    ros = api_alice.get(f"/api/v1/lists/{dwarves.pk}/export/?as=ros")
    assert ros.status_code == 200 and ros["Content-Type"] == "application/xml"
    roster, book = read_roster_data(ros.content, "hold.ros")
    assert roster_to_dict(roster) == roster_to_dict(parse_roster(dwarves.document)) and book.id == BOOK
    rosz = api_alice.get(f"/api/v1/lists/{dwarves.pk}/export/?as=rosz")
    with zipfile.ZipFile(io.BytesIO(rosz.content)) as archive:
        assert archive.namelist() == ["Hold.ros"] and archive.read("Hold.ros") == ros.content
    assert roster_to_dict(read_roster_data(rosz.content, "hold.rosz")[0]) == roster_to_dict(roster)
    page = client.get(f"/lists/{dwarves.pk}/")
    assert b"BattleScribe (.ros)" in page.content and b"BattleScribe (.rosz)" in page.content
    download = client.get(f"/lists/{dwarves.pk}/download/ros/")
    assert download.status_code == 200 and download.content == ros.content


def test_a_list_of_our_own_book_gets_a_unit_by_name_and_no_ros(alice_list, api_alice):
    url = f"/api/v1/lists/{alice_list.pk}/units/"
    response = api_alice.post(url, {"entry": "Heavy Infantry", "size": 20}, format="json")
    assert response.status_code == 201 and response["ETag"] == '"2"'
    body = response.json()
    assert body["unit"] == UNIT
    assert (body["report"]["total_points"], [v["code"] for v in body["report"]["violations"]]) == REPORT
    alice_list.refresh_from_db()
    assert alice_list.document["units"][-1] == body["unit"] and alice_list.total_points == REPORT[0]
    unknown = api_alice.post(url, {"entry": "Heavy Infantryy"}, format="json")
    assert unknown.json()["error"]["fields"] == [{"path": "entry", "message": (
        "Empire of Sonnstahl 0.11.1 has no entry 'Heavy Infantryy'; the closest is 'Heavy Infantry' (heavy-infantry).")}]
    assert api_alice.get(f"/api/v1/lists/{alice_list.pk}/export/?as=ros").status_code == 400


# 20 Heavy Infantry at 5 pts a model (rules_data/t9a-0.11/books/empire-of-sonnstahl: heavy-infantry) on a
# 2,390-pt list of 2,400: 2,490, over the limit.
UNIT = {"id": "heavy-infantry", "entry": "heavy-infantry", "size": 20}
REPORT = (2490, ["points.over_limit"])


GENERAL = "8b2a-88ab-99be-3be9::d664-b973-594c-5971"   # the King's "Army General" option


def test_the_editor_adds_a_unit_sets_an_option_and_removes_a_unit(dwarves, client):
    page = client.get(f"/lists/{dwarves.pk}/edit/")
    assert page.status_code == 200 and f'value="{KING}"'.encode() in page.content
    added = client.post(f"/lists/{dwarves.pk}/add-unit/", {"entry": KING, "revision": 1})
    assert added.status_code == 302
    dwarves.refresh_from_db()
    [king] = dwarves.document["forces"][0]["selections"]
    assert (king["entry"], len(king["selections"]), dwarves.total_points) == (KING, 3, 215)   # the General too
    page = client.get(f"/lists/{dwarves.pk}/edit/")
    assert f'name="sel-{GENERAL}"'.encode() in page.content and b"Plate Armour, Hand Weapon" in page.content
    # One field at a time, as the editor's script sends it: the King given up as General, then made it again.
    given_up = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/", {"revision": 2, "only": f"sel-{GENERAL}"})
    assert given_up.status_code == 302
    dwarves.refresh_from_db()
    from armylists.lists.library.catalogue import report_for
    assert "Army General: 0 taken in the army; at least 1." in [
        v.message for v in report_for(parse_roster(dwarves.document)).violations]
    general = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/",
                          {"revision": 2, "only": f"sel-{GENERAL}", f"sel-{GENERAL}": "on"})
    assert general.status_code == 409   # stale: the list is at revision 3
    general = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/",
                          {"revision": 3, "only": f"sel-{GENERAL}", f"sel-{GENERAL}": "on"})
    assert general.status_code == 302
    dwarves.refresh_from_db()
    report = client.get(f"/api/v1/lists/{dwarves.pk}/report/") if False else None
    from armylists.lists.library.catalogue import report_for
    codes = [v.message for v in report_for(parse_roster(dwarves.document)).violations]
    assert codes == ["Core: 0 pts, 0% of the 2000 pts limit; at least 25% (500 pts).", under(215)[1]]
    assert [s["entry"] for s in dwarves.document["forces"][0]["selections"][0]["selections"]][-1] == GENERAL
    unknown = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/", {"revision": 4, "only": "sel-nothing"})
    assert unknown.status_code == 400
    # The editor's script (htmx): the answer is the redrawn list, the card open with the option ticked.
    shield = "e1b5-41cd-8f96-9563::ff97-a295-86c8-76d5"
    htmx = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/", {"revision": 4, "only": f"sel-{shield}",
                                                                     f"sel-{shield}": "on"}, HTTP_HX_REQUEST="true")
    assert htmx.status_code == 200 and htmx["X-List-Revision"] == "5"
    assert f'name="sel-{shield}" value="1" checked'.encode() in htmx.content
    dwarves.refresh_from_db()
    assert dwarves.total_points == 235   # the King's Shield: +20 pts
    undo = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/", {"revision": 5, "only": f"sel-{shield}"},
                       HTTP_HX_REQUEST="true")
    assert undo.status_code == 200
    dwarves.refresh_from_db()
    assert (dwarves.total_points, dwarves.revision) == (215, 6)   # +20 pts for the Shield, then taken off
    removed = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/remove/", {"revision": 6})
    assert removed.status_code == 302
    dwarves.refresh_from_db()
    assert (dwarves.document["forces"][0]["selections"], dwarves.total_points, dwarves.revision) == ([], 0, 7)


def test_every_download_of_a_roster_tree_answers(dwarves, api_alice, client):
    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json")
    for fmt in ("txt", "json", "pdf"):
        response = client.get(f"/lists/{dwarves.pk}/download/{fmt}/")
        assert response.status_code == 200, fmt
    from pypdf import PdfReader

    pdf = client.get(f"/lists/{dwarves.pk}/download/pdf/?variant=full").content
    printed = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "Characters 215 pts · 10.8% King General 215 pts" in printed   # the first character made the General
    text = client.get(f"/lists/{dwarves.pk}/download/txt/").content.decode()
    assert "== Characters: 215 pts (10.8%) ==\n215 - King" in text   # the King's roles and gear after it
    assert "x bs.constraint.min: Core: 0 pts, 0% of the 2000 pts limit; at least 25% (500 pts)." in text


def test_a_tree_document_the_data_does_not_know_is_refused_with_its_path(api_alice):
    document = {"format": "armylist/1", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
                "points_limit": 2000, "units": [],
                "forces": [{"id": "f1", "entry": FORCE, "catalogue": CATALOGUE,
                            "selections": [{"id": "s1", "entry": "no-such-entry"}]}]}
    response = api_alice.post("/api/v1/lists/", {"document": document}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == [{"path": "document.forces", "message": (
        "selection s1: 'no-such-entry' is not selectable in 1332-e68c-203e-bad0")}]
    document["forces"][0]["selections"] = [{"id": "f1", "entry": KING}]
    twice = api_alice.post("/api/v1/lists/", {"document": document}, format="json")
    assert twice.json()["error"]["fields"] == [{"path": "document.forces", "message": "the id 'f1' is used twice"}]
    deep = {"id": "s0", "entry": KING}
    for i in range(1, 14):
        deep = {"id": f"s{i}", "entry": KING, "selections": [deep]}
    document["forces"][0]["selections"] = [deep]
    too_deep = api_alice.post("/api/v1/lists/", {"document": document}, format="json")
    assert too_deep.status_code == 400 and ArmyList.objects.count() == 0


def test_an_event_checks_a_roster_tree_by_the_evaluator(dwarves, api_alice, alice, tmp_path, capsys):
    """A submission kept as a roster tree is judged by the tree evaluator at the event (its settings
    too); check_lists judges a folder's .ros the same way."""
    from datetime import timedelta

    from django.utils import timezone

    from armylists.events.checking import check_event
    from armylists.models import Event, Submission

    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json")
    dwarves.refresh_from_db()
    event = Event.objects.create(organiser=alice, name="Hold cup", date=timezone.now().date(), system=SYSTEM,
                                 books=[BOOK], points_limit=2000, deadline=timezone.now() + timedelta(days=3))
    Submission.objects.create(event=event, player_name="Ann", document=dwarves.document, checksum="a", book=BOOK,
                              book_version=VERSION, submitted_at=timezone.now())
    check_event(event)
    [submission] = event.submissions.all()
    assert (submission.valid, submission.status) == (False, "illegal")
    assert [v["code"] for v in submission.report["violations"]] == ["bs.constraint.min", "points.under_limit"]
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "hold.ros").write_bytes(api_alice.get(f"/api/v1/lists/{dwarves.pk}/export/?as=ros").content)
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(folder), "--system", SYSTEM, "--points", "2000")
    out = capsys.readouterr().out
    assert stop.value.code == 1 and "Core: 0 pts, 0% of the 2000 pts limit; at least 25%" in out


def test_a_tree_whose_game_data_is_gone_is_said_unavailable_not_an_error(dwarves, client):
    from armylists.models import BookGameData

    BookGameData.objects.all().delete()
    battlescribe_data.clear()
    page = client.get(f"/lists/{dwarves.pk}/edit/")
    assert page.status_code == 409
    assert b"has no BattleScribe data stored to judge a roster tree; import it again" in page.content


def test_a_list_in_the_older_flattened_shape_is_kept_and_never_legal(api_alice, alice):
    """A list of an imported book saved before roster trees (units, no forces) is kept as it was, and is not
    converted on read; the flattened rules that judged it are retired, so it is never legal and says why
    (list.not_a_tree, issue 37). (No door makes such a list now: a
    plain document with units is made its tree, test_a_list_created_through_the_api_with_a_plain_document_is_a_tree,
    and migration 0013 made the stored ones trees, tests/lists/test_unflatten.py.)"""
    from armylists.lists.library.catalogue import get_book, validate_roster

    book = get_book(SYSTEM, BOOK, VERSION)
    king = next(e.id for e in book.entries.values() if e.name == "King")
    document = {"format": "armylist/1", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
                "points_limit": 2000, "units": [{"id": "k", "entry": king}]}
    roster = parse_roster(document)
    saved = ArmyList(owner=alice, name="Old hold")
    saved.set_document(roster, validate_roster(book, roster))   # as it was saved before roster trees
    saved.save()
    assert "forces" not in saved.document and saved.document["units"] == [{"id": "k", "entry": king}]
    report = api_alice.get(f"/api/v1/lists/{saved.pk}/report/").json()
    assert (report["total_points"], [v["code"] for v in report["violations"]]) == OLD_WAY
    assert [u["id"] for u in report["units"]] == ["k"]
# The King at 215 pts, and the one error saying the list is not checked by the data's rules.
OLD_WAY = (215, ["list.not_a_tree"])


def test_the_settings_of_a_roster_tree_set_its_limit_and_refuse_a_composition(dwarves, client):
    changed = client.post(f"/lists/{dwarves.pk}/settings/", {"revision": 1, "name": "Hold", "points_limit": "2500"})
    assert changed.status_code == 302
    dwarves.refresh_from_db()
    assert (dwarves.points_limit, dwarves.document["points_limit"]) == (2500, 2500)
    refused = client.post(f"/lists/{dwarves.pk}/settings/", {"revision": 2, "name": "Hold", "points_limit": "2500",
                                                             "composition": "anything"})
    assert refused.status_code == 400 and refused.context["settings"]["errors"] == {
        "composition": ["Select a valid choice. anything is not one of the available choices."]}
    dwarves.refresh_from_db()
    assert dwarves.revision == 2 and "composition" not in dwarves.document


GREAT_WEAPON = "8292-fa41-8aee-5573::2837-ec0d-956f-690a"


def test_an_error_inside_a_unit_is_shown_on_its_card(dwarves, api_alice, client):
    """The card's Melee Weapon group is a choice (radio buttons), so two weapons come from a document."""
    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json")
    dwarves.refresh_from_db()
    document = dwarves.document
    king = document["forces"][0]["selections"][0]
    king["selections"].append({"id": "gw", "entry": GREAT_WEAPON})
    created = api_alice.post("/api/v1/lists/", {"document": document}, format="json")
    assert created.status_code == 201
    pk = created.json()["id"]
    report = api_alice.get(f"/api/v1/lists/{pk}/report/").json()
    assert [(v["code"], v["message"], v["unit"]) for v in report["violations"]] == UNIT_ERRORS(king["id"]) + [
        (*under(225)[:2], None)]
    page = client.get(f"/lists/{pk}/edit/").content.decode()
    assert ('<span class="unit-problem problem-error">Melee Weapon: 2 taken in King; at most 1.'
            '</span>') in page


def UNIT_ERRORS(uid: str) -> list[tuple[str, str, str | None]]:
    """The army's limits (on no unit), and the King's two melee weapons, on the King (the data's own
    "Melee Weapon" group: at most 1)."""
    return [(code, message, None) for code, message, _s in ARMY] + [
        ("bs.constraint.max", "Melee Weapon: 2 taken in King; at most 1.", uid)]


def test_the_editor_duplicates_a_unit_of_a_tree_with_its_selections(dwarves, client):
    """The editor's "Duplicate" on a tree list's unit: BattleScribe's duplicate, the copy just after the
    original with every selection and number it holds, under new ids."""
    assert client.post(f"/lists/{dwarves.pk}/add-unit/", {"entry": KING, "revision": 1}).status_code == 302
    assert client.post(f"/lists/{dwarves.pk}/add-unit/", {"entry": THANE, "revision": 2}).status_code == 302
    dwarves.refresh_from_db()
    king, thane = dwarves.document["forces"][0]["selections"]
    shield = "e1b5-41cd-8f96-9563::ff97-a295-86c8-76d5"
    assert client.post(f"/lists/{dwarves.pk}/units/{king['id']}/",
                       {"revision": 3, "only": f"sel-{shield}", f"sel-{shield}": "on"}).status_code == 302
    page = client.get(f"/lists/{dwarves.pk}/edit/")
    assert f'action="/lists/{dwarves.pk}/units/{king["id"]}/duplicate/"'.encode() in page.content
    copied = client.post(f"/lists/{dwarves.pk}/units/{king['id']}/duplicate/", {"revision": 4})
    assert copied.status_code == 302
    dwarves.refresh_from_db()
    first, twin, third = dwarves.document["forces"][0]["selections"]
    assert (first["id"], third["id"]) == (king["id"], thane["id"]) and twin["id"] not in (king["id"], thane["id"])
    assert shape(twin) == shape(first) and shield in [c["entry"] for c in twin["selections"]]
    assert (dwarves.total_points, dwarves.revision) == (235 + 235 + 110, 5)   # each King with his Shield
    # A unit that is not there: refused, nothing changed.
    missing = client.post(f"/lists/{dwarves.pk}/units/nothing-1/duplicate/", {"revision": 5})
    assert missing.status_code == 400
    dwarves.refresh_from_db()
    assert (dwarves.revision, len(dwarves.document["forces"][0]["selections"])) == (5, 3)


def shape(selection: dict) -> tuple:
    """A selection's entries and numbers, its children's too, without its ids."""
    return (selection["entry"], selection["number"], [shape(c) for c in selection.get("selections", [])])


@pytest.mark.parametrize("change, path, message", [
    (lambda d: d["forces"][0]["selections"][0].update(entry="no-such-entry"), "forces",
     "selection selection-2: 'no-such-entry' is not selectable in 1332-e68c-203e-bad0"),
    (lambda d: d["forces"][0].update(catalogue="no-such-catalogue"), "forces",
     "force force-1: catalogue 'no-such-catalogue' is not in the book's data"),
], ids=["unknown entry", "unknown catalogue"])
def test_the_anonymous_validator_answers_a_tree_naming_what_its_data_lacks_with_a_400(dwarves, api_alice, client,
                                                                                      change, path, message):
    """Issue 37 item 6: it answered 500 (an HTML page) where create and PUT give 400."""
    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": KING}, format="json")
    document = api_alice.get(f"/api/v1/lists/{dwarves.pk}/").json()["document"]
    change(document)
    response = client.post("/api/v1/validate/", document, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    fields = response.json()["error"]["fields"]
    assert [f["path"] for f in fields] == [path]
    assert fields[0]["message"] == message


def test_a_tree_relabelled_as_another_book_is_refused_naming_both(dwarves, api_alice, client):
    """Issue 37 item 2: a tree's `book` is its forces' catalogue. A Dwarven Holds roster relabelled as another
    book of the same system was judged by the Dwarves' data yet stored, shown and accepted at events as the
    other army."""
    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-undyingDynasties.cat")
    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": KING}, format="json")
    document = api_alice.get(f"/api/v1/lists/{dwarves.pk}/").json()["document"]
    other = next(b for b in client.get("/api/v1/books/").json() if b["system"] == SYSTEM and b["id"] != BOOK)
    relabelled = {**document, "book": other["id"], "book_version": other["version"]}
    message = (f"the list names the book {other['id']} (Undying Dynasties 2024), but its forces are of "
               f"Dwarven Holds 2024")
    validated = client.post("/api/v1/validate/", relabelled, content_type="application/json")
    assert validated.status_code == 400
    assert validated.json()["error"]["fields"] == [{"path": "book", "message": message}]
    created = api_alice.post("/api/v1/lists/", {"name": "Not a Dwarf army", "document": relabelled}, format="json")
    assert created.status_code == 400
    assert created.json()["error"]["fields"] == [{"path": "document.book", "message": message}]
    assert ArmyList.objects.count() == 1   # the Dwarves' own list only


def test_check_lists_builds_only_the_books_its_lists_name(dwarves, api_alice, tmp_path, capsys, monkeypatch):
    """Issue 37 item 5: for a system kept only in the database (BattleScribe data's), check_lists built every
    imported book before reading a list (one Old World .ros: 10 s and 835 MB with ../shared's data imported;
    1.3 s and 144 MB now). Another army of the system stored beside it is never built."""
    from armylists.lists.library import catalogue

    import_battlescribe(T9A / "2nd-theNinthAge-FantasyBattles.gst", T9A / "2nd-undyingDynasties.cat")
    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": "King"}, format="json")
    (tmp_path / "hold.ros").write_bytes(api_alice.get(f"/api/v1/lists/{dwarves.pk}/export/?as=ros").content)
    catalogue._stored_books.clear()
    built = []
    from_database = catalogue._from_database
    monkeypatch.setattr(catalogue, "_from_database", lambda s, b, v: built.append(b) or from_database(s, b, v))
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", str(tmp_path / "hold.ros"), "--system", SYSTEM, "--points", "2000", "--jobs", "1")
    assert stop.value.code == 1 and "Core: 0 pts, 0% of the 2000 pts limit; at least 25%" in capsys.readouterr().out
    assert built == [BOOK]


def test_the_editor_says_a_tree_list_is_empty_only_while_it_is(dwarves, api_alice, client):
    """Issue 40: "Your list is empty" stood above a tree list of 15 units (its units are in its forces)."""
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    assert "Your list is empty." in page
    api_alice.post(f"/api/v1/lists/{dwarves.pk}/units/", {"entry": KING}, format="json")
    page = client.get(f"/lists/{dwarves.pk}/edit/").content.decode()
    assert "Your list is empty." not in page and "King" in page


def test_a_list_created_through_the_api_with_a_plain_document_is_a_tree(api_alice):
    """Issue 37 item 2: `POST /api/v1/lists/` with `units: []` stored a flattened list of the imported book, judged
    the old way ("Melee Weapon: 0 taken in Thane"), with no .ros export. Now it is the empty tree a new list of the
    book starts as; a plain document with units of the flattened book is the tree the same list is
    (lists/trees/unflatten.py), refused only naming a unit the data has no place for."""
    plain = {"format": "armylist/1", "name": "Hold", "player": "Ann", "system": SYSTEM, "book": BOOK,
             "book_version": VERSION, "points_limit": 2000, "units": []}
    created = api_alice.post("/api/v1/lists/", {"document": plain}, format="json")
    assert created.status_code == 201
    document = created.json()["document"]
    assert [f["catalogue"] for f in document["forces"]] == [CATALOGUE] and document["player"] == "Ann"
    added = api_alice.post(f"/api/v1/lists/{created.json()['id']}/units/", {"entry": THANE}, format="json")
    assert added.status_code == 201, added.content
    assert api_alice.get(f"/api/v1/lists/{created.json()['id']}/export/?as=ros").status_code == 200
    with_units = {**plain, "units": [{"id": "t", "entry": "thane", "options": {"hand-weapon": 1}}]}
    tree = api_alice.post("/api/v1/lists/", {"document": with_units}, format="json")
    assert tree.status_code == 201, tree.content
    [force] = tree.json()["document"]["forces"]
    assert tree.json()["document"]["units"] == [] and [shape(s) for s in force["selections"]] == [
        (THANE, 1, [("d231-e788-aaed-7a2a::f49b-1010-24f1-f23b", 1, []),      # its Plate Armour, as the data adds it
                    ("e245-54b2-fad2-e820::d5a4-4049-60de-5914", 1, [])])]    # the Hand Weapon the list takes
    assert tree.json()["total_points"] == 110
    unknown = {**plain, "units": [{"id": "t", "entry": "thane"}, {"id": "x", "entry": "no-such-entry"}]}
    refused = api_alice.post("/api/v1/lists/", {"document": unknown}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"] == [{"path": "document.units[1].entry", "message": (
        "no-such-entry (unit x) cannot be placed in the BattleScribe data of Dwarven Holds 2024, whose lists are "
        "roster trees (`forces`, docs/list-format.md): send its forces, or the list without it")}]
    assert ArmyList.objects.count() == 2


def test_the_validator_the_api_import_and_clone_make_a_flattened_document_its_tree(api_alice, alice, client):
    """Every door judges or stores a plain document of an imported BattleScribe book as its tree (issue 37
    item 2): the anonymous validator (both its fast path and DRF's), `POST /api/v1/lists/import/` with a JSON
    body, and the editor's copy of a list stored flattened."""
    from armylists.lists.library.catalogue import get_book, validate_roster

    plain = {"format": "armylist/1", "name": "Hold", "system": SYSTEM, "book": BOOK, "book_version": VERSION,
             "points_limit": 2000, "units": [{"id": "t", "entry": "thane", "options": {"hand-weapon": 1}}]}
    judged = client.post("/api/v1/validate/", plain, content_type="application/json")
    assert judged.status_code == 200
    assert (judged.json()["total_points"], [u["entry"] for u in judged.json()["units"]]) == (110, [THANE])
    slow = client.post("/api/v1/validate/", plain, content_type="application/json", HTTP_ACCEPT="application/json; q=1")
    assert slow.status_code == 200 and slow.json()["total_points"] == 110
    imported_list = api_alice.post("/api/v1/lists/import/", plain, format="json")
    assert imported_list.status_code == 201, imported_list.content
    assert [s["entry"] for s in imported_list.json()["document"]["forces"][0]["selections"]] == [THANE]
    book = get_book(SYSTEM, BOOK, VERSION)
    roster = parse_roster(plain)
    stored = ArmyList(owner=alice, name="Old hold")
    stored.set_document(roster, validate_roster(book, roster))   # as it was saved before roster trees
    stored.save()
    client.force_login(alice)
    assert client.post(f"/lists/{stored.pk}/clone/").status_code == 302
    copy = ArmyList.objects.get(name__endswith="(copy)")
    assert [s["entry"] for s in copy.document["forces"][0]["selections"]] == [THANE] and copy.total_points == 110
