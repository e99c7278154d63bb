"""A Hermes release without an internal the engine relies on: the engine says so once and then
behaves exactly as Hermes's stock compressor, so compaction still completes (with Hermes's own
summary model, patched here to give a canned summary)."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from agent.context_compressor import ContextCompressor
from hermes_sandbox import LogRecorder, Sandbox, compact, is_vcc_record, load_history, store_rows
from sample_windows import generated_window

SESSION_ID = "20261130_111500_5a5a5a"
CANNED = "## Goal\nWritten by the stand-in summary model for this test."
REMOVED = "_build_static_fallback_summary"
"""Removed from Hermes's compressor class: the engine falls back on it when a projection fails,
while Hermes's stock compaction needs it only when its model fails."""


def canned_summary(**_kwargs: Any) -> Any:
    """An OpenAI-style chat completion holding ``CANNED``."""
    message = SimpleNamespace(content=CANNED, reasoning=None, reasoning_content=None)
    choice = SimpleNamespace(message=message, finish_reason="stop", index=0)
    return SimpleNamespace(choices=[choice], usage=None, model="stand-in")


def test_a_missing_hermes_internal_makes_the_engine_the_stock_compressor(
    sandbox: Sandbox,
) -> None:
    sandbox.delete(ContextCompressor, REMOVED)
    sandbox.copy_plugin()
    sandbox.write_config()
    store = sandbox.open_store()
    store.create_session(SESSION_ID, source="cli")
    store_rows(store, SESSION_ID, generated_window(505, 80_000))
    with LogRecorder().installed() as logs:
        agent = sandbox.load_agent(SESSION_ID, store)
    engine = agent.context_compressor
    assert engine.name == "vcc" and engine.passthrough
    warnings = [r.getMessage() for r in logs.records if is_vcc_record(r)]
    assert len(warnings) == 1, warnings
    assert all(r.levelno == logging.WARNING for r in logs.records if is_vcc_record(r))
    assert REMOVED in warnings[0] and "running as the stock compressor" in warnings[0]

    history = load_history(store, SESSION_ID)
    done = compact(agent, history, force=True, llm=canned_summary)
    assert len(done.llm.calls) == 1, "Hermes's own summary model wrote the summary"
    assert CANNED.split("\n", 1)[1] in done.summary
    assert done.requests == [] and done.vcc_logs() == [], "vcc was not started or asked"
    assert len(done.compressed) < len(history)
