"""Fonts, colours and paragraph styles of the printed roster.

The fonts are reportlab's bundled Bitstream Vera TrueType files, registered once and embedded (as
subsets) in every PDF: the 14 standard PDF fonts are not embedded and only cover Latin-1 through the
viewer's substitutes, so names such as "Zoë" or "Bluffer's Helm" would depend on the reader's machine.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Paragraph, TableStyle
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(reportlab.__file__).resolve().parent / "fonts"
FONTS = {"Vera": "Vera.ttf", "Vera-Bold": "VeraBd.ttf", "Vera-Italic": "VeraIt.ttf", "Vera-BoldItalic": "VeraBI.ttf"}
REGULAR, BOLD, ITALIC = "Vera", "Vera-Bold", "Vera-Italic"

INK = colors.HexColor("#1d2430")
MUTED = colors.HexColor("#5b6472")
RULE = colors.HexColor("#c9ced6")
SHADE = colors.HexColor("#eef1f5")
LEGAL = colors.HexColor("#1b7a3a")
ILLEGAL = colors.HexColor("#b3261e")
WARNING = colors.HexColor("#9a6400")
BAR = colors.HexColor("#4a6fa5")
ACCENT = colors.HexColor("#2d5d9f")
PADDING = 6  # a Table cell's default left plus right padding is 2 x 6 points


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register the Vera family once per process; returns the family name for `<b>`/`<i>` mark-up."""
    for name, filename in FONTS.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    pdfmetrics.registerFontFamily(REGULAR, normal=REGULAR, bold=BOLD, italic=ITALIC, boldItalic="Vera-BoldItalic")
    return REGULAR


class Styles:
    """The paragraph styles of one roster, at a base font size (the compact sheet uses a smaller one)."""

    def __init__(self, size: float = 9):
        register_fonts()
        lead = size * 1.3

        def style(name: str, **kw) -> ParagraphStyle:
            base = {"fontName": REGULAR, "fontSize": size, "leading": lead, "textColor": INK}
            return ParagraphStyle(name, **{**base, **kw})

        self.size = size
        self.body = style("body")
        self.small = style("small", fontSize=size * 0.85, leading=size * 1.1, textColor=MUTED)
        self.title = style("title", fontName=BOLD, fontSize=size * 2, leading=size * 2.4)
        self.subtitle = style("subtitle", fontSize=size * 1.1, leading=size * 1.45, textColor=MUTED)
        self.heading = style("heading", fontName=BOLD, fontSize=size * 1.3, leading=size * 1.7, spaceBefore=size,
                             spaceAfter=size * 0.3)
        self.unit = style("unit", fontName=BOLD, fontSize=size * 1.1, leading=size * 1.4)
        self.points = style("points", fontName=BOLD, fontSize=size * 1.1, leading=size * 1.4, alignment=TA_RIGHT)
        self.cell = style("cell", fontSize=size * 0.9, leading=size * 1.15)
        self.cell_bold = style("cell_bold", fontName=BOLD, fontSize=size * 0.9, leading=size * 1.15)
        self.cell_right = style("cell_right", fontSize=size * 0.9, leading=size * 1.15, alignment=TA_RIGHT)
        self.error = style("error", fontSize=size * 0.9, leading=size * 1.2, textColor=ILLEGAL)
        self.warning = style("warning", fontSize=size * 0.9, leading=size * 1.2, textColor=WARNING)


# Characters the data writes that the Vera fonts lack (issue 40 item 5: the tree PDF printed a box for
# each), as the nearest the fonts have: inch marks in ranges (6′′), bullets, a zero-width space.
SUBSTITUTES = {"\u2032": "'", "\u2033": '"', "\u25cf": "\u2022", "\u2981": "\u2022", "\u2756": "\u2022",
               "\u25aa": "\u2022", "\u2010": "-", "\u2011": "-", "\u2044": "/", "\u2192": "->",
               "\u2190": "<-", "\u2713": "+", "\u2714": "+", "\u2717": "x", "\u2212": "-"}


@lru_cache(maxsize=1)
def _covered() -> frozenset[int]:
    """The characters every font of the family has (the regular's; the others have the same set)."""
    register_fonts()
    return frozenset(pdfmetrics.getFont(REGULAR).face.charToGlyph)


@lru_cache(maxsize=4096)
def _printable_char(char: str) -> str:
    if ord(char) in _covered():
        return char
    if char in SUBSTITUTES:
        return SUBSTITUTES[char]
    if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Mn"):
        return ""  # a control, format (zero-width space) or combining mark: nothing to print
    decomposed = unicodedata.normalize("NFKD", char)
    if decomposed != char and all(ord(c) in _covered() or unicodedata.category(c) == "Mn" for c in decomposed):
        return "".join(c for c in decomposed if ord(c) in _covered())
    return "?"


def printable(value: str) -> str:
    """`value` in characters the embedded fonts have: none is printed as a box."""
    if value.isascii():
        return value
    return "".join(_printable_char(c) for c in value)


def text(value: object) -> str:
    """Plain text made safe for Paragraph mark-up (`&`, `<` in a list name would otherwise break it), in
    characters the fonts have."""
    return escape(printable(str(value)))


def fitted(value: str, style: ParagraphStyle, width: float) -> str | Paragraph:
    """Plain text when it fits on one line of `width`, else a Paragraph that wraps.

    A table draws a plain string many times faster than a Paragraph, and most cells are short; the
    table's style must then give the cell the font of `style`.
    """
    if pdfmetrics.stringWidth(value, style.fontName, style.fontSize) <= width - 2 * PADDING:
        return value
    return Paragraph(text(value), style)


def table_style(commands: list[tuple]) -> TableStyle:
    """A TableStyle whose cells start in the embedded font.

    A Table sets each cell's font before drawing it, Helvetica unless told otherwise, even for a cell
    that holds a Paragraph; the PDF would then list Helvetica, a font it does not embed.
    """
    return TableStyle([("FONTNAME", (0, 0), (-1, -1), REGULAR), *commands])
