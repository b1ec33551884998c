"""What pages and printed rosters say of a rule, in a player's words rather than the data's.

The engine's messages and sources are written for everyone who reads a Report, the API included, so
they keep what makes them exact: a unit's id after its name ("Priest of Sigmar (u4)"), a source as the
seed document's number and lines ("001:L599") or the reference file a fact was taken from. A page or
a printed roster shows the same message without the ids (the unit is linked beside it) and the source
as the system's data names the document and the section those lines fall in ("Rulebook, Magic"),
never a file name. The codes stay in the API and JSON, where tests and tools read them.
"""
from __future__ import annotations

import bisect
import re
from typing import Any, Iterable, Mapping

from armylists.rules.native.book import System

# "000:L84-90", "001:L767-773, L4518-4520": a seed document's number and the lines cited in it.
CITATION = re.compile(r"\b(\d{3}):L(\d+)(?:-\d+)?(?:,\s*L\d+(?:-\d+)?)*")
# A reference file named as where a fact came from: "(the-old-world-facts.md)", "rules.js and x.json".
FILE_NAME = r"[\w.-]+\.(?:md|js|json|ya?ml|txt|cat|gst)\b"
FILE_IN_PARENTHESES = re.compile(r"\s*\([^()]*" + FILE_NAME + r"[^()]*\)")
FILE_PREFIX = re.compile(r"^\s*" + FILE_NAME + r"\s*:\s*")
FILE_ANYWHERE = re.compile(r"\s*" + FILE_NAME)


def source_words(source: str, system: System | None) -> str:
    """A rule's source as a player reads it: "Rulebook, Army composition", without file names."""
    if not source:
        return ""

    def cited(found: re.Match) -> str:
        number, line = found.group(1), int(found.group(2))
        name, sections = system.documents.get(number, ("", ())) if system is not None else ("", ())
        if not name:
            return "the rules"
        section = _section_at(sections, line)
        return f"{name}, {section}" if section else name

    text = CITATION.sub(cited, source)
    text = FILE_IN_PARENTHESES.sub("", text)
    text = FILE_PREFIX.sub("", text)
    text = FILE_ANYWHERE.sub("", text)
    text = " ".join(text.split()).strip(" ,;:")
    return text[:1].upper() + text[1:]


def _section_at(sections: tuple[tuple[int, str], ...], line: int) -> str:
    starts = [first for first, _ in sections]
    at = bisect.bisect_right(starts, line) - 1
    return sections[at][1] if at >= 0 else ""


def plain_message(message: str, unit_ids: Iterable[str]) -> str:
    """The message without the units' ids the engine writes after their names ("Priest (u4)")."""
    for unit_id in sorted(set(unit_ids), key=len, reverse=True):
        message = message.replace(f" ({unit_id})", "")
    return message


def plain_violations(violations: Iterable[Mapping[str, Any]], unit_ids: Iterable[str],
                     system: System | None) -> list[dict[str, Any]]:
    """A saved report's violations (as `Violation.to_dict` writes them) as a page shows them: each
    message without units' ids, each source in the system's words; the code and the rest stay."""
    violations = list(violations)
    ids = set(unit_ids) | {v["unit"] for v in violations if v.get("unit")}
    return [{**v, "message": plain_message(v.get("message", ""), ids),
             "source": source_words(v.get("source") or "", system)} for v in violations]


def linked_message(message: str, unit_name: str) -> tuple[str, str]:
    """(the unit's name as the message begins with it, the rest), so a page links the name once rather
    than printing "Steam Tank Steam Tank is One of a Kind"; ("", message) when it does not begin so."""
    if unit_name and message.startswith(unit_name) and message[len(unit_name):len(unit_name) + 1] in (" ", ":", ",", "'"):
        return unit_name, message[len(unit_name):]
    return "", message
