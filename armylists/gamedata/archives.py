"""A downloaded archive checked, then unpacked into a folder, and what kind of data it holds.

    folder = unpack(data, target, max_files=5000, max_unpacked=256 MB)  # the one top folder, if any
    kind = guess_kind(folder)                                             # battlescribe, owb, nr-t9a

Every check is made on the archive's table of contents before a byte is unpacked: the number of files,
what they unpack to together, names that leave the folder (`../x`, `/x`, `C:x`), and members that
unpack to far more than their packed size (a zip bomb, every member whatever its size). Links are never
made: every member is written as a plain file. Its files and bytes are taken from the budget open for the
update (armylists/rules/archives.py, "an import run"), which the catalogues' own archives (.catz) share
when the folder is imported, one level deeper. Standard library only.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path, PurePosixPath

from armylists.rules import archives as shared


class ArchiveError(Exception):
    """An archive refused or unreadable; str() is one sentence for people."""


def unpack(data: bytes, target: Path, max_files: int, max_unpacked: int) -> Path:
    """Unpack the zip `data` under `target` (an empty folder); the folder its files sit in: the
    archive's one top folder (as GitHub's archives have), else `target`."""
    try:
        with shared.unpack_budget("run") as budget:
            return _unpack(data, target, max_files, max_unpacked, budget)
    except shared.ArchiveError as exc:  # the run's budget: files or bytes past it
        raise ArchiveError(exc.message) from None


def _unpack(data: bytes, target: Path, max_files: int, max_unpacked: int, budget: shared.Budget) -> Path:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except shared.UNPACKING_ERRORS as exc:  # NotImplementedError too: a zip version past 6.3
        raise ArchiveError(f"the download is not a readable zip archive ({exc})") from None
    files = [m for m in members if not m.is_dir()]
    if len(files) > max_files:
        raise ArchiveError(f"the archive holds {len(files)} files; at most {max_files} are unpacked")
    total = sum(m.file_size for m in files)
    if total > max_unpacked:
        raise ArchiveError(f"the archive unpacks to {total} bytes; at most {max_unpacked}")
    budget.take_members(len(members), "the archive")
    budget.check_bytes(total, "the archive")
    tops = set()
    for member in members:
        name = member.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts or (parts and ":" in parts[0]) or "\x00" in name:
            raise ArchiveError(f"the archive names a path outside itself ({member.filename!r}); refused")
        if member.file_size > budget.limits.ratio * max(member.compress_size, 1):  # whatever its size
            raise ArchiveError(f"{member.filename} unpacks to {member.file_size // max(member.compress_size, 1)} "
                               f"times its packed size, more than {budget.limits.ratio}: a zip bomb; refused")
        if parts:
            tops.add(parts[0] if len(parts) > 1 or member.is_dir() else "")
    written = 0
    for member in files:
        path = target.joinpath(*PurePosixPath(member.filename.replace("\\", "/")).parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with archive.open(member) as source, open(path, "wb") as out:
                # The sizes in the table of contents may lie: never write more than the cap in all.
                while chunk := source.read(1 << 16):
                    written += len(chunk)
                    if written > max_unpacked:
                        raise ArchiveError(f"the archive unpacks to more than {max_unpacked} bytes; refused")
                    budget.take_bytes(len(chunk), member.filename)
                    out.write(chunk)
        except shared.UNPACKING_ERRORS as exc:
            raise ArchiveError(f"{member.filename} cannot be unpacked ({exc})") from None
    budget.outer = 1  # what is read from the folder next is inside this archive
    if len(tops) == 1 and "" not in tops:
        return target / next(iter(tops))
    return target


KIND_NAMES = {"battlescribe": "BattleScribe data (.gst and .cat files)",
              "owb": "Old World Builder's data (the-old-world-system.json or src/assets/the-old-world.json)",
              "nr-t9a": "New Recruit T9A data (army .json files with unitstats.json)"}


def guess_kind(folder: Path) -> str:
    """battlescribe, owb or nr-t9a, from the files the folder holds; ArchiveError when none fits."""
    names = {p.name.lower() for p in folder.rglob("*") if p.is_file()}
    if any(n.endswith((".gst", ".gstz")) for n in names):
        return "battlescribe"
    if (folder / "the-old-world-system.json").is_file() or (folder / "src/assets/the-old-world.json").is_file():
        return "owb"
    if "unitstats.json" in names and "ruledefs.json" in names:
        return "nr-t9a"
    raise ArchiveError("cannot tell what kind of game data this is: it holds no " + "; no ".join(KIND_NAMES.values())
                       + ". Name the kind (--kind battlescribe, owb or nr-t9a).")

