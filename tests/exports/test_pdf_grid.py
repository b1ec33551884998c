"""A Grid prints what a reportlab Table with the same style printed: the same pages, pixel for pixel.

The roster's header facts, category table and magical items table were Tables and are Grids now
(issue 16, the PDF's speed); these tests print both side by side and compare the pages.
"""
from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

from armylists.exports.pdf_grid import Grid, Look, Padding, Rule
from armylists.exports.pdf_style import BOLD, INK, MUTED, REGULAR, RULE, Styles, register_fonts, table_style

needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
PAGE = (320, 260)
WIDTHS = [90.0, 40.0, 150.0]


@pytest.fixture(autouse=True, scope="module")
def fonts():
    """The Vera family the tables name, registered as the roster's renderer does (the file alone once
    failed: another test had always registered them first)."""
    register_fonts()


def printed(flowable, page=PAGE) -> bytes:
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=page, invariant=1, initialFontName=REGULAR, leftMargin=10, rightMargin=10,
                      topMargin=10, bottomMargin=10).build([flowable])
    return buffer.getvalue()


def pngs(data: bytes, folder: Path, name: str) -> list[bytes]:
    pdf = folder / f"{name}.pdf"
    pdf.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "100", "-png", str(pdf), str(folder / name)], check=True)
    return [p.read_bytes() for p in sorted(folder.glob(f"{name}-*.png"))]


def page_texts(data: bytes) -> list[str]:
    return [" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(data)).pages]


def item_rows(count: int, styles: Styles) -> list[list]:
    """A heading, then rows whose last cell is plain text or, every third row, a Paragraph that wraps."""
    rows: list[list] = [["Item", "Cost", "What it does"]]
    for n in range(1, count + 1):
        does = (Paragraph(f"Item {n} gives its bearer a long list of things & more things, over two lines", styles.cell)
                if n % 3 == 0 else f"effect {n}")
        rows.append([f"Item {n}", str(n * 5), does])
    return rows


def item_table(rows: list[list], styles: Styles) -> Table:
    table = Table(rows, colWidths=WIDTHS, repeatRows=1)
    table.setStyle(table_style([
        ("FONTSIZE", (0, 0), (-1, -1), styles.cell.fontSize), ("LEADING", (0, 0), (-1, -1), styles.cell.leading),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK), ("FONTNAME", (0, 0), (-1, 0), BOLD), ("FONTNAME", (0, 1), (0, -1), BOLD),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE), ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]))
    return table


def item_grid(rows: list[list], styles: Styles) -> Grid:
    size, leading = styles.cell.fontSize, styles.cell.leading
    looks = [[Look(BOLD if r == 0 or c == 0 else REGULAR, size, leading, INK, "RIGHT" if c == 1 else "LEFT")
              for c in range(3)] for r in range(len(rows))]
    rules = [Rule(0.8, INK)] + [Rule(0.3, RULE)] * (len(rows) - 1)
    return Grid(rows, WIDTHS, looks, rules, Padding(top=1.5, bottom=1.5), "TOP", repeat=1)


@needs_pdftoppm
def test_a_grid_prints_the_page_its_table_printed(tmp_path):
    """Bottom-aligned rows, a right-aligned column, a bold heading and total, a heavy rule above the total."""
    rows = [["Category", "pts", "Notes"], ["Lords", "314", "at most 35%"], ["Core", "875", "at least 25%\nand more"],
            ["Total", "1189", ""]]
    table = Table(rows, colWidths=WIDTHS, hAlign="LEFT")
    table.setStyle(table_style([
        ("FONTSIZE", (0, 0), (-1, -1), 8.1), ("LEADING", (0, 0), (-1, -1), 9.72), ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("TEXTCOLOR", (2, 1), (2, -1), MUTED), ("FONTNAME", (0, 0), (-1, 0), BOLD), ("FONTNAME", (0, -1), (-1, -1), BOLD),
        ("ALIGN", (1, 0), (1, -1), "RIGHT"), ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK), ("LINEBELOW", (0, 1), (-1, -3), 0.3, RULE),
        ("TOPPADDING", (0, 0), (-1, -1), 1.8), ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
        ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]))
    looks = []
    for r in range(4):
        bold = r in (0, 3)
        looks.append([Look(BOLD if bold else REGULAR, 8.1, 9.72, INK if c < 2 or bold else MUTED,
                           "RIGHT" if c == 1 else "LEFT") for c in range(3)])
    grid = Grid(rows, WIDTHS, looks, [Rule(0.8, INK), Rule(0.3, RULE), Rule(0.8, INK), None],
                Padding(3, 3, 1.8, 1.8), h_align="LEFT")

    table_pdf, grid_pdf = printed(table), printed(grid)

    assert page_texts(grid_pdf) == page_texts(table_pdf) == [
        "Category pts Notes Lords 314 at most 35% Core 875 at least 25% and more Total 1189"]
    assert pngs(grid_pdf, tmp_path, "grid") == pngs(table_pdf, tmp_path, "table")


@needs_pdftoppm
def test_a_grid_split_over_pages_repeats_its_heading_as_its_table_did(tmp_path):
    styles = Styles(9)
    table_pdf = printed(item_table(item_rows(30, styles), styles))
    grid_pdf = printed(item_grid(item_rows(30, styles), styles))

    texts = page_texts(grid_pdf)
    assert len(texts) == 4 and texts == page_texts(table_pdf)
    assert all(text.startswith("Item Cost What it does Item ") for text in texts)
    assert [n for n in range(1, 31) if sum(f"Item {n} " in text for text in texts) != 1] == []
    assert pngs(grid_pdf, tmp_path, "grid") == pngs(table_pdf, tmp_path, "table")


def test_a_grid_that_fits_exactly_stays_whole_and_one_point_less_splits_it():
    styles = Styles(9)
    grid = item_grid(item_rows(4, styles), styles)
    _, height = grid.wrap(400, 1000)
    heading, *rows = grid.heights

    assert grid.split(400, height) == [grid]
    first, rest = grid.split(400, height - 1)
    assert [r[0] for r in first.rows] == ["Item", "Item 1", "Item 2", "Item 3"]
    assert [r[0] for r in rest.rows] == ["Item", "Item 4"]  # the heading again, then the row that did not fit
    assert grid.split(400, heading + rows[0]) != []  # the heading and one row: a part worth printing
    assert grid.split(400, heading + rows[0] - 1) == []  # the heading alone is not: the grid moves on whole


def test_profile_columns_follow_the_schemas_order_not_the_stored_keys():
    """PostgreSQL's jsonb gives a stored profile's keys back in its own order (shortest first): the printed
    and shown columns follow the book schema's profile (M, WS ... Ld; Ad, Ma ... Ag) whatever the order."""
    from armylists.rules.reading.data_files import characteristic_order, in_characteristic_order
    assert characteristic_order()[:9] == ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
    assert characteristic_order()[9:] == ("Ad", "Ma", "Di", "HP", "Df", "Re", "Arm", "At", "Of", "St", "AP", "Ag")
    as_jsonb = ["A", "I", "M", "S", "T", "W", "BS", "Ld", "WS"]
    assert in_characteristic_order(as_jsonb) == ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld"]
    assert in_characteristic_order(["Ag", "Ad", "Note"]) == ["Ad", "Ag", "Note"]  # another key after them
