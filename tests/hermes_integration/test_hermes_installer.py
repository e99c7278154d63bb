"""The route through Hermes's own plugin installer, as the README describes it:
``hermes plugins install OWNER/REPO/plugin`` (``--enable`` where the release loads user plugins only
from ``plugins.enabled``), then ``hermes config set context.engine vcc``, with the vcc executable
found through ``VCC_BIN``.

Every release's installer must accept the plugin's manifest. Where the installer runs offline it
installs this checkout's ``plugin/`` from a local git repository holding it as ``plugin/``, as the
GitHub repository does; where it needs Hermes's package manager, whose runtime is downloaded on
first use, the plugin is put where that installer puts it, and the release's engine loader must
find it with ``context.engine`` alone. Either way Hermes must then select the engine from there and
compact with it, without a model call.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import hermes_cli.plugins_cmd as plugins_cmd
import pytest
from engine_selection import SESSION_ID, assert_hermes_runs_the_sandboxed_vcc, start_agent
from hermes_release import RELEASE
from hermes_sandbox import MODEL, PLUGIN_SOURCE, Sandbox, compact, load_history
from sample_windows import generated_window
from summary_checks import section_problems
from utils import fast_safe_load

FUTURE_MANIFEST_VERSION = 999
"""A manifest format no installer supports yet: every installer must refuse it."""


def installer_refusal(manifest: dict[str, Any]) -> str | None:
    """Why the release's ``hermes plugins install`` refuses ``manifest``; ``None`` when it accepts
    it. Releases with a manifest check of their own (``_check_manifest_version``, which also
    weighs ``requires_hermes``) run it; older ones compare ``manifest_version`` inside their
    install function with ``_SUPPORTED_MANIFEST_VERSION``, the constant used here."""
    check = getattr(plugins_cmd, "_check_manifest_version", None)
    if callable(check):
        try:
            check(manifest, str(manifest["name"]))
        except plugins_cmd.PluginOperationError as refusal:
            return str(refusal)
        return None
    supported: int = plugins_cmd._SUPPORTED_MANIFEST_VERSION
    version = int(manifest.get("manifest_version", 1))
    return f"manifest_version {version} > {supported}" if version > supported else None


def read_manifest(plugin_dir: Path) -> dict[str, Any]:
    """``plugin.yaml`` as the release's installer reads it."""
    read = getattr(plugins_cmd, "_read_manifest_for_install", None) or plugins_cmd._read_manifest
    manifest: dict[str, Any] = read(plugin_dir)
    return manifest


def test_the_release_installer_accepts_the_plugin_manifest() -> None:
    manifest = read_manifest(PLUGIN_SOURCE)
    assert manifest["name"] == "vcc"
    assert installer_refusal(manifest) is None
    future = {**manifest, "manifest_version": FUTURE_MANIFEST_VERSION}
    assert installer_refusal(future) is not None, "the check refuses what it does not support"


@pytest.fixture
def isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Git, here and in Hermes's installer, reads no user or system configuration."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


def plugin_repository(root: Path) -> Path:
    """A git repository at ``root`` whose one commit holds this checkout's plugin files in
    ``plugin/``."""
    shutil.copytree(PLUGIN_SOURCE, root / "plugin", ignore=shutil.ignore_patterns("__pycache__"))
    author = ["-c", "user.name=vcc tests", "-c", "user.email=tests@vcc.invalid"]
    for args in (["init", "-q"], ["add", "plugin"], [*author, "commit", "-q", "-m", "plugin"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, timeout=60)
    return root


def read_config(sandbox: Sandbox) -> dict[str, Any]:
    """The sandbox's ``config.yaml``, parsed with the release's own YAML loader."""
    config: dict[str, Any] = fast_safe_load((sandbox.home / "config.yaml").read_text("utf-8"))
    return config


def select_vcc_with_hermes(sandbox: Sandbox) -> dict[str, Any]:
    """Runs ``hermes config set context.engine vcc``; returns the config it wrote."""
    selected = sandbox.hermes("config", "set", "context.engine", "vcc")
    assert selected.returncode == 0, selected.stdout + selected.stderr
    config = read_config(sandbox)
    assert config["context"]["engine"] == "vcc"
    assert config["model"]["default"] == MODEL, "the rest of the configuration is kept"
    return config


def assert_hermes_compacts_with_the_plugin_in_home(sandbox: Sandbox) -> None:
    """An agent started from the sandbox runs its plugin directory's engine, and a forced
    compaction is projected by the checkout's vcc (found via ``VCC_BIN``) with no model call."""
    sandbox.use_checkout_vcc()
    store = sandbox.open_store()
    agent, logs = start_agent(sandbox, store, generated_window(606, 30_000))
    assert_hermes_runs_the_sandboxed_vcc(sandbox, agent, logs)
    done = compact(agent, load_history(store, SESSION_ID), force=True)
    started = [m for m in done.vcc_logs() if m.startswith("vcc: starting")]
    assert len(started) == 1 and started[0].endswith("(found via VCC_BIN)"), started
    assert done.llm.calls == [] and section_problems(done.summary) == []


@pytest.mark.skipif(
    RELEASE.package_manager,
    reason="this release's `hermes plugins install` publishes through Hermes's package manager, "
    "whose runtime (a CPython) is downloaded on first use; these tests run offline",
)
@pytest.mark.usefixtures("isolated_git")
def test_hermes_plugins_install_enable_then_config_set_runs_vcc(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    source = plugin_repository(tmp_path / "repository")
    sandbox.write_config(engine=None, enable_plugin=False)
    installed = sandbox.hermes("plugins", "install", f"{source.as_uri()}#plugin", "--enable")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    for file in (f for f in PLUGIN_SOURCE.iterdir() if f.is_file()):
        installed_file = sandbox.plugin_dir / file.name
        assert installed_file.read_bytes() == file.read_bytes(), file.name
    assert "vcc" in read_config(sandbox)["plugins"]["enabled"]
    select_vcc_with_hermes(sandbox)
    assert_hermes_compacts_with_the_plugin_in_home(sandbox)


@pytest.mark.skipif(
    not RELEASE.user_engine_loader,
    reason="this release's context-engine loader looks only in its own directory; a user engine "
    "loads through plugins.enabled (`hermes plugins install --enable`)",
)
def test_context_engine_alone_selects_the_plugin_where_the_installer_puts_it(
    sandbox: Sandbox,
) -> None:
    sandbox.copy_plugin()
    sandbox.write_config(engine=None, enable_plugin=False)
    config = select_vcc_with_hermes(sandbox)
    assert "vcc" not in ((config.get("plugins") or {}).get("enabled") or [])
    assert_hermes_compacts_with_the_plugin_in_home(sandbox)
