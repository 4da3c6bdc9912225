"""Pictures as a browser shows them: an SVG rendered by headless Chromium to a PNG, read
back as pixels (pure Python: no imaging library needed). Tests that use it skip cleanly
where no Chromium is installed (Debian: ``apt-get install chromium``)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

RGB = tuple[int, int, int]


def browser() -> str:
    """The path of a headless Chromium, or the calling test skips."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if path := shutil.which(name):
            return path
    pytest.skip("no headless chromium here (Debian: apt-get install chromium)")


def screenshot(page: Path, width: int, height: int, tmp_path: Path) -> list[bytes]:
    """``page`` (an .svg or .html file) rendered by Chromium at ``width`` x ``height``: its
    rows of RGB bytes (3 a pixel)."""
    png = tmp_path / f"{page.stem}.png"
    done = subprocess.run(
        [browser(), "--headless", "--no-sandbox", "--disable-gpu",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run", "--hide-scrollbars", "--force-device-scale-factor=1",
         f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}",
         f"--window-size={width},{height}", page.as_uri()],
        capture_output=True, timeout=180)
    if not png.exists():
        pytest.skip(f"chromium made no screenshot: {done.stderr.decode()[-300:]}")
    got_width, got_height, rows = png_rows(png.read_bytes())
    assert (got_width, got_height) == (width, height)
    return rows


def png_rows(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes) of an 8-bit RGB or RGBA PNG, unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    assert header is not None
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0
    bpp = 3 if color == 2 else 4
    raw, stride, rows = zlib.decompress(idat), width * bpp, []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 2:
            line = bytearray((x + p) & 255 for x, p in zip(line, prev))
        elif kind:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                if kind == 1:
                    line[i] = (line[i] + a) & 255
                elif kind == 3:
                    line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    best = a if pa <= pb and pa <= pc else b if pb <= pc else c
                    line[i] = (line[i] + best) & 255
        rows.append(bytes(line))
        prev = line
    if bpp == 4:
        rows = [b"".join(r[i:i + 3] for i in range(0, len(r), 4)) for r in rows]
    return width, height, rows


def rgb(color: str) -> RGB:
    """``#rrggbb`` as a triple."""
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def near(a: RGB, b: RGB, tolerance: int = 12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))
