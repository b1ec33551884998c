"""Fixtures for the site's pages: logged-in clients, an empty list, a shared list, and a helper that
posts an edit with the list's current revision."""
from __future__ import annotations

import pytest

from armylists.lists.library.catalogue import disk_library, report_for
from armylists.models import ArmyList
from armylists.rules import Roster, parse_roster

SYSTEM, BOOK, VERSION = "t9a-0.11", "empire-of-sonnstahl", "0.11.1"


@pytest.fixture
def empire():
    return disk_library().book(SYSTEM, BOOK, VERSION)


@pytest.fixture
def charlie(django_user_model):
    return django_user_model.objects.create_user("charlie", "charlie@example.com", "charlie-password-1")


@pytest.fixture
def client_bob(client, bob):
    client.force_login(bob)
    return client


def make_list(owner, document: dict) -> ArmyList:
    roster = parse_roster(document)
    army_list = ArmyList(owner=owner)
    army_list.set_document(roster, report_for(roster))
    army_list.save()
    return army_list


@pytest.fixture
def empty_list(alice):
    return make_list(alice, {"format": "armylist/1", "name": "Fresh", "system": SYSTEM, "book": BOOK,
                             "book_version": VERSION, "points_limit": 2400, "units": []})


@pytest.fixture
def shared_list(alice_list):
    alice_list.share()
    return alice_list


def roster_of(army_list: ArmyList) -> Roster:
    army_list.refresh_from_db()
    return parse_roster(army_list.document)


def unit_of(army_list: ArmyList, unit_id: str) -> dict:
    army_list.refresh_from_db()
    return next(u for u in army_list.document["units"] if u["id"] == unit_id)


@pytest.fixture
def edit(client_alice):
    """edit(army_list, url_name, data, *url_args, htmx=False) -> response, posting the current revision."""
    from django.urls import reverse

    def post(army_list: ArmyList, name: str, data: dict | None = None, *args, htmx: bool = False, revision=None):
        army_list.refresh_from_db()
        body = {"revision": army_list.revision if revision is None else revision, **(data or {})}
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        return client_alice.post(reverse(name, args=[army_list.pk, *args]), body, **headers)
    return post


def unit_form_data(army_list: ArmyList, unit_id: str, **changes) -> dict:
    """The unit form as the browser sends it, from the saved unit, with `changes` applied on top
    (option changes as `opt-<id>` / `grp-<group>` keys; a value of None leaves a field out)."""
    from armylists.lists.offers.entries import one_of_groups

    unit = unit_of(army_list, unit_id)
    roster = parse_roster(army_list.document)
    book = disk_library().book(roster.system, roster.book, roster.book_version)
    entry = book.entries[unit["entry"]]
    data: dict = {"label": unit.get("label", "")}
    if entry.size_max != entry.size_min:
        data["size"] = unit.get("size", entry.size_min)
    groups = one_of_groups(entry)
    in_group = {oid: gid for gid, ids in groups.items() for oid in ids}
    for oid, count in unit.get("options", {}).items():
        if oid in in_group:
            data[f"grp-{in_group[oid]}"] = oid
        elif oid in entry.options:
            data[f"opt-{oid}"] = count
    if unit.get("mount"):
        data["mount"] = unit["mount"]
    for part in unit.get("command", []):
        data[f"cmd-{part}"] = "1"
    if unit.get("veteran_standard"):
        data["veteran_standard"] = "1"
    if unit.get("general"):
        data["general"] = "1"
    if unit.get("path"):
        data["path"] = unit["path"]
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}
