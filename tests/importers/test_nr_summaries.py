"""New Recruit's tournament summaries brought in (issue 23, item 4): real lists of the shared file read
through the import page, `POST /api/v1/lists/import/` and `check_lists`, against the books of one commit
of New Recruit's data imported in the test database: exact units, sizes solved from the recorded costs,
options whose parentheses New Recruit strips, free defaults filled in, the version of the tournament's
date, every cost that differs named with both figures, and each list's verdict at its event's limit.

The data is read from ../shared/external/new-recruit-t9a (tests/importers/nr_summaries.py); skipped without it.
"""
from __future__ import annotations

import gzip
import json
import re

import pytest
from django.contrib.messages import get_messages
from django.core.management import call_command
from django.urls import reverse

from armylists.lists.library.catalogue import get_book, validate_roster
from armylists.models import ArmyList
from armylists.rules import parse_roster

from tests.importers.nr_summaries import COMMIT, GLENNCON, LATER, ZAMA, needs_data, store, summary, summary_line, tournament_lines

pytestmark = [needs_data, pytest.mark.django_db]

DATE_CHOICE = "New Recruit's data of the tournament's date (2025-10-18): the newest imported before it"

# GlennCon 2025, list 1 (Ogre Khans, 3996 pts): every unit as New Recruit priced it, read back
OGRE_UNITS = [
    {"id": "u1", "entry": "shaman", "general": True, "options": {
        "general": 1, "wizard-master": 1, "pyromancy": 1, "aurochs-resilience": 1, "iron-fist": 1, "yeti-furs": 1,
        "gut-roarer": 1}},
    {"id": "u2", "entry": "khan", "options": {  # "Heart-Ripper" and "Ogre Crossbow" in the summary
        "heart-ripper-iron-fist": 1, "iron-fist": 1, "rampagers-chain": 1, "rottenjaw": 1, "battle-standard-bearer": 1,
        "stalkers-standard": 1, "ogre-crossbow-3": 1}},
    {"id": "u3", "entry": "tribesmen", "size": 10, "options": {  # 491 pts: ten models
        "iron-fist": 1, "pennant-of-the-great-grass-sky": 1, "standard-bearer": 1}},
    {"id": "u4", "entry": "tribesmen", "options": {"standard-bearer": 1}},  # 170 pts: the minimum, 4
    {"id": "u5", "entry": "tribesmen", "options": {"standard-bearer": 1}},
    {"id": "u6", "entry": "sabretooth-tigers-as-core"},
    {"id": "u7", "entry": "mercenary-veterans", "size": 8, "options": {
        "banner-of-the-gyengget": 1, "halberd": 1, "standard-bearer": 1, "first-strike-fury": 1}},
    {"id": "u8", "entry": "mercenary-gunners", "size": 6, "options": {
        "standard-bearer": 1, "ogre-crossbow-4-and-accurate": 1}},
    {"id": "u9", "entry": "yetis", "size": 3},
    {"id": "u10", "entry": "kin-eater"}, {"id": "u11", "entry": "kin-eater"}, {"id": "u12", "entry": "kin-eater"},
    {"id": "u13", "entry": "frost-mammoth", "options": {"ogre-crossbow-3": 1}},
]


@pytest.fixture
def client_alice(client, alice):
    client.force_login(alice)
    return client


def page_import(client, text):
    response = client.post(reverse("list-import"), {"text": text}, follow=True)
    return response, [m.message for m in get_messages(response.wsgi_request)]


