"""A BSData Mordheim warband (a roster tree of Reiklanders.cat) records battles like one of our warbands
(issue 41 item 4): the tree is read as our Reikland Mercenaries by rules_data/mordheim/campaign/bsdata.yaml
(each root entry id as our entry), its warriors' starting experience is the tree's own Experience selection
(the Mercenary Captain's 20, the Champion's 8), experience since is kept per selection id in the campaign
state, and a dead hero's selection is removed from the tree by the tree's own edit.

Rules (rules_data/mordheim/campaign/tables.yaml, mordheim-campaign.md): +1 XP for surviving, +1 the winning
leader, +1 each enemy a hero put out of action (section 1); heroes' advances at 2, 4 ... 20, 24 (p.121),
henchmen's at 2, 5, 9, 14; D66 11-15 Dead (section 3); exploration one die per hero standing and one for
the winner, 12-17 three shards, 6-11 two (section 4); three shards sold by a warband of 4-6 warriors 70 gc
(the price grid); the rating 5 a warrior plus his experience (a henchman group's per model).

Real data: ../shared/external/battlescribe/mordheim (BSData/mordheim b18aa66)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from armylists.lists.saved.stored import load, save_edit
from armylists.models import ArmyList, RulesFile
from armylists.rules import roster_to_dict
from armylists.rules.native.mordheim_campaign.trees import project, unmapped_reason
from tests.battlescribe.imported import import_battlescribe

MORDHEIM = Path(__file__).resolve().parents[3] / "shared" / "external" / "battlescribe" / "mordheim"
needs_data = pytest.mark.skipif(not MORDHEIM.is_dir(), reason="../shared/external/battlescribe/mordheim is absent")

# Reiklanders.cat's root entries (the ids bsdata.yaml maps)
CAPTAIN, CHAMPION = "83acbe09-ec66-c45c-0f5b-1a9e0017016e", "83ab8692-01da-65c5-af52-a55d4800f012"
YOUNGBLOOD, WARRIORS = "93700e68-f80c-ad1c-b5cd-06fd3c7e7537", "889151de-4826-5f00-5dbb-fcf546ebedbb"
GRADE = "dcca-5cc8-9459-d4f4"  # data.cat's Grade, a root upgrade the warband comes with: no warrior


def post(client, url, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def roots(document: dict) -> dict[str, str]:
    """entry id -> selection id of the tree's root selections."""
    return {s["entry"]: s["id"] for f in document["forces"] for s in f["selections"]}


@pytest.fixture
def tree_warband(client_alice, alice):
    """A Reiklanders tree of 500 gc: the Captain it comes with (Experience 20), a Champion (8), a Youngblood,
    three Warriors: 60 + 35 + 15 + 3 x 25 = 185 gc, 315 left."""
    import_battlescribe(*(MORDHEIM / n for n in ("Mordheim.gst", "Reiklanders.cat", "data.cat", "Characters.cat")))
    book = RulesFile.objects.filter(kind="book").first()
    assert client_alice.post("/lists/new/", {"name": "Reik", "book": f"{book.system}/{book.slug}/{book.version}",
                                             "points_limit": "500"}).status_code == 302
    army_list = ArmyList.objects.get(owner=alice)
    loaded = load(army_list)
    roster = loaded.roster
    for name, size in (("Champion", None), ("Youngblood", None), ("Warriors", 3)):
        roster, _ = loaded.kind.add_unit(loaded.book, roster, name, size=size)
    saved = save_edit(loaded, roster, army_list.revision)
    assert saved is not None and saved[1].total_points == 185
    army_list.refresh_from_db()
    return army_list


