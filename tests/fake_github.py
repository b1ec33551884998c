"""A small fake of GitHub's public API on 127.0.0.1, for the game data tests (no packet leaves loopback).

    with FakeGitHub() as hub:
        hub.repos["BSData/mordheim"] = Repo(release="v1.0", archive=zip_of(folder, "BSData-mordheim-1a2b3c4"))
        ... settings.GAME_DATA_GITHUB_API = hub.url ...

It answers what armylists/gamedata/github.py asks: `releases/latest` (404 when the repository has made
no release), the repository (its default branch), `commits/<branch>` (sha and committer date), and
`zipball/<ref>`, which redirects to `/archives/<ref>.zip` (or wherever `Repo.redirect` says), whose body
is `Repo.archive`. `Repo.block` holds the archive's answer until it is set.
"""
from __future__ import annotations

import io
import json
import threading
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

EXTERNAL = Path(__file__).resolve().parents[1].parent / "shared" / "external"


@dataclass
class Repo:
    archive: bytes = b""
    release: str | None = None  # the latest release's tag; None: no release (404)
    sha: str = "0123456789abcdef0123456789abcdef01234567"
    branch: str = "main"
    date: str = "2026-03-04T05:06:07Z"
    redirect: str | None = None  # where zipball redirects; default /archives/<ref>.zip on this server
    archive_status: int = 200
    block: threading.Event | None = None
    archive_asked: threading.Event = field(default_factory=threading.Event)
    release_body: bytes | None = None  # releases/latest's body as sent, when a test needs a broken one


def zip_of(files: dict[str, bytes], top: str) -> bytes:
    """A zip of `files` (name -> content) under the one top folder `top`, as GitHub's archives are."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{top}/", b"")
        for name, content in files.items():
            archive.writestr(f"{top}/{name}", content)
    return buffer.getvalue()


def files_from(folder: Path, names: list[str]) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in names}


class FakeGitHub:
    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.asked: list[str] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                hub.asked.append(self.path)
                hub.answer(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> FakeGitHub:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        for repo in self.repos.values():
            if repo.block is not None:
                repo.block.set()
        self.server.shutdown()
        self.server.server_close()

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        path = handler.path
        if path.startswith("/archives/"):
            name = path[len("/archives/"):].rpartition("@")[0].replace("~", "/")
            repo = self.repos.get(name)
            if repo is None:
                return self.send(handler, 404, b"{}")
            repo.archive_asked.set()
            if repo.block is not None:
                repo.block.wait(10)
            if repo.archive_status != 200:
                return self.send(handler, repo.archive_status, b"")
            return self.send(handler, 200, repo.archive, "application/zip")
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != "repos" or f"{parts[1]}/{parts[2]}" not in self.repos:
            return self.send(handler, 404, b'{"message": "Not Found"}')
        name, repo, rest = f"{parts[1]}/{parts[2]}", self.repos[f"{parts[1]}/{parts[2]}"], parts[3:]
        if rest == []:
            return self.json(handler, {"full_name": name, "default_branch": repo.branch})
        if rest == ["releases", "latest"]:
            if repo.release_body is not None:
                return self.send(handler, 200, repo.release_body)
            if repo.release is None:
                return self.send(handler, 404, b'{"message": "Not Found"}')
            return self.json(handler, {"tag_name": repo.release, "published_at": repo.date})
        if rest == ["commits", repo.branch]:
            return self.json(handler, {"sha": repo.sha, "commit": {"committer": {"date": repo.date}}})
        if len(rest) == 2 and rest[0] == "zipball":
            location = repo.redirect or f"{self.url}/archives/{name.replace('/', '~')}@{rest[1]}.zip"
            handler.send_response(302)
            handler.send_header("Location", location)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return None
        return self.send(handler, 404, b'{"message": "Not Found"}')

    def json(self, handler, data: dict) -> None:
        self.send(handler, 200, json.dumps(data).encode(), "application/json")

    @staticmethod
    def send(handler, status: int, body: bytes, content_type: str = "application/json") -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
