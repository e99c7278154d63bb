"""Runs Hermes's own anchor-index builder on windows, for the fast builder's parity test.

Usage: ``python anchor_parity.py WINDOWS_JSON OUT_JSON`` with a Python that has Hermes installed,
or ``python anchor_parity.py --probe`` to check that it has the builder.
``WINDOWS_JSON`` maps a name to a list of message dicts; ``OUT_JSON`` gets, per name,
``{"index": <what _build_anchor_index returned>}`` or ``{"error": <exception type name>}``.
Exits 3 when the installed Hermes has no ``_build_anchor_index``, 4 when no Hermes is importable.
Imports Hermes; copies nothing.
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    try:
        from agent.context_compressor import _build_anchor_index
    except ModuleNotFoundError as exc:
        print(f"anchor_parity: Hermes is not importable here ({exc})", file=sys.stderr)
        return 4
    except ImportError as exc:
        print(f"anchor_parity: this Hermes has no _build_anchor_index ({exc})", file=sys.stderr)
        return 3
    if argv[1:] == ["--probe"]:
        return 0
    if len(argv) != 3:
        print("usage: anchor_parity.py WINDOWS_JSON OUT_JSON | --probe", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        windows = json.load(f)
    results = {}
    for name, turns in windows.items():
        try:
            results[name] = {"index": _build_anchor_index(turns)}
        except Exception as exc:  # the exception's type is what the test compares
            results[name] = {"error": type(exc).__name__}
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(results, f, ensure_ascii=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
