"""Reads config.yaml files the way the Hermes release whose Python runs this script does.

Hermes's ``_load_config_impl`` opens ``config.yaml`` in text mode with the encoding its source
names and parses it with ``utils.fast_safe_load`` (PyYAML's C loader in 0.19, ruamel.yaml in
later releases), taking an empty document as ``{}``. Any exception, and a top level that is not
a mapping, leaves Hermes on its defaults. This script reads each path in the JSON list on standard
input the same way and prints a JSON list with, per path, ``{"value": ...}`` or ``{"error": ...}``.
"""

from __future__ import annotations

import base64
import datetime
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any


def config_encoding() -> str:
    """The encoding ``hermes_cli.config._load_config_impl`` opens ``config.yaml`` with."""
    spec = importlib.util.find_spec("hermes_cli")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("this Python has no hermes_cli package")
    source = Path(spec.submodule_search_locations[0], "config.py").read_text(encoding="utf-8")
    loader = source.partition("def _load_config_impl")[2]
    found = re.search(r'open\(config_path, encoding="([\w-]+)"\)', loader)
    if found is None:
        raise SystemExit("cannot tell how this Hermes opens config.yaml")
    return found.group(1)


def plain(value: Any) -> Any:
    """``value`` as JSON data: keys as strings, dates as ISO text, bytes as base64."""
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [plain(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return {"date": value.isoformat()}
    if isinstance(value, bytes):
        return {"bytes": base64.b64encode(value).decode("ascii")}
    return value


def main() -> None:
    from utils import fast_safe_load

    encoding = config_encoding()
    results: list[dict[str, Any]] = []
    for path in json.load(sys.stdin):
        try:
            with open(path, encoding=encoding) as handle:
                value = fast_safe_load(handle) or {}
            if not isinstance(value, dict):
                raise TypeError(f"the top level is a {type(value).__name__}, not a mapping")
            results.append({"value": plain(value)})
        except Exception as error:  # Hermes falls back to its defaults on any of them
            first_line = (str(error).strip().splitlines() or [""])[0]
            results.append({"error": f"{type(error).__name__}: {first_line}"})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
