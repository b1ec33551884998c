"""What the game data says of a book on the pages that show it (gamedata/removed.py); nothing computed here."""
from __future__ import annotations

from django import template

from armylists.gamedata.removed import Removed, removed_book

register = template.Library()


@register.simple_tag
def removed_from_data(book) -> Removed | None:
    """{% removed_from_data book as removed %}: why an imported book is in no data new lists get, or None."""
    if book is None or not getattr(book, "imported", False):
        return None
    return removed_book(book.system.id, book.id)
