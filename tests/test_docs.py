"""The docs stay true: every rule type is documented and has boundary cases; examples validate as labelled."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from armylists.rules import CHECKS, parse_roster, validate

ROOT = Path(__file__).resolve().parent.parent
RULE_TYPES_DOC = (ROOT / "docs" / "rule-types.md").read_text()
CASE_FILES = [p for p in (ROOT / "tests" / "cases").glob("*.yaml") if not p.name.startswith("_")]
COVERED = {t.strip() for p in CASE_FILES for t in yaml.safe_load(p.read_text())["rule"].split(",")}
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))


@pytest.mark.parametrize("rule_type", sorted(CHECKS))
def test_every_rule_type_is_documented(rule_type):
    assert f"| `{rule_type}` |" in RULE_TYPES_DOC


@pytest.mark.parametrize("rule_type", sorted(CHECKS))
def test_every_rule_type_has_boundary_cases(rule_type):
    assert rule_type in COVERED


def test_the_examples_include_legal_and_illegal_lists_for_every_book(library):
    for book in {key[1] for key in library.books}:
        names = [p.name for p in EXAMPLES if p.name.startswith(book.split("-of-")[0])]
        assert any("-legal" in n for n in names) and any("-illegal" in n for n in names), book


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_is_as_legal_as_its_name_says(path, library):
    roster = parse_roster(json.loads(path.read_text()))
    report = validate(library.book(roster.system, roster.book, roster.book_version), roster)
    assert report.valid is path.stem.endswith("-legal"), [v.message for v in report.violations]
