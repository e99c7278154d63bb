"""Finds the vcc executable to run as ``vcc serve``.

In order: the ``VCC_BIN`` environment variable, ``context.vcc.binary``, what ``vcc hermes install``
left in the plugin directory (a ``vcc`` executable, or the command recorded in ``vcc.json``),
``vcc`` on ``PATH``, and last ``deno run`` of the entry point or bundle of the checkout this plugin
directory belongs to. A path ending in ``.ts`` or ``.js`` is run with ``deno run``.

``launch.json`` holds what vcc's own code must agree on: the ``deno run`` arguments, the script
suffixes and the name of the record ``vcc hermes install`` writes. ``vcc hermes doctor`` asks the
installed plugin's ``describe_server`` rather than locating vcc itself, so the two never disagree.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .manifest import PLUGIN_DIR
from .settings import read_settings

_LAUNCH = json.loads((PLUGIN_DIR / "launch.json").read_text(encoding="utf-8"))

RECORDED_COMMAND_FILE: str = _LAUNCH["recorded_command_file"]
"""File in the plugin directory where ``vcc hermes install`` records how to run itself."""

DENO_RUN: tuple[str, ...] = tuple(_LAUNCH["deno_run"])
"""The ``deno`` arguments before the entry point that runs a ``.ts`` or ``.js`` vcc."""

_SCRIPT_SUFFIXES = tuple(_LAUNCH["script_suffixes"])


class ServerNotFound(Exception):
    """No usable vcc executable; the message says what was tried or what is wrong."""


@dataclass(frozen=True)
class ServerCommand:
    """The argv that starts ``vcc serve``, and where it was found (for the log)."""

    argv: tuple[str, ...]
    origin: str


def locate_server(
    configured: str | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    plugin_dir: Path = PLUGIN_DIR,
) -> ServerCommand:
    """The command that starts ``vcc serve``; raises ``ServerNotFound`` when there is none.

    An explicit choice (``VCC_BIN`` or ``configured``) that does not exist is an error rather than
    a reason to look further, so a typo cannot silently run a different vcc.
    """
    env = os.environ if environ is None else environ
    search_path = env.get("PATH", os.defpath)
    for origin, value in (("VCC_BIN", env.get("VCC_BIN")), ("context.vcc.binary", configured)):
        if value:
            path = Path(value).expanduser()
            if not path.is_file():
                raise ServerNotFound(f"{origin} names {value!r}, which is not a file")
            return _serve_command(path, origin, search_path, plugin_dir)
    bundled = plugin_dir / "vcc"
    if bundled.is_file() and os.access(bundled, os.X_OK):
        return ServerCommand((str(bundled), "serve"), "the plugin directory")
    recorded = _recorded_command(plugin_dir / RECORDED_COMMAND_FILE)
    if recorded is not None:
        return ServerCommand(
            (*recorded, "serve"), f"{RECORDED_COMMAND_FILE} in the plugin directory"
        )
    on_path = shutil.which("vcc", path=search_path)
    if on_path:
        return ServerCommand((on_path, "serve"), "PATH")
    checkout = plugin_dir.parent
    for entry in (checkout / "main.ts", checkout / "dist" / "vcc.js"):
        if entry.is_file():
            return _serve_command(entry, f"the checkout at {checkout}", search_path, plugin_dir)
    raise ServerNotFound(
        "no vcc executable found: set VCC_BIN or context.vcc.binary, put vcc on PATH, "
        "or run `vcc hermes install`"
    )


def describe_server(configured: str | None) -> dict[str, Any]:
    """What ``locate_server`` chooses for the ``context.vcc.binary`` text ``configured``, read as
    the engine reads its settings: ``{"argv": [...], "origin": ...}``, or ``{"problem": ...}``.
    ``vcc hermes doctor`` asks this of the installed plugin rather than locating vcc itself."""
    binary = read_settings({"context": {"vcc": {"binary": configured}}}).settings.binary
    try:
        found = locate_server(binary)
    except ServerNotFound as error:
        return {"problem": str(error)}
    return {"argv": list(found.argv), "origin": found.origin}


def _serve_command(path: Path, origin: str, search_path: str, plugin_dir: Path) -> ServerCommand:
    if path.suffix not in _SCRIPT_SUFFIXES:
        return ServerCommand((str(path), "serve"), origin)
    deno = shutil.which("deno", path=search_path)
    local = plugin_dir.parent / "node_modules" / ".bin" / "deno"
    if deno is None and local.is_file():
        deno = str(local)
    if deno is None:
        raise ServerNotFound(f"{path} needs deno to run, and deno is not on PATH")
    return ServerCommand((deno_binary(deno), *DENO_RUN, str(path), "serve"), origin)


def deno_binary(deno: str) -> str:
    """The Deno executable itself for a ``deno`` found on PATH.

    The npm ``deno`` package installs a Node.js launcher that starts the binary lying beside it
    as a second process. Signals sent to the launcher would not reach the server, and the server
    would outlive it, so the binary is run directly.
    """
    real = Path(os.path.realpath(deno))
    beside = real.with_name("deno")
    if real.suffix in (".cjs", ".js") and beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return deno


def _recorded_command(path: Path) -> Sequence[str] | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    command = record.get("command") if isinstance(record, dict) else None
    if (
        isinstance(command, list)
        and command
        and all(isinstance(part, str) for part in command)
        and Path(command[0]).is_file()
    ):
        return command
    return None
