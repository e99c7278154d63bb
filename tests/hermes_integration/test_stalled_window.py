"""A transcript whose compactable window holds nothing but an earlier summary, as a resumed
session's does on 0.22 when large outputs fill its tail: Hermes's stock compressor skips such a
window as no progress and backs off for 300 s while the prompt keeps growing. With the vcc engine
the compaction summarises the oldest rows after that summary instead, so it makes progress."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from agent.context_compressor import SUMMARY_PREFIX, ContextCompressor
from hermes_sandbox import Sandbox, compact, load_history, store_rows

SESSION_ID = "20261201_120000_5e5e5e"
END_MARKER = "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---"
STEPS = 6
OUTPUT_CHARS = 30_000


def stalled_rows() -> list[dict[str, Any]]:
    """A summary row, the user's next request, then steps each printing ~30 KB."""
    body = "## Goal\n[#1] Fix the failing test.\n" + "- [#5] `make x` — succeeded (exit 0)\n" * 40
    rows: list[dict[str, Any]] = [
        {"role": "user", "content": f"{SUMMARY_PREFIX}\n{body}\n\n{END_MARKER}"},
        {"role": "user", "content": "Now go through the ledgers in data/ and report their totals."},
    ]
    for step in range(STEPS):
        call_id = f"call_{step:03d}"
        command = f"cat data/ledger_{step}.txt"
        arguments = json.dumps({"command": command})
        rows.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": "terminal", "arguments": arguments},
                    }
                ],
            }
        )
        output = f"ledger {step} entry\n" * (OUTPUT_CHARS // 16)
        rows.append(
            {
                "role": "tool",
                "tool_call_id": call_id,
                "tool_name": "terminal",
                "content": json.dumps({"output": output, "exit_code": 0, "error": None}),
            }
        )
    return rows


@pytest.fixture
def stalled(sandbox: Sandbox) -> Callable[[str], tuple[list[dict[str, Any]], Any]]:
    """Stores the transcript and loads an agent with ``engine`` on it: (history, agent)."""

    def load(engine: str) -> tuple[list[dict[str, Any]], Any]:
        if not callable(getattr(ContextCompressor, "_compress_window", None)):
            pytest.skip("this release does not choose its window with _compress_window")
        sandbox.copy_plugin()
        sandbox.write_config(engine=engine)
        store = sandbox.open_store()
        store.create_session(SESSION_ID, source="cli")
        store_rows(store, SESSION_ID, stalled_rows())
        agent = sandbox.load_agent(SESSION_ID, store)
        agent.context_compressor.update_model(model="m", context_length=64_000)
        return load_history(store, SESSION_ID), agent

    return load


def test_hermes_alone_makes_no_progress_on_a_window_of_only_a_summary(stalled: Any) -> None:
    history, agent = stalled("compressor")
    done = compact(agent, history, force=False)
    assert len(done.compressed) == len(history), "stock Hermes skipped the window"


def test_the_vcc_engine_summarises_the_rows_after_the_summary_instead(stalled: Any) -> None:
    history, agent = stalled("vcc")
    done = compact(agent, history, force=False)
    assert done.llm.calls == [], "no model was asked"
    assert len(done.compressed) < len(history), "the compaction made progress"
    assert "`cat data/ledger_0.txt`" in done.summary, "the oldest step after the summary is in it"
