"""A whole ``compress()`` through ``vcc serve``: against the installed Hermes Agent when there is
one (with its LLM client replaced by one that fails the test), else against the stand-in."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any, NoReturn

import pytest
from conftest import HERMES_INSTALLED, REPO

from plugin.engine import VccEngine


def realistic_transcript(rounds: int = 30) -> list[dict[str, Any]]:
    """A session as Hermes stores it: rows with ids, tool calls, large JSON tool results."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "The build in ~/proj is red; fix src/app/main.py."},
    ]
    for i in range(rounds):
        call = f"call_{i:012x}"
        arguments = json.dumps({"command": f"pytest -q -k case{i}"})
        messages.append(
            {
                "role": "assistant",
                "content": f"Checking case {i}.",
                "tool_calls": [
                    {
                        "id": call,
                        "type": "function",
                        "function": {"name": "terminal", "arguments": arguments},
                    }
                ],
            }
        )
        output = f"case{i} output line\n" * 400
        messages.append(
            {
                "role": "tool",
                "tool_call_id": call,
                "tool_name": "terminal",
                "content": json.dumps({"output": output, "exit_code": i % 2}),
            }
        )
        messages.append({"role": "user", "content": f"Keep going with case {i + 1}."})
    messages.append({"role": "assistant", "content": "All cases pass now."})
    for row_id, message in enumerate(messages, start=1000):
        message["_row_id"] = row_id
    return messages


def test_compress_replaces_the_middle_with_a_projection(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("VCC_BIN", str(REPO / "main.ts"))
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    import agent.context_compressor as hermes_compressor

    if HERMES_INSTALLED:

        def no_llm(*_args: Any, **_kwargs: Any) -> NoReturn:
            raise AssertionError("the summary model was called")

        monkeypatch.setattr(hermes_compressor, "call_llm", no_llm)

    engine = VccEngine(config={"model": {"context_length": 200_000}})
    engine.update_model("test-model", 200_000)
    engine.on_session_start("s1")
    messages = realistic_transcript()
    with caplog.at_level(logging.INFO):
        compressed = engine.compress(messages, force=True, focus_topic="the failing case")

    summaries = [m for m in compressed if m.get("_compressed_summary")]
    assert len(summaries) == 1
    content = summaries[0]["content"]
    assert content.startswith(hermes_compressor.SUMMARY_PREFIX)
    assert "## Historical Task Snapshot" in content
    assert len(compressed) < len(messages)
    assert re.search(r"\[#1\d{3}\]", content), "projection lines cite the stored rows"
    assert "vcc: projected" in caplog.text and "(no LLM call)" in caplog.text
    assert "vcc: projection of" not in caplog.text
