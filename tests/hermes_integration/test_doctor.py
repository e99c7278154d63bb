"""``vcc hermes doctor`` asks the Hermes on ``PATH`` (here the release under test) whether it needs
``plugins.enabled``: it must report a missing entry exactly when that Hermes, started from the same
home, does not select the engine."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import hermes_cli
from engine_selection import start_agent
from hermes_sandbox import Sandbox


def test_doctor_reports_a_missing_plugins_enabled_entry_exactly_when_hermes_needs_it(
    sandbox: Sandbox,
) -> None:
    sandbox.copy_plugin()
    sandbox.write_config(enable_plugin=False)
    agent, _logs = start_agent(sandbox, sandbox.open_store(), [])
    selected = type(agent.context_compressor).__name__ == "VccEngine"

    release_first = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    doctor = sandbox.vcc_hermes("doctor", env={"PATH": release_first})
    lines = doctor.stdout.splitlines()
    line = next((line for line in lines if line.split()[1:2] == ["plugins.enabled"]), None)
    assert line is not None, doctor.stdout + doctor.stderr
    assert line.startswith("ok ") == selected, line
    assert f"Hermes {hermes_cli.__version__} ({Path(sys.executable).parent / 'hermes'})" in line
    assert (doctor.returncode == 0) == selected, doctor.stdout
