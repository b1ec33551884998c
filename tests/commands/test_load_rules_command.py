"""`manage.py load_rules`: all or nothing, idempotent, and a version's content never changes."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.models import RulesFile


pytestmark = pytest.mark.django_db


def load(tree: Path, capsys) -> str:
    call_command("load_rules", "--path", str(tree))
    return capsys.readouterr().out


def stored() -> list[tuple[str, str, str, str]]:
    # Sorted here, not by the database: two files may share kind and slug (the 'common' items of two systems),
    # and PostgreSQL's collation need not order their versions as Python does.
    return sorted(RulesFile.objects.values_list("kind", "slug", "version", "content_hash"))


def summary(library, new: int, unchanged: int) -> str:
    return f"{new} new, {unchanged} unchanged; {len(library.books)} books in {len(library.systems)} systems."


def test_it_loads_every_file_once(tree, capsys, library):
    out = load(tree, capsys)
    assert out.splitlines()[-1] == summary(library, len(library.files), 0)
    assert [(k, s, v) for k, s, v, _ in stored()] == sorted((f.kind, f.id, f.version) for f in library.files)
    assert ("book", "ogre-khans", "0.11.0") in [(k, s, v) for k, s, v, _ in stored()]


def test_loading_again_changes_nothing(tree, capsys, library):
    load(tree, capsys)
    before = stored()
    assert load(tree, capsys).splitlines()[-1] == summary(library, 0, len(library.files))
    assert stored() == before


def test_changed_content_under_the_same_version_is_refused_and_nothing_changes(tree, capsys):
    load(tree, capsys)
    before = stored()
    path = tree / "t9a-0.11" / "books" / "ogre-khans.yaml"
    data = yaml.safe_load(path.read_text())
    data["entries"][0]["points"] += 5
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(CommandError) as caught:
        load(tree, capsys)
    assert str(caught.value) == ("Nothing loaded.\nrules_data/t9a-0.11/books/ogre-khans.yaml: version 0.11.0 of book "
                                 "'ogre-khans' is already loaded with other content; give the changed file a new version")
    assert stored() == before


def test_a_new_version_is_loaded_beside_the_old_one(tree, capsys):
    load(tree, capsys)
    path = tree / "t9a-0.11" / "books" / "ogre-khans.yaml"
    data = yaml.safe_load(path.read_text())
    data["entries"][0]["points"] += 5
    data["version"] = "0.11.1"
    path.write_text(yaml.safe_dump(data))
    out = load(tree, capsys)
    assert "loaded book t9a-0.11/ogre-khans 0.11.1" in out
    assert RulesFile.objects.filter(slug="ogre-khans").count() == 2


def test_a_bad_file_stops_the_load_and_leaves_what_was_loaded(tree, capsys):
    load(tree, capsys)
    before = stored()
    (tree / "t9a-0.11" / "books" / "broken.yaml").write_text("kind: book\nid: broken\n")
    new_version = tree / "t9a-0.11" / "books" / "ogre-khans.yaml"
    data = yaml.safe_load(new_version.read_text())
    data["version"] = "0.11.5"
    new_version.write_text(yaml.safe_dump(data))
    with pytest.raises(CommandError) as caught:
        load(tree, capsys)
    assert str(caught.value) == "Nothing loaded. rules_data/t9a-0.11/books/broken.yaml: (top level): 'name' is a required property"
    assert stored() == before


def test_check_writes_nothing(tree, capsys, library):
    call_command("load_rules", "--path", str(tree), "--check")
    assert capsys.readouterr().out.strip() == f"{len(library.files)} files are good ({len(library.books)} books); nothing written."
    assert stored() == []


def test_a_stored_old_version_still_validates_lists(tree, capsys, settings):
    """A list pinned to a version no longer on disk is checked against the stored copy."""
    from armylists.lists.library import catalogue
    from armylists.rules import parse_roster

    path = tree / "t9a-0.11" / "books" / "ogre-khans.yaml"
    data = yaml.safe_load(path.read_text())
    data["version"] = "0.10.0"
    data["entries"][0]["points"] = 1
    path.write_text(yaml.safe_dump(data))
    load(tree, capsys)
    roster = parse_roster({"format": "armylist/1", "system": "t9a-0.11", "book": "ogre-khans", "book_version": "0.10.0",
                           "points_limit": 2400, "units": [{"entry": data["entries"][0]["id"]}]})
    assert catalogue.report_for(roster).total_points == 1
