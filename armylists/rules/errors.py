"""The engine's own exceptions: bad rules data and bad list documents.

Both carry where the problem is (a file and a path inside it), so every caller can print one clear
line instead of a traceback.
"""
from __future__ import annotations


def format_path(path: tuple | list) -> str:
    """`('entries', 3, 'options', 0, 'cost')` -> `entries[3].options[0].cost`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


class RulesError(Exception):
    """Base class of everything the engine raises on purpose."""

    def __init__(self, source: str, path: tuple | list, reason: str):
        self.source = source
        self.path = tuple(path)
        self.reason = reason
        super().__init__(f"{source}: {format_path(self.path)}: {reason}")


class RulesDataError(RulesError):
    """A rules data file (system, items, book) is malformed or refers to something missing."""


class ListDocumentError(RulesError):
    """A list document cannot be read: not JSON, wrong shape, or names a book we do not have."""
