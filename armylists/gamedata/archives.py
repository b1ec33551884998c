"""A downloaded archive unpacked into a folder through the one archive reader, and what kind of data it holds.

    with unpack_budget(limits=update_limits()):          # one budget for the whole update
        folder = unpack(data, target, "BSData-mordheim-v1.0.zip")  # the one top folder, if any
        kind = guess_kind(folder)                         # battlescribe, owb, nr-t9a
        ... import the folder (a .catz in it is opened later, within the same budget) ...

Every check is the reader's (armylists/rules/reading/archives.py), made on the archive's directory before a
byte is unpacked: the files and bytes left in the update's budget, names that leave the folder (`../x`,
`/x`, `C:x`), members that unpack to far more than their packed size; each member is then unpacked in
pieces, counted as it comes. Here a member is only written as a plain file (links are never made).
"""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from django.conf import settings

from armylists.rules.reading.archives import ArchiveError, Limits, current_budget
from armylists.rules.reading.archives import unpack as read_members

__all__ = ["ArchiveError", "KIND_NAMES", "guess_kind", "unpack", "update_limits"]

# What Linux file systems hold (NAME_MAX, PATH_MAX with its closing NUL): past them writing is an OSError.
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 4096


def update_limits() -> Limits:
    """What one game data update may unpack in all: the download and every archive in it."""
    return Limits(total_bytes=settings.GAME_DATA_MAX_UNPACKED, members=settings.GAME_DATA_MAX_FILES,
                  scope="one game data update")


def unpack(data: bytes, target: Path, source: str) -> Path:
    """Unpack the zip `data` (named `source` in messages) under `target`, an empty folder, within the open
    budget; the folder its files sit in: the archive's one top folder (as GitHub's archives have), else
    `target`. An archive inside it is written as a file, not opened."""
    budget = current_budget()
    cap = budget.limits.total_bytes if budget is not None else settings.GAME_DATA_MAX_UNPACKED
    names: list[tuple[str, ...]] = []
    files: set[tuple[str, ...]] = set()
    folders: set[tuple[str, ...]] = set()
    for where, body in read_members(data, source, member_bytes=cap, nested=False):
        if "\x00" in where:  # no file system takes it; refused as any name outside the folder is
            raise ArchiveError(where.replace("\x00", "\\x00"), "the archive names a path with a NUL byte; refused")
        parts = PurePosixPath(where[len(source) + 1:].replace("\\", "/")).parts
        path = target.joinpath(*parts)
        _check_name(where, parts, path, files, folders)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
        except OSError as exc:  # what the checks cannot foresee (a full disk): still a refusal, not a traceback
            raise ArchiveError(where, f"cannot be written to disk ({exc.strerror or exc}); refused") from None
        files.add(parts)
        folders.update(parts[:i] for i in range(1, len(parts)))
        names.append(parts)
    if budget is not None:
        budget.outer = 1  # what is read from the folder next (a .catz) is one level inside this archive
    tops = {parts[0] if len(parts) > 1 else "" for parts in names}
    if len(tops) == 1 and "" not in tops:
        return target / next(iter(tops))
    return target


def _check_name(where: str, parts: tuple[str, ...], path: Path, files: set, folders: set) -> None:
    """Refuse a member the disk cannot hold as the archive names it, before anything is written: a file
    where an earlier member needs a folder (`top/a.cat`, then `top/a.cat/b.cat`; a link is written as a plain
    file, so a path under a link is the same clash) or the other way round, the same file twice, a name past
    the file system's 255 bytes, a path past its 4,096."""
    if parts in files:
        raise ArchiveError(where, "the archive holds this file twice; refused")
    if parts in folders:
        raise ArchiveError(where, "the archive holds a file of this name and files under it as a folder; refused")
    for i in range(1, len(parts)):
        if parts[:i] in files:
            raise ArchiveError(where, f"is under {'/'.join(parts[:i])}, which the archive holds as a file (or a link)"
                                      "; refused")
    for part in parts:
        if len(os.fsencode(part)) > MAX_NAME_BYTES:
            raise ArchiveError(where[:80] + "...", f"names a file or folder of {len(os.fsencode(part))} bytes; "
                                                   f"at most {MAX_NAME_BYTES}; refused")
    if len(os.fsencode(str(path))) >= MAX_PATH_BYTES:
        raise ArchiveError(where[:80] + "...", f"unpacks to a path of {len(os.fsencode(str(path)))} bytes; "
                                               f"less than {MAX_PATH_BYTES} is allowed; refused")


KIND_NAMES = {"battlescribe": "BattleScribe data (.gst and .cat files)",
              "owb": "Old World Builder's data (the-old-world-system.json or src/assets/the-old-world.json)",
              "nr-t9a": "New Recruit T9A data (army .json files with unitstats.json)"}


class UnknownKind(ArchiveError):
    def __init__(self, message: str):
        super().__init__("", message)

    def __str__(self) -> str:
        return self.message


def guess_kind(folder: Path) -> str:
    """battlescribe, owb or nr-t9a, from the files the folder holds; UnknownKind when none fits."""
    names = {p.name.lower() for p in folder.rglob("*") if p.is_file()}
    if any(n.endswith((".gst", ".gstz")) for n in names):
        return "battlescribe"
    if any((folder / f).is_file() for f in ("the-old-world-system.json", "src/assets/the-old-world.json",
                                            "src/assets/armies.json")):
        return "owb"
    if "unitstats.json" in names and "ruledefs.json" in names:
        return "nr-t9a"
    raise UnknownKind("cannot tell what kind of game data this is: it holds no " + "; no ".join(KIND_NAMES.values())
                      + ". Name the kind (--kind battlescribe, owb or nr-t9a).")
