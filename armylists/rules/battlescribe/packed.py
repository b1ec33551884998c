"""A game system's or catalogue's plain data (importers/battlescribe/plain.py) packed for the database:
MessagePack (msgspec) compressed with zlib, and back.

New Recruit's Old World data (47 documents, 21 MB of XML) packs into 1.4 MB; unpacking a book's
documents and indexing them (`GameData`) is what the site pays once per process and book version
(docs/benchmarks.md, bench/battlescribe_packed.py). The file path a document was read from is left out,
so the same document read from two places packs the same and is stored once (its digest).
"""
from __future__ import annotations

import hashlib
import zlib

import msgspec

MAX_UNPACKED = 64 * 1024 * 1024   # a catalogue far larger than any known (the Old World system: 3 MB)


class PackedDataError(Exception):
    """Packed data that does not unpack: damaged, or not ours."""


def pack(document: dict) -> bytes:
    """The document as stored: without the file it was read from, MessagePack, zlib."""
    kept = {k: v for k, v in document.items() if k != "source"}
    return zlib.compress(msgspec.msgpack.encode(kept), 6)


def digest(packed: bytes) -> str:
    return hashlib.sha256(packed).hexdigest()


def unpack(packed: bytes) -> dict:
    """The plain document back (lists where it had tuples: the evaluator reads both alike)."""
    try:
        inflater = zlib.decompressobj()
        raw = inflater.decompress(bytes(packed), MAX_UNPACKED)
        if inflater.unconsumed_tail:
            raise PackedDataError(f"unpacks to more than {MAX_UNPACKED} bytes")
        if not inflater.eof:
            raise PackedDataError("cannot be unpacked: the data is cut short")
        document = msgspec.msgpack.decode(raw)
    except (zlib.error, msgspec.DecodeError) as exc:
        raise PackedDataError(f"cannot be unpacked: {exc}") from None
    if not isinstance(document, dict) or document.get("kind") not in ("system", "catalogue"):
        raise PackedDataError("is not a game system or catalogue")
    return document
