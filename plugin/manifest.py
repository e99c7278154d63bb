"""The plugin's own manifest: where the plugin lives and which vcc version it pairs with."""

from __future__ import annotations

import functools
import re
from pathlib import Path

PLUGIN_DIR = Path(__file__).resolve().parent
"""The directory holding this plugin's files."""

_VERSION_LINE = re.compile(r"""^version:\s*["']?([^"'\s#]+)""", re.MULTILINE)


@functools.cache
def plugin_version() -> str:
    """The ``version`` of ``plugin.yaml``: the only vcc executable version this plugin accepts."""
    text = (PLUGIN_DIR / "plugin.yaml").read_text(encoding="utf-8")
    match = _VERSION_LINE.search(text)
    if match is None:
        raise RuntimeError(f"{PLUGIN_DIR / 'plugin.yaml'} has no version line")
    return match.group(1)