class TestImportPage:
    def test_it_reads_a_real_summary_with_every_unit_at_new_recruits_cost(self, client_alice, alice):
        store(COMMIT, "ok.json")
        response, messages = page_import(client_alice, summary_line(GLENNCON, 1))
        saved = ArmyList.objects.get(owner=alice)
        assert response.redirect_chain == [(reverse("list-edit", args=[saved.pk]), 302)]
        assert (saved.system, saved.book, saved.book_version) == ("t9a-2", "ogre-khans", "2023 beta2@2025-10-10.i7")
        assert (saved.name, saved.points_limit, saved.total_points) == ("GlennCon 2025", 4000, 3996)
        assert saved.document["units"] == OGRE_UNITS
        assert saved.valid is True
        report = validate_roster(get_book("t9a-2", saved.book, saved.book_version), parse_roster(saved.document))
        assert [u.points for u in report.units] == [u["cost"] for u in summary(GLENNCON, 1)["units"]] == [
            545, 350, 491, 170, 170, 170, 570, 480, 200, 150, 150, 150, 400]
        assert messages == [
            "Imported “GlennCon 2025” (New Recruit tournament summary (JSON line)): 13 units, Ogre Khans, limit 4000 pts.",
            f"Read against Ogre Khans 2023 beta2@2025-10-10.i7: {DATE_CHOICE}."]

    def test_a_unit_whose_recorded_cost_differs_is_named_with_both_figures(self, client_alice, alice):
        store(COMMIT, "ok.json")
        changed = summary(GLENNCON, 1)
        changed["units"][9]["cost"] = 145  # a Kin-Eater, a single model without options: 150
        changed["units"][12]["cost"] = 390  # the Frost Mammoth: 400
        _, messages = page_import(client_alice, json.dumps(changed))
        assert messages[2:] == ["Unit 10, Kin-Eater: costs 150 pts here; New Recruit's summary says 145 pts",
                                "Unit 13, Frost Mammoth: costs 400 pts here; New Recruit's summary says 390 pts"]
        saved = ArmyList.objects.get(owner=alice)
        assert saved.document["units"] == OGRE_UNITS and saved.total_points == 3996

    def test_the_format_is_offered_on_the_page(self, client_alice):
        content = client_alice.get(reverse("list-import")).content.decode()
        assert "New Recruit tournament summary (JSON line)" in content


class TestApi:
    def test_it_reads_cut_names_and_fills_in_the_free_default_the_summary_omits(self, api_alice, alice):
        store(COMMIT, "eos.json")
        response = api_alice.post("/api/v1/lists/import/", summary_line(ZAMA, 3), content_type="application/json")
        assert response.status_code == 201, response.content
        answer = response.json()
        assert answer["warnings"] == [f"Read against Empire of Sonnstahl 2024 beta1@2025-10-10.i7: {DATE_CHOICE}."]
        saved = ArmyList.objects.get(owner=alice)
        units = saved.document["units"]
        # "General, Imperial Authority, and +1 Cou": New Recruit cuts long names
        assert units[0]["options"] == {"general-imperial-authority-and-1-cou": 1, "imperial-prince": 1,
                                       "commanding-dragon": 1}
        # The summary names no weapon for the Arcane Engine: its free default, "Ice and Fire (Cosmology)"
        assert summary(ZAMA, 3)["units"][10]["options"] == []
        assert units[10] == {"id": "u11", "entry": "arcane-engine", "options": {"ice-and-fire-cosmology": 1}}
        assert [(u["entry"], u.get("size")) for u in units if "size" in u] == [
            ("electoral-cavalry", 9), ("local-militia", 16), ("reiters", 10), ("flagellants", 16)]
        report = api_alice.get(f"/api/v1/lists/{saved.pk}/report/").json()
        assert [u["points"] for u in report["units"]] == [u["cost"] for u in summary(ZAMA, 3)["units"]]
        assert (report["total_points"], saved.points_limit) == (3999, 4000)

    def test_the_version_of_the_tournaments_date_is_read_else_the_newest(self, api_alice):
        store(COMMIT, "dh.json")
        store(LATER, "dh.json")
        line = summary(GLENNCON, 26)  # Dwarven Holds, 2025-10-18

        def version(body):
            response = api_alice.post("/api/v1/lists/import/", body, format="json")
            assert response.status_code == 201, response.content
            return response.json()["book_version"], response.json()["warnings"][0]

        assert version(line) == ("2024 beta1@2025-10-10.i7", f"Read against Dwarven Holds 2024 beta1@2025-10-10.i7: {DATE_CHOICE}.")
        newest, said = version({k: v for k, v in line.items() if k != "start"})
        assert newest.endswith("@2026-04-10.i7")
        assert said == f"Read against Dwarven Holds {newest}: the newest imported (the summary gives no date)."
        _, said = version({**line, "start": "2025-10-10"})  # the data of that very day came after the start
        assert said == (f"Read against Dwarven Holds {newest}: the newest imported; no version from before the "
                        f"tournament's date (2025-10-10) is imported.")
        _, said = version({**line, "start": "2026-05-01"})
        assert said == (f"Read against Dwarven Holds {newest}: New Recruit's data of the tournament's date "
                        f"(2026-05-01): the newest imported before it.")


