"""Where New Recruit's T9A data is read from: a checkout folder, a zip of one, or a git bundle/repository.

    source = open_source(Path("nr-t9a.bundle"))      # a git source: every commit is a version
    snapshot = source.at("2025-03-01")               # the last commit before that day (or a commit id)
    snapshot.json("de.json")

A folder or a zip is one snapshot, dated by its newest file. For git the files are read with `git`
itself (`git clone --bare` of a bundle into a temporary folder, then `git cat-file`); nothing is
checked out. Each file also has a key (its blob id, or a hash of its bytes) so a caller may keep what
it made from a file and make it again only when the file changed.

Every source is untrusted: a zip is unpacked by the one archive reader (armylists/rules/reading/archives.py, one
budget for the run, nested archives included), each file is at most MAX_FILE_BYTES, and each is decoded
by `load_json` (no NaN or Infinity, no number past 2^53, no NUL or lone surrogate, at most 32 levels deep:
the deepest army file of the history is 21), so a hostile file is a `NrSourceError` naming it.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from armylists.rules.reading.archives import UNPACKING_ERRORS, ArchiveError, unpack, unpack_budget
from armylists.rules.reading.plain_data import UnstorableData, load_json

# The converter's revision: a stored version's content never changes, so a book the converter now reads
# otherwise (2: Keys to the Citadel, untyped mounts; 3: the pools offered unasked, Fresh Meat; 4: rarity and the
# unit cost cap; 5: group minimums, a unit's own bounds; 6: an allowance raised by either of two refs, an option
# taken once per spell it gives) is another version of the same data and date.
IMPORTER_REVISION = 7  # 7: army-wide limits named in a player's words, not by ref; a Battle Rune chosen
_VERSION = re.compile(r"(?P<data>.*)@(?P<date>\d{4}-\d{2}-\d{2})(?:\.i(?P<revision>\d+))?")


def book_version(data_version: str, date: str) -> str:
    """An imported book's version: the data's own version, its commit date, the converter's revision where
    it is past the first ("2024 beta1@2025-10-10.i4")."""
    return f"{data_version}@{date}" + (f".i{IMPORTER_REVISION}" if IMPORTER_REVISION > 1 else "")


def version_date(version: str) -> str:
    """The commit date of an imported version ("2024 beta1@2025-10-10.i4" -> "2025-10-10"), or ""."""
    found = _VERSION.fullmatch(version)
    return found["date"] if found else ""

# The files of the repository that are not armies (FORMAT.md, "Files").
SHARED_FILES = ("special.json", "spells.json", "ruledefs.json", "unitstats.json")
MAX_FILE_BYTES = 16 << 20  # one file; the largest army file of the history is 1.3 MB
MAX_ZIP_BYTES = 64 << 20  # a zip of a checkout, read whole (a checkout is about 20 MB)
MAX_FILES = 1000  # JSON files of a folder; a checkout holds 20 to 30


class NrSourceError(Exception):
    """The source cannot be read: names what and why, in one line."""


@dataclass
class Snapshot:
    """The data at one commit (or one folder): file name -> bytes, read on demand."""
    commit: str
    date: str  # YYYY-MM-DD of the commit (UTC), or of the folder's newest file
    keys: dict[str, str]  # file name -> a key that changes when the file does
    _read: object = field(repr=False)
    _cache: dict = field(default_factory=dict, repr=False)

    def names(self) -> list[str]:
        return sorted(self.keys)

    def army_files(self) -> list[str]:
        return [n for n in self.names() if n.endswith(".json") and n not in SHARED_FILES]

    def json(self, name: str) -> dict:
        if name not in self._cache:
            try:
                self._cache[name] = load_json(self._read(name))
            except UnstorableData as exc:
                where = "".join(f"[{p!r}]" for p in exc.path)
                raise NrSourceError(f"{name}{where} at {self.commit}: {exc.reason}; refused") from None
            except ValueError as exc:  # not JSON, or not UTF-8 (UnicodeDecodeError)
                raise NrSourceError(f"{name} at {self.commit}: not JSON ({exc})") from None
        return self._cache[name]


class FolderSource:
    def __init__(self, files: dict[str, bytes], label: str, date: str):
        self.files, self.label, self.date = files, label, date

    def commits(self) -> list[tuple[str, str]]:
        return [(self.label, self.date)]

    def at(self, when: str | None = None) -> Snapshot:
        keys = {n: hashlib.sha1(b).hexdigest() for n, b in self.files.items()}
        return Snapshot(self.label, self.date, keys, self.files.__getitem__)

    def close(self) -> None:
        pass


class GitSource:
    """A git repository (a bundle is cloned bare into a temporary folder first)."""

    def __init__(self, path: Path):
        self._tmp = None
        if path.is_file():  # a bundle
            self._tmp = tempfile.mkdtemp(prefix="nr-t9a-")
            self._git(["clone", "--quiet", "--bare", str(path), self._tmp], cwd=None)
            self.git_dir = self._tmp
        else:
            self.git_dir = str(path / ".git") if (path / ".git").exists() else str(path)
        out = self._git(["log", "--format=%H %ct", "HEAD"])
        self._commits = []  # oldest first: (commit, date)
        for line in reversed(out.splitlines()):
            commit, stamp = line.split()
            self._commits.append((commit, datetime.fromtimestamp(int(stamp), timezone.utc).strftime("%Y-%m-%d")))
        self._batch = None

    def _git(self, args: list[str], cwd: str | None = "", data: bytes | None = None) -> str:
        command = ["git"] + ([] if cwd is None else ["--git-dir", self.git_dir]) + args
        try:
            done = subprocess.run(command, capture_output=True, input=data, check=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            detail = (getattr(exc, "stderr", b"") or b"").decode(errors="replace").strip()
            first = detail.splitlines()[0] if detail else str(exc)  # one line: git's first says what is wrong
            raise NrSourceError(f"git {' '.join(args[:2])}: {first}") from None
        return done.stdout.decode()

    def commits(self) -> list[tuple[str, str]]:
        return list(self._commits)

    def resolve(self, when: str | None) -> tuple[str, str]:
        """`when`: None (the newest commit), a date YYYY-MM-DD (the last commit before that day), or a commit."""
        if when is None:
            return self._commits[-1]
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", when):
            before = [c for c in self._commits if c[1] < when]
            if not before:
                raise NrSourceError(f"no commit before {when} (the first is of {self._commits[0][1]})")
            return before[-1]
        for commit, date in self._commits:
            if commit.startswith(when.lower()):
                return commit, date
        raise NrSourceError(f"{when!r} is no commit of the repository (nor a date YYYY-MM-DD)")

    def at(self, when: str | None = None) -> Snapshot:
        commit, date = self.resolve(when)
        keys = {}
        for line in self._git(["ls-tree", commit]).splitlines():
            meta, name = line.split("\t", 1)
            _, kind, blob = meta.split()
            if kind == "blob":
                keys[name] = blob
        return Snapshot(commit[:7], date, keys, lambda name: self._blob(keys[name]))

    def _blob(self, blob: str) -> bytes:
        if self._batch is None:
            self._batch = subprocess.Popen(["git", "--git-dir", self.git_dir, "cat-file", "--batch"],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._batch.stdin.write(blob.encode() + b"\n")
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) != 3:
            raise NrSourceError(f"git cat-file: no blob {blob}")
        if int(header[2]) > MAX_FILE_BYTES:
            # The rest of the blob is never read. git is still writing it into the pipe and blocks once the
            # pipe is full, so it would never see stdin close and never exit: it is stopped, not waited for
            # (waiting was the hang of a bundle holding a file over 16 MiB).
            self._stop_batch(kill=True)
            raise NrSourceError(f"blob {blob} is {int(header[2])} bytes; at most {MAX_FILE_BYTES} are read")
        data = self._batch.stdout.read(int(header[2]))
        self._batch.stdout.read(1)
        return data

    def _stop_batch(self, kill: bool = False) -> None:
        """End `git cat-file --batch`: every answer read, it exits when its input closes; mid-answer, killed."""
        if self._batch is None:
            return
        if kill:
            self._batch.kill()
        self._batch.stdin.close()
        self._batch.stdout.close()
        self._batch.wait()
        self._batch = None

    def close(self) -> None:
        self._stop_batch()
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None


def _newest(stamps: list[float]) -> str:
    return datetime.fromtimestamp(max(stamps or [0]), timezone.utc).strftime("%Y-%m-%d")


def open_source(path: Path) -> FolderSource | GitSource:
    """The data at `path`: a git bundle or repository, a zip of a checkout, or a checkout folder."""
    path = Path(path)
    if not path.exists():
        raise NrSourceError(f"{path}: no such file or folder")
    if path.is_file() and (path.suffix.lower() == ".zip" or zipfile.is_zipfile(path) or _starts_as_zip(path)):
        return _zip_source(path)
    if path.is_file() or (path / "HEAD").is_file() or (path / ".git").exists():
        return GitSource(path)
    paths = sorted(path.glob("*.json"))
    if not paths:
        raise NrSourceError(f"{path}: no JSON files (a checkout of vflam/nr-t9a holds de.json, dh.json, ...)")
    if len(paths) > MAX_FILES:
        raise NrSourceError(f"{path}: holds {len(paths)} JSON files; at most {MAX_FILES} are read")
    files = {p.name: _read_capped(p, MAX_FILE_BYTES) for p in paths}
    return FolderSource(files, path.name, _newest([p.stat().st_mtime for p in paths]))


def _starts_as_zip(path: Path) -> bool:
    """A zip cut short has no directory (is_zipfile says no) but still begins as one: not a git bundle."""
    with open(path, "rb") as f:
        return f.read(4) == b"PK\x03\x04"


def _read_capped(path: Path, cap: int) -> bytes:
    try:
        size = path.stat().st_size
        if size > cap:
            raise NrSourceError(f"{path} is {size} bytes; at most {cap} are read")
        return path.read_bytes()
    except OSError as exc:
        raise NrSourceError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _zip_source(path: Path) -> FolderSource:
    """A zip of a checkout: its .json files (by their names without folders), unpacked within the run's budget;
    a nested archive among them is unpacked in turn, within the reader's depth."""
    data = _read_capped(path, MAX_ZIP_BYTES)
    files: dict[str, bytes] = {}
    try:
        with unpack_budget("run"):
            for where, body in unpack(data, path.name, member_bytes=MAX_FILE_BYTES, kind="run",
                                      pick=lambda name: name.endswith(".json")):
                name = PurePosixPath(where.rsplit("!", 1)[-1]).name
                if name in files:
                    raise NrSourceError(f"{where}: a second file named {name}; refused")
                files[name] = body
        with zipfile.ZipFile(path) as z:  # its directory was judged by the reader above
            stamps = [datetime(*m.date_time, tzinfo=timezone.utc).timestamp() for m in z.infolist()
                      if m.filename.endswith(".json")]
    except ArchiveError as exc:
        raise NrSourceError(str(exc)) from None
    except UNPACKING_ERRORS as exc:
        raise NrSourceError(f"{path}: not a readable zip archive ({exc})") from None
    if not files:
        raise NrSourceError(f"{path}: the archive holds no JSON files")
    return FolderSource(files, path.stem, _newest(stamps))
