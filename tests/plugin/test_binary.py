"""Where the plugin finds the vcc executable, in order, and how it runs a script entry point."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from plugin.binary import DENO_RUN, ServerNotFound, deno_binary, locate_server


def executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def layout(tmp_path: Path) -> dict[str, Path]:
    """A checkout with a plugin directory, a deno and a vcc on a PATH of their own."""
    checkout = tmp_path / "checkout"
    plugin = checkout / "plugin"
    plugin.mkdir(parents=True)
    return {
        "checkout": checkout,
        "plugin": plugin,
        "bin": tmp_path / "bin",
        "deno": executable(tmp_path / "bin" / "deno"),
        "vcc_on_path": executable(tmp_path / "bin" / "vcc"),
        "explicit": executable(tmp_path / "opt" / "vcc"),
    }


def test_vcc_bin_comes_first(layout: dict[str, Path]) -> None:
    env = {"VCC_BIN": str(layout["explicit"]), "PATH": str(layout["bin"])}
    found = locate_server("/elsewhere/vcc", environ=env, plugin_dir=layout["plugin"])
    assert found.argv == (str(layout["explicit"]), "serve")
    assert found.origin == "VCC_BIN"


def test_the_configured_binary_comes_next(layout: dict[str, Path]) -> None:
    env = {"PATH": str(layout["bin"])}
    found = locate_server(str(layout["explicit"]), environ=env, plugin_dir=layout["plugin"])
    assert (found.argv, found.origin) == ((str(layout["explicit"]), "serve"), "context.vcc.binary")


def test_an_explicit_choice_that_does_not_exist_is_an_error_not_a_reason_to_look_further(
    layout: dict[str, Path],
) -> None:
    env = {"VCC_BIN": "/no/such/vcc", "PATH": str(layout["bin"])}
    with pytest.raises(ServerNotFound, match="VCC_BIN names '/no/such/vcc', which is not a file"):
        locate_server(None, environ=env, plugin_dir=layout["plugin"])


def test_an_executable_in_the_plugin_directory_beats_path(layout: dict[str, Path]) -> None:
    bundled = executable(layout["plugin"] / "vcc")
    found = locate_server(None, environ={"PATH": str(layout["bin"])}, plugin_dir=layout["plugin"])
    assert found.argv == (str(bundled), "serve")


def test_the_command_recorded_by_install_beats_path(layout: dict[str, Path]) -> None:
    record = {"command": [str(layout["deno"]), "run", "/x/main.ts"], "version": "0.1.0"}
    (layout["plugin"] / "vcc.json").write_text(json.dumps(record))
    found = locate_server(None, environ={"PATH": str(layout["bin"])}, plugin_dir=layout["plugin"])
    assert found.argv == (str(layout["deno"]), "run", "/x/main.ts", "serve")


def test_a_stale_recorded_command_is_skipped(layout: dict[str, Path]) -> None:
    record = {"command": ["/moved/away/vcc"], "version": "0.1.0"}
    (layout["plugin"] / "vcc.json").write_text(json.dumps(record))
    found = locate_server(None, environ={"PATH": str(layout["bin"])}, plugin_dir=layout["plugin"])
    assert found.argv == (str(layout["vcc_on_path"]), "serve")


def test_a_checkout_runs_its_entry_point_with_deno(layout: dict[str, Path]) -> None:
    (layout["checkout"] / "main.ts").write_text("")
    layout["vcc_on_path"].unlink()
    found = locate_server(None, environ={"PATH": str(layout["bin"])}, plugin_dir=layout["plugin"])
    main = str(layout["checkout"] / "main.ts")
    assert found.argv == (str(layout["deno"]), *DENO_RUN, main, "serve")


def test_a_checkout_without_main_runs_its_bundle(layout: dict[str, Path]) -> None:
    bundle = layout["checkout"] / "dist" / "vcc.js"
    bundle.parent.mkdir()
    bundle.write_text("")
    layout["vcc_on_path"].unlink()
    found = locate_server(None, environ={"PATH": str(layout["bin"])}, plugin_dir=layout["plugin"])
    assert found.argv[-2:] == (str(bundle), "serve")


def test_nothing_found_says_what_to_do(layout: dict[str, Path]) -> None:
    layout["vcc_on_path"].unlink()
    with pytest.raises(ServerNotFound, match="vcc hermes install"):
        locate_server(None, environ={"PATH": str(layout["bin"])}, plugin_dir=layout["plugin"])


def test_the_npm_launcher_of_deno_is_replaced_by_the_binary_beside_it(tmp_path: Path) -> None:
    package = tmp_path / "node_modules" / "deno"
    launcher = executable(package / "bin.cjs")
    binary = executable(package / "deno")
    link = tmp_path / "node_modules" / ".bin" / "deno"
    link.parent.mkdir()
    os.symlink(launcher, link)
    assert deno_binary(str(link)) == str(binary)
    assert deno_binary(str(binary)) == str(binary)
