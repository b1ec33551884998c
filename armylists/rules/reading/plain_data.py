"""Decoded JSON that every database can store and every page can show, or the first reason it cannot.

JSON allows things no list needs and PostgreSQL refuses (`jsonb` and `text` reject NUL; a lone UTF-16
surrogate such as "\\ud800" cannot be encoded as UTF-8 at all), and things that break readers later:
nesting thousands deep (Python's decoder and encoder recurse), NaN and Infinity (not JSON, refused by
`jsonb`), integers larger than a 64-bit column. Refusing them where a document comes in keeps a saved
list always readable again, on SQLite and PostgreSQL alike.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

MAX_DEPTH = 32  # a list document is 5 levels deep; an event report about 8
MAX_INTEGER = 2**53  # exact in every JSON reader (JavaScript's too), and far inside a 64-bit column
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")

Path = tuple[str | int, ...]


class UnstorableData(ValueError):
    """Data that must not be stored: `path` says where inside it, `reason` what is wrong, in words."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(reason)
        self.path = path
        self.reason = reason


def text_problem(text: str) -> str | None:
    """Why `text` cannot be stored (a NUL or a lone surrogate), or None when it can."""
    found = _BAD_TEXT.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return f"contains a NUL character (at position {found.start()})"
    return f"contains a lone UTF-16 surrogate \\u{ord(found.group()):04x} (at position {found.start()}), which is not text"


def _is_plain(data: Any) -> bool:
    """`check_plain`'s answer without the path, fast: it runs on every document the editor saves. Collects
    the strings and searches them once, and builds no path."""
    texts: list[str] = []
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        kind = type(value)
        if kind is str or isinstance(value, str):
            texts.append(value)
        elif kind is dict or isinstance(value, dict):
            if depth >= MAX_DEPTH:
                return False
            for key, item in value.items():
                if isinstance(key, str):
                    texts.append(key)
                stack.append((item, depth + 1))
        elif kind is list or isinstance(value, (list, tuple)):
            if depth >= MAX_DEPTH:
                return False
            stack.extend((item, depth + 1) for item in value)
        elif kind is int or isinstance(value, int):
            if abs(value) > MAX_INTEGER:
                return False
        elif isinstance(value, float) and not math.isfinite(value):
            return False
    return _BAD_TEXT.search("".join(texts)) is None


def check_plain(data: Any) -> None:
    """Raise `UnstorableData` for the first thing in `data` that cannot be stored; walks without recursion."""
    if _is_plain(data):
        return
    stack: list[tuple[Any, Path]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) >= MAX_DEPTH and isinstance(value, (dict, list, tuple)):
            raise UnstorableData((), f"is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                raise UnstorableData(path, problem)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, int):
            if abs(value) > MAX_INTEGER:
                raise UnstorableData(path, f"is a number out of range (at most {MAX_INTEGER} either side of zero)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise UnstorableData(path, "is not a finite number")
        elif isinstance(value, dict):
            for key, item in value.items():
                problem = text_problem(key) if isinstance(key, str) else None
                if problem:
                    raise UnstorableData(path, f"has a key that {problem}")
                stack.append((item, (*path, key)))
        elif isinstance(value, (list, tuple)):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))


def _refuse_constant(name: str) -> Any:
    raise UnstorableData((), f"contains {name}, which is not a JSON number")


def load_json(text: str | bytes) -> Any:
    """`json.loads`, refusing what `check_plain` refuses; `UnstorableData` or `json.JSONDecodeError`
    (a `ValueError`) or `UnicodeDecodeError` on failure."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise UnstorableData((), f"is nested more than {MAX_DEPTH} levels deep") from None
    except (json.JSONDecodeError, UnicodeDecodeError, UnstorableData):
        raise
    except ValueError:  # an integer of more than 4300 digits (Python's limit on converting text)
        raise UnstorableData((), "contains a number out of range") from None
    check_plain(data)
    return data
