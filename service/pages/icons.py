"""The site's app icons (the web app manifest's and the home screen's): a white spade on the felt
green, drawn here pixel by pixel and written as PNG, so the files in templates/static/img/ are
made again, byte for byte in their pixels, by ``python -m service.pages.icons``.

The spade is the heart curve (x² + y² − 1)³ = x² y³ turned upside down, on a stem; every pixel is
sampled 4 × 4 times for smooth edges. It stays inside the middle 60 % of the square, the safe zone
of a "maskable" icon that a phone cuts to a circle."""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path
from typing import Final

SIZES: Final = (192, 512)
FELT: Final = (0x0A, 0x36, 0x22)
WHITE: Final = (0xFF, 0xFF, 0xFF)
SAMPLES: Final = 4
IMG: Final = Path(__file__).resolve().parents[2] / "templates" / "static" / "img"


def _inside(u: float, v: float) -> bool:
    """Whether the point (u, v) of the spade's own square (y down) is on the spade."""
    if (u * u + v * v - 1) ** 3 - u * u * v**3 <= 0:  # the upside-down heart
        return True
    return 0.45 <= v <= 1.55 and abs(u) <= 0.08 + (v - 0.45) * 0.38  # the stem


def pixels(size: int) -> bytes:
    """The icon's RGB rows, each led by PNG's filter byte 0."""
    radius = size * 0.19
    cx, cy = size / 2, size / 2 - radius * 0.28
    rows = bytearray()
    for py in range(size):
        rows.append(0)
        for px in range(size):
            hits = sum(
                _inside(
                    (px + (i + 0.5) / SAMPLES - cx) / radius,
                    (py + (j + 0.5) / SAMPLES - cy) / radius,
                )
                for i in range(SAMPLES)
                for j in range(SAMPLES)
            )
            share = hits / (SAMPLES * SAMPLES)
            rows.extend(round(f + (w - f) * share) for f, w in zip(FELT, WHITE, strict=True))
    return bytes(rows)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(size: int) -> bytes:
    """The icon of ``size`` × ``size`` pixels as a PNG file (8-bit RGB)."""
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(pixels(size), 9))
        + _chunk(b"IEND", b"")
    )


def main() -> int:
    """Write every size to templates/static/img/icon-<size>.png."""
    for size in SIZES:
        (IMG / f"icon-{size}.png").write_bytes(png(size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
