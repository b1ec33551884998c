"""YAML read as plain data: text, finite numbers in range, true/false, null, lists and maps keyed by text.

PyYAML's safe loader still builds dates and timestamps (`2024-05-01` unquoted), bytes (`!!binary`), sets
(`!!set`), ordered pairs (`!!omap`, `!!pairs`), maps keyed by numbers, booleans or null, and integers of
any length (5,000 digits end in Python's ValueError); and `!!int abc` or `!!bool maybe` raise plain
Python errors instead of YAML ones. None of that is data an organiser's event rules need, and each was
a 500 on the event form or a traceback from check_lists. These loaders leave an unquoted date as the
text it is, and refuse the rest with a `PlainYAMLError` naming the line and column.

    data = yaml.load(text, Loader=PLAIN_LOADER)          # LibYAML's parser, these constructors
    data = yaml.load(text, Loader=PLAIN_PYTHON_LOADER)   # PyYAML's own parser (its error wording)
"""
from __future__ import annotations

import math
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from armylists.rules.reading.plain_data import MAX_INTEGER

MAX_NUMBER_CHARACTERS = 40  # "9_007_199_254_740_992" and "-1.5e+3" fit; 5,000 digits do not
STR = "tag:yaml.org,2002:str"
TIMESTAMP = "tag:yaml.org,2002:timestamp"
REFUSED = {TIMESTAMP: "a date or timestamp", "tag:yaml.org,2002:binary": "binary data (!!binary)",
           "tag:yaml.org,2002:set": "a set (!!set)", "tag:yaml.org,2002:omap": "an ordered map (!!omap)",
           "tag:yaml.org,2002:pairs": "a list of pairs (!!pairs)"}
PLAIN = "text, numbers, true/false, null, lists and maps with text keys"


class PlainYAMLError(ConstructorError):
    """YAML that is well formed but not plain data; `problem` says what, `problem_mark` where."""

    def where(self) -> str:
        mark = self.problem_mark
        return f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"


def _refuse(node: yaml.Node, what: str) -> PlainYAMLError:
    return PlainYAMLError(None, None, f"{what}: only {PLAIN} are read", node.start_mark)


class PlainConstructor(SafeConstructor):
    def construct_plain_int(self, node: yaml.Node) -> int:
        text = str(self.construct_scalar(node))
        if len(text.strip()) > MAX_NUMBER_CHARACTERS:
            raise _refuse(node, f"a number of {len(text.strip())} characters")
        try:
            value = SafeConstructor.construct_yaml_int(self, node)
        except ValueError:  # `!!int abc`
            raise _refuse(node, f"{text[:MAX_NUMBER_CHARACTERS]!r} tagged !!int but not a whole number") from None
        if abs(value) > MAX_INTEGER:
            raise _refuse(node, f"the number {value}, out of range (at most {MAX_INTEGER} either side of zero)")
        return value

    def construct_plain_float(self, node: yaml.Node) -> float:
        text = str(self.construct_scalar(node))
        if len(text.strip()) > MAX_NUMBER_CHARACTERS:
            raise _refuse(node, f"a number of {len(text.strip())} characters")
        try:
            value = SafeConstructor.construct_yaml_float(self, node)
        except ValueError:  # `!!float abc`
            raise _refuse(node, f"{text[:MAX_NUMBER_CHARACTERS]!r} tagged !!float but not a number") from None
        if not math.isfinite(value) or abs(value) > MAX_INTEGER:
            raise _refuse(node, f"the number {text.strip()}, not finite or out of range (at most {MAX_INTEGER} "
                                f"either side of zero)")
        return value

    def construct_plain_bool(self, node: yaml.Node) -> bool:
        text = str(self.construct_scalar(node))
        if text.lower() not in self.bool_values:  # `!!bool maybe`
            raise _refuse(node, f"{text[:MAX_NUMBER_CHARACTERS]!r} tagged !!bool but not true or false")
        return self.bool_values[text.lower()]

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            self.flatten_mapping(node)
            for key_node, _ in node.value:
                if key_node.tag != STR:
                    raise _refuse(key_node, f"a key that is {_kind(key_node)}, not text (quote it)")
        return super().construct_mapping(node, deep)

    def refuse_tag(self, node: yaml.Node) -> Any:
        raise _refuse(node, REFUSED.get(node.tag, f"the tag {node.tag}"))


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if isinstance(node, yaml.MappingNode):
        return "a map"
    return {"tag:yaml.org,2002:int": "a number", "tag:yaml.org,2002:float": "a number",
            "tag:yaml.org,2002:bool": "true or false", "tag:yaml.org,2002:null": "null (empty)"}.get(
        node.tag, REFUSED.get(node.tag, node.tag))


def _plain(base: type) -> type:
    """`base` (a safe loader) with PlainConstructor's constructors and no implicit timestamps."""
    loader = type(f"Plain{base.__name__}", (PlainConstructor, base), {})
    loader.yaml_implicit_resolvers = {
        first: [(tag, pattern) for tag, pattern in resolvers if tag != TIMESTAMP]
        for first, resolvers in base.yaml_implicit_resolvers.items()}
    loader.add_constructor("tag:yaml.org,2002:int", PlainConstructor.construct_plain_int)
    loader.add_constructor("tag:yaml.org,2002:float", PlainConstructor.construct_plain_float)
    loader.add_constructor("tag:yaml.org,2002:bool", PlainConstructor.construct_plain_bool)
    for tag in [*REFUSED, None]:  # None: any tag not named (`!!python/name:...`, `!local`)
        loader.add_constructor(tag, PlainConstructor.refuse_tag)
    return loader


PLAIN_PYTHON_LOADER = _plain(yaml.SafeLoader)
PLAIN_LOADER = _plain(getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # PyYAML's wheels include LibYAML
