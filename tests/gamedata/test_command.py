"""manage.py game_data: add (one source, or the recommended ones), update, hold, list; exit 2 on a refusal."""
from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from armylists.models import GameDataSource, GameDataVersion

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = StringIO()
    call_command("game_data", *args, stdout=out)
    return out.getvalue()


def refused(*args) -> tuple[int, str]:
    with pytest.raises(CommandError) as error:
        run(*args)
    return error.value.returncode, str(error.value)


def test_add_imports_the_latest_release_and_list_shows_it(mordheim):
    assert run("add", "BSData/mordheim", "--maps-to", "mordheim") == (
        "added BSData/mordheim (kind guessed from the data, maps to mordheim)\n"
        "BSData/mordheim: Imported release v1.0: 1 books; 2 files new, 0 unchanged.\n")
    source = GameDataSource.objects.get()
    lines = run("list").splitlines()
    assert lines[0] == (f"BSData/mordheim [battlescribe] -> mordheim: current v1.0; last checked "
                        f"{source.last_checked:%Y-%m-%d %H:%M} UTC: Imported release v1.0: 1 books; 2 files new, 0 unchanged.")
    assert lines[1:] == ["    release v1.0 of 2026-03-04: 1 books"]


def test_update_hold_and_release(mordheim):
    run("add", "BSData/mordheim", "--kind", "battlescribe")
    mordheim.release = "v1.1"
    assert run("update", "BSData/mordheim") == \
        "BSData/mordheim: Imported release v1.1: 1 books; 0 files new, 2 unchanged.\n"
    assert run("update") == "BSData/mordheim: Already current: release v1.1.\n"
    assert run("hold", "BSData/mordheim", "v1.0") == "BSData/mordheim: held at release v1.0\n"
    assert "held at v1.0" in run("list").splitlines()[0]
    assert run("hold", "BSData/mordheim", "--release") == "BSData/mordheim: new lists get the newest version\n"
    assert refused("hold", "BSData/mordheim", "v9") == (2, "BSData/mordheim has no imported version v9")


def test_a_failed_update_exits_1_naming_it(mordheim):
    mordheim.archive_status = 500
    with pytest.raises(CommandError) as error:
        run("add", "BSData/mordheim")
    assert (error.value.returncode, str(error.value)) == (1, "1 of 1 updates failed: BSData/mordheim")
    assert GameDataVersion.objects.get().status == "failed"


def test_add_recommended_adds_the_five_sources_with_their_kinds_and_systems():
    assert run("add", "--recommended", "--no-update").count("added ") == 5
    assert list(GameDataSource.objects.order_by("id").values_list("repository", "kind", "maps_to")) == [
        ("vflam/nr-t9a", "nr-t9a", "t9a-2"), ("vflam/Warhammer-The-Old-World", "battlescribe", "the-old-world"),
        ("BSData/mordheim", "battlescribe", "mordheim"), ("BSData/The-9th-Age", "battlescribe", "t9a-2"),
        ("nthiebes/old-world-builder", "owb", "the-old-world")]
    assert run("add", "--recommended", "--no-update").count("is already a source") == 5


@pytest.mark.parametrize("args, message", [
    (("add", "ftp://example.com/x.zip"), "'ftp://example.com/x.zip' is neither a GitHub repository (owner/name) "
                                         "nor an https:// address"),
    (("add", "https://example.com/x.zip?token=s3cret"), "https://example.com/x.zip: the host example.com is not on "
     "the allow-list (GAME_DATA_HOSTS: api.github.com, codeload.github.com, github.com)"),
    (("add", "BSData/mordheim", "--kind", "cards"), "'cards' is not a kind of game data: battlescribe, nr-t9a, owb"),
    (("add", "BSData/mordheim", "--maps-to", "chess"), "'chess' is not a system of this site: mordheim, t9a-0.11, t9a-2, "
                                                       "the-old-world"),
    (("add",), "Name a source (OWNER/NAME or an https URL), or use --recommended"),
    (("add", "--recommended", "BSData/mordheim"), "--recommended adds the recommended sources; name no source, "
                                                  "kind or system with it"),
    (("update", "BSData/nothing"), "BSData/nothing is not a source; add it first (manage.py game_data add BSData/nothing)"),
])
def test_a_refusal_exits_2_with_why(args, message):
    assert refused(*args) == (2, message)
    assert GameDataSource.objects.count() == 0


def test_a_source_added_twice_is_refused_the_second_time():
    run("add", "https://github.com/BSData/mordheim", "--no-update")
    assert refused("add", "BSData/mordheim") == (2, "BSData/mordheim is already a source")


def test_an_update_while_another_runs_exits_2(mordheim):
    run("add", "BSData/mordheim", "--no-update")
    from django.utils import timezone
    GameDataSource.objects.update(busy_since=timezone.now())
    assert refused("update", "BSData/mordheim") == \
        (2, "An update of BSData/mordheim is already running; try again when it has finished.")
