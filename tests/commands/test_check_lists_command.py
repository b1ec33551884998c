"""`manage.py check_lists`: an event's folder of lists checked offline; exit 0 all legal, 1 any illegal, 2 any
file unreadable or a usage error."""
from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from armylists.lists.library.catalogue import disk_library
from armylists.exports import export_text
from armylists.rules import parse_roster, validate

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
pytestmark = pytest.mark.django_db  # a version not on disk is looked up among the stored ones

T9A = ("--system", "t9a-0.11", "--points", "2400")
HEADER = ("file                        player   army                              pts  Lords  Heroes   Core  "
          "Special   Rare  verdict")
EMPIRE_LEGAL_ROW = ("empire-2400-legal.json      Example  Empire of Sonnstahl 0.11.1  2390/2400  13.1%   11.0%  "
                    "29.0%    29.8%  16.7%  legal")
OGRE_LEGAL_ROW = ("ogre-khans-2400-legal.json  Example  Ogre Khans 0.11.0           2385/2400  13.1%   12.9%  "
                  "34.2%    26.7%  12.5%  legal")
WAR_MACHINES = "rules:\n  - {{id: war-machines, type: count, params: {{label: War Machines, " \
               "select: {{troop_type: war-machine}}, max: {max}}}}}\n"


def run(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        call_command("check_lists", *map(str, args))
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err


def folder(tmp_path: Path, *examples: str) -> Path:
    """A folder holding copies of the named example lists."""
    lists = tmp_path / "lists"
    lists.mkdir(exist_ok=True)
    for name in examples:
        shutil.copy(EXAMPLES / name, lists / name)
    return lists


def test_a_folder_of_legal_lists_exits_0_with_one_row_each(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json", "ogre-khans-2400-legal.json")
    (lists / "notes.md").write_text("not a list")  # neither .json nor .txt: not read
    code, out, err = run(capsys, lists, *T9A)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        HEADER,
        "--------------------------  -------  --------------------------  ---------  -----  ------  -----  "
        "-------  -----  -------",
        EMPIRE_LEGAL_ROW,
        OGRE_LEGAL_ROW,
        "",
        "2 lists: 2 legal, 0 illegal, 0 unreadable",
    ]


def test_a_list_in_tournament_text_is_read_too(capsys, tmp_path):
    lists = folder(tmp_path)
    roster = parse_roster(json.loads((EXAMPLES / "empire-2400-legal.json").read_text()))
    book = disk_library().book(roster.system, roster.book, roster.book_version)
    (lists / "alice.txt").write_text(export_text(book, roster, validate(book, roster)))
    code, out, _ = run(capsys, lists, *T9A)
    assert code == 0
    assert out.splitlines()[2] == ("alice.txt  Example  Empire of Sonnstahl 0.11.1  2390/2400  13.1%   11.0%  29.0%    "
                                   "29.8%  16.7%  legal")


def test_an_illegal_list_exits_1_and_its_violations_are_printed_under_the_table(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json", "ogre-khans-2400-illegal.json")
    code, out, _ = run(capsys, lists, *T9A)
    assert code == 1
    lines = out.splitlines()
    assert lines[3] == ("ogre-khans-2400-illegal.json  Example  Ogre Khans 0.11.0           2184/2400   0.0%   "
                        "29.4%   6.7%    22.2%  32.7%  illegal (11 errors)")
    details = lines[lines.index("ogre-khans-2400-illegal.json: illegal (11 errors)") + 1:]
    book, roster = _book_and_roster("ogre-khans-2400-illegal.json")
    expected = [f"  x {v.code}: {v.message}" for v in validate(book, roster).violations]
    assert len(expected) == 11 and details[:11] == expected
    assert details[:2] == [
        "  x points.under_limit: Total 2184 pts is 216 pts under the 2400 pts limit; an army may be at most 20 pts "
        "under it.",
        "  x category.min_percent: Core: 160 pts is 6.7% of 2400; at least 25% (600 pts) is required."]
    assert "empire-2400-legal.json:" not in out  # a legal list without warnings has no details
    assert details[11:] == ["", "2 lists: 1 legal, 1 illegal, 0 unreadable"]


def _book_and_roster(name: str):
    roster = parse_roster(json.loads((EXAMPLES / name).read_text()))
    return disk_library().book(roster.system, roster.book, roster.book_version), roster


def test_an_unreadable_file_among_good_ones_is_named_and_exits_2(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json", "ogre-khans-2400-legal.json")
    (lists / "broken.json").write_text("{")
    code, out, err = run(capsys, lists, *T9A)
    assert (code, err) == (2, "")
    assert out.splitlines() == [
        HEADER,
        "--------------------------  -------  --------------------------  ---------  -----  ------  -----  "
        "-------  -----  ----------",
        "broken.json                 -        -                                   -      -       -      -        -"
        "      -  unreadable",
        EMPIRE_LEGAL_ROW,
        OGRE_LEGAL_ROW,
        "",
        "broken.json: unreadable",
        f"  {lists / 'broken.json'}: (top level): is not valid JSON: Expecting property name enclosed in double "
        "quotes at line 1, column 2",
        "",
        "3 lists: 2 legal, 0 illegal, 1 unreadable",
    ]


def test_unreadable_wins_over_illegal_and_a_missing_file_is_a_row(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-illegal.json")
    code, out, _ = run(capsys, lists / "empire-2400-illegal.json", tmp_path / "nope.json", *T9A)
    assert code == 2
    assert f"nope.json: unreadable\n  {tmp_path / 'nope.json'}: cannot be read: No such file or directory" in out


def test_the_json_output_has_every_report_and_the_points_limit_warning(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json")
    (lists / "zz-broken.txt").write_bytes(b"\xff junk")
    out_file = tmp_path / "reports.json"
    code, _, _ = run(capsys, lists, "--system", "t9a-0.11", "--points", "2390", "--json", out_file)
    data = json.loads(out_file.read_text())
    assert code == 2
    assert [set(d) for d in data] == [{"file", "player", "report"}, {"file", "error"}]
    assert (data[0]["file"], data[0]["player"]) == (str(lists / "empire-2400-legal.json"), "Example")
    report = data[0]["report"]
    assert (report["valid"], report["points_limit"], report["total_points"]) == (True, 2390, 2390)
    assert report["violations"] == [{
        "code": "event.points_limit", "severity": "warning", "unit": None, "rule": "event", "source": "event",
        "message": "The list was built for 2400 pts; it is checked at the event's 2390."}]
    assert data[1] == {"file": str(lists / "zz-broken.txt"),
                       "error": f"{lists / 'zz-broken.txt'}: is not UTF-8 text: invalid start byte"}


def test_a_legal_list_with_warnings_shows_them_and_stays_legal(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json")
    code, out, _ = run(capsys, lists, "--system", "t9a-0.11", "--points", "2390")
    assert code == 0
    assert ("empire-2400-legal.json: legal (1 warning)\n"
            "  ! event.points_limit: The list was built for 2400 pts; it is checked at the event's 2390.\n") in out


def test_an_event_rule_that_fails_and_its_boundary(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json")
    rules = tmp_path / "event.yaml"
    rules.write_text(WAR_MACHINES.format(max=0))
    code, out, _ = run(capsys, lists, *T9A, "--event-rules", rules)
    assert code == 1
    assert out.splitlines()[2].endswith("illegal (1 error)")
    assert "empire-2400-legal.json: illegal (1 error)\n  x count.max: War Machines: 2 units taken; at most 0.\n" in out

    rules.write_text(WAR_MACHINES.format(max=2))  # the list has exactly 2
    code, out, _ = run(capsys, lists, *T9A, "--event-rules", rules)
    assert code == 0
    assert out.splitlines()[2] == ("empire-2400-legal.json  Example  Empire of Sonnstahl 0.11.1  2390/2400  13.1%   "
                                   "11.0%  29.0%    29.8%  16.7%  legal")


def test_a_malformed_event_rules_file_exits_2_naming_the_file_and_the_path(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json")
    rules = tmp_path / "event.yaml"
    rules.write_text("rules:\n  - {id: a, type: count, params: {label: X, select: {troop_type: tank}, max: 0}}\n")
    code, out, err = run(capsys, lists, *T9A, "--event-rules", rules)
    assert (code, out) == (2, "")
    assert err == f"{rules}: rules[0].params.select.troop_type: unknown troop type 'tank'\n"

    rules.write_text("rules: [")
    code, out, err = run(capsys, lists, *T9A, "--event-rules", rules)
    assert (code, out) == (2, "")
    assert err.startswith(f"{rules}: (top level): is not valid YAML at line 1, column 9")


def test_an_event_rules_file_that_cannot_be_read(capsys, tmp_path):
    code, out, err = run(capsys, folder(tmp_path, "empire-2400-legal.json"), *T9A,
                         "--event-rules", tmp_path / "missing.yaml")
    assert (code, out) == (2, "")
    assert err == f"{tmp_path / 'missing.yaml'}: cannot be read: No such file or directory\n"


def test_team_rules_are_read_but_not_checked_and_said_so(capsys, tmp_path):
    rules = tmp_path / "event.yaml"
    rules.write_text("rules:\n  - {id: team-items, type: team_items_once}\n")
    code, _, err = run(capsys, folder(tmp_path, "empire-2400-legal.json"), *T9A, "--event-rules", rules)
    assert code == 0
    assert err == f"{rules}: team rules not checked (list files name no team): team-items\n"


def test_the_csv_output(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json", "empire-2400-illegal.json")
    (lists / "broken.json").write_text("{")
    out_file = tmp_path / "table.csv"
    code, _, _ = run(capsys, lists, *T9A, "--csv", out_file)
    assert code == 2
    rows = list(csv.reader(io.StringIO(out_file.read_text())))
    assert rows[0] == ["file", "player", "list name", "system", "book", "book_version", "total_points", "points_limit",
                       "Lords %", "Heroes %", "Core %", "Special %", "Rare %", "valid", "errors", "warnings",
                       "violations"]
    assert rows[1][0] == str(lists / "broken.json")
    assert rows[1][1:16] == [""] * 12 + ["unreadable", "", ""]
    assert rows[1][16] == (f"{lists / 'broken.json'}: (top level): is not valid JSON: Expecting property name "
                           "enclosed in double quotes at line 1, column 2")
    assert rows[3] == [str(lists / "empire-2400-legal.json"), "Example", "Sonnstahl combined arms", "t9a-0.11",
                       "empire-of-sonnstahl", "0.11.1", "2390", "2400", "13.1", "11.0", "29.0", "29.8", "16.7", "true",
                       "0", "0", ""]
    illegal = rows[2]
    assert illegal[:16] == [str(lists / "empire-2400-illegal.json"), "Example", "Two tanks, no general",
                                "t9a-0.11", "empire-of-sonnstahl", "0.11.1", "1903", "2400", "9.4", "7.4", "7.8",
                                "25.5", "29.2", "false", "11", "0"]
    assert illegal[16].split(" | ")[:2] == [
        "points.under_limit: Total 1903 pts is 497 pts under the 2400 pts limit; an army may be at most 20 pts under it.",
        "category.min_percent: Core: 188 pts is 7.8% of 2400; at least 25% (600 pts) is required."]
    assert len(illegal[16].split(" | ")) == 11


def test_books_the_event_does_not_allow(capsys, tmp_path):
    lists = folder(tmp_path, "empire-2400-legal.json", "ogre-khans-2400-legal.json")
    out_file = tmp_path / "reports.json"
    code, out, _ = run(capsys, lists, *T9A, "--books", "ogre-khans", "--json", out_file)
    assert code == 1
    assert ("empire-2400-legal.json: illegal (1 error)\n  x event.book: Empire of Sonnstahl 0.11.1 is not allowed at "
            "this event; allowed: ogre-khans.\n") in out
    assert [d["report"]["valid"] for d in json.loads(out_file.read_text())] == [False, True]

    code, _, _ = run(capsys, lists, *T9A, "--books", "ogre-khans@0.11.0,empire-of-sonnstahl@0.11.1")
    assert code == 0


@pytest.mark.parametrize("args, message", [
    (("--system", "warhammer", "--points", "2000"),
     "--system: unknown game system 'warhammer'; known: mordheim, t9a-0.11, t9a-2, the-old-world"),
    ((*T9A, "--books", "dwarven-holds"),
     "--books: unknown army book 'dwarven-holds' for t9a-0.11; known: empire-of-sonnstahl, ogre-khans"),
    ((*T9A, "--books", "ogre-khans@9.9"), "--books: ogre-khans version '9.9' is not loaded; available: 0.11.0"),
    ((*T9A, "--mode", "grand-melee"), "--mode: t9a-0.11 has no mode 'grand-melee'; known: none"),
    (("--system", "t9a-0.11", "--points", "0"), "--points: 0 is not a points limit; give a positive number"),
])
def test_usage_errors_exit_2_with_one_line(capsys, tmp_path, args, message):
    code, out, err = run(capsys, folder(tmp_path, "empire-2400-legal.json"), *args)
    assert (code, out) == (2, "")
    assert err == message + "\n"


def test_a_composition_no_allowed_book_has_is_a_usage_error(capsys, tmp_path):
    lists = folder(tmp_path, "empire-of-man-legal.json")
    code, _, err = run(capsys, lists, "--system", "the-old-world", "--points", "2000", "--composition", "atlantis",
                       "--books", "empire-of-man")
    assert code == 2
    assert err == ("--composition: no book of the event has the composition 'atlantis'; known: city-state-of-nuln, "
                   "knightly-order-blazing-sun, knightly-order-fiery-heart, knightly-order-morr, knightly-order-panther, "
                   "knightly-order-white-wolf\n")


def test_the_event_composition_and_modes_are_applied_to_every_list(capsys, tmp_path):
    lists = folder(tmp_path, "empire-of-man-legal.json")
    code, out, _ = run(capsys, lists, "--system", "the-old-world", "--points", "2000",
                       "--composition", "city-state-of-nuln", "--mode", "grand-melee")
    assert code == 1
    assert ("  x event.composition: The event requires City-State of Nuln; the list uses no composition.\n"
            "  ! event.modes: The list chose no matched-play rules; it is checked with the event's: Grand Melee.\n"
            ) in out


def test_a_folder_without_lists_is_a_usage_error(capsys, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run(capsys, empty, *T9A)
    assert (code, out) == (2, "")
    assert err == f"{empty}: has no *.json or *.txt list files\n"


def test_a_list_with_allies_is_checked_with_its_allies_book(capsys, tmp_path):
    """The allied contingent is priced against its own book and counts in Allies (not list.unknown_allies_book)."""
    from tests.books.test_tow_allies import document
    path = tmp_path / "allies.json"
    path.write_text(json.dumps(document(points_limit=2000)))
    out_json = tmp_path / "reports.json"
    code, out, err = run(capsys, path, "--system", "the-old-world", "--points", "2000", "--json", out_json)
    report = json.loads(out_json.read_text())[0]["report"]
    assert "list.unknown_allies_book" not in [v["code"] for v in report["violations"]]
    allies = next(c for c in report["categories"] if c["id"] == "allies")
    assert (allies["points"], allies["percent"]) == (500, 25.0)


def test_several_processes_print_what_one_process_prints(capsys, tmp_path):
    """--jobs 2 shares the files between two forked workers; the table, the details, the CSV and the
    JSON are the same as one process writes, in the files' order."""
    lists = folder(tmp_path, *(p.name for p in EXAMPLES.glob("*.json") if p.name.startswith(("empire-2400", "ogre"))))
    for n in range(6):  # enough files for two workers (a missing book and bad JSON among them)
        doc = json.loads((EXAMPLES / "empire-2400-legal.json").read_text())
        doc["units"][0]["size"] = n + 1
        doc["book_version"] = "9.9" if n == 4 else doc["book_version"]
        (lists / f"variant-{n}.json").write_text(json.dumps(doc) if n != 5 else "{not json")
    answers = []
    for jobs in ("1", "2"):
        csv_out, json_out = tmp_path / f"out-{jobs}.csv", tmp_path / f"out-{jobs}.json"
        code, out, err = run(capsys, lists, *T9A, "--jobs", jobs, "--csv", csv_out, "--json", json_out)
        answers.append((code, out, err, csv_out.read_text(), json.loads(json_out.read_text())))
    assert answers[0] == answers[1]
    code, out, _, _, reports = answers[1]
    assert code == 2 and out.splitlines()[-1] == "10 lists: 3 legal, 5 illegal, 2 unreadable"
    assert [r["file"].rsplit("/", 1)[1] for r in reports] == sorted(p.name for p in lists.iterdir())