# GlennCon 2025 at 4000 pts: ten lists (the ten of test_import_nr_t9a.py) and their verdicts; lists 13, 14
# and 26 name no General (New Recruit's leadership skills are not in the data)
GLENNCON_TEN = {1: "legal", 2: "legal", 3: "legal", 5: "legal", 7: "legal", 11: "legal", 12: "legal",
                13: "illegal (1 error)", 14: "illegal (1 error)", 26: "illegal (1 error)"}
GLENNCON_ARMIES = ("ok.json", "bh.json", "vs.json", "id.json", "de.json", "koe.json", "se.json", "eos.json",
                   "wdg.json", "dh.json")
ZAMA_3 = "legal"

VERDICT = re.compile(r"(\d+/\d+) .*  (legal|illegal \(\d+ errors?\)|unreadable)$")


def table(out: str, *names: str) -> list[tuple[str, str, str]]:
    """(file or file:line, points/limit, verdict) of every row of the table(s) naming one of `names`."""
    rows = []
    for line in out.splitlines():
        first = line.split(" ", 1)[0]
        if any(first == n or first.startswith(n + ":") for n in names) and not first.endswith(":"):
            found = VERDICT.search(line)
            rows.append((first, *(found.groups() if found else ("-", "unreadable"))))
    return rows


