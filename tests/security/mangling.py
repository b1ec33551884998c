"""What the hostile-input tests build their bad inputs from: zip archives of given members, and bytes
mangled by hypothesis (cut, a hostile piece inserted, a byte flipped), each format with its own pieces."""
from __future__ import annotations

import io
import zipfile

from hypothesis import strategies as st


def zipped(members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED, level: int | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression, compresslevel=level) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def mangle(draw, data: bytes, inserts: list[bytes]) -> bytes:
    """`data` changed one to three times: cut at a place, one of `inserts` put in, or a byte flipped."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["cut", "insert", "flip"]))
        if how == "cut":
            data = data[:at]
        elif how == "insert":
            data = data[:at] + draw(st.sampled_from(inserts)) + data[at:]
        elif data:
            i = min(at, len(data) - 1)
            data = data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1:]
    return data