@needs_data
@pytest.mark.django_db
def test_a_bsdata_warband_records_two_battles_a_dead_hero_removed_and_undone(api_alice, tree_warband):
    ids = roots(tree_warband.document)
    captain, champion, youngblood, warriors = (ids[e] for e in (CAPTAIN, CHAMPION, YOUNGBLOOD, WARRIORS))
    url = f"/api/v1/lists/{tree_warband.pk}/battles/"

    first = post(api_alice, url, {
        "result": "won",
        "models": {captain: {"enemies_out_of_action": 1}, champion: {}, youngblood: {}, warriors: {}},
        "rolls": {"exploration": [1, 2, 4, 6]}, "sell_shards": 3, "buy": [{"item": "sword", "price": 10}]})
    assert first.status_code == 201, first.content
    body = first.json()
    # captain: survived, winning leader, one put out of action; the rest survived
    assert body["experience"] == {captain: 3, champion: 1, youngblood: 1, warriors: 1}
    assert "Exploration: 4 dice, 1 2 4 6 = 13: 3 shards." in body["log"]
    assert "Sold 3 shards (6 warriors): 70 gc." in body["log"]
    assert "Bought sword into the stash: 10 gc." in body["log"]
    # 315 left at the founding + 70 - 10; rating 6 warriors x 5 + 23 + 9 + 1 + 3 x 1
    assert body["campaign"] == {"rating": 30 + 23 + 9 + 1 + 3, "battles": 1, "won": 1, "treasury": 375,
                                "wyrdstone": 0, "stash": {"sword": 1}}
    tree_warband.refresh_from_db()
    state = tree_warband.document["campaign"]
    assert {uid: state["warriors"][uid]["experience"] for uid in (captain, champion, youngblood, warriors)} == \
        {captain: 23, champion: 9, youngblood: 1, warriors: 1}
    assert state["founding_gold"] == 315 and "forces" in tree_warband.document  # still a tree

    second = post(api_alice, url, {
        "result": "lost",
        "models": {captain: {}, champion: {"out_of_action": True}, youngblood: {}, warriors: {}},
        "rolls": {f"injury:{champion}": [11], f"advance:{captain}": [7], f"advance:{youngblood}": [7],
                  f"advance:{warriors}": [8], "exploration": [5, 5]},
        "choices": {youngblood: {"characteristic": "BS"}}})
    assert second.status_code == 201, second.content
    body = second.json()
    assert body["experience"] == {captain: 1, youngblood: 1, warriors: 1}
    assert f"Champion ({champion}) out of action: D66 11, Dead: dead, his equipment lost." in body["log"]
    assert f"Mercenary Captain ({captain}): advance at 24 XP, 2D6 7: +1 WS." in body["log"]
    assert f"Youngblood ({youngblood}): advance at 2 XP, 2D6 7: +1 BS." in body["log"]
    assert f"Warriors ({warriors}): advance at 2 XP, 2D6 8: +1 A for the whole group." in body["log"]
    assert "Exploration: 2 dice, 5 5 = 10: 2 shards; Overturned cart (fives x2)." in body["log"]
    assert (body["campaign"]["treasury"], body["campaign"]["wyrdstone"], body["campaign"]["battles"]) == (375, 2, 2)
    assert body["campaign"]["rating"] == 5 * 5 + 24 + 2 + 3 * 2
    tree_warband.refresh_from_db()
    assert champion not in roots(tree_warband.document).values()  # the tree's selection removed
    state = tree_warband.document["campaign"]
    assert [(f["unit"], f["entry"], f["battle"]) for f in state["fallen"]] == [(champion, "champion", 2)]
    assert champion not in state["warriors"]
    assert [(a["gain"], a["at"]) for a in state["warriors"][captain]["advances"]] == [("WS", 24)]
    assert [(a["gain"], a["at"]) for a in state["warriors"][warriors]["advances"]] == [("A", 2)]

    undone = post(api_alice, f"{url}undo/")
    assert undone.status_code == 201, undone.content
    tree_warband.refresh_from_db()
    assert roots(tree_warband.document)[CHAMPION] == champion
    state = tree_warband.document["campaign"]
    assert len(state["battles"]) == 1 and state["warriors"][champion]["experience"] == 9
    assert undone.json()["campaign"]["treasury"] == 375 and undone.json()["campaign"]["wyrdstone"] == 0


@needs_data
@pytest.mark.django_db
def test_a_selection_the_campaign_does_not_read_is_a_400(api_alice, tree_warband):
    url = f"/api/v1/lists/{tree_warband.pk}/battles/"
    unknown = post(api_alice, url, {"result": "won", "models": {"selection-999": {}}})
    assert unknown.status_code == 400
    assert "selection-999" in json.dumps(unknown.json()) and "is no unit of this warband" in json.dumps(unknown.json())
    grade = roots(tree_warband.document)[GRADE]
    refused = post(api_alice, url, {"result": "won", "models": {grade: {}}})
    assert refused.status_code == 400
    assert f"Grade ({grade}) is no warrior the campaign reads" in json.dumps(refused.json())
    onto = post(api_alice, url, {"result": "won", "models": {}, "buy": [
        {"item": "sword", "unit": roots(tree_warband.document)[CAPTAIN], "price": 10}]})
    assert onto.status_code == 400 and "for a BSData warband an item is bought into the stash (no unit): equip the warrior with it in the editor" in json.dumps(onto.json())
    tree_warband.refresh_from_db()
    assert tree_warband.revision == 2 and "campaign" not in tree_warband.document  # nothing saved


