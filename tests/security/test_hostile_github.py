"""What GitHub's API answers is outside input too (issue 25, item 7): a release's tag, a commit's sha and a
date of any length or shape, JSON nested thousands deep, NaN, NUL or a lone surrogate, from the fake GitHub
on loopback. Each update ends with the source released and a message saying why it failed, never an
exception, on SQLite and PostgreSQL; nothing is stored but the failure."""
from __future__ import annotations

import pytest

from armylists.gamedata.sources import add_source
from armylists.gamedata.updating import update
from armylists.models import GameDataSource, GameDataVersion, RulesFile
from tests.battlescribe.battlescribe_samples import GST, catalogue
from tests.fake_github import Repo, zip_of

from .hang_guard import hang_guard

pytestmark = pytest.mark.django_db
ARCHIVE = zip_of({"test.gst": GST.encode(), "knights.cat": catalogue().encode()}, "BSData-test-0123456")

CASES = {
    "a tag of 5,000 characters": (dict(release="v" * 5000), "GitHub's answer has a tag_name of 5000 characters; at most 200"),
    "a tag with NUL": (dict(release="v1\x00"), "GitHub's answer is not JSON (contains a NUL character (at position 2))"),
    "a tag with a lone surrogate": (dict(release="v\ud800"), "GitHub's answer is not JSON (contains a lone UTF-16 "
                                                            "surrogate \\ud800 (at position 1), which is not text)"),
    # Issue 43: a tag with CR/LF was stored and printed raw (a forged line in the log and the command's output)
    "a tag with CR/LF": (dict(release="v1\r\nINFO game data: all sources current"),
                         "GitHub's answer has a tag_name with a control character (v1\\r\\nINFO game data: all "
                         "sources current); refused"),
    "a tag with a tab": (dict(release="v1\tx"), "GitHub's answer has a tag_name with a control character (v1\\tx)"
                                                "; refused"),
    "a sha with LF": (dict(release=None, sha="a" * 39 + "\n"), "GitHub's answer has a sha with a control character ("
                                                              + "a" * 39 + "\\n); refused"),
    "a sha of 5,000 characters": (dict(release=None, sha="a" * 5000), "GitHub's answer has a sha of 5000 characters; at most 200"),
    "JSON nested 100,000 deep": (dict(release_body=b"[" * 100_000 + b"]" * 100_000),
                                 "GitHub's answer is not JSON (is nested more than 32 levels deep)"),
    "NaN": (dict(release_body=b'{"tag_name": NaN}'), "GitHub's answer is not JSON (contains NaN, which is not a JSON number)"),
    "not UTF-8": (dict(release_body=b'{"tag_name": "\xff"}'), "GitHub's answer is not JSON ("),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_hostile_answer_fails_the_update_with_a_message(hub, case):
    changes, message = CASES[case]
    hub.repos["BSData/test"] = Repo(**{"archive": ARCHIVE, "release": "v1", **changes})
    source = add_source("BSData/test")
    with hang_guard(f"an update whose GitHub answers {case}"):
        version = update(source)
    source.refresh_from_db()
    assert version is None and source.busy_since is None
    assert source.last_message.startswith(f"Failed: {message}"), source.last_message
    assert not any(c in source.last_message for c in "\r\n\t\x00"), "a raw control character is printed"
    assert (GameDataVersion.objects.count(), RulesFile.objects.count()) == (0, 0)


@pytest.mark.parametrize("date", ["2024-13-45T00:00:00Z", "not a date", "9" * 5000, ""])
def test_a_date_that_is_no_date_is_left_out(hub, date):
    hub.repos["BSData/test"] = Repo(archive=ARCHIVE, release="v1", date=date)
    with hang_guard("an update with a broken date"):
        version = update(add_source("BSData/test"))
    assert (version.status, version.date, version.ref) == (GameDataVersion.OK, None, "v1")


def test_a_tag_of_200_characters_is_stored(hub):
    """The boundary of GameDataVersion.ref (200 characters)."""
    hub.repos["BSData/test"] = Repo(archive=ARCHIVE, release="v" * 200)
    version = update(add_source("BSData/test"))
    assert (version.status, len(version.ref)) == (GameDataVersion.OK, 200)
    assert GameDataSource.objects.get().busy_since is None
