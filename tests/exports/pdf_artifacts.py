"""Render printed rosters to PNG pages in test-artifacts/pdf/ (git-ignored) so a person can look at them."""
from __future__ import annotations

import io
import subprocess
from pathlib import Path

from pypdf import PdfReader

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "pdf"


def write_pngs(data: bytes, name: str) -> list[Path]:
    """Write `<name>.pdf` and one `<name>-<page>.png` per page (pdftoppm, 80 dpi); returns the PNGs."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    stem = ARTIFACTS / name
    for old in ARTIFACTS.glob(f"{name}-*.png"):
        old.unlink()
    stem.with_suffix(".pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "80", "-png", str(stem.with_suffix(".pdf")), str(stem)], check=True)
    pngs = sorted(ARTIFACTS.glob(f"{name}-*.png"))
    assert len(pngs) == len(PdfReader(io.BytesIO(data)).pages)
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    return pngs


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height in pixels, from its IHDR chunk (bytes 16-24)."""
    head = path.read_bytes()[:24]
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def embedded_fonts(data: bytes) -> dict[str, tuple[str, bool]]:
    """Every font a PDF uses: its subtype, and whether its file is embedded (FontFile2: TrueType)."""
    fonts = {}
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[font["/BaseFont"]] = (font["/Subtype"], "/FontFile2" in font["/FontDescriptor"].get_object())
    return fonts
