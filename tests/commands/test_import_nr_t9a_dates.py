"""`import_nr_t9a --all-versions` stores the history date by date (issue 39 item 3): each date's books are
written as they are converted, inside one transaction, so memory holds one date's books and not every
date's; a refusal at any date still writes nothing. The data: a small git repository of two days."""
from __future__ import annotations

import io
import json
import subprocess

import pytest
from django.core.management import CommandError, call_command

from armylists.importers import storing
from armylists.management.commands import import_nr_t9a
from armylists.models import RulesFile

pytestmark = pytest.mark.django_db
GIT = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t",
       "PATH": "/usr/bin:/bin"}


def army(cost: int) -> dict:
    warriors = {"name": "Warriors", "unit_id": "w", "cost": cost, "refs": ["w"], "options": []}
    return {"name": "Test Army", "short": "ta", "version": "1", "army": [{"name": "Army", "options": [
        {"name": "Characters", "refs": ["perso"], "maxPercent": 0.4, "options": []},
        {"name": "Core", "refs": ["base"], "options": [warriors]}]}]}


@pytest.fixture
def two_days(tmp_path):
    return history_of_two_days(tmp_path)


def history_of_two_days(tmp_path):
    """A git repository of one army, committed on 2025-03-01 and again (another cost) on 2025-03-02."""
    folder = tmp_path / "nr-t9a"
    folder.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=folder, env=GIT, check=True)
    for day, cost in (("2025-03-01", 200), ("2025-03-02", 210)):
        (folder / "ta.json").write_text(json.dumps(army(cost)), encoding="utf-8")
        env = {**GIT, "GIT_COMMITTER_DATE": f"{day}T12:00:00+00:00", "GIT_AUTHOR_DATE": f"{day}T12:00:00+00:00"}
        subprocess.run(["git", "add", "ta.json"], cwd=folder, env=env, check=True)
        subprocess.run(["git", "commit", "-q", "-m", day], cwd=folder, env=env, check=True)
    return folder


def test_every_date_is_stored_as_it_is_converted(two_days, monkeypatch):
    batches = []
    real = storing.store_rules_files

    def recorded(files, hint):
        batches.append([(f.kind, f.version) for f in files])
        return real(files, hint)
    monkeypatch.setattr(import_nr_t9a, "store_rules_files", recorded)
    out = io.StringIO()
    call_command("import_nr_t9a", str(two_days), "--all-versions", "-v", "0", stdout=out)
    assert [[kind for kind, _ in batch] for batch in batches] == [["system"], ["book"], ["book"]]
    assert [batch[0][1].rpartition("@")[2][:10] for batch in batches[1:]] == ["2025-03-01", "2025-03-02"]
    assert out.getvalue().splitlines()[-1] == "3 new, 0 unchanged; 2 New Recruit T9A books in the database."
    assert RulesFile.objects.filter(system="t9a-2", kind="book").count() == 2


def test_a_refusal_at_the_last_date_writes_nothing_of_the_earlier_ones(two_days, monkeypatch):
    real = storing.store_rules_files
    calls = []

    def refuse_the_last(files, hint):
        calls.append(files)
        created, unchanged, refused = real(files, hint)
        return created, unchanged, refused + (["version x of book 'ta' is already loaded"] if len(calls) == 3 else [])
    monkeypatch.setattr(import_nr_t9a, "store_rules_files", refuse_the_last)
    with pytest.raises(CommandError, match="Nothing imported.\nversion x of book 'ta' is already loaded"):
        call_command("import_nr_t9a", str(two_days), "--all-versions", "-v", "0", stdout=io.StringIO())
    assert not RulesFile.objects.filter(system="t9a-2").exists()


def test_check_converts_every_date_and_writes_nothing(two_days):
    out = io.StringIO()
    call_command("import_nr_t9a", str(two_days), "--all-versions", "--check", "-v", "0", stdout=out)
    assert out.getvalue().splitlines()[-1] == "2 books are good; nothing written."
    assert not RulesFile.objects.exists()
