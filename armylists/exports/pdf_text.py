"""Many short strings written into a page as one PDF text object.

reportlab's canvas.drawString opens a text object for every string (BT, its position, the font and
its leading, the string, a new line, ET), and a Table sets the fill colour and the font again for
each cell; a printed roster has several hundred short strings. A TextWriter writes a flowable's
strings as one text object instead: each string's position (Tm), the font subset and size only when
they change (Tf), the colour only when it changes (rg). The glyphs land where drawString put them,
in the same embedded fonts, and the page's content is shorter to write and compress.

Every font here is one of the embedded TrueType fonts (pdf_style.FONTS): a string is written in the
font's subsets (256 characters each), as reportlab writes it, each distinct string encoded once per
document.
"""
from __future__ import annotations

from reportlab import rl_config
from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from armylists.exports.pdf_style import printable

_widths: dict[tuple[str, float], dict[str, float]] = {}


def text_width(text: str, font: str, size: float) -> float:
    """stringWidth, kept per font and size: a roster measures the same words (Shield, Heavy Armour, the
    profile's values) hundreds of times, and every roster the site prints measures them again."""
    table = _widths.get((font, size))
    if table is None:
        table = _widths[(font, size)] = {}
    width = table.get(text)
    if width is None:
        if len(table) > 20_000:  # free text (unit names, notes) must not pile up
            table.clear()
        width = table[text] = stringWidth(printable(text), font, size)
    return width


# reportlab puts the printable ASCII characters in a TrueType font's first subset at their own codes
# (rl_config.ttfAsciiReadable, on by default; every Vera font has them all).
ASCII_AS_IS = bool(rl_config.ttfAsciiReadable)
_ascii_escaped: dict[str, str] = {}

_colour_ops: dict[tuple[float, float, float], str] = {}


def fill_op(colour: Color) -> str:
    """The `rg` operator that makes `colour` the fill colour, as reportlab writes it."""
    rgb = (colour.red, colour.green, colour.blue)
    op = _colour_ops.get(rgb)
    if op is None:
        op = _colour_ops[rgb] = f"{fp_str(*rgb)} rg"
    return op


class TextWriter:
    """Strings placed one after another on `canvas`, sent to the page as one text object by close()."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.document = canvas._doc
        # Per document, since the subsets are the document's: each string's parts (parts()), and the name
        # of each font's first subset.
        self.encoded = self.document.__dict__.setdefault("_armylists_encoded", {})
        self.first_subsets = self.document.__dict__.setdefault("_armylists_first_subsets", {})
        self.code: list[str] = []
        self.font: tuple[str, float] | None = None
        self.colour = ""

    def parts(self, value: str, font: str) -> tuple[tuple[str, str, int], ...]:
        """`value` in `font`'s subsets: (subset font name, escaped bytes, characters before this part)."""
        if ASCII_AS_IS and value.isascii() and value.isprintable():
            # Printable ASCII is in the first subset at its own codes in every document: no need to ask
            # the font, which assigns codes character by character.
            escaped = _ascii_escaped.get(value)
            if escaped is None:
                if len(_ascii_escaped) > 20_000:  # free text must not pile up
                    _ascii_escaped.clear()
                escaped = _ascii_escaped[value] = escapePDF(value.encode("ascii"))
            name = self.first_subsets.get(font)
            if name is None:
                name = self.first_subsets[font] = pdfmetrics.getFont(font).getSubsetInternalName(0, self.document)
            return ((name, escaped, 0),)
        key = (font, value)
        found = self.encoded.get(key)
        if found is None:
            face, parts, at = pdfmetrics.getFont(font), [], 0
            # a character the font lacks is written as its nearest (pdf_style.printable), never as a box;
            # `at` counts the characters of what is written
            for subset, part in face.splitString(printable(value), self.document):
                parts.append((face.getSubsetInternalName(subset, self.document), escapePDF(part), at))
                at += len(part)
            found = self.encoded[key] = tuple(parts)
        return found

    def set_colour(self, colour: Color) -> None:
        op = fill_op(colour)
        if op != self.colour:
            self.code.append(op)
            self.colour = op

    def set_font(self, name: str, size: float) -> None:
        if (name, size) != self.font:
            self.code.append(f"{name} {fp_str(size)} Tf")
            self.font = (name, size)

    def at(self, x: float, y: float) -> None:
        """Move to (x, y): the next string starts there."""
        self.code.append(f"1 0 0 1 {fp_str(x, y)} Tm")

    def show(self, value: str, font: str, size: float, colour: Color) -> None:
        """`value` where the last string ended (or where at() moved to)."""
        if not value:
            return
        self.set_colour(colour)
        for name, escaped, _ in self.parts(value, font):
            self.set_font(name, size)
            self.code.append(f"({escaped}) Tj")

    def put(self, x: float, y: float, value: str, font: str, size: float, colour: Color,
            anchor: str = "start") -> None:
        """`value` with its start, end or middle (`anchor`) at x, its baseline at y."""
        if not value:
            return
        if anchor != "start":  # as drawRightString and drawCentredString place it
            x -= text_width(value, font, size) * (1 if anchor == "end" else 0.5)
        self.at(x, y)
        self.show(value, font, size, colour)

    def row(self, y: float, cells: list[tuple[float, str]], font: str, size: float, colour: Color) -> None:
        """Short strings on one baseline, each starting at its own x, as one TJ operation.

        The strings after the first are placed by the gap from the end of the one before (in
        thousandths of the font size), not each by its own Tm: a profile grid has hundreds.
        """
        self.set_colour(colour)
        code = self.code
        opened, end = False, 0.0
        for x, value in cells:
            if not value:
                continue
            for name, escaped, before in self.parts(value, font):
                offset = text_width(printable(value)[:before], font, size) if before else 0.0
                if (name, size) != self.font or offset or not opened:  # a new run: its font and position
                    if opened:
                        code.append("] TJ")
                    self.set_font(name, size)
                    code.append(f"1 0 0 1 {fp_str(x + offset, y)} Tm [")
                    opened = True
                elif x != end:
                    code.append(fp_str((end - x) * 1000 / size))
                code.append(f"({escaped})")
            end = x + text_width(value, font, size)
        if opened:
            code.append("] TJ")

    def close(self) -> None:
        """Send what was written to the page, as one text object."""
        if self.code:
            self.canvas._code.append(" ".join(["BT", *self.code, "ET"]))
        self.code, self.font, self.colour = [], None, ""

