"""docs/security.md's table of limits says the numbers the code holds: each row's number is compared with
the constant or setting it names (issue 25: "docs/security.md lists every limit with its number")."""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "security.md"
ROW = re.compile(r"^\| (?P<what>.+?) \| (?P<limit>[^|]+?) \| `(?P<module>[\w.]+):(?P<expr>[^`]+)` \|$")


def table_lines() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Every limit on outside input, with its number", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| ")][2:]  # past the header and its rule


def rows() -> list[tuple[str, str, str, str]]:
    return [(m["what"], m["limit"], m["module"], m["expr"]) for m in map(ROW.match, table_lines()) if m]


def number(limit: str) -> int:
    """"32 MiB", "64 KiB", "2^31 - 1", "2^53", "2,621,440 bytes", "1,000" as an integer."""
    limit = limit.replace(",", "").removesuffix(" bytes")
    if m := re.fullmatch(r"(\d+) MiB", limit):
        return int(m[1]) << 20
    if m := re.fullmatch(r"(\d+) KiB", limit):
        return int(m[1]) << 10
    if m := re.fullmatch(r"2\^(\d+)( - 1)?", limit):
        return 2 ** int(m[1]) - (1 if m[2] else 0)
    return int(limit)


def test_the_table_has_every_limit_the_hostile_suite_relies_on():
    named = {f"{module}:{expr}" for _, _, module, expr in rows()}
    assert len(rows()) == len(table_lines()) == 58  # every row read: none left unchecked by a typo
    assert {"armylists.importers.battlescribe.sources:MAX_XML_DEPTH", "armylists.rules.reading.archives:MAX_RATIO",
            "django.conf:settings.DATA_UPLOAD_MAX_NUMBER_FILES", "armylists.importers.nr_t9a.summary:MAX_UNITS",
            "armylists.rules.event_rules.ruleset:MAX_EVENT_RULES_BYTES", "armylists.importers.nr_t9a.army:MAX_SIZE_MULT",
            "armylists.rules.reading.selection_tree:MAX_TREE_SELECTIONS",
            # issue 43: the limits the hostile suite's round 4 relies on
            "armylists.importers.nr_t9a.summaries:MAX_SUMMARY_BYTES", "armylists.gamedata.archives:MAX_NAME_BYTES",
            "armylists.gamedata.archives:MAX_PATH_BYTES", "armylists.api.units:MAX_ATTEMPTS",
            "armylists.importers.nr_t9a.summary:MAX_MODELS", "armylists.rules.reading.selection_tree:MAX_TREE_DEPTH"} <= named


@pytest.mark.parametrize("what, limit, module, expr", rows(), ids=[r[0][:50] for r in rows()])
def test_each_documented_number_is_the_codes(what, limit, module, expr):
    namespace = vars(importlib.import_module(module))
    assert eval(expr, dict(namespace)) == number(limit), what  # noqa: S307 (our own docs, a constant's name)
