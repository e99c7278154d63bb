"""``VccEngine`` against the stand-in ``ContextCompressor``: routes, budget, post-processing and
passthrough. The projection itself comes from the real ``vcc serve`` run from source."""

from __future__ import annotations

import copy
import json
import logging
import os
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import REPO, make_engine

from plugin import engine as engine_module
from plugin import register
from plugin.engine import VccEngine

pytestmark = pytest.mark.stand_in

WINDOW: list[dict[str, Any]] = [
    {"role": "user", "content": "Fix the build in ~/proj", "_row_id": 10},
    {
        "role": "assistant",
        "content": "Running the tests.",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "terminal", "arguments": '{"command": "pytest -q"}'},
            }
        ],
        "_row_id": 11,
    },
    {
        "role": "tool",
        "tool_call_id": "call_1",
        "tool_name": "terminal",
        "content": '{"output": "1 failed", "exit_code": 1}',
        "_row_id": 12,
    },
]


@pytest.fixture
def vcc_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's bridge starts ``vcc serve`` from this checkout."""
    monkeypatch.setenv("VCC_BIN", str(REPO / "main.ts"))


@pytest.fixture
def broken_vcc(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The engine's bridge cannot start: ``VCC_BIN`` names a file that does not exist."""
    monkeypatch.setenv("VCC_BIN", str(tmp_path / "missing-vcc"))


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Warnings logged once per process are logged again in each test."""
    monkeypatch.setattr(engine_module, "_logged", set())


def projection_failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "vcc: projection of" in r.getMessage()]


@pytest.mark.usefixtures("vcc_serve")
def test_summary_is_the_projection_and_no_llm_is_called(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from agent.context_compressor import SUMMARY_PREFIX

    engine = make_engine()
    engine.on_session_start("s1")
    with caplog.at_level(logging.INFO):
        summary = engine._generate_summary(WINDOW, focus_topic="the build")
    assert summary is not None
    assert summary.startswith(f"{SUMMARY_PREFIX}\n(vcc projection of session ")
    assert engine.llm_calls == 0
    assert engine._previous_summary == summary.removeprefix(f"{SUMMARY_PREFIX}\n")
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert any(
        re.fullmatch(r"vcc: projected 3 turns into \d+ chars in \d+ ms \(no LLM call\)", line)
        for line in lines
    ), lines


@pytest.mark.usefixtures("vcc_serve")
def test_a_projection_clears_hermess_failure_cooldown_and_terminal_flags() -> None:
    engine = make_engine()
    engine._summary_failure_cooldown_until = 10**9
    engine._last_summary_auth_failure = True
    engine._last_summary_network_failure = True
    engine._last_summary_error = "summary model timed out"
    assert engine._generate_summary(WINDOW) is not None
    assert engine._summary_failure_cooldown_until == 0.0
    assert not engine._last_summary_auth_failure
    assert not engine._last_summary_network_failure
    assert engine._last_summary_error is None


def test_post_processing_redacts_grounds_the_task_and_records_the_previous_summary() -> None:
    engine = make_engine()
    body = "## Historical Task Snapshot\nprojected\n\n## Goal\nkey sk-abcdefghijkl leaked"
    summary = engine.finish_summary(body, WINDOW)
    assert "sk-abcdefghijkl" not in summary and "sk-***" in summary
    assert "User asked (deterministic, from compacted turns): 'Fix the build in ~/proj'" in summary
    assert engine._previous_summary is not None and summary.endswith(engine._previous_summary)


def test_the_request_carries_session_previous_summary_focus_and_budget() -> None:
    engine = make_engine()
    engine.on_session_start("s1")
    engine._previous_summary = "## Goal\nearlier"
    request = engine.build_projection_request(WINDOW, "the build")
    assert request == {
        "messages": WINDOW,
        "session_id": "s1",
        "previous": "## Goal\nearlier",
        "focus": "the build",
        "budget_tokens": 2000,
        # This stand-in has no session database, home, profiles or tool search.
        "recall": None,
        "store": None,
    }
    fresh = make_engine().build_projection_request(WINDOW, None)
    assert (fresh["session_id"], fresh["previous"], fresh["focus"]) == (None, None, None)


def test_the_request_names_the_session_store_unless_read_store_is_off() -> None:
    engine = make_engine()
    engine.on_session_start("s1")
    engine._session_db = SimpleNamespace(db_path="/home/u/.hermes/state.db")
    request = engine.build_projection_request(WINDOW, None)
    assert request["store"] == {"path": "/home/u/.hermes/state.db", "session_id": "s1"}
    quiet = make_engine(read_store=False)
    quiet.on_session_start("s1")
    quiet._session_db = engine._session_db
    assert quiet.build_projection_request(WINDOW, None)["store"] is None


def test_hermes_derived_focus_hint_is_not_a_topic() -> None:
    derived = "Recent user focus:\n- Fix the build in ~/proj\n- and the docs"
    assert make_engine().build_projection_request(WINDOW, derived)["focus"] is None


BUDGET_CASES = json.loads((REPO / "tests" / "shared" / "projection_budget.json").read_text())
"""The budget cases vcc's own tests read too (``tests/compaction/projection_budget_test.ts``)."""


@pytest.mark.parametrize("case", BUDGET_CASES["cases"], ids=lambda case: case["what"])
def test_budget_follows_the_shared_cases(case: dict[str, Any]) -> None:
    engine = make_engine(**case["settings"])
    engine.update_model("model", case["context_tokens"])
    turns = [{"role": "user", "content": "x" * case["content_chars"]}]
    assert engine.projection_budget_tokens(turns) == case["budget_tokens"]


@pytest.mark.usefixtures("broken_vcc")
def test_a_failed_projection_uses_the_llm_summary_when_fallback_to_llm_is_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from agent.context_compressor import LLM_SUMMARY

    engine = make_engine(fallback_to_llm=True)
    summary = engine._generate_summary(WINDOW)
    assert summary is not None and summary.endswith(LLM_SUMMARY)
    assert engine.llm_calls == 1
    assert projection_failures(caplog) == [
        "vcc: projection of 3 turns failed (BridgeUnavailable: VCC_BIN names "
        f"'{os.environ['VCC_BIN']}', which is not a file); "
        "using Hermes's LLM summary for this compaction"
    ]


@pytest.mark.usefixtures("broken_vcc")
def test_a_failed_projection_uses_hermess_static_fallback_when_fallback_to_llm_is_off(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from agent.context_compressor import STATIC_FALLBACK

    engine = make_engine(fallback_to_llm=False)
    compressed = engine.compress([{"role": "system", "content": "sys"}, *WINDOW, *WINDOW[:2]])
    summaries = [m["content"] for m in compressed if m.get("_compressed_summary")]
    assert len(summaries) == 1 and summaries[0].endswith(STATIC_FALLBACK)
    assert engine.llm_calls == 0
    assert len(projection_failures(caplog)) == 1, "the static fallback must not retry vcc"


@pytest.mark.usefixtures("broken_vcc")
def test_when_the_llm_fallback_also_fails_hermes_falls_back_without_retrying_vcc(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from agent.context_compressor import STATIC_FALLBACK

    engine = make_engine(fallback_to_llm=True)
    engine.llm_reply = None
    compressed = engine.compress([{"role": "system", "content": "sys"}, *WINDOW, *WINDOW[:2]])
    summaries = [m["content"] for m in compressed if m.get("_compressed_summary")]
    assert summaries[0].endswith(STATIC_FALLBACK)
    assert engine.llm_calls == 1
    assert len(projection_failures(caplog)) == 1


@pytest.mark.usefixtures("vcc_serve")
def test_a_missing_hermes_internal_makes_the_engine_the_stock_compressor(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from agent.context_compressor import LLM_SUMMARY, STATIC_FALLBACK, ContextCompressor

    monkeypatch.delattr(ContextCompressor, "_ground_historical_task_snapshot")
    engines = [make_engine(), make_engine()]
    assert all(engine.passthrough for engine in engines)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "vcc: this Hermes release lacks _ground_historical_task_snapshot; "
        "running as the stock compressor"
    ]
    engine = engines[0]
    summary = engine._generate_summary(WINDOW)
    assert summary is not None and summary.endswith(LLM_SUMMARY)
    assert engine._build_static_fallback_summary(WINDOW).endswith(STATIC_FALLBACK)


def test_constructed_without_arguments_and_without_hermess_config_reader_it_passes_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    engine = VccEngine()
    assert engine.name == "vcc"
    assert engine.passthrough
    assert "lacks hermes_cli.config.load_config" in caplog.text


def test_compression_settings_reach_the_base_compressor() -> None:
    engine = VccEngine(
        config={
            "model": {"context_length": 98_000},
            "compression": {"threshold": 0.75, "protect_last_n": 6, "tail_mode": "lean"},
        }
    )
    assert engine.init_arguments["threshold_percent"] == 0.75
    assert engine.init_arguments["protect_last_n"] == 6
    assert engine.init_arguments["config_context_length"] == 98_000
    assert engine.context_length == 98_000


def test_settings_problems_are_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    make_engine(budget_ratio=7)
    make_engine(budget_ratio=7)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == ["vcc: context.vcc.budget_ratio=7 is outside 0.01-0.3; using 0.3"]


@pytest.mark.usefixtures("vcc_serve")
def test_copies_of_the_engine_share_one_server() -> None:
    from plugin import bridge

    engine = make_engine()
    clone = copy.deepcopy(engine)
    assert engine._generate_summary(WINDOW) is not None
    assert bridge._shared is not None
    pid = bridge._shared[1].server_pid
    assert clone._generate_summary(WINDOW) is not None
    assert bridge._shared[1].server_pid == pid is not None


def test_register_hands_hermes_one_vcc_engine() -> None:
    registered: list[object] = []

    class Context:
        def register_context_engine(self, engine: object) -> None:
            registered.append(engine)

    register(Context())
    assert len(registered) == 1
    assert isinstance(registered[0], VccEngine) and registered[0].name == "vcc"
