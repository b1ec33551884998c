"""Zip archives from outside, unpacked within one budget: every upload and every import run reads them here.

    with unpack_budget("request"):                       # one budget for everything the request unpacks
        for where, body in unpack(data, "army.rosz", member_bytes=8 << 20, one_file=True):
            ...

Every archive is untrusted. What an archive holds is judged from its directory before any member is
unpacked: a name that leaves the archive (`../x`, `/etc/x`, `C:/x`), a member over the caller's cap, one
that unpacks to more than `MAX_RATIO` times its packed size (every member, whatever its size), members or
bytes past what is left of the budget. A member is then unpacked in pieces, counted as it comes: zipfile
never gives more than the directory's size, and the count stops a member the moment it passes a cap.
A member that is itself a zip is unpacked in turn, within the same budget, at most `MAX_DEPTH` archives
deep (so 1,200 nested archives are refused at the fourth; the reader's recursion never goes deeper).

One budget (`Budget`) covers everything unpacked while it is open, at every level of nesting and across
every file: an event upload of 200 rosters has one, as has one run of `import_battlescribe`. Readers
deep in the importers find it through a context variable, so the list formats' `read(data, source)` keep
their shape; with none open, each call gets a budget of its own. Standard library only: the importers'
pure parts, the list files part, events, the API and the commands may all import it.
"""
from __future__ import annotations

import io
import lzma
import zipfile
import zlib
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Callable, Iterator

MAX_RATIO = 100  # XML packs 10 to 20 times; a bomb packs hundreds to thousands of times
MAX_DEPTH = 3  # a repository's .zip holding a .catz holding a catalogue is 2
CHUNK = 1 << 16
DIRECTORY_BYTES_PER_FILE = 300  # an entry is 46 bytes and its name; 300 allows names of 200 characters and more
ZIP_MAGIC = b"PK\x03\x04"


@dataclass(frozen=True)
class Limits:
    """What one budget may unpack, in all: bytes, directory entries, archives nested."""
    total_bytes: int
    members: int
    scope: str  # who the budget is for, as the messages say it ("one upload", "one import run")
    depth: int = MAX_DEPTH
    ratio: int = MAX_RATIO


# Looked up when a budget opens, so tests may put scaled-down limits here (monkeypatch.setitem).
LIMITS: dict[str, Limits] = {
    # A request: rosters only (a .rosz holds one, an event upload at most 200); a list is under 512 kB.
    "request": Limits(total_bytes=32 << 20, members=1000, scope="one upload"),
    # One run of import_battlescribe: a whole data repository (the largest we know unpacks to ~100 MB).
    "run": Limits(total_bytes=256 << 20, members=5000, scope="one import run"),
}


class ArchiveError(Exception):
    """An archive refused; `source` is the archive or member (`a.zip!b.catz!c.cat`), str() the line to print."""

    def __init__(self, source: str, message: str):
        self.source, self.message = source, message
        super().__init__(f"{source}: {message}")


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n} bytes"


class Budget:
    """What is left to unpack under one `Limits`: bytes and members taken so far, at every depth."""

    def __init__(self, limits: Limits):
        self.limits, self.bytes, self.members = limits, 0, 0
        # Archive levels already open around what this budget unpacks next: a downloaded repository unpacked
        # into a folder (armylists/gamedata) makes its .catz the second level, as in import_battlescribe.
        self.outer = 0

    def take_members(self, count: int, source: str) -> None:
        self.members += count
        if self.members > self.limits.members:
            raise ArchiveError(source, f"unpacking it would pass {self.limits.members} files, the most "
                                       f"{self.limits.scope} may unpack (every file and nested archive counted); "
                                       f"refused")

    def check_bytes(self, count: int, source: str) -> None:
        if self.bytes + count > self.limits.total_bytes:
            raise ArchiveError(source, f"unpacking it would pass {_size(self.limits.total_bytes)}, the most "
                                       f"{self.limits.scope} may unpack (every file and nested archive counted); "
                                       f"refused")

    def take_bytes(self, count: int, source: str) -> None:
        self.check_bytes(count, source)
        self.bytes += count


_budget: ContextVar[Budget | None] = ContextVar("armylists_unpack_budget", default=None)


@contextmanager
def unpack_budget(kind: str = "request", limits: Limits | None = None) -> Iterator[Budget]:
    """Open one budget (`limits`, else `LIMITS[kind]`) for every archive unpacked inside; within an open
    one, that one. A caller whose limits are settings (a game data update's) passes them as `limits`."""
    current = _budget.get()
    if current is not None:
        yield current
        return
    budget = Budget(limits or LIMITS[kind])
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


def current_budget() -> Budget | None:
    """The budget open here (`unpack_budget`), if any."""
    return _budget.get()


def is_zip(data: bytes) -> bool:
    return data[:4] == ZIP_MAGIC


