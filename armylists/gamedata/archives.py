"""A downloaded archive checked, then unpacked into a folder, and what kind of data it holds.

    folder = unpack(data, target, max_files=5000, max_unpacked=256 MB)  # the one top folder, if any
    kind = guess_kind(folder)                                             # battlescribe, owb, nr-t9a

Every check is made on the archive's table of contents before a byte is unpacked: the number of files,
what they unpack to together, names that leave the folder (`../x`, `/x`, `C:x`), and members that
unpack to far more than their packed size (a zip bomb). Links are never made: every member is written
as a plain file. Standard library only.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path, PurePosixPath

MAX_RATIO = 200  # text packs 10 to 20 times; a bomb packs thousands of times


class ArchiveError(Exception):
    """An archive refused or unreadable; str() is one sentence for people."""


def unpack(data: bytes, target: Path, max_files: int, max_unpacked: int) -> Path:
    """Unpack the zip `data` under `target` (an empty folder); the folder its files sit in: the
    archive's one top folder (as GitHub's archives have), else `target`."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveError(f"the download is not a readable zip archive ({exc})") from None
    files = [m for m in members if not m.is_dir()]
    if len(files) > max_files:
        raise ArchiveError(f"the archive holds {len(files)} files; at most {max_files} are unpacked")
    total = sum(m.file_size for m in files)
    if total > max_unpacked:
        raise ArchiveError(f"the archive unpacks to {total} bytes; at most {max_unpacked}")
    tops = set()
    for member in members:
        name = member.filename.replace("\\", "/")
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts or (parts and ":" in parts[0]) or "\x00" in name:
            raise ArchiveError(f"the archive names a path outside itself ({member.filename!r}); refused")
        if member.file_size > MAX_RATIO * max(member.compress_size, 1) and member.file_size > 1 << 20:
            raise ArchiveError(f"{member.filename} unpacks to {member.file_size // max(member.compress_size, 1)} "
                               f"times its packed size: a zip bomb; refused")
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
                    out.write(chunk)
        except (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError, EOFError) as exc:
            raise ArchiveError(f"{member.filename} cannot be unpacked ({exc})") from None
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

