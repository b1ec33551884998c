"""Reading rules data files: YAML, the JSON Schemas beside them, and a file's content hash."""

import hashlib
import json
import re
import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec
import yaml

from armylists.rules.errors import RulesDataError

FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # PyYAML's wheels include LibYAML

SCHEMA_DIR = Path(__file__).resolve().parents[3] / "rules_data" / "schema"
LIST_SCHEMA = Path(__file__).resolve().parents[1] / "schema" / "list.schema.json"


def _schemas() -> dict[str, Any]:
    schemas = {p.name: json.loads(p.read_text()) for p in SCHEMA_DIR.glob("*.schema.json")}
    schemas["list.schema.json"] = json.loads(LIST_SCHEMA.read_text())
    return {name.removesuffix(".schema.json"): schema for name, schema in schemas.items()}


@lru_cache(maxsize=1)
def characteristic_order() -> tuple[str, ...]:
    """A model part's characteristics in the order a roster prints them: the book schema's profile's (M, WS
    ... Ld; Ad, Ma ... Ag). A profile's own key order is not kept by every database (PostgreSQL's jsonb)."""
    return tuple(k for k in _schemas()["book"]["$defs"]["profile"]["properties"] if k not in ("name", "mount"))


def in_characteristic_order(keys) -> list[str]:
    """`keys` (characteristics, and any other a profile carries after them) in the printed order."""
    order = {k: i for i, k in enumerate(characteristic_order())}
    return sorted(dict.fromkeys(keys), key=lambda k: order.get(k, len(order)))


@lru_cache(maxsize=1)
def _fast_validators() -> dict[str, Any]:
    """The schemas compiled by jsonschema-rs (Rust): a book is checked in half a millisecond where the
    Python validator takes 35, and most files are valid."""
    import jsonschema_rs

    schemas = _schemas()
    registry = jsonschema_rs.Registry([(s["$id"], s) for s in schemas.values()])
    return {kind: jsonschema_rs.Draft202012Validator(schema, registry=registry) for kind, schema in schemas.items()}


@lru_cache(maxsize=1)
def _validators() -> dict[str, Any]:
    # Imported here, not with the module: only a file the fast validator refuses needs it, for its message.
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    schemas = _schemas()
    resources = [(uri, Resource.from_contents(s)) for kind, s in schemas.items() for uri in (s["$id"], f"{kind}.schema.json")]
    registry = Registry().with_resources(resources)
    return {kind: Draft202012Validator(schema, registry=registry) for kind, schema in schemas.items()}


def check_schema(kind: str, data: Any, source: str, error_class: type = RulesDataError) -> None:
    """Raise `error_class` for the most relevant schema error of `data`, if any.

    A file the fast validator accepts is valid; one it refuses is checked again by the Python validator
    (jsonschema), whose best error is the message, so messages never depend on which validator ran
    (tests/rules/test_schema_validators.py checks the two agree)."""
    if _fast_validators()[kind].is_valid(data):
        return
    from jsonschema.exceptions import best_match

    error = best_match(_validators()[kind].iter_errors(data))
    if error is not None:
        raise error_class(source, tuple(error.absolute_path), error_message(error))


_param_validators: dict[int, tuple[dict, Any]] = {}


def check_params(schema: dict, params: Any, source: str, path: tuple, error_class: type = RulesDataError) -> None:
    """Raise `error_class` for the most relevant error of a rule's `params` under its type's schema, if
    any: as check_schema, the fast validator decides and jsonschema words the error. An imported book's
    one rule may hold hundreds of limits."""
    found = _param_validators.get(id(schema))
    if found is None or found[0] is not schema:  # the schema is kept too, so its id is not reused
        import jsonschema_rs

        found = _param_validators[id(schema)] = (schema, jsonschema_rs.Draft202012Validator(schema))
    if found[1].is_valid(params):
        return
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(schema).iter_errors(params))
    if error is not None:
        raise error_class(source, path + tuple(error.absolute_path), error_message(error))


