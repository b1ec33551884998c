"""Every rule type at its boundaries, as data: tests/cases/<rules>.yaml, one case per behaviour.

Each case starts from a legal baseline list (tests/cases/_baselines.yaml) against the test book,
changes it (units, sizes, options, the limit, the modes and composition chosen), and names the exact violation codes (and, where given, messages) the engine must report.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from armylists.rules import parse_roster, validate
from armylists.rules.event_rules.ruleset import parse_event_rules

from armylists.rules.reading.loader import build_book, read_yaml

from tests.conftest import FIXTURES, list_document

CASES = Path(__file__).resolve().parents[1] / "cases"
BASELINES = yaml.safe_load((CASES / "_baselines.yaml").read_text())


def _cases():
    for path in sorted(CASES.glob("*.yaml")):
        if path.name.startswith("_"):
            continue
        data = yaml.safe_load(path.read_text())
        for case in data["cases"]:
            yield pytest.param(case, id=f"{path.stem}: {case['name']}")


def build(case: dict) -> dict:
    base = BASELINES[case["base"]]
    units = [copy.deepcopy(u) for u in base["units"] if u["id"] not in case.get("remove", [])]
    by_id = {u["id"]: u for u in units}
    for uid, size in case.get("sizes", {}).items():
        by_id[uid]["size"] = size
    for uid, items in case.get("items", {}).items():
        by_id[uid]["items"] = items
    for uid, mount in case.get("mounts", {}).items():
        by_id[uid]["mount"] = mount
    for uid, options in case.get("options", {}).items():
        by_id[uid]["options"] = options
    units += copy.deepcopy(case.get("add", []))
    doc = list_document(units, case.get("points_limit", base["points_limit"]))
    if base.get("book") == "tow":
        doc.update(system="the-old-world", book="tow-test-book")
    if case.get("modes"):
        doc["modes"] = case["modes"]
    if case.get("composition"):
        doc["composition"] = case["composition"]
    if case.get("campaign"):  # a warband's campaign state (Mordheim's campaign_state, issue 41)
        doc["campaign"] = case["campaign"]
    return doc


@pytest.fixture(scope="module")
def books(test_book, library):
    path = FIXTURES / "rules" / "the-old-world" / "books" / "tow-test-book.yaml"
    tow = build_book(read_yaml(path), library.systems["the-old-world"], library.common_items.get("the-old-world", {}),
                     str(path))
    return {"test-book": test_book, "tow-test-book": tow}


@pytest.mark.parametrize("case", list(_cases()))
def test_rule_case(case, books):
    doc = build(case)
    book = books[doc["book"]]
    extra = ()
    if case.get("event_rules"):
        text = yaml.safe_dump({"format": "event-rules/1", "rules": case["event_rules"]})
        extra = parse_event_rules(text, "event rules", book.system, [book]).rules
    report = validate(book, parse_roster(doc), extra)
    codes = sorted(v.code for v in report.violations)
    assert codes == sorted(case["expect"]), [v.message for v in report.violations]
    for message in case.get("messages", []):
        assert message in [v.message for v in report.violations]
    assert report.valid is case.get("valid", not case["expect"])


def test_every_baseline_is_legal_and_exact(books):
    for name, base in BASELINES.items():
        doc = build({"base": name})
        report = validate(books[doc["book"]], parse_roster(doc))
        assert report.violations == (), name
        assert report.total_points == base["points_limit"], name
