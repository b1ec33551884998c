"""What GitHub's public API says is a repository's latest data, and where its archive is.

    ref = latest("BSData/mordheim", api, policy)   # the latest release, else the default branch's head
    archive = archive_url("BSData/mordheim", ref.ref, api)

GitHub answers 404 to `releases/latest` when a repository has made no release; then the head commit
of its default branch is taken. The archive (`zipball`) redirects to codeload.github.com, and holds
the repository's files under one top folder. Standard library only.
"""
from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass

from armylists.rules.reading.plain_data import UnstorableData, load_json

from armylists.gamedata.fetching import FetchError, NotFound, Policy, fetch

MAX_TEXT = 200  # a tag or a sha, as GameDataVersion.ref stores it; a date is far shorter
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
REPOSITORY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")


@dataclass(frozen=True)
class Ref:
    ref: str  # the release's tag or the commit's sha
    kind: str  # release, commit
    date: str  # ISO 8601, as GitHub gives it


def _json(url: str, policy: Policy) -> dict:
    body, _ = fetch(url, policy, accept="application/vnd.github+json")
    try:  # an answer from outside: no nesting thousands deep, NaN, NUL or lone surrogates (load_json)
        data = load_json(body)
    except UnstorableData as exc:
        raise FetchError(f"GitHub's answer is not JSON ({exc.reason})") from None
    except ValueError as exc:
        raise FetchError(f"GitHub's answer is not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise FetchError("GitHub's answer is not a JSON object")
    return data


def _text(data: dict, *path: str) -> str:
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    if not isinstance(data, str) or not data:
        raise FetchError(f"GitHub's answer has no {'.'.join(path)}")
    if len(data) > MAX_TEXT:
        raise FetchError(f"GitHub's answer has a {path[-1]} of {len(data)} characters; at most {MAX_TEXT}")
    if CONTROL.search(data):  # git refuses them in a ref (git check-ref-format); raw, CR/LF would forge log lines
        raise FetchError(f"GitHub's answer has a {path[-1]} with a control character "
                         f"({data.encode('unicode_escape').decode()[:60]}); refused")
    return data


def latest(repository: str, api: str, policy: Policy) -> Ref:
    """The latest release of `repository`, else the head of its default branch."""
    base = f"{api}/repos/{repository}"
    try:
        release = _json(f"{base}/releases/latest", policy)
    except NotFound:
        release = None
    if release is not None:
        return Ref(_text(release, "tag_name"), "release", release.get("published_at") or release.get("created_at") or "")
    try:
        branch = _text(_json(base, policy), "default_branch")
    except NotFound:
        raise FetchError(f"GitHub has no repository {repository}") from None
    commit = _json(f"{base}/commits/{branch}", policy)
    return Ref(_text(commit, "sha"), "commit", _text(commit, "commit", "committer", "date"))


def archive_url(repository: str, ref: str, api: str) -> str:
    return f"{api}/repos/{repository}/zipball/{urllib.parse.quote(ref, safe='')}"