MAX_QUOTED = 60  # characters of a value a message quotes: a 200 KB name must not make a 400 KB answer
MAX_MESSAGE = 400
_SIZES = {"maxLength": "is {} characters long", "maxItems": "has {} items", "maxProperties": "has {} keys"}
_LONG_QUOTED = re.compile("('[^'\\n]{%d})[^'\\n]+'|(\"[^\"\\n]{%d})[^\"\\n]+\"" % (MAX_QUOTED, MAX_QUOTED))


def error_message(error: Any) -> str:
    """A jsonschema error in words that never quote more than MAX_QUOTED characters of a value:
    sizes as numbers ("is 200000 characters long; at most 200"), any other quoted value shortened."""
    if error.validator in _SIZES and isinstance(error.instance, (str, list, dict)):
        return f"{_SIZES[error.validator].format(len(error.instance))}; at most {error.validator_value}"
    message, value = error.message, repr(error.instance)
    if len(value) > MAX_QUOTED:  # "[[[…]]] is not of type 'object'": the value shortened, the reason kept
        message = message.replace(value, value[:MAX_QUOTED] + "…" + (value[0] if isinstance(error.instance, str) else ""))
    message = _LONG_QUOTED.sub(lambda m: (m.group(1) or m.group(2)) + "…" + m.group(0)[0], message)
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


def content_hash(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


_SORTED_JSON = msgspec.json.Encoder(order="sorted")
_MSGPACK = msgspec.msgpack.Encoder()
_FLOAT64 = struct.Struct(">d")


def stored_content_hash(data: Any) -> str:
    """content_hash(data), the same hex digest, for data that the database's JSON column will store: made
    of JSON's types only (dicts with str keys, lists, tuples, str, int, float, bool, None), as an importer's
    output is (and must be, to be stored: the column's json.dumps refuses any other type). msgspec writes
    such data as content_hash's json.dumps does, byte for byte, eight times faster (a second of the Old
    World import), except for floats Python writes with an exponent (below 1e-4, from 1e16), NaN and
    infinities: a document holding any float outside [1e-3, 1e15) is hashed by content_hash. A float in
    msgpack is always its 0xcb marker and 8 bytes; every 0xcb byte is read as one (one in a string or an
    int is then a false alarm at worst, never a float missed)."""
    try:
        packed = _MSGPACK.encode(data)
        at = packed.find(b"\xcb")
        while at != -1:
            if at + 9 > len(packed):
                return content_hash(data)
            value = abs(_FLOAT64.unpack_from(packed, at + 1)[0])
            if not (value == 0.0 or 1e-3 <= value < 1e15):  # NaN fails both
                return content_hash(data)
            at = packed.find(b"\xcb", at + 1)
        del packed  # before the JSON is made: one of them at a time in memory
        return hashlib.sha256(_SORTED_JSON.encode(data)).hexdigest()
    except Exception:  # a dict key that is not a str, an int beyond 64 bits...: json.dumps decides
        return content_hash(data)


def read_yaml(path: Path, display: str | None = None) -> Any:
    source = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesDataError(source, (), f"cannot be read: {exc}") from None
    try:
        # LibYAML (C) reads a book ten times faster than PyYAML's Python reader; a file it refuses is
        # read again by the Python reader, whose message is the one reported (they word errors differently).
        return yaml.load(text, Loader=FAST_LOADER)
    except yaml.YAMLError:
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RulesDataError(source, (), yaml_problem(exc)) from None


def yaml_problem(exc: yaml.YAMLError) -> str:
    """PyYAML's error in one line: where, and what ("is not valid YAML at line 3, column 5: ...")."""
    where = getattr(exc, "problem_mark", None)
    at = f" at line {where.line + 1}, column {where.column + 1}" if where else ""
    return f"is not valid YAML{at}: {getattr(exc, 'problem', None) or exc}"


