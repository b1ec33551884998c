"""BattleScribe data in the test database as `manage.py import_battlescribe FILES` stores it, with the files read,
converted and checked once per run: the conversion is the import's cost (a second or more for a catalogue of
the shared data), and tests that only read the imported books need not pay it each time. Each test stores the
rows again (its database is rolled back after it). Tests of the command itself still call the command."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=None)
def _rows(sources: tuple[str, ...]) -> tuple[tuple, str]:
    from armylists.importers.battlescribe import convert, read_sources, verify
    from armylists.lists.library.catalogue import our_system_name
    from armylists.importers.storing import battlescribe_files

    conversion = convert(read_sources(list(sources)), source=None, ours=our_system_name)
    verify(conversion)
    rows, hint = battlescribe_files(conversion)
    return tuple(rows), hint


def import_battlescribe(*sources: str | Path) -> list[str]:
    """What the command stores for these files (in this order), in the test database; what was created."""
    from armylists.importers.storing import store_rules_files
    from armylists.lists.trees import battlescribe_data

    rows, hint = _rows(tuple(str(s) for s in sources))
    created, _, refused = store_rules_files(list(rows), hint)
    assert not refused, refused
    battlescribe_data.clear()
    return created
