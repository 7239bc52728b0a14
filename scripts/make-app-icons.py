#!/usr/bin/env python3
"""Writes the installed app's icons, deploy/web/img/app-192.png, app-512.png and
app-maskable-512.png: the drawing of deploy/web/img/icon.svg (a green tile, a white arch and
a yellow dot) as PNG, which every browser's install prompt and home screen accept.

Drawn here with the standard library only (zlib and struct; no imaging package is needed):
each shape is a signed distance from the pixel's centre, turned into coverage over one
pixel, so edges are smooth. The maskable icon fills the whole square with the green and draws
the arch and dot a little smaller, well inside the middle circle of 80 % that every
launcher's mask leaves visible.
Deterministic: running it again gives the same bytes.

    python3 scripts/make-app-icons.py [--output deploy/web/img]
"""
import argparse
import math
import os
import struct
import zlib

GREEN = (0x1F, 0x6F, 0x4A)
WHITE = (0xFF, 0xFF, 0xFF)
YELLOW = (0xF6, 0xC9, 0x45)


def rounded_square(x: float, y: float, size: float, radius: float) -> float:
    """Distance from (x, y) to the edge of the square 0..size with rounded corners (negative inside)."""
    half = size / 2
    qx, qy = abs(x - half) - (half - radius), abs(y - half) - (half - radius)
    outside = math.hypot(max(qx, 0), max(qy, 0))
    return outside + min(max(qx, qy), 0) - radius


def arch(x: float, y: float) -> float:
    """Distance to the white arch of icon.svg (in its 32-unit box): the upper half of a circle
    of radius 7 around (16, 17), stroked 3 wide with round ends."""
    if y <= 17:
        centre_line = abs(math.hypot(x - 16, y - 17) - 7)
    else:
        centre_line = min(math.hypot(x - 9, y - 17), math.hypot(x - 23, y - 17))
    return centre_line - 1.5


def dot(x: float, y: float) -> float:
    """Distance to the yellow dot of icon.svg: radius 3 around (16, 21)."""
    return math.hypot(x - 16, y - 21) - 3


def coverage(distance: float, pixel: float) -> float:
    """How much of a pixel `pixel` units wide a shape covers, its edge `distance` from the centre."""
    return min(max(0.5 - distance / pixel, 0.0), 1.0)


def over(base, colour, alpha: float):
    """`colour` at `alpha` painted over the premultiplied-free RGBA `base`."""
    r, g, b, a = base
    out_a = alpha + a * (1 - alpha)
    if out_a == 0:
        return (0.0, 0.0, 0.0, 0.0)
    mix = lambda top, bottom: (top * alpha + bottom * a * (1 - alpha)) / out_a
    return (mix(colour[0], r), mix(colour[1], g), mix(colour[2], b), out_a)


def draw(size: int, maskable: bool) -> bytes:
    """The icon as RGBA rows, `size` pixels square."""
    # The drawing's 32-unit box: the whole icon, or its middle 84 % for a maskable one (the
    # arch and dot then reach 30 % of the size from the centre, inside the safe 40 %).
    scale = 32 / size if not maskable else 32 / (size * 0.84)
    offset = 0 if not maskable else size * 0.08
    rows = bytearray()
    for row in range(size):
        rows.append(0)  # PNG filter type: none
        for column in range(size):
            x, y = (column + 0.5 - offset) * scale, (row + 0.5 - offset) * scale
            if maskable:
                pixel = (*GREEN, 1.0)
            else:
                pixel = over((0, 0, 0, 0), GREEN, coverage(rounded_square(x, y, 32, 7), scale))
            pixel = over(pixel, WHITE, coverage(arch(x, y), scale))
            pixel = over(pixel, YELLOW, coverage(dot(x, y), scale))
            rows.extend((round(pixel[0]), round(pixel[1]), round(pixel[2]), round(pixel[3] * 255)))
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    """A PNG file of RGBA `rows`."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8 bits, RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--output", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "deploy", "web", "img"))
    arguments = parser.parse_args()
    for name, size, maskable in (("app-192.png", 192, False), ("app-512.png", 512, False), ("app-maskable-512.png", 512, True)):
        path = os.path.join(arguments.output, name)
        with open(path, "wb") as file:
            file.write(png(size, draw(size, maskable)))
        print(f"wrote {os.path.normpath(path)}")


if __name__ == "__main__":
    main()
