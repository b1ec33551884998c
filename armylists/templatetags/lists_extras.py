"""Formatting for the list pages; nothing here computes a rule or a total."""
from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def points(value: object) -> str:
    """2400 -> "2,400": points with a thousands separator (a minus sign for negative numbers)."""
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return str(value)
    return f"{number:,}".replace("-", "−")


@register.filter
def percent(value: object) -> str:
    """27.3 -> "27.3%" (the Report rounds; this only formats)."""
    try:
        return f"{float(value):.1f}%"  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)


@register.filter
def plural(count: object, words: str = ",s") -> str:
    """{{ n }} problem{{ n|plural }}; {{ n|plural:"y,ies" }}."""
    single, _, many = words.partition(",")
    try:
        return single if int(count) == 1 else many  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return many