def unpack(data: bytes, source: str, *, member_bytes: int, pick: Callable[[str], bool] | None = None,
           one_file: bool = False, kind: str = "request", nested: bool = True) -> Iterator[tuple[str, bytes]]:
    """(where, bytes) of each file the archive holds, a zip in it unpacked in turn, or an `ArchiveError`.

    `pick(name)` chooses the outermost archive's members to read (default: every file; the rest are
    never unpacked); an archive nested in it is read whole. `one_file`: the archive, and any archive in
    it, must hold exactly one file (a roster's .rosz) and nothing else is unpacked. `member_bytes` caps
    each member. `nested` False: a zip member is given as it is, not opened (a caller writing files to a
    folder, whose reader opens them later within the same budget). The budget is the one open
    (`unpack_budget`), else one of `LIMITS[kind]` for this call."""
    budget = _budget.get() or Budget(LIMITS[kind])
    if not nested:
        yield from _members(data, source, budget, member_bytes, pick, one_file)
        return
    yield from _unpack(data, source, budget, member_bytes, pick, one_file, 1 + budget.outer)


def _unpack(data: bytes, source: str, budget: Budget, member_bytes: int, pick: Callable[[str], bool] | None,
            one_file: bool, depth: int) -> Iterator[tuple[str, bytes]]:
    for where, body in _members(data, source, budget, member_bytes, pick, one_file):
        if not is_zip(body):
            yield where, body
        elif depth >= budget.limits.depth:  # recursion stops here, at a few levels
            raise ArchiveError(where, f"archives nested more than {budget.limits.depth} deep; refused")
        else:
            yield from _unpack(body, where, budget, member_bytes, None, one_file, depth + 1)


def _members(data: bytes, source: str, budget: Budget, member_bytes: int, pick: Callable[[str], bool] | None,
             one_file: bool) -> Iterator[tuple[str, bytes]]:
    """The chosen members of one archive: everything judged from its directory first, then each streamed."""
    directory, room = _directory_bytes(data), (budget.limits.members - budget.members) * DIRECTORY_BYTES_PER_FILE
    if directory is not None and directory > room:  # zipfile reads it whole: 100,000 entries in 8 MiB, 0.8 s
        raise ArchiveError(source, f"its directory is {directory} bytes, more than {room} (300 for each file "
                                   f"{budget.limits.scope} may still unpack); refused")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except UNPACKING_ERRORS as exc:  # NotImplementedError: a directory naming a zip version past 6.3 (a 500 before)
        raise ArchiveError(source, f"is not a readable zip archive ({exc})") from None
    budget.take_members(len(infos), source)
    files = []
    for info in infos:
        name = info.filename
        if not name:  # zipfile's is_dir() fails on it (an IndexError, a 500 before)
            raise ArchiveError(source, "a member of the archive has no name; refused")
        parts = PurePosixPath(name.replace("\\", "/")).parts
        if name.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
            raise ArchiveError(f"{source}!{name}", "the archive names a path outside itself; refused")
        if not info.is_dir() and (pick is None or pick(name)):
            files.append(info)
    if one_file and len(files) != 1:
        raise ArchiveError(source, f"holds {len(files)} files; a roster archive (.rosz) holds one roster and "
                                   f"nothing else; refused")
    for info in files:
        where = f"{source}!{info.filename}"
        if info.file_size > member_bytes:
            raise ArchiveError(where, f"unpacks to {info.file_size} bytes; at most {member_bytes}")
        if info.file_size > budget.limits.ratio * max(info.compress_size, 1):
            raise ArchiveError(where, f"unpacks {info.file_size // max(info.compress_size, 1)} times its packed "
                                      f"size, more than {budget.limits.ratio}: a zip bomb; refused")
    budget.check_bytes(sum(info.file_size for info in files), source)
    for info in files:
        yield f"{source}!{info.filename}", _read(archive, info, f"{source}!{info.filename}", budget, member_bytes)


def _directory_bytes(data: bytes) -> int | None:
    """The size of the central directory as zipfile will read it (zip64's where the plain record defers to
    it), or None when there is no end record (zipfile then refuses the archive)."""
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - (1 << 16) - 22))
    if end < 0 or end + 22 > len(data):
        return None
    size = int.from_bytes(data[end + 12:end + 16], "little")
    record = end - 20 - 56  # zip64's end record, then its locator, just before the plain one
    if record >= 0 and data[end - 20:end - 16] == b"PK\x06\x07" and data[record:record + 4] == b"PK\x06\x06":
        size = int.from_bytes(data[record + 40:record + 48], "little")
    return size


UNPACKING_ERRORS = (zipfile.BadZipFile, OSError, NotImplementedError, RuntimeError, EOFError, ValueError, zlib.error,
                    lzma.LZMAError)


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: str, budget: Budget, member_bytes: int) -> bytes:
    """One member, in pieces, each counted before the next is unpacked (zipfile stops at the directory's size)."""
    chunks, size = [], 0
    try:
        with archive.open(info) as f:
            while chunk := f.read(CHUNK):
                size += len(chunk)
                if size > member_bytes:
                    raise ArchiveError(where, f"unpacks to more than {member_bytes} bytes; refused")
                budget.take_bytes(len(chunk), where)
                chunks.append(chunk)
    except UNPACKING_ERRORS as exc:
        raise ArchiveError(where, f"cannot be unpacked ({exc})") from None
    return b"".join(chunks)
