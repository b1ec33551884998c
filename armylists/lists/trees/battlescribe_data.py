"""The game data of an imported BattleScribe book, from the database, indexed once per process.

`import_battlescribe` (importers/storing.py) keeps with each book the documents the tree evaluator
(rules/battlescribe/) needs: the game system, the catalogue and the catalogues it links, packed
(rules/battlescribe/packed.py). Unpacking and indexing them costs a fraction of a second to a few
seconds for the largest books, so the `GameData` is kept per process, keyed by the documents' digests
(a book version's content never changes; one small query finds them); the few most recently used are
kept.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from django.db import DatabaseError

from armylists.models import BattleScribeDocument, BookGameData
from armylists.rules.battlescribe import GameData, GameDataError
from armylists.rules.battlescribe.packed import PackedDataError, unpack

KEPT = 8   # books kept indexed per process; the Old World's largest is about 40 MB in memory

_cache: OrderedDict[tuple, GameData] = OrderedDict()
_lock = threading.Lock()


class GameDataUnavailable(Exception):
    """The stored game data cannot be read (damaged, or a document missing); str() says so for people."""


def has_game_data(system: str, book: str, version: str) -> bool:
    try:
        return BookGameData.objects.filter(book__kind="book", book__system=system, book__slug=book,
                                           book__version=version).exists()
    except DatabaseError:
        return False


def game_data_for(system: str, book: str, version: str, catalogues: tuple[str, ...] = ()) -> GameData | None:
    """The book's GameData, or None when the book has none stored (not a BattleScribe book, or one
    imported before its game data was kept). `catalogues`: BattleScribe ids of other catalogues a
    roster's forces name (allies), added with the catalogues they link."""
    try:
        row = BookGameData.objects.filter(book__kind="book", book__system=system, book__slug=book,
                                          book__version=version).first()
    except DatabaseError:
        return None
    if row is None:
        return None
    # Keyed by the documents' digests: one small query per use, and never another data's index.
    key = (tuple(row.documents), tuple(sorted(set(catalogues))))
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    documents = _documents(row.documents)
    _add_catalogues(documents, catalogues)
    try:
        game = GameData(documents)
    except (GameDataError, KeyError, TypeError) as exc:
        raise GameDataUnavailable(f"the stored data of {book} {version} cannot be evaluated ({exc}); "
                                  f"import it again") from None
    with _lock:
        _cache[key] = game
        while len(_cache) > KEPT:
            _cache.popitem(last=False)
    return game


def _documents(digests: list[str]) -> list[dict]:
    rows = {r.digest: r for r in BattleScribeDocument.objects.filter(digest__in=digests)}
    if any(d not in rows for d in digests):
        raise GameDataUnavailable("a document of the book's stored data is missing; import it again")
    try:
        return [unpack(rows[d].packed) for d in digests]
    except PackedDataError as exc:
        raise GameDataUnavailable(f"the book's stored data {exc}; import it again") from None


def _add_catalogues(documents: list[dict], catalogues: tuple[str, ...]) -> None:
    """Other catalogues (their latest stored revision) and what they link, each once."""
    have = {d["id"] for d in documents}
    queue = [c for c in catalogues if c not in have]
    while queue:
        bs_id = queue.pop(0)
        if bs_id in have:
            continue
        row = BattleScribeDocument.objects.filter(bs_id=bs_id, kind="catalogue").order_by("-revision", "-id").first()
        if row is None:
            continue   # the roster's force names it; reading the roster says it is unknown
        try:
            document = unpack(row.packed)
        except PackedDataError as exc:
            raise GameDataUnavailable(f"the stored data of {row.name} {exc}; import it again") from None
        documents.append(document)
        have.add(bs_id)
        queue += [target for target, _roots in document.get("catalogue_links", []) if target not in have]


def clear() -> None:
    """Forget every kept GameData (tests)."""
    with _lock:
        _cache.clear()
