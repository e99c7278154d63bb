"""The ``deno bundle`` output as the plugin uses it: a checkout that ships only ``dist/vcc.js`` is
found and serves projections, and ``vcc hermes install`` run from the bundle records a command the
plugin starts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import DENO, REPO

from plugin.binary import locate_server
from plugin.bridge import BridgeClient
from plugin.manifest import plugin_version

WINDOW = [
    {"role": "user", "content": "Fix the failing build.", "_row_id": 41},
    {
        "role": "assistant",
        "content": "",
        "_row_id": 42,
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "terminal", "arguments": '{"command": "make test"}'},
            }
        ],
    },
    {
        "role": "tool",
        "_row_id": 43,
        "tool_call_id": "c1",
        "tool_name": "terminal",
        "content": '{"output": "2 failed", "exit_code": 2}',
    },
]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkout layout holding the plugin and a fresh bundle, but no ``main.ts``."""
    checkout = tmp_path_factory.mktemp("checkout")
    shutil.copytree(REPO / "plugin", checkout / "plugin")
    target = checkout / "dist" / "vcc.js"
    env = {**os.environ, "DENO_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    env.setdefault("DENO_TLS_CA_STORE", "system")
    subprocess.run(
        [DENO, "bundle", "--quiet", "-o", str(target), "main.ts"],
        cwd=REPO,
        env=env,
        check=True,
        timeout=300,
    )
    return target


def test_the_plugin_finds_and_serves_from_the_bundle(bundle: Path) -> None:
    plugin_dir = bundle.parent.parent / "plugin"
    path = f"{Path(DENO).parent}{os.pathsep}/usr/bin:/bin"
    found = locate_server(None, environ={"PATH": path}, plugin_dir=plugin_dir)
    assert found.argv[-2:] == (str(bundle), "serve")
    client = BridgeClient(lambda: found, expected_version=plugin_version())
    try:
        result = client.project({"messages": WINDOW, "session_id": "s7", "budget_tokens": 800}, 60)
    finally:
        client.close()
    body = result["body"]
    assert "\n## Historical Task Snapshot\n[#41] Fix the failing build.\n" in body
    assert "- [#42] `make test` — failed (exit 2) [#43]" in body


def test_hermes_install_from_the_bundle_records_a_command_the_plugin_starts(
    bundle: Path, tmp_path: Path
) -> None:
    home = tmp_path / "hermes"
    home.mkdir()
    subprocess.run(
        [DENO, "run", "-A", str(bundle), "hermes", "install", "--hermes-home", str(home)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    plugin_dir = home / "plugins" / "vcc"
    recorded = json.loads((plugin_dir / "vcc.json").read_text())["command"]
    assert str(bundle) in recorded
    found = locate_server(None, environ={"PATH": "/usr/bin:/bin"}, plugin_dir=plugin_dir)
    client = BridgeClient(lambda: found, expected_version=plugin_version())
    try:
        result = client.project({"messages": WINDOW}, 60)
    finally:
        client.close()
    assert "[#43]" in result["body"]