@needs_data
@pytest.mark.django_db
def test_the_campaign_page_says_what_a_bsdata_warband_is_read_as_and_lacks(client_alice, tree_warband):
    page = client_alice.get(f"/lists/{tree_warband.pk}/campaign/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Reiklanders (1a) (BSData), read as our Reikland Mercenaries" in text
    assert "Not warriors of the campaign: Grade (" in text
    assert "Items are bought into the stash only" in text
    assert "Mercenary Captain · " in text  # the warriors offered by the tree's selection ids


def test_a_tree_of_a_catalogue_not_mapped_is_no_warband_and_says_why():
    document = {"forces": [{"id": "force-1", "entry": "x", "catalogue": "not-a-mapped-catalogue", "selections": []}]}
    assert project(document) is None
    assert "Reiklanders (1a)" in unmapped_reason(document)
    assert "which of its warriors are heroes, their skill lists and race are not known here" in unmapped_reason(document)


@needs_data
@pytest.mark.django_db
def test_a_henchman_lost_and_the_lads_got_talent_change_the_tree_by_its_own_edits(api_alice, tree_warband):
    """Three Warriors: one out of action, D6 1 dead (henchmen D6 1-2, section 3): the group's model number
    2; survived +1 and +1 scenario = 2 XP, a henchmen's advance (2D6 10: the lad's got talent): one Warrior is
    split off as a copy of the group of one model, a hero (2D6 7: +1 WS), the rest re-roll (10 again, then 5:
    +1 S). The lad's experience and record are kept under his new selection's id."""
    warriors = roots(tree_warband.document)[WARRIORS]
    response = post(api_alice, f"/api/v1/lists/{tree_warband.pk}/battles/", {
        "result": "won", "models": {warriors: {"out_of_action": True, "models_out_of_action": 1,
                                               "scenario_experience": 1}},
        "rolls": {f"injury:{warriors}": [1], f"advance:{warriors}": [10, 10, 5], f"advance:{warriors}-lad1": [7],
                  "exploration": [3]}})
    assert response.status_code == 201, response.content
    tree_warband.refresh_from_db()
    groups = [s for f in tree_warband.document["forces"] for s in f["selections"] if s["entry"] == WARRIORS]
    assert [s["id"] for s in groups][0] == warriors and len(groups) == 2
    lad = groups[1]["id"]
    assert [[c["number"] for c in s["selections"] if c["entry"] == "dcf4-03d3-8222-1f12"] for s in groups] == [[1], [1]]
    body = response.json()
    assert body["experience"] == {warriors: 2}
    assert f"Warriors ({warriors}): advance at 2 XP, 2D6 10: the lad's got talent! {lad} becomes a hero " \
           f"(combat, shooting)." in body["log"]
    assert f"Warriors ({lad}): advance at 2 XP, 2D6 7: +1 WS." in body["log"]
    assert f"Warriors ({warriors}): advance at 2 XP, 2D6 5: +1 S for the whole group." in body["log"]
    state = tree_warband.document["campaign"]
    assert state["warriors"][lad]["hero"] is True and state["warriors"][lad]["experience"] == 2
    assert f"{warriors}-lad1" not in state["warriors"] and state["warriors"][warriors]["experience"] == 2
    assert [(a["gain"], a.get("talent")) for a in state["warriors"][lad]["advances"]] == [("WS", True)]


@needs_data
@pytest.mark.django_db
def test_the_campaign_page_records_a_bsdata_warbands_battle_and_undoes_it(client_alice, tree_warband):
    """The page's form (all at once, without JavaScript): the Champion out of action, D66 13 dead (11-15);
    the others survive (+1, the Captain +1 more as the winning leader); three heroes' dice and the winner's."""
    ids = roots(tree_warband.document)
    champion = ids[CHAMPION]
    data = {"revision": tree_warband.revision, "result": "won", "exploration_dice": "1 2 3",
            f"{champion}-ooa": "on", f"{champion}-injury": "13"}
    for entry in (CAPTAIN, CHAMPION, YOUNGBLOOD, WARRIORS):
        data[f"{ids[entry]}-fought"] = "on"
    response = client_alice.post(f"/lists/{tree_warband.pk}/campaign/", data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    tree_warband.refresh_from_db()
    assert CHAMPION not in roots(tree_warband.document)
    battle = tree_warband.document["campaign"]["battles"][0]
    assert battle["experience"] == {ids[CAPTAIN]: 2, ids[YOUNGBLOOD]: 1, ids[WARRIORS]: 1}
    page = client_alice.get(f"/lists/{tree_warband.pk}/campaign/").content.decode()
    assert f"Champion ({champion}) out of action: D66 13, Dead: dead, his equipment lost." in page
    assert 'id="campaign-treasury">315 gc<' in page  # 1 2 3 = 6: 2 shards found, none sold
    undo = client_alice.post(f"/lists/{tree_warband.pk}/campaign/undo/", {"revision": tree_warband.revision})
    assert undo.status_code == 302
    tree_warband.refresh_from_db()
    assert roots(tree_warband.document)[CHAMPION] == champion and "campaign" not in tree_warband.document


@needs_data
@pytest.mark.django_db
def test_the_sheet_of_a_bsdata_warband_prints_its_campaign(api_alice, client_alice, tree_warband):
    """The warband sheet of the tree after a battle (exports/warband.py: tree_campaign): the header's
    treasury, shards, battles and stash, and the Captain's experience since the founding (20 + 3)."""
    from tests.exports.test_pdf import pages
    ids = roots(tree_warband.document)
    captain, champion, youngblood, warriors = (ids[e] for e in (CAPTAIN, CHAMPION, YOUNGBLOOD, WARRIORS))
    before = pages(client_alice.get(f"/lists/{tree_warband.pk}/download/pdf/?variant=warband").content)
    assert "Treasury" not in before[0]  # not in a campaign yet: nothing to say
    battle = post(api_alice, f"/api/v1/lists/{tree_warband.pk}/battles/", {
        "result": "won",
        "models": {captain: {"enemies_out_of_action": 1}, champion: {}, youngblood: {}, warriors: {}},
        "rolls": {"exploration": [1, 2, 4, 6]}, "sell_shards": 3, "buy": [{"item": "sword", "price": 10}]})
    assert battle.status_code == 201, battle.content
    text = pages(client_alice.get(f"/lists/{tree_warband.pk}/download/pdf/?variant=warband").content)
    assert "Treasury Wyrdstone Battles" in text[0] and "375 gc 0 1 (1 won)" in text[0]
    assert "Stash sword" in text[0]
    assert "Experience 23" in " ".join(text)


@needs_data
@pytest.mark.django_db
def test_a_bsdata_warband_fights_one_of_ours_in_a_campaign_of_two_players(tree_warband, alice, bob, library):
    """Issue 41 items 4 and 5 together: Alice's BSData Reiklanders tree and Bob's Reikland warband of our book
    in one campaign; Alice enters a win, Bob confirms his loss, and both warbands are recorded once: the
    tree's Captain 20 + 3 (survived, the winning leader, one put out of action), the standings' battles."""
    from armylists.campaigns import league
    from armylists.rules import parse_roster, validate
    from tests.campaigns.conftest import WARBAND
    roster = parse_roster(dict(WARBAND, name="Marienburgers"))
    theirs = ArmyList(owner=bob)
    theirs.set_document(roster, validate(library.book("mordheim", "reikland-mercenaries", "1999.2"), roster))
    theirs.save()
    campaign = league.create_campaign(alice, "Two kinds")
    mine = league.enter_warband(campaign, alice, tree_warband)
    other = league.enter_warband(campaign, bob, theirs)
    ids = roots(tree_warband.document)
    captain, champion, youngblood, warriors = (ids[e] for e in (CAPTAIN, CHAMPION, YOUNGBLOOD, WARRIORS))
    battle = league.enter_battle(campaign, alice, mine, other, {
        "result": "won", "models": {captain: {"enemies_out_of_action": 1}, champion: {}, youngblood: {}, warriors: {}},
        "rolls": {"exploration": [1, 2, 4, 6]}})
    units = ("captain", "champion", "youngblood", "warriors", "marksmen", "youngblood-2")
    league.confirm_battle(battle, bob, {"result": "lost", "models": {uid: {} for uid in units},
                                        "rolls": {"exploration": [1, 1, 2, 3]}})
    tree_warband.refresh_from_db()
    assert tree_warband.document["campaign"]["warriors"][captain]["experience"] == 23
    assert "forces" in tree_warband.document  # still a tree
    rows = league.standings(campaign)
    assert [(r.player, r.warband, r.battles, r.won, r.lost) for r in rows] == [
        ("alice", "Reik", 1, 1, 0), ("bob", "Marienburgers", 1, 0, 1)]