class TestCheckLists:
    def run(self, capsys, *args):
        with pytest.raises(SystemExit) as exited:
            call_command("check_lists", *map(str, args))
        out, err = capsys.readouterr()
        return exited.value.code, out, err

    def write(self, tmp_path, lines, name="event.jsonl"):
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    def test_one_event_of_summaries_at_the_limit_of_its_largest_list(self, capsys, tmp_path):
        store(COMMIT, *GLENNCON_ARMIES)
        path = self.write(tmp_path, [summary_line(GLENNCON, n) for n in GLENNCON_TEN])
        code, out, err = self.run(capsys, path, "--jobs", "1")
        assert [(row, verdict) for row, _, verdict in table(out, "event.jsonl")] == [
            (f"event.jsonl:{i}", verdict) for i, verdict in enumerate(GLENNCON_TEN.values(), 1)]
        assert table(out, "event.jsonl")[0][1] == "3996/4000"  # the largest of the ten is 4000 pts
        assert "event.jsonl:10: illegal (1 error)\n  x general.missing: No General is named" in out
        assert out.splitlines()[-1] == "10 lists: 7 legal, 3 illegal, 0 unreadable"
        assert (code, err) == (1, "")

    def test_by_tournament_each_event_at_its_own_limit_and_a_bad_line_apart(self, capsys, tmp_path):
        store(COMMIT, *GLENNCON_ARMIES)
        lines = [summary_line(GLENNCON, 1), summary_line(ZAMA, 3), summary_line(GLENNCON, 13), "{not json"]
        path = self.write(tmp_path, lines, "two.jsonl")
        out_json = tmp_path / "out.json"
        code, out, _ = self.run(capsys, path, "--by", "tournament", "--jobs", "1", "--json", out_json)
        headings = [line for line in out.splitlines() if line.startswith("== ")]
        assert headings == [f"== GlennCon 2025 ({GLENNCON}, 2025-10-18): 4000 pts ==",
                            f"== Битва при Заме ({ZAMA}, 2025-10-18): 4000 pts ==",
                            "== lines that are no summary: 500 pts =="]
        assert table(out, "two.jsonl") == [("two.jsonl:1", "3996/4000", "legal"),
                                           ("two.jsonl:3", "3998/4000", "illegal (1 error)"),
                                           ("two.jsonl:2", "3999/4000", ZAMA_3),
                                           ("two.jsonl:4", "-", "unreadable")]
        assert (f"two.jsonl:4: unreadable\n  {path}:4: (top level): is not valid JSON: Expecting property name enclosed in "
                f"double quotes at line 1, column 2") in out
        assert out.splitlines()[-1] == "3 tournaments, 4 lists: 2 legal, 1 illegal, 1 unreadable"
        assert code == 2  # an unreadable line, as an unreadable file
        written = json.loads(out_json.read_text())
        assert [(e["tournament"], e["points_limit"], [x["file"] for x in e["lists"]]) for e in written] == [
            (GLENNCON, 4000, [f"{path}:1", f"{path}:3"]), (ZAMA, 4000, [f"{path}:2"]), (None, 500, [f"{path}:4"])]

    def test_a_limit_given_is_every_events_and_a_gz_file_is_read(self, capsys, tmp_path):
        store(COMMIT, *GLENNCON_ARMIES)
        path = tmp_path / "two.jsonl.gz"
        path.write_bytes(gzip.compress((summary_line(GLENNCON, 1) + "\n" + summary_line(ZAMA, 3) + "\n").encode()))
        code, out, _ = self.run(capsys, path, "--by", "tournament", "--limit", "3995", "--jobs", "1")
        assert [row[1:] for row in table(out, "two.jsonl.gz")] == [("3996/3995", "illegal (1 error)"),
                                                                  ("3999/3995", "illegal (1 error)")]
        assert "  x points.over_limit: Total 3996 pts is 1 pts over the 3995 pts limit." in out
        assert "  x points.over_limit: Total 3999 pts is 4 pts over the 3995 pts limit." in out
        assert code == 1

    def test_other_files_need_the_system_and_points_as_before(self, capsys, tmp_path):
        path = self.write(tmp_path, [summary_line(GLENNCON, 1)])
        (tmp_path / "ours.json").write_text("{}", encoding="utf-8")
        code, _, err = self.run(capsys, path, tmp_path / "ours.json")
        assert (code, err.strip()) == (2, "--system: required (it may be left out only when every file is a .jsonl "
                                          "of New Recruit summaries)")
        code, _, err = self.run(capsys, path, tmp_path / "ours.json", "--system", "t9a-2")
        assert (code, err.strip()) == (2, "--points: required (it may be left out only when every file is a .jsonl "
                                          "of New Recruit summaries)")
        code, _, err = self.run(capsys, path, tmp_path / "ours.json", "--system", "t9a-2", "--points", "4000",
                                "--by", "tournament")
        assert (code, err.strip()) == (2, f"--by tournament: only .jsonl files of New Recruit summaries name their "
                                          f"tournament; {tmp_path / 'ours.json'} is not one")
        code, _, err = self.run(capsys, tmp_path / "missing.jsonl")
        assert (code, err.strip()) == (2, f"{tmp_path / 'missing.jsonl'}: cannot be read: No such file or directory")

    def test_a_summary_and_our_own_list_file_are_one_event_at_the_limit_given(self, capsys, tmp_path):
        store(COMMIT, "ok.json")
        path = self.write(tmp_path, [summary_line(GLENNCON, 1)])
        document = {"format": "armylist/1", "system": "t9a-2", "book": "ogre-khans",
                    "book_version": "2023 beta2@2025-10-10.i7", "points_limit": 4000, "units": OGRE_UNITS[:1]}
        (tmp_path / "ours.json").write_text(json.dumps(document), encoding="utf-8")
        code, out, _ = self.run(capsys, path, tmp_path / "ours.json", "--system", "t9a-2", "--points", "4000",
                                "--jobs", "1")
        assert table(out, "ours.json", "event.jsonl") == [  # the files given, then the lines
            ("ours.json", "545/4000", "illegal (2 errors)"), ("event.jsonl:1", "3996/4000", "legal")]  # Core, 3455 under
        assert out.splitlines()[-1] == "2 lists: 1 legal, 1 illegal, 0 unreadable"
        assert code == 1
