"""Reading rules data files: YAML, the JSON Schemas beside them, and a file's content hash."""

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import RulesDataError

FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # PyYAML's wheels include LibYAML

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "rules_data" / "schema"
LIST_SCHEMA = Path(__file__).resolve().parent / "schema" / "list.schema.json"


@lru_cache(maxsize=1)
def _validators() -> dict[str, Any]:
    # Imported here, not with the module: a process that reads only list documents never needs it
    # (the typed reader checks them), and `manage.py check` need not pay for it.
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    schemas = {p.name: json.loads(p.read_text()) for p in SCHEMA_DIR.glob("*.schema.json")}
    schemas["list.schema.json"] = json.loads(LIST_SCHEMA.read_text())
    resources = [(name, Resource.from_contents(s)) for name, s in schemas.items()]
    resources += [(s["$id"], Resource.from_contents(s)) for s in schemas.values()]
    registry = Registry().with_resources(resources)
    return {
        name.removesuffix(".schema.json"): Draft202012Validator(schema, registry=registry)
        for name, schema in schemas.items()
    }


def check_schema(kind: str, data: Any, source: str, error_class: type = RulesDataError) -> None:
    """Raise `error_class` for the most relevant schema error of `data`, if any."""
    from jsonschema.exceptions import best_match

    error = best_match(_validators()[kind].iter_errors(data))
    if error is not None:
        raise error_class(source, tuple(error.absolute_path), error.message)


def content_hash(data: Any) -> str:
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


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
        where = getattr(exc, "problem_mark", None)
        at = f" at line {where.line + 1}, column {where.column + 1}" if where else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise RulesDataError(source, (), f"is not valid YAML{at}: {problem}") from None


