"""One system for the same data whichever door imported it (issue 38 item 5): import_battlescribe names a
game we play by our name ("Mordheim (imported data, BSData)"), a game data update by the data's
("Mordheim (BSData)"). The same .gst through both doors was two system rows (r16 and r16@2026-03-04), or
the command refused after an update ("already loaded with other content"); now the first one stays."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.models import RulesFile
from tests.gamedata.conftest import MORDHEIM

pytestmark = pytest.mark.django_db


def command() -> str:
    out = io.StringIO()
    call_command("import_battlescribe", str(MORDHEIM / "Mordheim.gst"), str(MORDHEIM / "Reiklanders.cat"), stdout=out)
    return out.getvalue()


def systems() -> list[tuple[str, str, str]]:
    return list(RulesFile.objects.filter(kind="system", system="bs-mordheim").values_list("slug", "version", "name"))


def test_the_command_then_an_update_keep_one_system(mordheim):
    command()
    version = update(add_source("BSData/mordheim"))
    assert (version.status, version.systems) == ("ok", ["bs-mordheim r16"]), version.message
    assert version.message == "1 books; 0 files new, 2 unchanged."
    assert systems() == [("bs-mordheim", "r16", "Mordheim (imported data, BSData)")]


def test_an_update_then_the_command_keep_one_system(mordheim):
    assert update(add_source("BSData/mordheim")).status == "ok"
    assert "0 new, 2 unchanged" in command()
    assert systems() == [("bs-mordheim", "r16", "Mordheim (BSData)")]


def test_a_system_with_other_content_than_its_name_is_still_another_version(mordheim):
    command()
    row = RulesFile.objects.get(kind="system", system="bs-mordheim")
    row.data = {**row.data, "categories": row.data["categories"][:-1]}
    row.content_hash = "changed"
    row.save()
    version = update(add_source("BSData/mordheim"))
    assert version.systems == ["bs-mordheim r16@2026-03-04"]
