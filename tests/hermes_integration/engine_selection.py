"""An agent started on a stored session, as resuming that session does, and the check that Hermes
selected and bound the vcc engine of a sandbox."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from hermes_sandbox import CONTEXT_LENGTH, LogRecorder, Sandbox, is_vcc_record, store_rows
from hermes_state import SessionDB

SESSION_ID = "20261130_101500_0c0ffe"


def start_agent(
    sandbox: Sandbox, store: SessionDB, rows: list[dict[str, Any]]
) -> tuple[Any, list[logging.LogRecord]]:
    """Writes ``rows`` as a session and starts an agent on it, as resuming that session does;
    returns the agent and what was logged meanwhile."""
    store.create_session(SESSION_ID, source="cli")
    store_rows(store, SESSION_ID, rows)
    with LogRecorder().installed() as logs:
        agent = sandbox.load_agent(SESSION_ID, store)
    return agent, logs.records


def assert_hermes_runs_the_sandboxed_vcc(
    sandbox: Sandbox, agent: Any, logs: list[logging.LogRecord]
) -> None:
    """The agent's context engine is the ``VccEngine`` of ``sandbox.plugin_dir``, fully bound to
    the session, and neither Hermes nor the plugin warned while it was loaded."""
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
