"""Prints, for each of Hermes's strings vcc relies on, what this Hermes release holds there.

Reads a JSON list of ``{"at": "module:name", "kind": "constant" | "source"}`` on standard input
(``module:Class.method`` for a method's source, a bare ``module`` for a module's) and writes a
JSON list of the same length: for a constant, its value (a string, or a list for a tuple of
strings), for a source, its source text; ``null`` where the release has no such name. Run with a
Hermes release's Python.
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from typing import Any


def _resolve(at: str) -> Any:
    module_name, _, path = at.partition(":")
    try:
        value: Any = importlib.import_module(module_name)
    except ImportError:
        return None
    for part in path.split(".") if path else []:
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def _read(entry: dict[str, str]) -> Any:
    value = _resolve(entry["at"])
    if value is None:
        return None
    if entry["kind"] == "source":
        return inspect.getsource(value)
    if isinstance(value, tuple):
        return [str(item) for item in value]
    return value if isinstance(value, str) else None


def main() -> None:
    entries = json.load(sys.stdin)
    json.dump([_read(entry) for entry in entries], sys.stdout)


if __name__ == "__main__":
    main()
