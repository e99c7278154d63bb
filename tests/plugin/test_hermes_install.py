"""``vcc hermes install|uninstall|doctor`` (run from source) on a temporary Hermes home."""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import DENO, REPO, SERVE_FROM_SOURCE

from plugin.binary import locate_server

CONFIG = """\
# Hermes Agent configuration (edited by hand)
model:
  default: qwen3-27b   # local llama.cpp
  context_length: 98000

context:
  engine: compressor  # built-in summary

compression:
  threshold: 0.75
  protect_last_n: 20

plugins:
  enabled:
  - weather
  disabled: []

# end of file
"""

ACTIVATED = CONFIG.replace(
    "  engine: compressor  # built-in summary", "  engine: vcc  # built-in summary"
).replace("  - weather\n", "  - weather\n  - vcc\n")


def vcc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Runs the vcc CLI from this checkout."""
    return subprocess.run(
        [DENO, "run", "--quiet", "-A", str(REPO / "main.ts"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1", **(env or {})},
        check=False,
    )


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "hermes-home"
    home.mkdir()
    (home / "config.yaml").write_text(CONFIG)
    return home


def backups(home: Path) -> list[Path]:
    return sorted(home.glob("config.yaml.vcc-backup-*"))


def test_install_writes_the_plugin_and_records_this_vcc(home: Path) -> None:
    result = vcc("hermes", "install", "--hermes-home", str(home))
    assert result.returncode == 0, result.stderr
    plugin = home / "plugins" / "vcc"
    shipped = sorted(p.name for p in (REPO / "plugin").iterdir() if p.is_file())
    assert sorted(p.name for p in plugin.iterdir()) == sorted([*shipped, "vcc.json"])
    for name in shipped:
        assert (plugin / name).read_text() == (REPO / "plugin" / name).read_text()
    record = json.loads((plugin / "vcc.json").read_text())
    assert record["command"][-1] == str(REPO / "main.ts")
    assert (home / "config.yaml").read_text() == CONFIG, "without --activate config is untouched"
    assert backups(home) == []


def test_activate_selects_vcc_and_keeps_every_other_line(home: Path) -> None:
    result = vcc("hermes", "install", "--hermes-home", str(home), "--activate")
    assert result.returncode == 0, result.stderr
    assert (home / "config.yaml").read_text() == ACTIVATED
    assert [b.read_text() for b in backups(home)] == [CONFIG]
    again = vcc("hermes", "install", "--hermes-home", str(home), "--activate")
    assert "already selects vcc" in again.stdout
    assert len(backups(home)) == 1, "an unchanged config is not backed up again"


def test_activate_adds_missing_keys(home: Path) -> None:
    (home / "config.yaml").write_text("model:\n  default: qwen\n")
    assert vcc("hermes", "install", "--hermes-home", str(home), "--activate").returncode == 0
    assert (home / "config.yaml").read_text() == (
        "model:\n  default: qwen\ncontext:\n  engine: vcc\nplugins:\n  enabled: [vcc]\n"
    )


def test_uninstall_restores_the_stock_compressor_and_removes_the_plugin(home: Path) -> None:
    assert vcc("hermes", "install", "--hermes-home", str(home), "--activate").returncode == 0
    result = vcc("hermes", "uninstall", "--hermes-home", str(home))
    assert result.returncode == 0, result.stderr
    assert not (home / "plugins" / "vcc").exists()
    assert (home / "config.yaml").read_text() == CONFIG
    assert [b.read_text() for b in backups(home)] == [CONFIG, ACTIVATED]


def test_install_into_a_missing_home_is_a_usage_error(tmp_path: Path) -> None:
    result = vcc("hermes", "install", "--hermes-home", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert "does not exist" in result.stderr


def test_hermes_home_comes_from_the_environment(home: Path) -> None:
    result = vcc("hermes", "install", env={"HERMES_HOME": str(home)})
    assert result.returncode == 0, result.stderr
    assert (home / "plugins" / "vcc" / "engine.py").is_file()


def test_doctor_passes_after_an_activated_install(home: Path) -> None:
    assert vcc("hermes", "install", "--hermes-home", str(home), "--activate").returncode == 0
    result = vcc("hermes", "doctor", "--hermes-home", str(home), env={"VCC_BIN": ""})
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    names = [line.split()[1] for line in lines]
    assert names == [
        "Hermes",
        "plugin",
        "config.yaml",
        "context.engine",
        "plugins.enabled",
        "executable",
        "bridge",
    ]
    assert all(line.startswith("ok ") for line in lines), result.stdout
    assert "projected a sample window" in lines[-1]


def test_doctor_names_each_problem_and_its_fix(home: Path) -> None:
    result = vcc("hermes", "doctor", "--hermes-home", str(home), env={"VCC_BIN": ""})
    assert result.returncode == 1
    out = result.stdout
    assert "problem  plugin" in out and "not installed" in out
    assert "problem  context.engine" in out and '"compressor"' in out
    assert "fix: vcc hermes install --activate" in out
    assert "problem  executable" in out


def plugins_enabled_line(doctor: subprocess.CompletedProcess[str]) -> str:
    return next(line for line in doctor.stdout.splitlines() if " plugins.enabled " in line)


@pytest.mark.parametrize(
    ("hermes_script", "reason"),
    [
        (None, "no hermes command on PATH"),
        (f"#!{sys.executable} -S\n", "No module named 'hermes_cli'"),
        ("echo hermes\n", "is not a script that names its Python interpreter"),
    ],
    ids=["no hermes", "a Python without Hermes", "no interpreter line"],
)
def test_doctor_reports_a_missing_plugins_enabled_entry_when_it_cannot_ask_hermes(
    home: Path, tmp_path: Path, hermes_script: str | None, reason: str
) -> None:
    (home / "config.yaml").write_text("context:\n  engine: vcc\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    if hermes_script is not None:
        (bin_dir / "hermes").write_text(hermes_script)
        (bin_dir / "hermes").chmod(0o755)
    result = vcc("hermes", "doctor", "--hermes-home", str(home), env={"PATH": str(bin_dir)})
    assert result.returncode == 1
    line = plugins_enabled_line(result)
    assert line.startswith("problem  plugins.enabled  does not include vcc"), line
    assert "could not ask the installed Hermes: " in line and reason in line, line


def test_doctor_and_the_plugin_agree_on_a_binary_under_home(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert vcc("hermes", "install", "--hermes-home", str(home), "--activate").returncode == 0
    config = (home / "config.yaml").read_text()
    (home / "config.yaml").write_text(
        config.replace("context:\n", "context:\n  vcc:\n    binary: ~/bin/vcc\n", 1)
    )
    user = tmp_path / "user"
    script = user / "bin" / "vcc"
    script.parent.mkdir(parents=True)
    script.write_text(f'#!/bin/sh\nexec {shlex.join(SERVE_FROM_SOURCE[:-1])} "$@"\n')
    script.chmod(0o755)
    deno_dir = os.environ.get("DENO_DIR") or str(Path.home() / ".cache" / "deno")
    result = vcc(
        "hermes",
        "doctor",
        "--hermes-home",
        str(home),
        env={"HOME": str(user), "VCC_BIN": "", "DENO_DIR": deno_dir},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    monkeypatch.setenv("HOME", str(user))
    found = locate_server("~/bin/vcc", environ={"PATH": os.defpath})
    assert found.argv == (str(script), "serve")
    executable = next(line for line in result.stdout.splitlines() if " executable " in line)
    assert executable.endswith(f"{' '.join(found.argv)} (from context.vcc.binary)")


def test_doctor_says_when_hermes_cannot_read_config_yaml(home: Path) -> None:
    # What an earlier vcc made of a file with a byte order mark: blocks indented by one space.
    (home / "config.yaml").write_bytes(b"\xef\xbb\xbfmodel: x\n context:\n   engine: vcc\n")
    result = vcc("hermes", "doctor", "--hermes-home", str(home), env={"VCC_BIN": ""})
    assert result.returncode == 1
    line = next(line for line in result.stdout.splitlines() if "config.yaml" in line)
    assert line.startswith("problem  config.yaml") and "(line " in line, line
    assert "Hermes may ignore the whole file" in line, line
    assert "context.engine" not in result.stdout, "no verdict on keys of a file that does not read"


def test_doctor_and_install_say_how_to_fix_a_tab_hermes_cannot_read(home: Path) -> None:
    # Hermes on Python 3.14 reads config.yaml with ruamel.yaml's pure-Python parser, which stops
    # at a tab before a comment.
    tabbed = CONFIG.replace("qwen3-27b   # local", "qwen3-27b\t# local")
    (home / "config.yaml").write_text(tabbed)
    result = vcc("hermes", "doctor", "--hermes-home", str(home), env={"VCC_BIN": ""})
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("problem  config.yaml"))
    assert "a tab on line 3 outside a comment or quoted text" in lines[at], lines[at]
    assert "Python 3.14" in lines[at] and "Hermes may ignore the whole file" in lines[at]
    assert lines[at + 1].strip() == "fix: replace the tab on line 3 with spaces"
    result = vcc("hermes", "install", "--hermes-home", str(home), "--activate")
    assert result.returncode == 1
    assert "Nothing was changed; replace the tab on line 3 with spaces" in result.stderr
    assert (home / "config.yaml").read_text() == tabbed


def test_activate_refuses_a_read_only_config_and_changes_nothing(home: Path) -> None:
    (home / "config.yaml").chmod(0o444)
    result = vcc("hermes", "install", "--hermes-home", str(home), "--activate")
    assert result.returncode == 1
    assert "is read-only (mode 0444)" in result.stderr and "Nothing was changed" in result.stderr
    assert sorted(p.name for p in home.iterdir()) == ["config.yaml"]
    assert (home / "config.yaml").read_text() == CONFIG


def test_uninstall_keeps_edits_made_since_the_install(home: Path) -> None:
    (home / "config.yaml").write_text("model:\n  default: qwen\n")
    assert vcc("hermes", "install", "--hermes-home", str(home), "--activate").returncode == 0
    activated = (home / "config.yaml").read_text()
    (home / "config.yaml").write_text(activated.replace("qwen", "llama"))
    assert vcc("hermes", "uninstall", "--hermes-home", str(home)).returncode == 0
    assert (home / "config.yaml").read_text() == "model:\n  default: llama\n"


def load_as_hermes_does(plugin_dir: Path) -> ModuleType:
    """Imports a plugin directory the way Hermes's plugin manager does: as a package under a
    synthetic namespace, so its relative imports resolve inside the directory."""
    namespace = ModuleType("hermes_plugins_test")
    namespace.__path__ = []
    sys.modules["hermes_plugins_test"] = namespace
    name = "hermes_plugins_test.vcc"
    spec = importlib.util.spec_from_file_location(
        name, plugin_dir / "__init__.py", submodule_search_locations=[str(plugin_dir)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_installed_plugin_loads_and_projects_through_the_recorded_vcc(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert vcc("hermes", "install", "--hermes-home", str(home)).returncode == 0
    monkeypatch.delenv("VCC_BIN", raising=False)
    monkeypatch.setenv("PATH", os.defpath)
    package = load_as_hermes_does(home / "plugins" / "vcc")
    try:
        engines: list[Any] = []

        class Context:
            def register_context_engine(self, engine: object) -> None:
                engines.append(engine)

        package.register(Context())
        engine = package.engine.VccEngine(config={})
        assert [e.name for e in engines] == ["vcc"]
        located = package.binary.locate_server()
        assert located.origin == "vcc.json in the plugin directory"
        turns = [{"role": "user", "content": "hello"}]
        summary = engine._generate_summary(turns)
        assert summary is not None and "## " in summary
    finally:
        shared = package.bridge._shared
        if shared is not None:
            shared[1].close()
        for name in [n for n in sys.modules if n.startswith("hermes_plugins_test")]:
            del sys.modules[name]
