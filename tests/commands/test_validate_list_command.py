"""`manage.py validate_list`: readable or JSON reports, exit 0 legal, 1 illegal, 2 unreadable."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
pytestmark = pytest.mark.django_db  # a version not on disk is looked up among the stored ones
LEGAL = EXAMPLES / "empire-2400-legal.json"
ILLEGAL = EXAMPLES / "empire-2400-illegal.json"


def altered(tmp_path: Path, change) -> Path:
    """A copy of the legal example with `change(document)` applied."""
    path = tmp_path / "altered.json"
    doc = json.loads(LEGAL.read_text())
    change(doc)
    path.write_text(json.dumps(doc))
    return path


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        call_command("validate_list", *map(str, args))
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


def test_it_exits_0_for_a_legal_list_and_prints_the_summary(capsys):
    code, out, err = run(capsys, LEGAL)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == f"{LEGAL}: LEGAL"
    assert "Empire of Sonnstahl 0.11.1 - limit 2400 pts (Standard army) - total 2390 pts - 10 pts left" in out


def test_it_exits_1_for_an_illegal_list_and_prints_every_violation(capsys):
    code, out, _ = run(capsys, ILLEGAL)
    assert code == 1
    assert out.splitlines()[0] == f"{ILLEGAL}: NOT LEGAL (11 errors)"
    assert "  x one_of_a_kind.max: Steam Tank is One of a Kind and is taken 2 times; at most 1 in a Standard army " \
           "(2400 pts). [000:L97-99, L113-114, L124-125]" in out


def test_json_output_is_the_report(capsys):
    code, out, _ = run(capsys, ILLEGAL, "--json")
    data = json.loads(out)
    assert code == 1
    assert (data["file"], data["valid"], data["total_points"], data["points_limit"]) == (str(ILLEGAL), False, 1903, 2400)
    assert [c["id"] for c in data["categories"]] == ["lords", "heroes", "core", "special", "rare"]
    assert {"code": "bsb.max", "unit": "captain-2"}.items() <= next(
        v for v in data["violations"] if v["code"] == "bsb.max").items()


def test_several_files_give_a_json_array_and_the_worst_exit(capsys):
    code, out, _ = run(capsys, LEGAL, ILLEGAL, "--json")
    assert code == 1
    assert [r["valid"] for r in json.loads(out)] == [True, False]


def test_a_missing_file_exits_2_with_its_name(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path / "nope.json")
    assert code == 2 and out == ""
    assert err.strip() == f"{tmp_path / 'nope.json'}: cannot be read: No such file or directory"


def test_a_file_that_is_not_a_list_exits_2_naming_the_path(capsys, tmp_path):
    bad = altered(tmp_path, lambda doc: doc["units"][4].update(size=-3))
    code, _, err = run(capsys, bad)
    assert code == 2
    assert err.strip() == f"{bad}: units[4].size: -3 is less than the minimum of 1"


def test_a_list_for_a_book_version_we_do_not_have_exits_2(capsys, tmp_path):
    bad = altered(tmp_path, lambda doc: doc.update(book_version="0.9.0"))
    code, _, err = run(capsys, bad)
    assert code == 2
    assert err.strip() == f"{bad}: book_version: Empire of Sonnstahl version '0.9.0' is not loaded; available: 0.11.1"


def test_an_unknown_book_exits_2(capsys, tmp_path):
    bad = altered(tmp_path, lambda doc: doc.update(book="dwarven-holds"))
    code, _, err = run(capsys, bad)
    assert code == 2
    assert err.strip() == f"{bad}: book: unknown army book 'dwarven-holds' for t9a-0.11; known: empire-of-sonnstahl, ogre-khans"


def test_a_bad_file_among_good_ones_still_reports_the_good_ones(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, out, err = run(capsys, LEGAL, bad)
    assert code == 2
    assert out.startswith(f"{LEGAL}: LEGAL")
    assert "is not valid JSON" in err
