"""Hermes loads the plugin itself, through the context-engine selection an ``AIAgent`` makes at
start-up: from a sandboxed home where the plugin was copied and ``context.engine: vcc`` set (with
``plugins.enabled: [vcc]`` on releases whose engine loader does not look in the home), and after
``vcc hermes install --activate`` wrote both itself."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from hermes_release import RELEASE
from hermes_sandbox import (
    CONTEXT_LENGTH,
    LogRecorder,
    Sandbox,
    compact,
    is_vcc_record,
    load_history,
    store_rows,
)
from hermes_state import SessionDB
from sample_windows import generated_window
from summary_checks import section_problems

SESSION_ID = "20261130_101500_0c0ffe"


def start_agent(
    sandbox: Sandbox, store: SessionDB, rows: list[dict[str, Any]]
) -> tuple[Any, list[logging.LogRecord]]:
    """Writes ``rows`` as a session and starts an agent on it, as resuming that session does."""
    store.create_session(SESSION_ID, source="cli")
    store_rows(store, SESSION_ID, rows)
    with LogRecorder().installed() as logs:
        agent = sandbox.load_agent(SESSION_ID, store)
    return agent, logs.records


def assert_hermes_runs_the_sandboxed_vcc(
    sandbox: Sandbox, agent: Any, logs: list[logging.LogRecord]
) -> None:
    engine = agent.context_compressor
    assert (type(engine).__name__, engine.name) == ("VccEngine", "vcc")
    source = Path(sys.modules[type(engine).__module__].__file__ or "")
    assert source.resolve().parent == sandbox.plugin_dir.resolve()
    assert not engine.passthrough, "every Hermes internal the engine needs is there"
    assert engine.context_length == CONTEXT_LENGTH, "Hermes passed the model's context length"
    assert engine._session_id == SESSION_ID, "Hermes bound the engine to the session"
    hermes_warnings = [r.getMessage() for r in logs if r.levelno >= logging.WARNING]
    assert not [m for m in hermes_warnings if "context engine" in m.lower()]
    assert [r.getMessage() for r in logs if is_vcc_record(r) and r.levelno >= logging.WARNING] == []


def test_hermes_loads_the_plugin_copied_into_its_home(sandbox: Sandbox) -> None:
    sandbox.copy_plugin()
    sandbox.write_config()
    config = (sandbox.home / "config.yaml").read_text()
    assert ("plugins:" in config) != RELEASE.user_engine_loader, "only what the release needs"
    agent, logs = start_agent(sandbox, sandbox.open_store(), [])
    assert_hermes_runs_the_sandboxed_vcc(sandbox, agent, logs)


def test_hermes_loads_the_plugin_after_vcc_hermes_install_activate(sandbox: Sandbox) -> None:
    sandbox.write_config(engine=None, enable_plugin=False)
    installed = sandbox.install_with_cli("--activate")
    assert installed.returncode == 0, installed.stderr
    config = (sandbox.home / "config.yaml").read_text()
    assert "engine: vcc" in config and "vcc" in config.split("plugins:", 1)[-1]
    store = sandbox.open_store()
    agent, logs = start_agent(sandbox, store, generated_window(404, 80_000))
    assert_hermes_runs_the_sandboxed_vcc(sandbox, agent, logs)

    done = compact(agent, load_history(store, SESSION_ID), force=True)
    started = [m for m in done.vcc_logs() if m.startswith("vcc: starting")]
    assert len(started) == 1 and "vcc.json in the plugin directory" in started[0]
    assert done.llm.calls == [] and section_problems(done.summary) == []
