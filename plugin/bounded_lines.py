"""Reads a child's newline-delimited output without ever holding more than a limit of it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

READ_BYTES = 64 * 1024
"""The most one read takes from the pipe."""


@dataclass(frozen=True)
class Line:
    """One line without its newline: whole, or for a line over the limit its first bytes."""

    data: bytes
    cut: bool = False


def bounded_lines(fd: int, max_line_bytes: int, head_bytes: int) -> Iterator[Line]:
    """Yields the lines read from the file descriptor ``fd`` until end of file.

    A line longer than ``max_line_bytes`` is yielded as soon as it passes that length, as its first
    ``head_bytes`` with ``cut`` set, and the rest of it up to its newline is read and dropped. So
    at most ``max_line_bytes`` plus one read are ever held, however much the child writes without
    a newline. A last line without a newline is yielded at end of file.
    """
    parts: list[bytes] = []
    held = 0
    skipping = False
    while chunk := os.read(fd, READ_BYTES):
        *ended, rest = chunk.split(b"\n")
        for piece in ended:
            if not skipping:
                if held + len(piece) > max_line_bytes:
                    yield Line(_head([*parts, piece], head_bytes), cut=True)
                else:
                    yield Line(b"".join([*parts, piece]))
            parts, held, skipping = [], 0, False
        if skipping or not rest:
            continue
        parts.append(rest)
        held += len(rest)
        if held > max_line_bytes:
            yield Line(_head(parts, head_bytes), cut=True)
            parts, held, skipping = [], 0, True
    if parts:
        yield Line(b"".join(parts))


def _head(parts: list[bytes], size: int) -> bytes:
    head = bytearray()
    for part in parts:
        head += part[: size - len(head)]
        if len(head) >= size:
            break
    return bytes(head)
