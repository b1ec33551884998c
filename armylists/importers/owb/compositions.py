"""The category percentages of OWB's army compositions, which OWB keeps in its program code.

They are data beside the importer (owb_compositions.yaml: facts from Old World Builder, CC BY 4.0, in our
own format), read once. `category_bounds` gives one composition's bounds for every category of the
system: OWB's own where it names the category, else at most 0% (a composition that names no Mercenaries
takes none, as our own books read the same Armies of Infamy).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

import yaml

DATA = Path(__file__).resolve().with_name("owb_compositions.yaml")
SOURCE = "Old World Builder (CC BY 4.0): category percentages of its program code (owb_compositions.yaml)"


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, dict[str, int]]]:
    return yaml.safe_load(DATA.read_text(encoding="utf-8"))["compositions"]


def category_bounds(composition: str, categories: Iterable[str]) -> dict[str, dict[str, int]] | None:
    """{category: {"min" or "max": percent}} for every one of `categories`, or None when the file does
    not know the composition."""
    known = _table().get(composition)
    if known is None:
        return None
    return {c: dict(known.get(c, {"max": 0})) for c in categories}
