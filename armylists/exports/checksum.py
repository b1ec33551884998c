"""The list document as JSON, and the short checksum printed on every roster.

The JSON export is the canonical document itself (`roster_to_dict`), so reading it back with
`parse_roster_json` gives the same Roster. The checksum hashes that same document with sorted keys and
no spaces, so it depends on what the list says, not on how a file was indented: an organiser matches a
printed roster with a submitted file by comparing ten characters.
"""
from __future__ import annotations

import hashlib
import json

from armylists.rules import Roster, roster_to_dict

CHECKSUM_LENGTH = 10  # 40 bits: a collision between two lists of one event is not a practical worry


def document_json(roster: Roster) -> str:
    """The canonical list document, indented for people, ending with a newline."""
    return json.dumps(roster_to_dict(roster), indent=2, ensure_ascii=False) + "\n"


def checksum(roster: Roster) -> str:
    """First 10 hex digits of the SHA-256 of the canonical document (sorted keys, no spaces, UTF-8)."""
    canonical = json.dumps(roster_to_dict(roster), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:CHECKSUM_LENGTH]
